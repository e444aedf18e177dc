"""Whole-game kernels (numba): dealer hands by strength for every (player class, up card).

For a player hand P and a dealer up card u, the dealer's hand is u plus 4 of the other
46 cards. For a strength threshold t, the number of those hands weaker than t is, by
inclusion-exclusion over the player's cards,

    sum over S subset of P of (-1)^|S| * N_t(S + {u}),

where N_t(T) counts all 5-card hands that contain the set T and are weaker than t. The
sweep goes through the strengths from weakest to strongest, keeping N_t(T) in the
cache-sized :class:`~exactodds.counting.kernels.hand_counters.HandCounters`, and queries each
player class (:func:`~exactodds.counting.kernels.hand_counters.count_avoiding_with_each`) when
it reaches the class's strength. Inputs are typed bundles: the
:class:`~exactodds.counting.deck.StrengthDeck` and :class:`PlayerClasses`.

numba compiles the sweep: it is integer work on small arrays with data-dependent
indices, which numpy cannot vectorise without materialising billions of rows.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from exactodds.caribbean.decision.settle import DEALER_COMPLETIONS
from exactodds.counting.deck import StrengthDeck
from exactodds.counting.kernels.bits import card_mask
from exactodds.counting.kernels.hand_counters import (
    add_levels,
    count_avoiding_with_each,
    counters_below,
)
from exactodds.counting.layout import CLASS_SUM_COLUMNS, ClassSum, Net


class PlayerClasses(NamedTuple):
    """Player hand classes in strength order: classes of strength s are level_start[s]:level_start[s + 1]."""

    players: np.ndarray      # (classes, 5) int64 sorted cards of each class representative
    weights: np.ndarray      # (classes,) hands per class
    strength: np.ndarray     # (classes,) int64, ascending (higher = stronger)
    level_start: np.ndarray  # (N_STRENGTHS + 1,) int64


class DealerCounts(NamedTuple):
    """Per (class, up card): dealer hands below the qualifier, below the player, equal to the player."""

    below_qualifier: np.ndarray
    weaker: np.ndarray
    equal: np.ndarray
    valid: np.ndarray  # bool: the up card is not one of the player's cards


class EventCounts(NamedTuple):
    """Per (class, up card): dealer completions by event if the player raises (int32)."""

    not_qualify: np.ndarray
    win: np.ndarray
    push: np.ndarray
    dealer_wins: np.ndarray


@numba.njit(cache=True, nogil=True)
def sweep_weaker(deck, classes, lo, hi, out):
    """For player classes with strength in [lo, hi): dealer hands weaker than the player, per up card."""
    counters = counters_below(deck, lo)
    base = np.zeros((32, 6), dtype=np.int64)
    for s in range(lo, hi):
        for r in range(classes.level_start[s], classes.level_start[s + 1]):
            count_avoiding_with_each(counters, classes.players[r], base, out[r])
        add_levels(counters, deck, s, s + 1)


@numba.njit(cache=True, nogil=True, parallel=True)
def sweep_weaker_parallel(deck, classes, bounds, out):
    """:func:`sweep_weaker` on the strength chunks [bounds[i], bounds[i + 1]) in parallel."""
    for chunk in numba.prange(len(bounds) - 1):
        sweep_weaker(deck, classes, bounds[chunk], bounds[chunk + 1], out)


def count_below(deck: StrengthDeck, classes: PlayerClasses, threshold: int, out: np.ndarray) -> None:
    """For every player class: dealer hands weaker than a fixed threshold, per up card.

    Plain Python on purpose: a parallel kernel called from a cached compiled function runs
    before numba has started its threads (a crash), so parallel kernels are called from Python.
    """
    query_each_class(counters_below(deck, threshold), classes, out)


@numba.njit(cache=True, nogil=True, parallel=True)
def query_each_class(counters, classes, out):
    """For every player class: the counted hands holding each up card and avoiding the class's cards.

    (A bundle made inside a parallel function cannot cross into its parallel loop, so the
    counters come in as an argument.)"""
    n = classes.players.shape[0]
    chunks = 64
    for chunk in numba.prange(chunks):
        base = np.zeros((32, 6), dtype=np.int64)
        for r in range(chunk * n // chunks, (chunk + 1) * n // chunks):
            count_avoiding_with_each(counters, classes.players[r], base, out[r])


@numba.njit(cache=True, nogil=True, parallel=True)
def count_ties(deck, classes, first, out):
    """For player classes from ``first`` on: dealer hands of exactly the player's strength, per up card."""
    order = deck.order
    for r in numba.prange(first, classes.players.shape[0]):
        taken = card_mask(classes.players[r])
        s = classes.strength[r]
        for i in range(deck.level_start[s], deck.level_start[s + 1]):
            h = order[i]
            if deck.masks[h] & taken:
                continue
            for j in range(5):
                out[r, deck.hands[h, j]] += 1


@numba.njit(cache=True, nogil=True, parallel=True)
def situation_events(strength, counts, qualify, pay_index, nets):
    """Per situation: completions by event if the player raises (EventCounts), and EV(raise) x
    completions x scale (int64). ``nets`` in the Net layout; ``pay_index`` per class (-1: no pay).

    A class weaker than the qualifier cannot win or push: a dealer below the qualifier
    does not qualify, and any qualifying dealer beats it.
    """
    below, weaker, equal, valid = counts
    n, m = below.shape
    not_qualify = np.zeros((n, m), dtype=np.int32)
    win = np.zeros((n, m), dtype=np.int32)
    push = np.zeros((n, m), dtype=np.int32)
    dealer_wins = np.zeros((n, m), dtype=np.int32)
    ev = np.zeros((n, m), dtype=np.int64)
    nq_scaled = nets[Net.NOT_QUALIFY]
    lose_scaled = nets[Net.DEALER_WINS]
    for r in numba.prange(n):
        can_win = strength[r] >= qualify
        win_scaled = nets[Net.WIN + pay_index[r]] if pay_index[r] >= 0 else np.int64(0)
        for u in range(m):
            if not valid[r, u]:
                continue
            b = below[r, u]
            w = weaker[r, u] - b if can_win else 0
            t = equal[r, u] if can_win else 0
            lose = DEALER_COMPLETIONS - b - w - t
            not_qualify[r, u] = b
            win[r, u] = w
            push[r, u] = t
            dealer_wins[r, u] = lose
            ev[r, u] = np.int64(b) * nq_scaled + np.int64(w) * win_scaled + np.int64(lose) * lose_scaled
    return EventCounts(not_qualify, win, push, dealer_wins), ev


@numba.njit(cache=True, nogil=True, parallel=True)
def class_sums(raised, valid, events):
    """Per class, over its up cards, the ClassSum columns (int64): raised and folded
    situations, the raised situations' completions by event, not-qualify completions of all."""
    not_qualify, win, push, dealer_wins = events
    n, m = valid.shape
    out = np.zeros((n, CLASS_SUM_COLUMNS), dtype=np.int64)
    for r in numba.prange(n):
        for u in range(m):
            if not valid[r, u]:
                continue
            out[r, ClassSum.ALL_NOT_QUALIFY] += not_qualify[r, u]
            if raised[r, u]:
                out[r, ClassSum.RAISED] += 1
                out[r, ClassSum.NOT_QUALIFY] += not_qualify[r, u]
                out[r, ClassSum.WIN] += win[r, u]
                out[r, ClassSum.PUSH] += push[r, u]
                out[r, ClassSum.DEALER_WINS] += dealer_wins[r, u]
            else:
                out[r, ClassSum.FOLDED] += 1
    return out
