"""numba kernel: the best five-card strength of every six-card set (for best-of-six side bets).

Each of the C(52,6) = 20,358,520 six-card sets is visited once; its six five-card subsets are
looked up in the rank table by colex index (built incrementally as the loops nest).
"""

from __future__ import annotations

import numba
import numpy as np

from exactodds.combinatorics import BINOM
from exactodds.handrank import N_STRENGTHS, rank_table
from exactodds.threaded import threaded_sum


@numba.njit(cache=True, nogil=True)
def _best_of_six_histogram(lo, hi, table, binom, n_strengths):
    """counts[s] = six-card sets with top card lo <= f < hi whose best five cards have strength s."""
    row = np.zeros(n_strengths, dtype=np.int64)
    for f in range(lo, hi):
        for e in range(4, f):
            for d in range(3, e):
                for c in range(2, d):
                    for b in range(1, c):
                        for a in range(b):
                            # colex index of the set without one card: the cards above it shift down
                            s0 = binom[b, 1] + binom[c, 2] + binom[d, 3] + binom[e, 4] + binom[f, 5]
                            s1 = binom[a, 1] + binom[c, 2] + binom[d, 3] + binom[e, 4] + binom[f, 5]
                            s2 = binom[a, 1] + binom[b, 2] + binom[d, 3] + binom[e, 4] + binom[f, 5]
                            s3 = binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[e, 4] + binom[f, 5]
                            s4 = binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[f, 5]
                            s5 = binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4] + binom[e, 5]
                            best = max(table[s0], table[s1], table[s2], table[s3], table[s4], table[s5])
                            row[best] += 1
    return row


def best_of_six_histogram() -> np.ndarray:
    """(N_STRENGTHS,) int64: six-card sets by the strength of their best five cards (sums to C(52,6))."""
    # One span per top card (from 5: the sets' top card is at least the sixth card).
    return threaded_sum(_best_of_six_histogram, 52, rank_table().astype(np.int32), BINOM, N_STRENGTHS,
                        start=5, chunks=52 - 5)
