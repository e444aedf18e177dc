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
from exactodds.counting.kernels.bits import card_mask
from exactodds.counting.kernels.hand_counters import (
    add_levels,
    count_avoiding_with_each,
    counters_below,
)
from exactodds.counting.layout import ClassSum, Net


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


@numba.njit(cache=True, nogil=True)
def sweep_weaker_chunks(first, last, deck, classes, bounds, out):
    """:func:`sweep_weaker` on the strength chunks [bounds[i], bounds[i + 1]), first <= i < last."""
    for chunk in range(first, last):
        sweep_weaker(deck, classes, bounds[chunk], bounds[chunk + 1], out)


@numba.njit(cache=True, nogil=True)
def query_each_class(lo, hi, counters, classes, out):
    """For the player classes lo <= r < hi: the counted hands (``counters``) holding each up card
    and avoiding the class's cards."""
    base = np.zeros((32, 6), dtype=np.int64)
    for r in range(lo, hi):
        count_avoiding_with_each(counters, classes.players[r], base, out[r])


@numba.njit(cache=True, nogil=True)
def count_ties(lo, hi, deck, classes, out):
    """For the player classes lo <= r < hi: dealer hands of exactly the player's strength, per up card."""
    order = deck.order
    for r in range(lo, hi):
        taken = card_mask(classes.players[r])
        s = classes.strength[r]
        for i in range(deck.level_start[s], deck.level_start[s + 1]):
            h = order[i]
            if deck.masks[h] & taken:
                continue
            for j in range(5):
                out[r, deck.hands[h, j]] += 1


@numba.njit(cache=True, nogil=True)
def situation_events(lo, hi, strength, counts, qualify, pay_index, nets, events, ev):
    """For the player classes lo <= r < hi, per up card: completions by event if the player raises
    into ``events`` (EventCounts, int32), and EV(raise) x completions x scale into ``ev`` (int64).
    ``nets`` in the Net layout; ``pay_index`` per class (-1: no pay).

    A class weaker than the qualifier cannot win or push: a dealer below the qualifier
    does not qualify, and any qualifying dealer beats it.
    """
    below, weaker, equal, valid = counts
    not_qualify, win, push, dealer_wins = events
    m = below.shape[1]
    nq_scaled = nets[Net.NOT_QUALIFY]
    lose_scaled = nets[Net.DEALER_WINS]
    for r in range(lo, hi):
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


@numba.njit(cache=True, nogil=True)
def class_sums(lo, hi, raised, valid, events, out):
    """For the player classes lo <= r < hi, over their up cards, the ClassSum columns into ``out``
    (int64): raised and folded situations, the raised situations' completions by event,
    not-qualify completions of all."""
    not_qualify, win, push, dealer_wins = events
    m = valid.shape[1]
    for r in range(lo, hi):
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
