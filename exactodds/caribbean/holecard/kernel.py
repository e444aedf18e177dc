"""Hole-carding kernels: the whole game when K of the dealer's five cards are seen (K = 2..5).

Strengths are integers 0..7461, higher = stronger.

K = 2..4 (``seen_set``): one sweep per seen dealer set Q (one per suit class). The dealer's
completions of Q (r = 5 - K cards from the 52 - K others: 19,600, 1,176 or 48) are sorted
by strength; counters M(S), for every set S of 0..r cards, count the completions holding
S that are weaker than a threshold. For a player hand P the completions avoiding P and
weaker than t number  sum over S subset of P, |S| <= r, of (-1)^|S| M_t(S)  (26, 16 or
6 terms; with r = 1 every M({c}) is 0 or 1 and the sum is a popcount). The player hands
come in strength order, so one set of counters rises with them (below the player) while
another stays below the qualifier; ties are counted from the completions of exactly the
player's strength. Each situation (P, Q) is decided on the spot (raise iff EV(raise) >
EV(fold), an exact tie folds) and only the return-table sums are kept. Suits with no seen
card can be renamed without changing anything, so one player hand per orbit of those
renamings is decided, weighted by the orbit's size. The counters are
a few kilobytes (in cache), unlike a per-player-class query of the 5-card counters of
:mod:`exactodds.caribbean.analysis.counting`, which ran about 6x slower for K = 2 (memory-bound).

K = 5 (``all_known_sweep``): the sweep of :mod:`exactodds.caribbean.analysis.counting` (same
counters, same ``_add_hand``) queried per player class with no card inserted: the dealer
hands disjoint from P and weaker than t number  sum over S subset of P of (-1)^|S| N_t(S)
(N_t of the empty set = all hands weaker than t). With every card seen the player raises
exactly when the outcome pays more than a fold, so per class three counts suffice.

Accumulator columns (int64): ACC_WIN + pay index (10 paid categories), then not-qualify,
push, fold, dealer wins (deal counts), raised deals, and deals where the dealer qualifies.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from exactodds.caribbean.analysis.counting import _add_hand, _new_counters

ACC_WIN = 0          # 10 columns, one per paid category (pay index 0 = A-K high)
ACC_NOT_QUALIFY = 10
ACC_PUSH = 11
ACC_FOLD = 12
ACC_DEALER_WINS = 13
ACC_RAISED = 14
ACC_DEALER_QUALIFIES = 15
ACC_COLUMNS = 16
RANK_BITS = np.uint64(0x1111111111111)  # bit 4r for ranks r = 0..12: one suit's cards, shifted to suit 0

# nets[] layout (scaled integers): not qualify, push, dealer wins, fold, then 10 win nets.
NET_NOT_QUALIFY, NET_PUSH, NET_DEALER_WINS, NET_FOLD, NET_WIN = 0, 1, 2, 3, 4


@intrinsic
def _popcount(typingctx, x):
    """Number of set bits of an unsigned integer (LLVM ctpop: one instruction on x86-64)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = args[0]
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(value.type, [value.type]),
                                            f"llvm.ctpop.i{value.type.width}")
        return context.cast(builder, builder.call(fn, [value]), x, types.int64)

    return types.int64(x), codegen


@numba.njit(cache=True)
def counters_below(hands, order, level_start, level, binom):
    """The sweep counters holding every hand weaker than ``level``."""
    c1, c2, c3, c4, bits = _new_counters()
    for i in range(level_start[level]):
        _add_hand(order[i], hands[order[i]], c1, c2, c3, c4, bits, binom)
    return c1, c2, c3, c4, bits


@numba.njit(cache=True, inline="always")
def _lookup(size, index, c1, c2, c3, c4, bits):
    """N_t of the card set of this size with this colex index (sizes 1..5)."""
    if size == 5:
        return np.int64((bits[index >> 3] >> (index & 7)) & 1)
    if size == 4:
        return np.int64(c4[index])
    if size == 3:
        return np.int64(c3[index])
    if size == 2:
        return np.int64(c2[index])
    return np.int64(c1[index])


@numba.njit(cache=True, inline="always")
def _decide(a, b, c, completions, contend, pay, nets):
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
    ev = (a * nets[NET_NOT_QUALIFY] + push * nets[NET_PUSH] + dealer_wins * nets[NET_DEALER_WINS])
    if win:
        ev += win * nets[NET_WIN + pay]
    return win, push, dealer_wins, ev > completions * nets[NET_FOLD]


@numba.njit(cache=True, inline="always")
def _add_completion(m, t, r, offsets, binom):
    """Count one dealer completion (its r relabelled cards ``t``, sorted) in every subset's counter."""
    for mask in range(1 << r):
        index = 0
        size = 0
        for j in range(r):
            if (mask >> j) & 1:
                index += binom[t[j], size + 1]
                size += 1
        m[offsets[size] + index] += 1


@numba.njit(cache=True, inline="always")
def _query_seen(p, r, o1, o2, o3, binom, m):
    """Completions counted in ``m`` that avoid the player's relabelled cards p (sorted):
    the sum over S subset of p, |S| <= r, of (-1)^|S| M(S). One loop nest per r, so that
    each is a fixed-shape nest the compiler unrolls."""
    total = np.int64(m[0])
    if r == 3:
        for x in range(5):
            ix = p[x]
            total -= m[o1 + ix]
            for y in range(x + 1, 5):
                iy = ix + binom[p[y], 2]
                total += m[o2 + iy]
                for z in range(y + 1, 5):
                    total -= m[o3 + iy + binom[p[z], 3]]
    elif r == 2:
        for x in range(5):
            ix = p[x]
            total -= m[o1 + ix]
            for y in range(x + 1, 5):
                total += m[o2 + ix + binom[p[y], 2]]
    else:
        for x in range(5):
            total -= m[o1 + p[x]]
    return total


@numba.njit(cache=True, inline="always")
def _query_seen2(p, r, o1, o2, o3, binom, mq, ms):
    """_query_seen on two counter sets at once (same indices): (from mq, from ms)."""
    a = np.int64(mq[0])
    b = np.int64(ms[0])
    if r == 3:
        for x in range(5):
            ix = p[x]
            a -= mq[o1 + ix]
            b -= ms[o1 + ix]
            for y in range(x + 1, 5):
                iy = ix + binom[p[y], 2]
                a += mq[o2 + iy]
                b += ms[o2 + iy]
                for z in range(y + 1, 5):
                    iz = o3 + iy + binom[p[z], 3]
                    a -= mq[iz]
                    b -= ms[iz]
    elif r == 2:
        for x in range(5):
            ix = p[x]
            a -= mq[o1 + ix]
            b -= ms[o1 + ix]
            for y in range(x + 1, 5):
                iy = o2 + ix + binom[p[y], 2]
                a += mq[iy]
                b += ms[iy]
    else:
        for x in range(5):
            a -= mq[o1 + p[x]]
            b -= ms[o1 + p[x]]
    return a, b


@numba.njit(cache=True)
def seen_set(seen, table, ohands, omasks, order, level_start, tsubs, qualify, pay_of, nets, completions,
             binom, loc, record, rec):
    """Decide every situation (player hand, this seen dealer set of k = 2..4 cards).

    The dealer's unseen cards are r = 5 - k of the n = 52 - k cards outside ``seen``;
    ``tsubs`` lists every r-subset of positions 0..n-1 among them. The counters M(S) (S of
    0..r cards, by colex index in the full deck) count the completions holding S whose
    dealer hand is weaker than a threshold: ``mq`` below the qualifier, ``ms`` swept upwards below the
    player's strength. Player hands come in strength order (``ohands``, ``omasks``: cards
    and card masks of the hands sorted by strength, ``level_start`` per strength).
    Unweighted sums go to ``loc``; with ``record``, rec[0..3, colex of the player hand] =
    (below qualifier, below player, equal, raise).
    """
    k = seen.shape[0]
    n = 52 - k
    r = 5 - k
    seen_mask = np.uint64(0)
    for j in range(k):
        seen_mask |= np.uint64(1) << np.uint64(seen[j])
    unlab = np.zeros(n, dtype=np.int64)  # the unseen cards, ascending
    i = 0
    for card in range(52):
        if not (seen_mask >> np.uint64(card)) & np.uint64(1):
            unlab[i] = card
            i += 1
    # Counters are indexed by the colex index of the card set in the full deck (sizes 0..r).
    offsets = np.zeros(5, dtype=np.int64)
    for size in range(r + 1):
        offsets[size + 1] = offsets[size] + binom[52, size]

    nt = tsubs.shape[0]
    strength = np.empty(nt, dtype=np.int64)
    cards = np.empty(5, dtype=np.int64)
    for ti in range(nt):
        for j in range(k):
            cards[j] = seen[j]
        for j in range(r):
            cards[k + j] = unlab[tsubs[ti, j]]
        cards.sort()
        index = 0
        for j in range(5):
            index += binom[cards[j], j + 1]
        strength[ti] = table[index]
    torder = np.argsort(strength)
    sorted_strength = strength[torder]
    sorted_mask = np.zeros(nt, dtype=np.uint64)
    tcards = np.empty((nt, r), dtype=np.int64)  # each completion's cards, in the full deck
    for ti in range(nt):
        for x in range(r):
            tcards[ti, x] = unlab[tsubs[ti, x]]
    for j in range(nt):
        for x in range(r):
            sorted_mask[j] |= np.uint64(1) << np.uint64(tcards[torder[j], x])

    # int16 is enough (at most C(50, 3) = 19,600 completions) and keeps both counter sets in L2.
    mq = np.zeros(offsets[r + 1], dtype=np.int16)
    ms = np.zeros(offsets[r + 1], dtype=np.int16)
    for ti in range(nt):
        if strength[ti] < qualify:
            _add_completion(mq, tcards[ti], r, offsets, binom)
    p = np.empty(5, dtype=np.int64)
    by_below = np.zeros(completions + 1, dtype=np.int64)  # hands that cannot win, by a
    free = np.zeros(4, dtype=np.uint64)  # suits with no seen card (not used when recording)
    nfree = 0
    for suit in range(4):
        used = False
        for j in range(k):
            if seen[j] & 3 == suit:
                used = True
        if not used and not record:
            free[nfree] = suit
            nfree += 1
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
                    ms[0] += 1
                else:
                    _add_completion(ms, tcards[torder[tp]], r, offsets, binom)
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
            weight = np.int64(1)
            if nfree >= 2:
                # Suits absent from the seen set can be renamed freely: keep one hand per orbit
                # (its free suits' rank masks non-increasing) and weigh it by the orbit size.
                k0 = (pmask >> free[0]) & RANK_BITS
                k1 = (pmask >> free[1]) & RANK_BITS
                if k0 < k1:
                    continue
                if nfree == 2:
                    weight = 1 if k0 == k1 else 2
                else:
                    k2 = (pmask >> free[2]) & RANK_BITS
                    if k1 < k2:
                        continue
                    if k0 == k1 and k1 == k2:
                        weight = 1
                    elif k0 == k1 or k1 == k2:
                        weight = 3
                    else:
                        weight = 6
            c = np.int64(0)
            if r == 1:
                a = np.int64(mq[0]) - _popcount(pmask & below_q_mask)
                b = np.int64(ms[0]) - _popcount(pmask & below_s_mask) if contend else a
                if contend:
                    c = (te - tp) - _popcount(pmask & tie_mask)
            else:
                for j in range(5):
                    p[j] = ohands[i, j]
                if contend:
                    a, b = _query_seen2(p, r, offsets[1], offsets[2], offsets[3], binom, mq, ms)
                    for j in range(tp, te):
                        if not (sorted_mask[j] & pmask):
                            c += 1
                else:
                    a = _query_seen(p, r, offsets[1], offsets[2], offsets[3], binom, mq)
                    b = a
            if not contend and not record:
                by_below[a] += weight  # settled below: a hand that cannot win is decided by a alone
                continue
            win, push, dealer_wins, raised = _decide(a, b, c, completions, contend, pay, nets)
            if record:
                h = order[i]
                rec[0, h] = a
                rec[1, h] = b
                rec[2, h] = c
                rec[3, h] = 1 if raised else 0
                if not contend:
                    by_below[a] += 1
                    continue
            _settle(loc, weight, a, win, push, dealer_wins, raised, completions, pay)
    zero = np.int64(0)
    for a in range(completions + 1):
        if by_below[a]:
            below = np.int64(a)
            _, _, dealer_wins, raised = _decide(below, below, zero, completions, False, 0, nets)
            _settle(loc, by_below[a], below, zero, zero, dealer_wins, raised, completions, 0)


@numba.njit(cache=True, inline="always")
def _settle(loc, n, a, win, push, dealer_wins, raised, completions, pay):
    """Add ``n`` situations with these outcome counts and this decision to the sums ``loc``."""
    loc[ACC_DEALER_QUALIFIES] += n * (completions - a)
    if raised:
        loc[ACC_WIN + pay] += n * win
        loc[ACC_NOT_QUALIFY] += n * a
        loc[ACC_PUSH] += n * push
        loc[ACC_DEALER_WINS] += n * dealer_wins
        loc[ACC_RAISED] += n * completions
    else:
        loc[ACC_FOLD] += n * completions


@numba.njit(cache=True, parallel=True)
def seen_sets(seen_sets_, table, ohands, omasks, order, level_start, tsubs, qualify, pay_of, nets,
              completions, binom, acc):
    """acc[i] = unweighted return-table sums of seen set i (rows of ``seen_sets_``), in parallel."""
    rec = np.zeros((4, 1), dtype=np.int32)
    for i in numba.prange(seen_sets_.shape[0]):
        loc = np.zeros(ACC_COLUMNS, dtype=np.int64)
        seen_set(seen_sets_[i], table, ohands, omasks, order, level_start, tsubs, qualify, pay_of, nets,
                 completions, binom, loc, False, rec)
        acc[i, :] = loc


@numba.njit(cache=True)
def all_known_class(player, contend, pay, below_q, below_s, level_lo, level_hi, hand_masks, order,
                    qc1, qc2, qc3, qc4, qbits, sc1, sc2, sc3, sc4, sbits, dealer_hands, nets, binom, loc):
    """K = 5: sum the return table of one player class over every dealer hand disjoint from it.

    ``below_q`` / ``below_s``: hands weaker than the qualifier / the player in all (the
    empty-set term). Each (player, dealer) situation has one outcome; the player raises
    when that outcome pays more than a fold.
    """
    a = np.int64(0)
    b = np.int64(0)
    for m in range(32):
        index = 0
        i = 0
        for j in range(5):
            if (m >> j) & 1:
                index += binom[player[j], i + 1]
                i += 1
        if i == 0:
            a += below_q
            b += below_s
            continue
        sign = 1 - 2 * (i & 1)
        a += sign * _lookup(i, index, qc1, qc2, qc3, qc4, qbits)
        if contend:
            b += sign * _lookup(i, index, sc1, sc2, sc3, sc4, sbits)
    c = np.int64(0)
    if contend:
        taken = np.uint64(0)
        for j in range(5):
            taken |= np.uint64(1) << np.uint64(player[j])
        for i in range(level_lo, level_hi):
            if not (hand_masks[order[i]] & taken):
                c += 1
    win, push, dealer_wins, _ = _decide(a, b, c, dealer_hands, contend, pay, nets)
    loc[ACC_DEALER_QUALIFIES] += dealer_hands - a
    _settle_all(a, nets[NET_NOT_QUALIFY], ACC_NOT_QUALIFY, nets[NET_FOLD], loc)
    _settle_all(push, nets[NET_PUSH], ACC_PUSH, nets[NET_FOLD], loc)
    _settle_all(dealer_wins, nets[NET_DEALER_WINS], ACC_DEALER_WINS, nets[NET_FOLD], loc)
    if win:
        _settle_all(win, nets[NET_WIN + pay], ACC_WIN + pay, nets[NET_FOLD], loc)


@numba.njit(cache=True, inline="always")
def _settle_all(count, net, column, fold, loc):
    """``count`` situations with one known outcome: raise (into ``column``) iff it beats a fold."""
    if net > fold:
        loc[column] += count
        loc[ACC_RAISED] += count
    else:
        loc[ACC_FOLD] += count


@numba.njit(cache=True, parallel=True)
def all_known_sweep(hands, order, level_start, hand_masks, players, weights, pay_index, player_level_start,
                    bounds, qualify, qc1, qc2, qc3, qc4, qbits, dealer_hands, nets, binom, acc):
    """K = 5: sweep strength chunks [bounds[i], bounds[i+1]) in parallel; acc[i] gets chunk i's
    weighted sums."""
    for chunk in numba.prange(len(bounds) - 1):
        lo = bounds[chunk]
        hi = bounds[chunk + 1]
        sc1, sc2, sc3, sc4, sbits = counters_below(hands, order, level_start, lo, binom)
        loc = np.zeros(ACC_COLUMNS, dtype=np.int64)
        for s in range(lo, hi):
            contend = s >= qualify
            for r in range(player_level_start[s], player_level_start[s + 1]):
                loc[:] = 0
                all_known_class(players[r], contend, pay_index[r], level_start[qualify], level_start[s],
                                level_start[s], level_start[s + 1], hand_masks, order,
                                qc1, qc2, qc3, qc4, qbits, sc1, sc2, sc3, sc4, sbits,
                                dealer_hands, nets, binom, loc)
                for col in range(ACC_COLUMNS):
                    acc[chunk, col] += weights[r] * loc[col]
            for i in range(level_start[s], level_start[s + 1]):
                _add_hand(order[i], hands[order[i]], sc1, sc2, sc3, sc4, sbits, binom)
