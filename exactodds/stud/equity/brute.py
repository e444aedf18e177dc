"""Reference brute force for stud equity: plain itertools over every complete deal.

Slow and obviously correct; used by the tests and benchmarks to check the fast methods.
Returns the same ``out[p, t]`` outcome counts as :mod:`exactodds.stud.equity.kernels.deal_counts`
(strengths from the hand-rank table, higher = stronger).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np

from exactodds.combinatorics import colex_index
from exactodds.handrank import rank_table
from exactodds.stud.equity.deals import player_cards
from exactodds.stud.equity.position import StudPosition, cards_to_come


def deals(position: StudPosition) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every complete deal: for each player, the tuple of unseen cards they receive."""
    needs = cards_to_come(position)
    unseen = tuple(int(c) for c in position.unseen())

    def deal(remaining: tuple[int, ...], player: int) -> Iterator[tuple[tuple[int, ...], ...]]:
        if player == len(needs):
            yield ()
            return
        for chosen in itertools.combinations(remaining, needs[player]):
            rest = tuple(c for c in remaining if c not in chosen)
            for tail in deal(rest, player + 1):
                yield (chosen, *tail)

    yield from deal(unseen, 0)


def brute_force_counts(position: StudPosition, limit: int | None = None) -> tuple[np.ndarray, int]:
    """Outcome counts ``out[p, t]`` over every complete deal (or the first ``limit``) and the
    number of deals visited."""
    table = rank_table()
    known = [player_cards(p) for p in position.players]
    n_players = len(known)
    out = np.zeros((n_players, n_players + 1), dtype=np.int64)
    cache: list[dict[tuple[int, ...], int]] = [{} for _ in known]
    visited = 0
    for deal in itertools.islice(deals(position), limit):
        strengths = []
        for p, cards in enumerate(deal):
            strength = cache[p].get(cards)
            if strength is None:
                strength = cache[p][cards] = int(table[colex_index(known[p] + list(cards))])
            strengths.append(strength)
        best = max(strengths)
        tied = strengths.count(best)
        for p, s in enumerate(strengths):
            if s == best:
                out[p, tied] += 1
        visited += 1
    return out, visited
