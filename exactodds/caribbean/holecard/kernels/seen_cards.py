"""Hole-carding kernels: the whole game when K of the dealer's five cards are seen (K = 2..5).

Strengths are integers 0..7461, higher = stronger.

K = 2..4 (``seen_set``): one sweep per seen dealer set Q (one per suit class). The dealer's
completions of Q (r = 5 - K cards from the 52 - K others: 19,600, 1,176 or 48) are sorted
by strength; subset counters M(S) (:mod:`exactodds.counting.kernels.subset_counters`, int16), for
every set S of 0..r cards, count the completions holding S that are weaker than a
threshold. For a player hand P the completions avoiding P and weaker than t number
sum over S subset of P, |S| <= r, of (-1)^|S| M_t(S)  (26, 16 or 6 terms: the unrolled
five-card queries; with r = 1 every M({c}) is 0 or 1 and the sum is a popcount). The
player hands come in strength order, so one set of counters rises with them (below the
player) while another stays below the qualifier; ties are counted from the completions
of exactly the player's strength. Each situation (P, Q) is decided on the spot (raise iff
EV(raise) > EV(fold), an exact tie folds) and only the return-table sums are kept. Suits
with no seen card can be renamed without changing anything, so one player hand per orbit
of those renamings is decided, weighted by the orbit's size. The counters are a few
kilobytes (in cache), unlike a per-player-class query of the 5-card counters of
:mod:`exactodds.caribbean.analysis.kernels.whole_game`, which ran about 6x slower for K = 2 (memory-bound).

K = 5 (``all_known_sweep``): the sweep of :mod:`exactodds.caribbean.analysis.kernels.whole_game` (the
same HandCounters of :mod:`exactodds.counting.kernels.hand_counters`) queried per player class
with no card inserted (``count_avoiding``): the dealer hands disjoint from P and weaker
than t number  sum over S subset of P of (-1)^|S| N_t(S) (N_t of the empty set = all
hands weaker than t). With every card seen the player raises exactly when the outcome
pays more than a fold, so per class three counts suffice.

Inputs are typed bundles: SortedHands and Payout (here), StrengthDeck
(:mod:`exactodds.counting.deck`), PlayerClasses (:mod:`exactodds.caribbean.analysis.kernels.whole_game`).
Accumulator columns (int64) follow :class:`exactodds.counting.layout.Acc`, nets
:class:`exactodds.counting.layout.Net`.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from exactodds.combinatorics import BINOM
from exactodds.counting.kernels.bits import card_mask, colex, popcount, sort_small
from exactodds.counting.kernels.hand_counters import (
    add_levels,
    count_avoiding,
    count_avoiding_pair,
    counters_below,
)
from exactodds.counting.kernels.subset_counters import (
    add_subsets,
    count_avoiding5,
    count_avoiding5_pair,
    new_small_subset_counters,
)
from exactodds.counting.layout import ACC_COLUMNS, Acc, Net

ALL_CARDS = np.uint64((1 << 52) - 1)
RANK_BITS = np.uint64(0x1111111111111)  # bit 4r for ranks r = 0..12: one suit's cards, shifted to suit 0


class Payout(NamedTuple):
    """What the kernels need of a profile: the qualifier, the pay index of every strength
    (-1 below A-K high) and the nets in the Net layout (integers over a common scale)."""

    qualify: int
    pay_of: np.ndarray
    nets: np.ndarray


class SortedHands(NamedTuple):
    """Player hands stored in strength order (for locality): hands of strength s are rows
    level_start[s]:level_start[s + 1]."""

    hands: np.ndarray        # (m, 5) sorted cards
    masks: np.ndarray        # (m,) uint64 card masks
    index: np.ndarray        # (m,) int64 where a recorded result goes (the hand's colex index)
    level_start: np.ndarray  # (levels + 1,) int64


@numba.njit(cache=True, inline="always")
def free_suits(seen, use):
    """The suits with no card in ``seen`` (uint64 shifts 0..3) and how many; none unless ``use``.

    Suits absent from the seen dealer cards can be renamed without changing any count, so
    the player hands of one orbit of those renamings share their situation (orbit_weight)."""
    free = np.zeros(4, dtype=np.uint64)
    nfree = 0
    if use:
        for suit in range(4):
            used = False
            for j in range(seen.shape[0]):
                if seen[j] & 3 == suit:
                    used = True
            if not used:
                free[nfree] = suit
                nfree += 1
    return free, nfree


@numba.njit(cache=True, inline="always")
def orbit_weight(pmask, free, nfree):
    """How many player hands the hand ``pmask`` stands for under renamings of the free suits:
    0 if it is not its orbit's representative (its free suits' rank masks non-increasing),
    else the orbit's size (1, 2, 3 or 6); 1 with fewer than two free suits."""
    if nfree < 2:
        return np.int64(1)
    k0 = (pmask >> free[0]) & RANK_BITS
    k1 = (pmask >> free[1]) & RANK_BITS
    if k0 < k1:
        return np.int64(0)
    if nfree == 2:
        return np.int64(1 if k0 == k1 else 2)
    k2 = (pmask >> free[2]) & RANK_BITS
    if k1 < k2:
        return np.int64(0)
    if k0 == k1 and k1 == k2:
        return np.int64(1)
    if k0 == k1 or k1 == k2:
        return np.int64(3)
    return np.int64(6)


@numba.njit(cache=True, inline="always")
def decide_raise(a, b, c, completions, contend, pay, nets):
    """Outcome counts of one situation and whether to raise.

    a: completions below the qualifier; b: below the player; c: equal to the player.
    Returns (win, push, dealer_wins, raise?).
    """
    if contend:
        win = b - a
        push = c
    else:
        win = np.int64(0)
        push = np.int64(0)
    dealer_wins = completions - a - win - push
    ev = (a * nets[Net.NOT_QUALIFY] + push * nets[Net.PUSH] + dealer_wins * nets[Net.DEALER_WINS])
    if win:
        ev += win * nets[Net.WIN + pay]
    return win, push, dealer_wins, ev > completions * nets[Net.FOLD]


@numba.njit(cache=True, nogil=True)
def seen_completions(seen, live, table, tsubs):
    """The dealer's completions of the seen cards: (cards (nt, r), strengths (nt,)).

    ``live`` is the deck (a uint64 mask), ``tsubs`` every r-subset of positions among the
    live cards outside ``seen`` (ascending), ``table`` the strength of a hand by colex index."""
    k = seen.shape[0]
    r = 5 - k
    seen_mask = card_mask(seen)
    unlab = np.zeros(52, dtype=np.int64)  # the live unseen cards, ascending
    n = 0
    for card in range(52):
        if (live >> np.uint64(card)) & np.uint64(1) and not (seen_mask >> np.uint64(card)) & np.uint64(1):
            unlab[n] = card
            n += 1
    nt = tsubs.shape[0]
    tcards = np.empty((nt, r), dtype=np.int64)
    strength = np.empty(nt, dtype=np.int64)
    cards = np.empty(5, dtype=np.int64)
    for t in range(nt):
        for j in range(k):
            cards[j] = seen[j]
        for x in range(r):
            tcards[t, x] = unlab[tsubs[t, x]]
            cards[k + x] = tcards[t, x]
        sort_small(cards)
        strength[t] = table[colex(cards)]
    return tcards, strength


@numba.njit(cache=True, nogil=True)
def strength_order(tcards, strength):
    """The completions in strength order: (their order, the sorted strengths, their card masks)."""
    torder = np.argsort(strength)
    sorted_mask = np.empty(strength.shape[0], dtype=np.uint64)
    for t in range(strength.shape[0]):
        sorted_mask[t] = card_mask(tcards[torder[t]])
    return torder, strength[torder], sorted_mask


@numba.njit(cache=True, nogil=True)
def seen_set(seen, table, tsubs, players, payout, loc, record, rec):
    """Decide every situation (player hand, this seen dealer set of k = 2..4 cards).

    The dealer's unseen cards are r = 5 - k of the n = 52 - k cards outside ``seen``;
    ``tsubs`` lists every r-subset of positions 0..n-1 among them and ``table`` gives the
    strength of a dealer hand by colex index. Subset counters (int16, the cache-sized
    specialisation, indexed in the full deck) count the completions weaker than a threshold:
    ``mq`` below the qualifier, ``ms`` swept upwards below the player's strength. Player
    hands (SortedHands) come in strength order; ``payout`` is a Payout. Unweighted sums go
    to ``loc`` (Acc layout); with ``record``, rec[0..3, players.index[i]] = (below
    qualifier, below player, equal, raise) of hand i, and every hand is decided on its own.
    """
    qualify, pay_of, nets = payout
    ohands, omasks, order, level_start = players
    k = seen.shape[0]
    r = 5 - k
    completions = BINOM[47 - k, r]  # dealer completions of one situation: C(47 - k, 5 - k)
    seen_mask = card_mask(seen)
    tcards, strength = seen_completions(seen, ALL_CARDS, table, tsubs)  # cards in the full deck
    nt = strength.shape[0]
    torder, sorted_strength, sorted_mask = strength_order(tcards, strength)

    # int16 is enough (at most C(50, 3) = 19,600 completions) and keeps both counter sets in L2.
    mq = new_small_subset_counters(52, r)
    ms = new_small_subset_counters(52, r)
    for ti in range(nt):
        if strength[ti] < qualify:
            add_subsets(mq, tcards[ti], 1)
    p = np.empty(5, dtype=np.int64)
    by_below = np.zeros(completions + 1, dtype=np.int64)  # hands that cannot win, by a
    free, nfree = free_suits(seen, not record)  # suits with no seen card (not used when recording)
    # r = 1: a completion is one card, so M(S) for one card is 0 or 1 and each query is a
    # popcount: below = (completions below) - (player's cards among them).
    below_q_mask = np.uint64(0)
    below_s_mask = np.uint64(0)
    tie_mask = np.uint64(0)
    if r == 1:
        for j in range(nt):
            if sorted_strength[j] < qualify:
                below_q_mask |= sorted_mask[j]
    tp = 0
    te = 0
    for s in range(level_start.shape[0] - 1):
        contend = s >= qualify
        if contend:
            while tp < nt and sorted_strength[tp] < s:
                if r == 1:
                    below_s_mask |= sorted_mask[tp]
                    ms.counts[0] += 1
                else:
                    add_subsets(ms, tcards[torder[tp]], 1)
                tp += 1
            te = tp
            tie_mask = np.uint64(0)
            while te < nt and sorted_strength[te] == s:
                tie_mask |= sorted_mask[te]
                te += 1
        pay = pay_of[s]
        for i in range(level_start[s], level_start[s + 1]):
            pmask = omasks[i]
            if pmask & seen_mask:
                continue
            weight = orbit_weight(pmask, free, nfree)
            if weight == 0:
                continue
            c = np.int64(0)
            if r == 1:
                a = np.int64(mq.counts[0]) - popcount(pmask & below_q_mask)
                b = np.int64(ms.counts[0]) - popcount(pmask & below_s_mask) if contend else a
                if contend:
                    c = (te - tp) - popcount(pmask & tie_mask)
            else:
                for j in range(5):
                    p[j] = ohands[i, j]
                if contend:
                    a, b = count_avoiding5_pair(mq, ms, p)
                    for j in range(tp, te):
                        if not (sorted_mask[j] & pmask):
                            c += 1
                else:
                    a = count_avoiding5(mq, p)
                    b = a
            if not contend and not record:
                by_below[a] += weight  # settled below: a hand that cannot win is decided by a alone
                continue
            win, push, dealer_wins, raised = decide_raise(a, b, c, completions, contend, pay, nets)
            if record:
                h = order[i]
                rec[0, h] = a
                rec[1, h] = b
                rec[2, h] = c
                rec[3, h] = 1 if raised else 0
                if not contend:
                    by_below[a] += 1
                    continue
            settle_hand(loc, weight, a, win, push, dealer_wins, raised, completions, pay)
    zero = np.int64(0)
    for a in range(completions + 1):
        if by_below[a]:
            below = np.int64(a)
            _, _, dealer_wins, raised = decide_raise(below, below, zero, completions, False, 0, nets)
            settle_hand(loc, by_below[a], below, zero, zero, dealer_wins, raised, completions, 0)


@numba.njit(cache=True, inline="always")
def settle_hand(loc, n, a, win, push, dealer_wins, raised, completions, pay):
    """Add ``n`` situations with these outcome counts and this decision to the sums ``loc``."""
    loc[Acc.DEALER_QUALIFIES] += n * (completions - a)
    if raised:
        loc[Acc.WIN + pay] += n * win
        loc[Acc.NOT_QUALIFY] += n * a
        loc[Acc.PUSH] += n * push
        loc[Acc.DEALER_WINS] += n * dealer_wins
        loc[Acc.RAISED] += n * completions
    else:
        loc[Acc.FOLD] += n * completions


@numba.njit(cache=True, nogil=True)
def seen_sets(lo, hi, seen_sets_, table, tsubs, players, payout, acc):
    """acc[i] = unweighted return-table sums of seen set i (rows of ``seen_sets_``), lo <= i < hi."""
    rec = np.zeros((4, 1), dtype=np.int32)
    record = lo > hi  # False, as a value: a constant would compile seen_set once more for it
    for i in range(lo, hi):
        loc = np.zeros(ACC_COLUMNS, dtype=np.int64)
        seen_set(seen_sets_[i], table, tsubs, players, payout, loc, record, rec)
        for col in range(loc.shape[0]):  # a loop: a slice assignment compiles its broadcasting checks
            acc[i, col] = loc[col]


@numba.njit(cache=True, nogil=True)
def all_known_class(player, contend, pay, deck, qualify_counters, sweep_counters, level, payout, loc):
    """K = 5: sum the return table of one player class over every dealer hand disjoint from it.

    ``qualify_counters`` / ``sweep_counters`` (HandCounters) hold the deck's hands weaker
    than the qualifier / than ``level``, the player's strength. Each (player, dealer)
    situation has one outcome; the player raises when that outcome pays more than a fold.
    """
    qualify, _, nets = payout
    dealer_hands = BINOM[47, 5]
    if contend:
        a, b = count_avoiding_pair(qualify_counters, sweep_counters, player, deck.level_start[qualify],
                                   deck.level_start[level])
    else:
        a = count_avoiding(qualify_counters, player, deck.level_start[qualify])
        b = a
    c = np.int64(0)
    if contend:
        taken = card_mask(player)
        for i in range(deck.level_start[level], deck.level_start[level + 1]):
            if not (deck.masks[deck.order[i]] & taken):
                c += 1
    win, push, dealer_wins, _ = decide_raise(a, b, c, dealer_hands, contend, pay, nets)
    loc[Acc.DEALER_QUALIFIES] += dealer_hands - a
    _settle_all(a, nets[Net.NOT_QUALIFY], Acc.NOT_QUALIFY, nets[Net.FOLD], loc)
    _settle_all(push, nets[Net.PUSH], Acc.PUSH, nets[Net.FOLD], loc)
    _settle_all(dealer_wins, nets[Net.DEALER_WINS], Acc.DEALER_WINS, nets[Net.FOLD], loc)
    if win:
        _settle_all(win, nets[Net.WIN + pay], Acc.WIN + pay, nets[Net.FOLD], loc)


@numba.njit(cache=True, inline="always")
def _settle_all(count, net, column, fold, loc):
    """``count`` situations with one known outcome: raise (into ``column``) iff it beats a fold."""
    if net > fold:
        loc[column] += count
        loc[Acc.RAISED] += count
    else:
        loc[Acc.FOLD] += count


@numba.njit(cache=True, nogil=True)
def all_known_sweep(first, last, deck, classes, bounds, payout, qualify_counters, acc):
    """K = 5: sweep the strength chunks [bounds[i], bounds[i+1]), first <= i < last, over the
    player classes (PlayerClasses); acc[i] gets chunk i's weighted sums (Acc layout).
    ``qualify_counters`` hold the deck's hands below the qualifier."""
    qualify, pay_of, _ = payout
    for chunk in range(first, last):
        lo = bounds[chunk]
        hi = bounds[chunk + 1]
        sweep_counters = counters_below(deck, lo)
        loc = np.zeros(ACC_COLUMNS, dtype=np.int64)
        for s in range(lo, hi):
            contend = s >= qualify
            for r in range(classes.level_start[s], classes.level_start[s + 1]):
                loc[:] = 0
                all_known_class(classes.players[r], contend, pay_of[classes.strength[r]], deck,
                                qualify_counters, sweep_counters, s, payout, loc)
                for col in range(ACC_COLUMNS):
                    acc[chunk, col] += classes.weights[r] * loc[col]
            add_levels(sweep_counters, deck, s, s + 1)
