"""Suit-symmetry classes of five-card stud starting situations.

A heads-up first-round situation is (our hole card, our up card, the opponent's up card):
52 x 51 x 50 = 132,600 ordered deals. Renaming the suits changes no count, so every
situation is written in its canonical form - suits relabelled in order of first appearance
(hole, up, opponent's up) as spades, hearts, diamonds, clubs - and one row per class
stands for ``weight`` deals: 4!/(4-d)! of them, d the number of distinct suits used.

>>> reps, weights = situation_classes(2)
>>> len(reps), int(weights.sum())
(9997, 132600)
"""

from __future__ import annotations

import math
from functools import lru_cache
from itertools import permutations

import numpy as np

# Canonical suit order: the first suit met becomes spades (3), then hearts, diamonds, clubs.
CANONICAL_SUITS = (3, 2, 1, 0)


def canonical_batch(cards: np.ndarray) -> np.ndarray:
    """Each row of card ids with its suits relabelled in order of first appearance
    (first suit -> spades, then hearts, diamonds, clubs); ranks unchanged."""
    cards = np.asarray(cards, dtype=np.int64)
    suits = cards & 3
    mapping = np.full((len(cards), 4), -1, dtype=np.int64)
    next_label = np.zeros(len(cards), dtype=np.int64)
    rows = np.arange(len(cards))
    for col in range(cards.shape[1]):
        s = suits[:, col]
        new = mapping[rows, s] < 0
        mapping[rows[new], s[new]] = np.array(CANONICAL_SUITS)[next_label[new]]
        next_label += new
    renamed: np.ndarray = (cards & ~3) | mapping[rows[:, None], suits]
    return renamed


def canonical(cards: tuple[int, ...]) -> tuple[int, ...]:
    """One situation in canonical suits (see :func:`canonical_batch`)."""
    return tuple(int(c) for c in canonical_batch(np.array([cards]))[0])


def _ordered_deals(cards: int) -> np.ndarray:
    """Every ordered tuple of ``cards`` distinct cards, (52!/(52-cards)!, cards)."""
    grid = np.array(list(permutations(range(52), cards)), dtype=np.int64)
    return grid


@lru_cache(maxsize=4)
def situation_classes(players: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The classes of first-round situations for ``players`` (2 or 3) and their weights.

    Rows: (hole, up, up of opponent 1[, up of opponent 2]) in canonical suits, sorted.
    With three players the two opponents' up cards are a set (written higher card first),
    so a class's weight counts both seat orders. Weights sum to the number of deals:
    52 x 51 x 50 (heads-up), 52 x 51 x C(50, 2) (three-way).
    """
    if players not in (2, 3):
        raise ValueError(f"players must be 2 or 3, got {players}")
    deals = _ordered_deals(players + 1)
    if players == 3:
        deals = deals[deals[:, 2] > deals[:, 3]]
    canon = canonical_batch(deals)
    if players == 3:
        # Canonical suits can reorder the two opponents' cards: put them back in order.
        swap = canon[:, 2] < canon[:, 3]
        canon[swap, 2:] = canon[swap, 2:][:, ::-1]
        canon = canonical_batch(canon)
    reps, weights = np.unique(canon, axis=0, return_counts=True)
    return reps, weights.astype(np.int64)


def total_deals(players: int = 2) -> int:
    """Ordered first-round deals the classes stand for: 132,600 heads-up."""
    return 52 * 51 * math.comb(50, players - 1)


@lru_cache(maxsize=1)
def up_pair_classes() -> np.ndarray:
    """Canonical (our up card, opponent's up card) pairs: 325 classes of the 2,652 pairs."""
    return np.unique(canonical_batch(_ordered_deals(2)), axis=0)
