"""numba kernels of the decision (compiled once, cached): the play-out of sampled hands."""
