"""Card sets in strength order: the typed bundles the sweeps read (plain Python, no numba).

A sweep visits card sets from weakest to strongest and needs, for each strength level,
where its sets start. Two bundles carry that:

* :class:`StrengthDeck` - all C(52, 5) five-card hands: their cards and masks by colex
  index, the colex indices sorted by strength (``order``) and each level's start
  (``level_start``). :func:`strength_deck` builds it once per process.
* :class:`StrengthRows` - any list of card sets sorted by strength (for example a stud
  player's completions): rows, strengths, masks.

Strengths are integers, **higher is stronger** (:mod:`exactodds.handrank`). A deck over
fewer hands (a small deck, for tests) is built by :func:`deck_from_table` with ``only``.

>>> deck = strength_deck()
>>> int(deck.level_start[-1]), int(deck.table[deck.order[-1]])
(2598960, 7461)
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from exactodds.combinatorics import all_subsets_colex
from exactodds.handrank import N_STRENGTHS, rank_table


class StrengthDeck(NamedTuple):
    """Five-card hands by strength: hands of strength s are ``order[level_start[s]:level_start[s + 1]]``."""

    table: np.ndarray        # (C(52,5),) strength of each hand, by colex index
    hands: np.ndarray        # (C(52,5), 5) int8 sorted cards of each hand, by colex index
    masks: np.ndarray        # (C(52,5),) uint64 card mask of each hand, by colex index
    order: np.ndarray        # int64 colex indices of the deck's hands, weakest first (stable)
    level_start: np.ndarray  # (levels + 1,) int64 start of each strength level in ``order``


class StrengthRows(NamedTuple):
    """Card sets sorted by strength, ascending (a player's completions, for example)."""

    rows: np.ndarray       # (m, size) int64 sorted cards (or deck positions) of each set
    strengths: np.ndarray  # (m,) int64, ascending
    masks: np.ndarray      # (m,) int64/uint64 bit mask of each row


def row_masks(rows: np.ndarray) -> np.ndarray:
    """uint64 bit mask of every row of a card array (numpy; the kernels have their own)."""
    rows = np.asarray(rows)
    masks = np.zeros(rows.shape[0], dtype=np.uint64)
    for column in rows.T:  # column by column: no (rows, size) uint64 temporary
        masks |= np.left_shift(np.uint64(1), column.astype(np.uint64))
    return masks


def deck_from_table(table: np.ndarray, *, levels: int = N_STRENGTHS,
                    only: np.ndarray | None = None) -> StrengthDeck:
    """A StrengthDeck for any strength table (values 0..levels-1, by colex index).

    ``only`` (colex indices) restricts the deck to those hands; the arrays by colex index
    still cover every hand.
    """
    hands = all_subsets_colex(52, 5)
    table = np.asarray(table).view()
    table.setflags(write=False)  # read-only, as the cached rank table: one kernel signature for both
    members = np.arange(len(table), dtype=np.int64) if only is None else np.asarray(only, dtype=np.int64)
    order = members[np.argsort(table[members], kind="stable")].astype(np.int64)
    level_start = np.searchsorted(table[order], np.arange(levels + 1)).astype(np.int64)
    return StrengthDeck(table=table, hands=hands, masks=row_masks(hands), order=order,
                        level_start=level_start)


@lru_cache(maxsize=1)
def strength_deck() -> StrengthDeck:
    """The 2,598,960 five-card hands in strength order (built once per process)."""
    return deck_from_table(rank_table())


def rows_by_strength(rows: np.ndarray, strengths: np.ndarray) -> StrengthRows:
    """Sort card sets by strength (stable) and bundle them with their masks (int64)."""
    order = np.argsort(strengths, kind="stable")
    rows = np.ascontiguousarray(np.asarray(rows, dtype=np.int64)[order])
    masks = (np.int64(1) << rows).sum(axis=1, dtype=np.int64)
    return StrengthRows(rows=rows, strengths=np.asarray(strengths, dtype=np.int64)[order], masks=masks)


class StackedRows(NamedTuple):
    """Several players' completions, concatenated: player p's are entries ``offsets[p]:offsets[p + 1]``."""

    masks: np.ndarray      # int64 bit mask of each completion
    strengths: np.ndarray  # int64 strength of each completion
    offsets: np.ndarray    # (players + 1,) int64


class SlottedRows(NamedTuple):
    """Card sets sorted by strength, given by their counter slots (:func:`subset_slots`)."""

    slots: np.ndarray      # (m, 2**size) int64 counter position of each subset of each row
    strengths: np.ndarray  # (m,) int64, ascending
    masks: np.ndarray      # (m,) int64 bit mask of each row
