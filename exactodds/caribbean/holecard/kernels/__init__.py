"""Compiled (numba) kernels of hole-carding (K of the dealer's cards seen)."""
