"""Compiled (numba) walks of the heads-up solver; the only solver modules that import numba."""
