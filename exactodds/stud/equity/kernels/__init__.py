"""Compiled (numba) kernels of the stud equity methods: heads-up, last street, enumeration, sampling."""

import exactodds.kernels.cache_patch  # noqa: F401  (before any kernel: a stale numba cache never stops one)
