"""Compiled (numba) kernels of the strategy card search."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
