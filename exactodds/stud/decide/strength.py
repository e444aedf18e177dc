"""The strength of a player's own cards, a measure an opponent model may read: the chance that the
cards, completed at random to five, beat a five-card hand dealt from a full deck (ties count half).

The measure depends on the player's cards alone (the other hand is dealt from a full deck, so the
cards the player holds do not change it): it is the same at every table and a whole number over a
fixed denominator for each number of cards, so thresholds compare exactly. For five cards it is the
hand's percentile among the 2,598,960 hands; for fewer, the mean over every completion.
:func:`strength_numerators` reads many hands at once from tables built once and cached
(``stud-strength-v1.npy``, checked against a pinned digest).

>>> from exactodds.cards import parse_cards
>>> round(float(strength(parse_cards("As Ad"))), 4)  # a pair of aces in two cards
0.9274
>>> strength(parse_cards("7h 5d 4c 3s 2h"))  # the weakest hand beats nothing, ties 1,020 hands
Fraction(1, 5096)
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np

from exactodds.cache import cached_array
from exactodds.combinatorics import BINOM, N_HANDS, all_subsets_colex, colex_index_batch
from exactodds.handrank import N_STRENGTHS, rank_table

TABLE_FILE = "stud-strength-v1.npy"
TABLE_SHA256 = "10bc2dbad4485e6ff3ec7533547bc15966d10a3459245d8d165e0b88ced9d339"
SIZES = (2, 3, 4)  # the tables hold 2-, 3- and 4-card hands; five cards read the rank table
_OFFSETS = {2: 0, 3: comb(52, 2), 4: comb(52, 2) + comb(52, 3)}


def denominator(cards: int) -> int:
    """The denominator of the strength of ``cards`` own cards (2 to 5): twice the hands, times the
    completions."""
    return 2 * N_HANDS * comb(52 - cards, 5 - cards)


@cache
def percentile_numerators() -> np.ndarray:
    """For each strength 0..7461: twice the hands it beats plus the hands it ties (int64)."""
    counts = np.bincount(rank_table(), minlength=N_STRENGTHS).astype(np.int64)
    below = np.cumsum(counts) - counts
    out: np.ndarray = 2 * below + counts
    return out


def _five_card_numerators(index: np.ndarray) -> np.ndarray:
    out: np.ndarray = percentile_numerators()[rank_table()[index]]
    return out


def build_table() -> np.ndarray:
    """The 2-, 3- and 4-card numerators, in colex order, one array (offsets in ``_OFFSETS``).

    A k-card hand's numerator is the sum over the 5-card hands holding it; each 4-card sum is made
    from the 5-card hands (each adds to its five 4-card subsets), each 3-card sum from the 4-card
    sums (every 5-card hand over a 3-card set is counted by two of its 4-card sets), and so on."""
    hands = all_subsets_colex(52, 5).astype(np.int64)
    values = _five_card_numerators(np.arange(N_HANDS)).astype(np.float64)  # < 2**53: exact
    sums = {5: values}
    subsets = hands
    for k in (4, 3, 2):
        size = comb(52, k)
        total = np.zeros(size, dtype=np.float64)
        for drop in range(k + 1):
            keep = np.delete(subsets, drop, axis=1)
            index = np.zeros(len(keep), dtype=np.int64)
            for i in range(k):
                index += BINOM[keep[:, i], i + 1]
            total += np.bincount(index, weights=sums[k + 1], minlength=size)
        sums[k] = total / (5 - k)
        subsets = all_subsets_colex(52, k).astype(np.int64)
    table = np.concatenate([sums[2], sums[3], sums[4]])
    exact: np.ndarray = np.rint(table).astype(np.int64)
    return exact


@cache
def strength_table() -> np.ndarray:
    """The cached 2-, 3- and 4-card numerators (read-only)."""
    return cached_array(TABLE_FILE, build=build_table, sha256=TABLE_SHA256, what="stud strength table")


def strength_numerators(hands: np.ndarray) -> np.ndarray:
    """The strength numerators (int64) of each row of an (n, k) array of distinct cards, 2 <= k <= 5:
    divide by :func:`denominator` (k) for the strength."""
    hands = np.asarray(hands, dtype=np.int64)
    k = hands.shape[1]
    index = colex_index_batch(hands)
    if k == 5:
        return _five_card_numerators(index)
    if k not in SIZES:
        raise ValueError(f"strength is defined for 2 to 5 cards, got {k}")
    out: np.ndarray = strength_table()[_OFFSETS[k] + index]
    return out


def strength(cards: Sequence[int]) -> Fraction:
    """The strength of one hand of 2 to 5 distinct cards, 0..1 (higher is stronger)."""
    row = np.array([list(cards)], dtype=np.int64)
    return Fraction(int(strength_numerators(row)[0]), denominator(len(cards)))
