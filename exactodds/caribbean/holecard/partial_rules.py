"""Simpler edge-sorting strategies, valued exactly: the best strategy that sees less.

A strategy that decides from a coarser description of the situation (a **cell**) is valued
exactly from the recorded situations (:mod:`exactodds.caribbean.holecard.partial_situations`):
the best such strategy raises a cell exactly when raising gains over folding summed over all
its situations, so its result is the fold-everything result plus the positive cell gains, an
exact integer over the deal count (the optimal strategy given that coarser information).

:data:`COUNT_STRATEGY` is the strategy a player can learn for an edge-sorted game (Jacobson's
"trivial enough that it can be learned in under an hour"): it looks at the player's hand
category and its three highest-ranked cards (ranks ordered by how often they occur, then by
rank: "pair of nines, A K kickers", "A-K-Q high") and at **how many of the dealer's five cards
are sorted**, the up card included, but not at which of them is the up card nor at the up
card's rank. With aces and kings sorted it gives a player edge of 6.9049%, Jacobson's
published 6.90%; the optimal strategy (7.1002%) also uses the up card's rank (whether it
pairs one of the player's cards, which of A and K it is) and the whole hand.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from exactodds.caribbean.decision.settle import kernel_nets
from exactodds.caribbean.holecard.exact import strength_ordered_hands
from exactodds.caribbean.holecard.partial import PartialInfo, SignalKind, counts_key
from exactodds.caribbean.holecard.partial_situations import SituationBatch, StrategyValue, partial_situations
from exactodds.caribbean.profile import PAY_FLOORS, Profile, load_profile
from exactodds.handrank import N_STRENGTHS
from exactodds.progress import Progress
from exactodds.resources import data_file

CellOf = Callable[[SituationBatch, PartialInfo], np.ndarray]


@lru_cache(maxsize=1)
def hand_groups(top: int = 3) -> tuple[np.ndarray, int]:
    """Each strength's group (category and the first ``top`` ranks of its pattern: ranks by how
    often they occur, then by rank) and the number of groups."""
    players = strength_ordered_hands()
    ranks = players.hands[players.level_start[:-1]] // 4
    category = np.searchsorted(np.array(PAY_FLOORS), np.arange(N_STRENGTHS), side="right")
    keys: dict[tuple[int, tuple[int, ...]], int] = {}
    group = np.empty(N_STRENGTHS, dtype=np.int64)
    for s in range(N_STRENGTHS):
        values, counts = np.unique(ranks[s], return_counts=True)
        pattern = tuple(int(v) for _, v in sorted(zip(counts.tolist(), values.tolist(), strict=True),
                                                  reverse=True))
        group[s] = keys.setdefault((int(category[s]), pattern[:top]), len(keys))
    return group, len(keys)


def count_strategy_cell(batch: SituationBatch, info: PartialInfo) -> np.ndarray:
    """:data:`COUNT_STRATEGY`'s cell: the hand's group x the sorted cards among the dealer's five."""
    if info.kind is not SignalKind.EDGE_SORT:
        raise ValueError("the count strategy is an edge-sorting strategy")
    group, _ = hand_groups()
    sorted_seen = np.isin(batch.seen // 4, list(info.sorted_ranks)).sum(axis=1)
    cells: np.ndarray = group[batch.strength] * 6 + batch.signal + sorted_seen
    return cells


@dataclass(frozen=True, kw_only=True)
class CoarseStrategy:
    """A strategy that sees less than the whole situation: its name, what it sees, its cells."""

    name: str
    sees: str
    cell_of: CellOf


COUNT_STRATEGY = CoarseStrategy(
    name="count", cell_of=count_strategy_cell,
    sees="the hand's category and three highest-ranked cards, and how many of the dealer's five cards "
         "are sorted (the up card included)")


def best_coarse_value(profile: Profile | str, info: PartialInfo, strategy: CoarseStrategy, *,
                      progress: Progress | None = None, deck: list[int] | None = None) -> StrategyValue:
    """The exact result of the best strategy that decides by ``strategy``'s cells (each cell
    raised iff raising gains summed over its situations), from every recorded situation
    (``deck``: a reduced deck, for tests)."""
    profile = load_profile(profile)
    gains: dict[int, int] = {}
    fold = deals = 0
    for batch in partial_situations(profile, info, progress=progress, deck=deck):
        raise_units = batch.raise_units(profile) * batch.weight
        fold_units = batch.fold_units(profile) * batch.weight
        cells = strategy.cell_of(batch, info)
        unique, where = np.unique(cells, return_inverse=True)
        sums = np.zeros(len(unique), dtype=np.int64)
        np.add.at(sums, where, raise_units - fold_units)
        for cell, gain in zip(unique.tolist(), sums.tolist(), strict=True):
            gains[cell] = gains.get(cell, 0) + gain
        fold += int(fold_units.sum())
        deals += int((batch.completions * batch.weight).sum())
    _, scale = kernel_nets(profile)
    return StrategyValue(units=fold + sum(g for g in gains.values() if g > 0), deals=deals, scale=scale)


def coarse_key(profile: Profile, info: PartialInfo, strategy: CoarseStrategy) -> str:
    """The key of a coarse strategy's shipped count: the game's counts key and the strategy's name."""
    return f"partial-{counts_key(profile, info)}-{strategy.name}"


def shipped_coarse_value(profile: Profile | str, info: PartialInfo, strategy: CoarseStrategy
                         ) -> StrategyValue | None:
    """The coarse strategy's count shipped in ``data/counts/partial.toml`` ([units, deals]), or None."""
    profile = load_profile(profile)
    path = data_file("counts", "partial.toml")
    if not path.exists():
        return None
    entry = tomllib.loads(path.read_text(encoding="utf-8")).get(coarse_key(profile, info, strategy))
    if not (isinstance(entry, list) and len(entry) == 2 and all(type(x) is int for x in entry)):
        return None
    _, scale = kernel_nets(profile)
    return StrategyValue(units=entry[0], deals=entry[1], scale=scale)


def coarse_value(profile: Profile | str, info: PartialInfo, strategy: CoarseStrategy, *,
                 progress: Progress | None = None) -> StrategyValue:
    """The shipped count of the coarse strategy if there is one, else counted (minutes)."""
    return shipped_coarse_value(profile, info, strategy) or best_coarse_value(profile, info, strategy,
                                                                                progress=progress)
