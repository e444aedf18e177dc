"""Binomial coefficients and the colex index of a set of cards.

The colex (colexicographic) index of a sorted k-subset c_0 < c_1 < ... < c_{k-1}
of 0..51 is ``sum(C(c_i, i + 1))``. It numbers the C(52, k) subsets 0..C(52,k)-1,
and every subset of 0..m-1 comes before any subset containing m, so the index of a
subset does not depend on how large the deck is.

>>> colex_index((0, 1, 2, 3, 4)), colex_index((47, 48, 49, 50, 51))
(0, 2598959)
>>> all_subsets_colex(52, 5).shape
(2598960, 5)
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

import numpy as np

MAX_N = 53
MAX_K = 8

# BINOM[n, k] = C(n, k) for 0 <= n < 53, 0 <= k < 8 (int64; C(52,7) < 2**31).
BINOM = np.array([[comb(n, k) for k in range(MAX_K)] for n in range(MAX_N)], dtype=np.int64)

N_HANDS = comb(52, 5)


def colex_index(cards: Iterable[int]) -> int:
    """Colex index of a set of distinct cards (any order)."""
    return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))


def colex_index_batch(hands: np.ndarray) -> np.ndarray:
    """Colex indices (int64) of each row of an (n, k) array of distinct cards (any order)."""
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    k = hands.shape[1]
    index = np.zeros(hands.shape[0], dtype=np.int64)
    for i in range(k):
        index += BINOM[hands[:, i], i + 1]
    return index


def all_subsets_colex(n: int, k: int) -> np.ndarray:
    """All k-subsets of 0..n-1 as a (C(n,k), k) int8 array, sorted rows, in colex order.

    Row i is the subset whose colex index is i.
    """
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    previous = all_subsets_colex(n, k - 1)
    blocks = []
    for top in range(k - 1, n):
        head = previous[: comb(top, k - 1)]
        tail = np.full((head.shape[0], 1), top, dtype=np.int8)
        blocks.append(np.hstack([head, tail]))
    return np.vstack(blocks)
