"""Compiled rank-level counting for exact four-way stud equity (integers only).

Each player's completions are *items*
(:class:`~exactodds.stud.equity.rank_profile.fourway.Items`): rank classes (G, every card set at
its rank strength, whatever its suits), and for a player whose known cards share a suit, the
+1/-1 flush entries of the classes holding a flush set (Delta). Two outer players' items are
enumerated in pairs, grouped by what the two inner players see (:func:`outer_pairs`): the
combined rank profile and the ranks of the inner players' suits that the outer flush sets take.
Per group, one strength-ordered sweep of the inner players' items (:func:`inner_sweep`) answers
every pair in it: it keeps two sets of transformed counters
(:func:`exactodds.stud.equity.rank_profile.kernels.primitives.add_transformed`), each inner item
querying the other player's counters and then entering its own, and records at every strength s:

* ``below[e]``: the disjoint inner pairs with both strengths below s;
* ``c_top[e]``: pairs of the C item at s with the D items below s (``d_top`` likewise);
* ``level[e]``: pairs of the C and D items both at s.

An outer pair with strengths (t_a, t_b) and h = max(t_a, t_b) then reads its outcomes at h.
The kernel of a pair of items on a shared rank (x: the querying item's cards of rank r, y: the
counter item's) depends on their kinds, all integers:

* a class in counters: ``C(m - x, y) - C(m, y)`` (:func:`.primitives.disjoint_table`), its own
  factor ``C(m, y)`` on its other ranks;
* a flush set in counters, a class querying: ``C(m - y, x) - C(m, x)``, the class's own factor
  ``C(m, x)`` applied at query time;
* flush sets against flush sets: compatible unless of one suit and sharing a rank.

Outcome counts are ``out[p, t]`` as in :mod:`exactodds.stud.equity.kernels.deal_counts`; players are
numbered A, B, C, D = 0..3 here and reordered by the caller. A group's counts fit int64 (the caller
checks a bound); their sum over the groups of a call is kept in two int64 words, ``high * 2**bits +
low`` (:func:`add_wide`), so that a position of more than 2**63 deals (the first round has 1.4e20)
is counted exactly; the caller adds the calls' words as Python integers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exactodds.stud.equity.rank_profile.kernels.primitives import (
    add_transformed,
    choose,
    class_u,
    class_weight,
    compatible,
    counter_sum,
    disjoint_table,
)

CLASS = 0  # an item holding every card set of a rank class
FLUSH = 1  # an item holding one flush set (sign +1 at its flush strength, -1 at its rank strength)


@njit(cache=True, inline="always")
def _pair_weight(avail: np.ndarray, a, i: int, b, j: int, suit_a: int, suit_b: int) -> int:
    """Card-set pairs of outer items i (of A) and j (of B) that can be dealt together, signed."""
    ka = a.kind[i]
    kb = b.kind[j]
    if ka == FLUSH and kb == FLUSH:
        if not compatible(suit_a, a.mask[i], suit_b, b.mask[j]):
            return 0
        return a.sign[i] * b.sign[j]
    w = a.sign[i] * b.sign[j]
    for r in range(13):
        x = a.prof[i, r]
        y = b.prof[j, r]
        if x == 0 and y == 0:
            continue
        m = avail[r]
        if ka == CLASS and kb == CLASS:
            w *= choose(m, x) * choose(m - x, y)
        elif ka == FLUSH:
            w *= choose(m - x, y)
        else:
            w *= choose(m - y, x)
        if w == 0:
            return 0
    return w


PROFILE_BITS = 31  # a combined rank profile in base 5 (at most 4 cards of a rank) is below 2**31
MASK = (1 << 13) - 1


@njit(cache=True, nogil=True)
def outer_pairs(avail: np.ndarray, a, b, suits: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every outer item pair with a nonzero weight, grouped by what the inner players see.

    ``suits`` holds the suits of A and B and of the inner players C and D when their flush
    sets are swept (-1 otherwise). A group shares the combined rank profile and, for each such
    inner player, the ranks of its suit that A's and B's flush sets take. Returns
    ``(pairs, starts, keys)``: ``pairs[k] = (i, j, weight)`` sorted by group, group g's pairs
    are ``pairs[starts[g]:starts[g + 1]]`` and its key ``keys[g]`` (:func:`taken_ranks`).
    """
    na = a.prof.shape[0]
    nb = b.prof.shape[0]
    raw = np.zeros((na * nb, 4), np.int64)
    n = 0
    for i in range(na):
        for j in range(nb):
            w = _pair_weight(avail, a, i, b, j, suits[0], suits[1])
            if w == 0:
                continue
            key = 0
            for r in range(13):
                key = key * 5 + a.prof[i, r] + b.prof[j, r]
            for k in range(2):
                taken = 0
                if suits[2 + k] >= 0:
                    if a.kind[i] == FLUSH and suits[0] == suits[2 + k]:
                        taken |= a.mask[i]
                    if b.kind[j] == FLUSH and suits[1] == suits[2 + k]:
                        taken |= b.mask[j]
                key |= taken << (PROFILE_BITS + 13 * k)
            raw[n, 0] = key
            raw[n, 1] = i
            raw[n, 2] = j
            raw[n, 3] = w
            n += 1
    raw = raw[:n]
    order = np.argsort(raw[:, 0], kind="mergesort")
    pairs = np.zeros((n, 3), np.int64)
    starts = np.zeros(n + 1, np.int64)
    keys = np.zeros(n, np.int64)
    groups = 0
    for k in range(n):
        row = raw[order[k]]
        if k == 0 or row[0] != raw[order[k - 1], 0]:
            starts[groups] = k
            keys[groups] = row[0]
            groups += 1
        pairs[k, 0] = row[1]
        pairs[k, 1] = row[2]
        pairs[k, 2] = row[3]
    starts[groups] = n
    return pairs, starts[: groups + 1], keys[:groups]


@njit(cache=True, inline="always")
def taken_ranks(key: int, k: int) -> int:
    """Rank mask of inner player k's suit (0: C, 1: D) taken by the group's outer flush sets."""
    return (key >> (PROFILE_BITS + 13 * k)) & MASK


@njit(cache=True, nogil=True)
def _flush_table(rest: np.ndarray, other_flush: bool, same_suit: bool) -> np.ndarray:
    """The shared-rank kernel ``T[r, x, y]`` with which flush entries enter their counters (module
    doc; x: the querying item's cards of rank r, y: the entering flush set's): against classes, or
    against flush sets (of the same suit or not)."""
    T = np.zeros((13, 5, 5), np.int64)
    for r in range(13):
        if other_flush:
            T[r, 1, 1] = -1 if same_suit else 0
            continue
        for x in range(1, 5):
            for y in range(1, 5):
                T[r, x, y] = choose(rest[r] - y, x) - choose(rest[r], x)
    return T


@njit(cache=True, inline="always")
def _weighted_sum(rows, i: int, V: np.ndarray, u: np.ndarray) -> int:
    """Sum of the counters over the sub-multisets of class i of ``rows``, each times the class's own
    factor ``u`` over its ranks outside it (a class querying flush sets in counters)."""
    total = 0
    for sub in range(1 << rows.size[i]):
        f = 1
        for j in range(rows.size[i]):
            if not (sub >> j) & 1:
                f *= u[rows.ranks[i, j], rows.mult[i, j]]
        total += f * V[rows.slots[i, sub]]
    return total


@njit(cache=True, inline="always")
def _avoiding(rest: np.ndarray, fixed, k: int, items, rows, j: int) -> int:
    """Card sets of the class of item j (``items`` over ``rows``) disjoint from one card set of
    item k of ``fixed``."""
    i = items.cls[j]
    w = 1
    for n in range(rows.size[i]):
        r = rows.ranks[i, n]
        w *= choose(rest[r] - fixed.prof[k, r], rows.mult[i, n])
    return w


@njit(cache=True, nogil=True)
def inner_sweep(rest: np.ndarray, c, c_rows, d, d_rows, key: int, kstart: np.ndarray,
                kmult: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The strength-ordered sweep of the inner players' items ``c`` and ``d`` (over their Profiles
    ``c_rows``, ``d_rows``) in the deck ``rest``, for the outer pair group ``key`` (:func:`outer_pairs`).

    Returns ``(strength, table)``: the distinct strengths held by a live C or D item,
    ascending, and ``table[e] = (below, c_top, d_top, level)`` at each (module doc), with
    one more row at the end holding the total of all pairs in ``below``.
    """
    gen_u = class_u(rest)
    D = disjoint_table(rest)
    # Each side holds one kind of item: classes enter the counters with their own factor and D,
    # flush entries with their sign and a flush table.
    c_flush = c.kind.shape[0] > 0 and c.kind[0] == FLUSH
    d_flush = d.kind.shape[0] > 0 and d.kind[0] == FLUSH
    same_suit = c_rows.suit == d_rows.suit
    c_u, c_table = gen_u, D
    if c_flush:
        c_u, c_table = np.ones((13, 5), np.int64), _flush_table(rest, d_flush, same_suit)
    d_u, d_table = gen_u, D
    if d_flush:
        d_u, d_table = np.ones((13, 5), np.int64), _flush_table(rest, c_flush, same_suit)
    c_taken = taken_ranks(key, 0)
    d_taken = taken_ranks(key, 1)
    nk = kmult.shape[0]
    vc = np.zeros(nk, np.int64)  # C's items swept so far (D queries them)
    vd = np.zeros(nk, np.int64)  # D's items swept so far (C queries them)
    nc = c.strength.shape[0]
    nd = d.strength.shape[0]
    strength = np.zeros(nc + nd, np.int64)
    table = np.zeros((nc + nd + 1, 4), np.int64)
    below = 0
    e = 0
    y = 0
    z = 0
    while y < nc or z < nd:
        sy = c.strength[y] if y < nc else 1 << 40
        sz = d.strength[z] if z < nd else 1 << 40
        s = min(sy, sz)
        # An item's card sets: a class's size, or a flush entry's sign (0 when the outer flush
        # sets take one of its ranks of its suit). Written out here for each side, not in helpers
        # (a deliberate kernel specialisation): numba's inlining of a helper with branches leaves
        # reference counting in this loop.
        wy = 0
        if sy == s:
            if c.kind[y] == CLASS:
                wy = class_weight(c_rows, c.cls[y], rest)
            elif (c.mask[y] & c_taken) == 0:
                wy = c.sign[y]
        wz = 0
        if sz == s:
            if d.kind[z] == CLASS:
                wz = class_weight(d_rows, d.cls[z], rest)
            elif (d.mask[z] & d_taken) == 0:
                wz = d.sign[z]
        if wy != 0 or wz != 0:
            # Pairs with the other side's items in counters; a class against flush sets applies
            # its own factor outside each sub-multiset.
            c_top = 0
            if wy != 0:
                if c.kind[y] == FLUSH or not d_flush:
                    c_top = wy * counter_sum(c_rows, c.cls[y], vd)
                else:
                    c_top = _weighted_sum(c_rows, c.cls[y], vd, gen_u)
            d_top = 0
            if wz != 0:
                if d.kind[z] == FLUSH or not c_flush:
                    d_top = wz * counter_sum(d_rows, d.cls[z], vc)
                else:
                    d_top = _weighted_sum(d_rows, d.cls[z], vc, gen_u)
            level = 0
            if wy != 0 and wz != 0:
                if c_flush and d_flush:
                    level = wy * wz if compatible(c_rows.suit, c.mask[y], d_rows.suit, d.mask[z]) else 0
                elif d_flush:
                    level = wz * _avoiding(rest, d, z, c, c_rows, y)
                else:
                    level = wy * _avoiding(rest, c, y, d, d_rows, z)
            strength[e] = s
            table[e, 0] = below
            table[e, 1] = c_top
            table[e, 2] = d_top
            table[e, 3] = level
            below += c_top + d_top + level
            if wy != 0:
                add_transformed(c_rows, c.cls[y], wy if c_flush else 1, c_u, c_table, vc, kstart, kmult)
            if wz != 0:
                add_transformed(d_rows, d.cls[z], wz if d_flush else 1, d_u, d_table, vd, kstart, kmult)
            e += 1
        if sy == s:
            y += 1
        if sz == s:
            z += 1
    table[e, 0] = below
    return strength[:e], table[: e + 1]


@njit(cache=True, inline="always")
def _share(out: np.ndarray, top_a: bool, top_b: bool, top_c: bool, top_d: bool, count: int) -> None:
    """Add ``count`` deals won by the players flagged as holding the top strength."""
    if count == 0:
        return
    k = int(top_a) + int(top_b) + int(top_c) + int(top_d)
    if top_a:
        out[0, k] += count
    if top_b:
        out[1, k] += count
    if top_c:
        out[2, k] += count
    if top_d:
        out[3, k] += count


@njit(cache=True, nogil=True)
def score_group(out: np.ndarray, strength: np.ndarray, table: np.ndarray, pairs: np.ndarray,
                 lo: int, hi: int, a_str: np.ndarray, b_str: np.ndarray) -> None:
    """Outcomes of the outer pairs ``pairs[lo:hi]`` against the swept inner players."""
    ne = strength.shape[0]
    # Suffix sums over the strengths: C or D strictly on top, or both level on top.
    suffix = np.zeros((ne + 1, 3), np.int64)
    for e in range(ne - 1, -1, -1):
        suffix[e, 0] = suffix[e + 1, 0] + table[e, 1]
        suffix[e, 1] = suffix[e + 1, 1] + table[e, 2]
        suffix[e, 2] = suffix[e + 1, 2] + table[e, 3]
    for k in range(lo, hi):
        ta = a_str[pairs[k, 0]]
        tb = b_str[pairs[k, 1]]
        w = pairs[k, 2]
        h = max(ta, tb)
        top_a = ta == h
        top_b = tb == h
        e = np.searchsorted(strength, h)
        at = e < ne and strength[e] == h
        _share(out, top_a, top_b, False, False, w * table[e, 0])
        nxt = e
        if at:
            _share(out, top_a, top_b, True, False, w * table[e, 1])
            _share(out, top_a, top_b, False, True, w * table[e, 2])
            _share(out, top_a, top_b, True, True, w * table[e, 3])
            nxt = e + 1
        out[2, 1] += w * suffix[nxt, 0]
        out[3, 1] += w * suffix[nxt, 1]
        out[2, 2] += w * suffix[nxt, 2]
        out[3, 2] += w * suffix[nxt, 2]


@njit(cache=True, inline="always")
def add_wide(high: np.ndarray, low: np.ndarray, part: np.ndarray, bits: int) -> None:
    """Add the int64 counts ``part`` (each of magnitude below 2**62) to the two-word counts
    ``high * 2**bits + low`` (``0 <= low < 2**bits``, ``bits <= 62``), carrying into ``high``: exact
    while ``high`` fits int64 (sums below 2**125 at 62 bits). ``s >> bits`` is a floor division."""
    for p in range(part.shape[0]):
        for t in range(part.shape[1]):
            s = low[p, t] + part[p, t]
            carry = s >> bits
            low[p, t] = s - (carry << bits)
            high[p, t] += carry


@njit(cache=True, nogil=True)
def group_counts(lo: int, hi: int, avail: np.ndarray, outer, c, c_rows, d, d_rows, keys,
                 bits: int) -> np.ndarray:
    """Outcome counts of the outer pair groups ``lo <= g < hi`` of ``outer`` (an OuterGroups,
    grouped by :func:`outer_pairs`) against the inner players' items ``c`` and ``d`` over their
    Profiles (``keys``: the counters' CounterKeys): for each group, one sweep of the inner players
    in the deck the group leaves. Returns
    (2, 4, 5) int64 words: the counts are ``words[0] * 2**bits + words[1]`` (:func:`add_wide`)."""
    words = np.zeros((2, 4, 5), np.int64)
    out = np.zeros((4, 5), np.int64)
    rest = np.empty(13, np.int64)
    for g in range(lo, hi):
        first = outer.starts[g]
        last = outer.starts[g + 1]
        a_prof = outer.a_prof[outer.pairs[first, 0]]
        b_prof = outer.b_prof[outer.pairs[first, 1]]
        for r in range(13):  # a loop: numba's array subtraction compiles its broadcasting checks
            rest[r] = avail[r] - a_prof[r] - b_prof[r]
        strength, table = inner_sweep(rest, c, c_rows, d, d_rows, outer.keys[g], keys.start, keys.mult)
        for p in range(4):  # loops: numba's slice assignment compiles its broadcasting checks
            for t in range(5):
                out[p, t] = 0
        score_group(out, strength, table, outer.pairs, first, last, outer.a_strength, outer.b_strength)
        add_wide(words[0], words[1], out, bits)
    return words
