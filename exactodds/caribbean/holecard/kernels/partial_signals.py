"""Partial-information kernels: the whole game when the player sees K dealer cards and a
signal about the others (edge sorting, a hole card's rank without its suit).

Strengths are integers 0..7461, higher = stronger.

One task is a seen dealer set Q of k = 1..4 cards and a range [lo, hi) of player strengths.
The dealer's completions of Q (r = 5 - k cards from the live cards outside Q: 249,900,
19,600, 1,176 or 48 on the full deck) are sorted by strength. Each completion H carries
weights w_j(H) >= 0, one per **signal** j the player may see: the number of deals with
completion H in which the player sees j.

* ``COUNT_SIGNAL`` (edge sorting): ``card_class[c]`` is 1 for a card of the sorted set S,
  0 otherwise; the player sees which hidden cards are in S, and (the hidden cards being
  exchangeable) what matters is j = |H & S|, so w_j(H) = 1 for that j, 0 for the others.
* ``ONE_CARD_SIGNAL`` (a rank seen without its suit): ``card_class[c]`` is the card's rank;
  one of the hidden cards (any of the r) shows its rank j, so w_j(H) = the number of cards
  of rank j in H, and a deal is a completion with one of its cards marked (r deals per H).

``only`` >= 0 computes signal ``only`` alone (one counter set, a driver loops the signals);
-1 computes all of them together.

Subset counters per signal (:mod:`exactodds.counting.subset_counters`' idea, one int32 column
per signal at ``offsets[|S|] + colex(S)``, indexed in the full deck): ``mq`` the weighted
completions below the qualifier, ``ms`` below the player's strength (swept upwards), ``mn``
all of them. For a player hand P the weighted completions avoiding P are
sum over S subset of P, |S| <= r, of (-1)^|S| M(S); ties are counted from the completions
of exactly the player's strength. With r = 1 a completion is one card and every weight is 0 or
1, so the counters are card masks per signal and each query a popcount (as in the hole-carding
kernel). Each situation (P, Q, j) with a positive weight is decided
on the spot (raise iff EV(raise) > EV(fold), an exact tie folds) and only the return-table
sums are kept (Acc layout), with two more columns: the situations decided and the situations
raised. With ``symmetric`` (the full deck and rank-based classes), suits with no seen card
can be renamed without changing anything, so one player hand per orbit is decided, weighted.

Inputs are typed bundles: SortedHands and Payout (:mod:`exactodds.caribbean.holecard.kernels.seen_cards`),
Deal, Signal and Recording (here). Orbits of player hands: ``free_suits`` / ``orbit_weight``
of the hole-carding kernel.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from exactodds.caribbean.holecard.kernels.seen_cards import (
    decide_raise,
    free_suits,
    orbit_weight,
    seen_completions,
    settle_hand,
    strength_order,
)
from exactodds.counting.kernels.bits import card_mask, counter_offsets, popcount, subset_colex
from exactodds.counting.layout import ACC_COLUMNS

COUNT_SIGNAL = 0
ONE_CARD_SIGNAL = 1
SITUATIONS = ACC_COLUMNS       # extra accumulator column: situations (P, Q, signal) decided
RAISED_SITUATIONS = ACC_COLUMNS + 1
PARTIAL_COLUMNS = ACC_COLUMNS + 2
RECORD_FIELDS = 6  # rec[slot, signal] = (below qualifier, below player, equal, completions, raise, weight)


class Deal(NamedTuple):
    """The deck and the dealer's completions: ``live`` (uint64 mask of the cards in play; every
    card for the real game), ``table`` (a five-card hand's strength by colex index), ``tsubs``
    (every r-subset of positions among the live cards outside the seen set)."""

    live: np.uint64
    table: np.ndarray
    tsubs: np.ndarray


class Recording(NamedTuple):
    """Where situations are recorded: hand i (its position in strength order) goes to
    rec[slot_of[i] - base] when that is a slot (``slot_of`` empty: nothing recorded)."""

    slot_of: np.ndarray  # (hands,) int64
    base: np.int64
    rec: np.ndarray      # (slots, signals, RECORD_FIELDS) int64


class Tasks(NamedTuple):
    """The tasks of one call: task i is seen set ``seen[i]`` (rows of cards) and the player
    hands of strengths ``lo[i]`` to ``hi[i] - 1``."""

    seen: np.ndarray  # (tasks, k) int64
    lo: np.ndarray    # (tasks,) int64
    hi: np.ndarray    # (tasks,) int64


class Signal(NamedTuple):
    """What the player sees of the hidden cards: the mode, each card's class, the signals.

    ``classes`` is the number of signal values (r + 1 for COUNT_SIGNAL, 13 for a rank);
    ``only`` is -1 (all signals) or the one signal computed.
    """

    mode: int
    card_class: np.ndarray  # (52,) int64
    classes: int
    only: int


@numba.njit(cache=True)
def _completion_weights(tcards, signal, r):
    """w[t, s]: the weight of completion t for the s-th computed signal (Signal)."""
    mode, card_class, classes, only = signal
    ncls = classes if only < 0 else 1
    nt = tcards.shape[0]
    w = np.zeros((nt, ncls), dtype=np.int32)
    for t in range(nt):
        if mode == COUNT_SIGNAL:
            j = 0
            for x in range(r):
                j += card_class[tcards[t, x]]
            if only < 0:
                w[t, j] = 1
            elif j == only:
                w[t, 0] = 1
        else:
            for x in range(r):
                j = card_class[tcards[t, x]]
                if only < 0:
                    w[t, j] += 1
                elif j == only:
                    w[t, 0] += 1
    return w


@numba.njit(cache=True, inline="always")
def _add_weighted(counts, offsets, row, weights, r):
    """Add the weights to the counters of every subset of the sorted completion ``row``."""
    ncls = weights.shape[0]
    for mask in range(1 << r):
        index, size = subset_colex(row, mask)
        slot = offsets[size] + index
        for j in range(ncls):
            counts[slot, j] += weights[j]


@numba.njit(cache=True, nogil=True)
def partial_task(seen, lo, hi, deal, players, payout, signal, symmetric, loc, recording):
    """Decide every situation (player hand of strength lo..hi-1, seen set ``seen``, signal).

    ``deal`` is a Deal. Unweighted-by-class sums go to ``loc`` (PARTIAL_COLUMNS). Situations
    of hands with a slot in ``recording`` (a Recording) are recorded there: (below qualifier,
    below player, equal, completions, raise, weight), the weight being the orbit's size.
    """
    qualify, pay_of, nets = payout
    ohands, omasks, order, level_start = players
    slot_of, base, rec = recording
    live = deal[0]
    k = seen.shape[0]
    r = 5 - k
    seen_mask = card_mask(seen)
    tcards, strength = seen_completions(seen, live, deal[1], deal[2])
    nt = strength.shape[0]
    w = _completion_weights(tcards, signal, r)
    ncls = w.shape[1]
    torder, sorted_strength, sorted_mask = strength_order(tcards, strength)

    one = r == 1  # one hidden card: per-signal card masks and popcounts instead of subset counters
    offsets = counter_offsets(52, r)
    size = 1 if one else offsets[r + 1]
    mq = np.zeros((size, ncls), dtype=np.int32)
    ms = np.zeros((size, ncls), dtype=np.int32)
    mn = np.zeros((size, ncls), dtype=np.int32)
    q_mask = np.zeros(ncls, dtype=np.uint64)    # r = 1: the cards below the qualifier, per signal
    s_mask = np.zeros(ncls, dtype=np.uint64)    # ... below the player
    n_mask = np.zeros(ncls, dtype=np.uint64)    # ... all of them
    tie_mask = np.zeros(ncls, dtype=np.uint64)  # ... equal to the player
    for t in range(nt):
        if one:
            bit = card_mask(tcards[t])
            for j in range(ncls):
                if w[t, j]:
                    n_mask[j] |= bit
                    if strength[t] < qualify:
                        q_mask[j] |= bit
        else:
            _add_weighted(mn, offsets, tcards[t], w[t], r)
            if strength[t] < qualify:
                _add_weighted(mq, offsets, tcards[t], w[t], r)

    free, nfree = free_suits(seen, symmetric)
    slots = np.empty(32, dtype=np.int64)
    signs = np.empty(32, dtype=np.int64)
    p = np.empty(5, dtype=np.int64)
    a = np.zeros(ncls, dtype=np.int64)
    b = np.zeros(ncls, dtype=np.int64)
    c = np.zeros(ncls, dtype=np.int64)
    m = np.zeros(ncls, dtype=np.int64)
    tp = 0
    te = 0
    not_live = ~live
    for s in range(lo, hi):
        contend = s >= qualify
        if contend:
            while tp < nt and sorted_strength[tp] < s:
                if one:
                    for j in range(ncls):
                        if w[torder[tp], j]:
                            s_mask[j] |= sorted_mask[tp]
                else:
                    _add_weighted(ms, offsets, tcards[torder[tp]], w[torder[tp]], r)
                tp += 1
            te = tp
            if one:
                tie_mask[:] = 0
            while te < nt and sorted_strength[te] == s:
                if one:
                    for j in range(ncls):
                        if w[torder[te], j]:
                            tie_mask[j] |= sorted_mask[te]
                te += 1
        pay = pay_of[s]
        for i in range(level_start[s], level_start[s + 1]):
            pmask = omasks[i]
            if pmask & seen_mask or pmask & not_live:
                continue
            weight = orbit_weight(pmask, free, nfree)
            if weight == 0:
                continue
            if one:
                for j in range(ncls):
                    a[j] = popcount(q_mask[j] & ~pmask)
                    m[j] = popcount(n_mask[j] & ~pmask)
                    b[j] = popcount(s_mask[j] & ~pmask) if contend else a[j]
                    c[j] = popcount(tie_mask[j] & ~pmask) if contend else 0
            else:
                _query(ohands[i], pmask, contend, r, (offsets, mq, ms, mn), (w, torder, sorted_mask, tp, te),
                       (slots, signs, p), (a, b, c, m))
            slot = slot_of[i] - base if slot_of.shape[0] > 0 else -1
            for j in range(ncls):
                if m[j] == 0:
                    continue
                win, push, dealer_wins, raised = decide_raise(a[j], b[j], c[j], m[j], contend, pay, nets)
                settle_hand(loc, weight, a[j], win, push, dealer_wins, raised, m[j], pay)
                loc[SITUATIONS] += weight
                if raised:
                    loc[RAISED_SITUATIONS] += weight
                if 0 <= slot < rec.shape[0]:
                    rec[slot, j, 0] = a[j]
                    rec[slot, j, 1] = b[j]
                    rec[slot, j, 2] = c[j]
                    rec[slot, j, 3] = m[j]
                    rec[slot, j, 4] = 1 if raised else 0
                    rec[slot, j, 5] = weight


@numba.njit(cache=True, inline="always")
def _query(hand, pmask, contend, r, counters, ties, scratch, out):
    """r >= 2: the weighted completions avoiding ``hand`` per signal, by inclusion-exclusion over
    its subsets of at most r cards, into ``out`` = (a below the qualifier, b below the player,
    c equal, m all). ``counters`` = (offsets, mq, ms, mn); ``ties`` = (w, torder, sorted_mask,
    tp, te): the completions of the player's strength are sorted positions tp..te-1."""
    offsets, mq, ms, mn = counters
    w, torder, sorted_mask, tp, te = ties
    slots, signs, p = scratch
    a, b, c, m = out
    ncls = a.shape[0]
    for j in range(5):
        p[j] = hand[j]
    nslots = 0
    for mask in range(32):
        index, sz = subset_colex(p, mask)
        if sz <= r:
            slots[nslots] = offsets[sz] + index
            signs[nslots] = 1 - 2 * (sz & 1)
            nslots += 1
    for j in range(ncls):
        a[j] = 0
        b[j] = 0
        c[j] = 0
        m[j] = 0
    for x in range(nslots):
        sl = slots[x]
        sg = signs[x]
        for j in range(ncls):
            a[j] += sg * mq[sl, j]
            m[j] += sg * mn[sl, j]
        if contend:
            for j in range(ncls):
                b[j] += sg * ms[sl, j]
    if contend:
        for t in range(tp, te):
            if not (sorted_mask[t] & pmask):
                for j in range(ncls):
                    c[j] += w[torder[t], j]
    else:
        for j in range(ncls):
            b[j] = a[j]


@numba.njit(cache=True, nogil=True)
def partial_tasks(first, last, tasks, deal, players, payout, signal, symmetric, acc, records):
    """acc[i] = the sums (PARTIAL_COLUMNS) of task i of ``tasks`` (a Tasks), first <= i < last.

    ``records`` = (slot_of, bases, recs): with recs of shape (tasks, slots, signals,
    RECORD_FIELDS), task i records the hand at strength-order position x to
    recs[i, slot_of[x] - bases[i]]; an empty ``slot_of`` records nothing."""
    slot_of, bases, recs = records
    nothing = np.zeros(0, dtype=np.int64)
    spare = np.zeros((1, 1, RECORD_FIELDS), dtype=np.int64)
    for i in range(first, last):
        loc = np.zeros(PARTIAL_COLUMNS, dtype=np.int64)
        if slot_of.shape[0] > 0:
            recording = Recording(slot_of, bases[i], recs[i])
        else:
            recording = Recording(nothing, np.int64(0), spare)
        partial_task(tasks.seen[i], tasks.lo[i], tasks.hi[i], deal, players, payout, signal, symmetric, loc,
                     recording)
        for col in range(loc.shape[0]):  # a loop: a slice assignment compiles its broadcasting checks
            acc[i, col] = loc[col]
