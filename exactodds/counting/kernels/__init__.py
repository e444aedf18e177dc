"""The compiled (numba) parts of the counting engine: bits, subset and hand counters, suit signatures."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
