"""The slow, obvious reference for every subset counter (plain Python and int64, no tricks).

:class:`ReferenceCounters` keeps the counted card sets themselves and an int64 counter for
every subset of 0..r cards of an n-card deck, filled by looping over the subsets of each
counted set with :func:`itertools.combinations`. Its queries count directly (no
inclusion-exclusion): the counted sets containing S, avoiding X, or holding u and avoiding X.

The property tests (``tests/test_counting_*.py``) compare each fast specialisation of
:mod:`.hand_counters` and :mod:`.subset_counters` with it: counter arrays entry by entry
and every query on small random cases.

>>> ref = ReferenceCounters(n=6, max_size=2)
>>> ref.add((0, 1, 2)); ref.add((2, 3, 4))
>>> ref.containing((2,)), ref.avoiding((0, 5)), ref.holding_avoiding(3, (0,))
(2, 1, 1)
>>> int(ref.flat()[ref.slot((1, 2))])
1
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from math import comb

import numpy as np


class ReferenceCounters:
    """M(S) = number of counted sets containing S, for every S of 0..max_size cards of 0..n-1."""

    def __init__(self, *, n: int, max_size: int) -> None:
        self.n = n
        self.max_size = max_size
        self.sets: list[frozenset[int]] = []
        self.counts = [np.zeros(comb(n, k), dtype=np.int64) for k in range(max_size + 1)]

    @staticmethod
    def colex(cards: Iterable[int]) -> int:
        """Colex index of a set of cards: sum of C(c_i, i + 1) over its sorted cards."""
        return sum(comb(c, i + 1) for i, c in enumerate(sorted(cards)))

    def add(self, cards: Iterable[int], sign: int = 1) -> None:
        """Count one card set (``sign`` = -1 removes it)."""
        chosen = tuple(sorted(int(c) for c in cards))
        if sign > 0:
            self.sets.append(frozenset(chosen))
        else:
            self.sets.remove(frozenset(chosen))
        for size in range(min(self.max_size, len(chosen)) + 1):
            for subset in combinations(chosen, size):
                self.counts[size][self.colex(subset)] += sign

    def slot(self, subset: Iterable[int]) -> int:
        """Position of M(subset) in :meth:`flat`."""
        chosen = tuple(subset)
        return sum(comb(self.n, k) for k in range(len(chosen))) + self.colex(chosen)

    def flat(self) -> np.ndarray:
        """Every M(S) in one array: sizes 0..max_size, each in colex order."""
        return np.concatenate(self.counts)

    def containing(self, subset: Iterable[int]) -> int:
        """Counted sets holding every card of ``subset`` (counted directly)."""
        wanted = frozenset(subset)
        return sum(1 for s in self.sets if wanted <= s)

    def avoiding(self, cards: Iterable[int]) -> int:
        """Counted sets sharing no card with ``cards`` (counted directly)."""
        banned = frozenset(cards)
        return sum(1 for s in self.sets if not s & banned)

    def holding_avoiding(self, card: int, cards: Iterable[int]) -> int:
        """Counted sets holding ``card`` and sharing no card with ``cards`` (counted directly)."""
        banned = frozenset(cards)
        return sum(1 for s in self.sets if card in s and not s & banned)
