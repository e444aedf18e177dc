"""Compiled (numba) kernels of the strategy card search."""

import exactodds.kernels.numba_cache  # noqa: F401  (before any kernel: a stale numba cache never stops one)
