"""numba kernels of the decision (compiled once, cached): the play-out of sampled hands."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
