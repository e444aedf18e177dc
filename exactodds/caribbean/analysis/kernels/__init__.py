"""Compiled (numba) kernels of the whole-game analysis."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
