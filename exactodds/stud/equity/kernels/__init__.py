"""Compiled (numba) kernels of the stud equity methods: heads-up, last street, enumeration, sampling."""
