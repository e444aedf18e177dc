"""Compiled (numba) kernels of the whole-game analysis."""
