"""Compiled (numba) kernels of rank-profile counting: shared primitives, three-way and four-way terms."""
