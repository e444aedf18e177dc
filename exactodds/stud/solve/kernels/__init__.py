"""Compiled (numba) walks of the heads-up solver; the only solver modules that import numba."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
