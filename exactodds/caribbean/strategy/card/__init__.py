"""The pocket strategy card of a paytable: the rule grammar, the exact search for the cheapest card of
each length (beam search, branch and bound, numba kernels in ``kernels/``), its cost and renderings."""
