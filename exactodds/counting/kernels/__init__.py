"""The compiled (numba) parts of the counting engine: bits, subset and hand counters, suit signatures."""
