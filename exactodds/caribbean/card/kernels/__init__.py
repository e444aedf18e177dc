"""Compiled (numba) kernels of the strategy card search."""
