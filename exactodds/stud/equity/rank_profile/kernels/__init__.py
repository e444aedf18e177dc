"""Compiled (numba) kernels of rank-profile counting: shared primitives, three-way and four-way terms."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
