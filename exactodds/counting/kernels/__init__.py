"""The compiled (numba) parts of the counting engine: bits, subset and hand counters, suit signatures."""

import exactodds.kernels.numba_cache  # noqa: F401  (before any kernel: a stale numba cache never stops one)
