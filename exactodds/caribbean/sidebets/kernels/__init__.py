"""Compiled (numba) kernels of the side bets."""
