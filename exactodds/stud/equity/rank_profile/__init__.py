"""Rank-profile counting: exact three- and four-way stud equity before the last street.

Modules (the ``kernels/`` modules are compiled by numba; the others are plain Python):

* :mod:`.profiles` - each player's completions grouped by rank profile and flush suit, plain.
* :mod:`.multiway` - the three-way driver and the method's work estimate, plain.
* :mod:`.fourway` - the four-way plan (runs of grouped items) and driver, plain.
* :mod:`.reference` - the plain references of the shared primitives the tests compare with, plain.
* :mod:`.kernels.primitives` - kernel: binomials, kernel tables, class weights, the sweeps.
* :mod:`.kernels.threeway`, :mod:`.kernels.threeway_inner` - kernel: the three-way terms.
* :mod:`.kernels.fourway` - kernel: the four-way terms (outer pair groups, the inner sweep).
"""
