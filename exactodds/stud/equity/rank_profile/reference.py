"""Plain-Python references of the shared rank-profile primitives (:mod:`.kernels.primitives`): slow
and obvious, for the tests that compare the compiled ones with them.

A class is given by its rank profile ``prof`` (cards of each rank 2..A) and a deck by ``avail``
(unseen cards of each rank); counts are exact integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb, prod


def choose(n: int, k: int) -> int:
    """C(n, k), 0 when impossible (n < k or k < 0), 1 for k = 0."""
    return comb(n, k) if 0 <= k <= n else (1 if k == 0 else 0)


def class_weight(prof: Sequence[int], avail: Sequence[int]) -> int:
    """The card sets of a class in the deck: prod over ranks of C(avail_r, prof_r)."""
    return prod(choose(int(a), int(c)) for a, c in zip(avail, prof, strict=True))


def pattern_weight(prof: Sequence[int], flush_prof: Sequence[int], avail: Sequence[int]) -> int:
    """The card sets of a class avoiding one card of each rank of a flush set."""
    return class_weight(prof, [int(a) - int(f) for a, f in zip(avail, flush_prof, strict=True)])


def rank_mask(prof: Sequence[int]) -> int:
    """The 13-bit mask of the ranks a class holds."""
    return sum(1 << r for r, c in enumerate(prof) if c)


def compatible(suit_p: int, prof_p: Sequence[int], suit_q: int, prof_q: Sequence[int]) -> bool:
    """Two flush sets can be dealt together: other suits, or no rank in common."""
    return suit_p != suit_q or not rank_mask(prof_p) & rank_mask(prof_q)


def disjoint_pairs(prof_x: Sequence[int], prof_y: Sequence[int], avail: Sequence[int]) -> int:
    """Pairs (a card set of class x, one of class y) with no card in common, by counting each rank's
    ways: C(m, x_r) C(m - x_r, y_r)."""
    return prod(choose(int(m), int(x)) * choose(int(m) - int(x), int(y))
                for m, x, y in zip(avail, prof_x, prof_y, strict=True))


def disjoint_table(avail: Sequence[int]) -> list[list[list[int]]]:
    """``D[r][x][y] = C(m_r - x, y) - C(m_r, y)`` for x, y in 1..4 (0 elsewhere)."""
    return [[[choose(int(m) - x, y) - choose(int(m), y) if x and y else 0 for y in range(5)]
             for x in range(5)] for m in avail]

