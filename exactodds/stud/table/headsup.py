"""Exact heads-up first-round equity for every hole card at once, one sweep per pair of up cards.

With our up card ``u`` and the opponent's up card ``v`` fixed, the other 50 cards are
unseen apart from our hole card. Dealing our hole card and our three cards to come is
dealing a 4-subset X of those 50 cards, and the opponent's hole and three cards to come is
a 4-subset Y disjoint from X; every disjoint pair (X, Y) is equally likely. So one
inclusion-exclusion sweep (:func:`exactodds.stud.equity.kernels.deal_counts.headsup_sweep`) over all
C(50, 4) X against all C(50, 4) Y counts, for each X, the Y it beats and ties; the
situation with hole card h sums those counts over the X containing h. Each hole card's
counts are over C(49, 3) x C(46, 4) = 3,006,520,440 deals, the same deals (and so the same
integers) as :func:`exactodds.stud.equity.stud_equity` on the position "h | u" against "? | v".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from exactodds.counting.deck import rows_by_strength
from exactodds.stopping import stoppable
from exactodds.stud.equity.deals import player_completions

DEALS_PER_SITUATION = math.comb(49, 3) * math.comb(46, 4)


@dataclass(frozen=True, kw_only=True)
class UpPairCounts:
    """Outcome counts for every hole card, given our up card and the opponent's.

    ``win[h]`` and ``tie[h]`` (h a card id; 0 for h equal to either up card) are the deals,
    out of :data:`DEALS_PER_SITUATION`, in which our five cards beat (tie) the opponent's.
    """

    up: int
    opp_up: int
    win: np.ndarray
    tie: np.ndarray


def up_pair_counts(up: int, opp_up: int) -> UpPairCounts:
    """Exact win and tie counts for every hole card with these two up cards (one sweep)."""
    from exactodds.stud.equity.kernels import deal_counts as kernel  # numba, imported on first use

    pool = np.array([c for c in range(52) if c not in (up, opp_up)], dtype=np.int64)
    a = rows_by_strength(*player_completions([up], pool, 4))
    b = rows_by_strength(*player_completions([opp_up], pool, 4))
    less, leq = stoppable(kernel.headsup_sweep, a, b, len(pool))
    xs = a.rows
    win = np.zeros(len(pool), dtype=np.int64)
    tie = np.zeros(len(pool), dtype=np.int64)
    for col in range(xs.shape[1]):
        np.add.at(win, xs[:, col], less)
        np.add.at(tie, xs[:, col], leq - less)
    full_win = np.zeros(52, dtype=np.int64)
    full_tie = np.zeros(52, dtype=np.int64)
    full_win[pool], full_tie[pool] = win, tie
    return UpPairCounts(up=up, opp_up=opp_up, win=full_win, tie=full_tie)
