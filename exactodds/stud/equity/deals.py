"""A stud position's complete deals: each player's known cards, the completions of their hands
by the unseen cards (sorted by strength) and the number of equally likely complete deals."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from exactodds.combinatorics import all_subsets_colex, colex_index_batch
from exactodds.handrank import rank_table
from exactodds.stud.equity.position import StudPlayer, StudPosition, cards_to_come


def player_completions(known: Sequence[int], pool: np.ndarray, count: int) -> tuple[np.ndarray, np.ndarray]:
    """All ``count``-subsets of the pool (rows of pool indices) and the strengths of
    ``known`` plus each subset (higher = stronger), both sorted by strength ascending."""
    subsets = all_subsets_colex(len(pool), count).astype(np.int64)
    hands = np.hstack([np.tile(np.array(known, dtype=np.int64), (len(subsets), 1)), pool[subsets]])
    strengths = rank_table()[colex_index_batch(hands)].astype(np.int64)
    order = np.argsort(strengths, kind="stable")
    return np.ascontiguousarray(subsets[order]), strengths[order]


def player_cards(player: StudPlayer) -> list[int]:
    """The player's known cards: the hole card if known, then the up cards."""
    return ([] if player.hole is None else [player.hole]) + list(player.up)


def enumeration_size(position: StudPosition) -> int:
    """Number of equally likely complete deals (ways to hand out every missing card)."""
    needs = cards_to_come(position)
    n = len(position.unseen())
    size = 1
    for need in needs:
        size *= math.comb(n, need)
        n -= need
    return size


def base_cards(position: StudPosition) -> np.ndarray:
    """(players, 5) int64: each player's known cards, then -1 for each card to come."""
    base = np.full((len(position.players), 5), -1, dtype=np.int64)
    for p, player in enumerate(position.players):
        cards = player_cards(player)
        base[p, : len(cards)] = cards
    return base
