"""numba support shared by every kernel package (the only modules besides the kernels that import numba)."""
