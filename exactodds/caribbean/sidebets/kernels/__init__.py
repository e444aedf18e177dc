"""Compiled (numba) kernels of the side bets."""

import exactodds.kernels.numba_cache  # noqa: F401  (before any kernel: a stale numba cache never stops one)
