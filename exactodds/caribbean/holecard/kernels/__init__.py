"""Compiled (numba) kernels of hole-carding (K of the dealer's cards seen)."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
