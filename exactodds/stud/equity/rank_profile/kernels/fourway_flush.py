"""Compiled four-way counting of the terms in which three or four players hold flush sets.

Each player's completions are G + Delta (:mod:`exactodds.stud.equity.rank_profile.fourway`): G every rank
class at its rank strength, Delta each flush set +1 at its flush strength and -1 at its rank
strength. The grouped sweep of :mod:`.fourway` counts every term in which at most two
players take their Delta part. The terms left have Delta parts for both outer players X, Y
and the inner player Z, and the G part (classes) or the Delta part of the fourth player W.
Outer pairs are grouped as there (:func:`.fourway.outer_pairs`, with the ranks of
Z's and W's suits that X and Y take), and per group Z's flush sets and W's items are swept in
strength order with transformed counters for each kind of pair, all integers:

* W's classes in counters, a flush set querying: ``C(m - z, w)`` per rank
  (:func:`.primitives.disjoint_table`);
* Z's flush sets in counters, a class querying: ``C(m - z, w)`` again, the class's own
  factor ``C(m, w)`` applied at query time (``weighted``);
* flush sets against flush sets: compatible unless of one suit and sharing a rank.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from exactodds.stud.equity.rank_profile.kernels.fourway import score_group, taken_ranks
from exactodds.stud.equity.rank_profile.kernels.primitives import choose, class_u, disjoint_table


@njit(cache=True, nogil=True)
def _tables(rest: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(gen_u, ones, D, Dt, E)`` for the deck ``rest``: a class's factor C(m, w); 1; the
    class-in-counters kernel ``D[r, x, y] = C(m - x, y) - C(m, y)``; the flush-in-counters
    kernel ``Dt[r, x, y] = C(m - y, x) - C(m, x)``; and ``E[r, 1, 1] = -1`` for flush sets of
    one suit (x: the querying item's cards of rank r, y: the counter item's)."""
    gen_u = class_u(rest)
    ones = np.ones((13, 5), np.int64)
    D = disjoint_table(rest)
    Dt = np.zeros((13, 5, 5), np.int64)
    E = np.zeros((13, 5, 5), np.int64)
    for r in range(13):
        for x in range(1, 5):
            for y in range(1, 5):
                Dt[r, x, y] = choose(rest[r] - y, x) - choose(rest[r], x)
        E[r, 1, 1] = -1
    return gen_u, ones, D, Dt, E


@njit(cache=True, inline="always")
def _add(i: int, w: int, u: np.ndarray, T: np.ndarray, rows, V: np.ndarray, kstart: np.ndarray,
         kmult: np.ndarray) -> None:
    """Add ``w`` times row i to the counters: on every sub-multiset Q of it and every querying
    multiplicity x on Q, ``prod_{r in Q} T[r, x_r, i_r]`` times ``u`` over its other ranks."""
    s = rows.size[i]
    for sub in range(1 << s):
        f = w
        for j in range(s):
            if not (sub >> j) & 1:
                f *= u[rows.ranks[i, j], rows.mult[i, j]]
        if f == 0:
            continue
        qm = rows.qmask[i, sub]
        for key in range(kstart[qm], kstart[qm + 1]):
            coef = f
            k = 0
            for j in range(s):
                if (sub >> j) & 1:
                    coef *= T[rows.ranks[i, j], kmult[key, k], rows.mult[i, j]]
                    k += 1
            V[key] += coef


@njit(cache=True, inline="always")
def _query(rows, i: int, V: np.ndarray, weighted: bool, gen_u: np.ndarray) -> int:
    """Sum of the counters over row i's sub-multisets; ``weighted`` multiplies each by the
    row's class factor over the ranks outside it."""
    total = 0
    s = rows.size[i]
    for sub in range(1 << s):
        f = 1
        if weighted:
            for j in range(s):
                if not (sub >> j) & 1:
                    f *= gen_u[rows.ranks[i, j], rows.mult[i, j]]
        total += f * V[rows.slots[i, sub]]
    return total


@njit(cache=True, nogil=True)
def _flush_sweep(rest: np.ndarray, z, z_rows, z_taken: int, w, w_rows, w_flush: bool, w_taken: int,
                 same_suit: bool, kstart: np.ndarray, kmult: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The inner sweep of Z's flush sets (rows ``z.cls`` of ``z_rows``) and W's items, in the
    layout of :func:`.fourway.inner_sweep`. Flush sets using a taken rank of their
    suit are out; W's classes count their card sets in ``rest``."""
    gen_u, ones, D, Dt, E = _tables(rest)
    flat = np.zeros((13, 5, 5), np.int64)
    ff = E if same_suit else flat
    nk = kmult.shape[0]
    vz = np.zeros(nk, np.int64)
    vw = np.zeros(nk, np.int64)
    nz = z.strength.shape[0]
    nw = w.strength.shape[0]
    strength = np.zeros(nz + nw, np.int64)
    table = np.zeros((nz + nw + 1, 4), np.int64)
    below = 0
    e = 0
    y = 0
    x = 0
    while y < nz or x < nw:
        sy = z.strength[y] if y < nz else 1 << 40
        sx = w.strength[x] if x < nw else 1 << 40
        s = min(sy, sx)
        wy = z.sign[y] if sy == s and (z.mask[y] & z_taken) == 0 else 0
        wx = 0
        if sx == s:
            if w_flush:
                wx = w.sign[x] if (w.mask[x] & w_taken) == 0 else 0
            else:
                wx = 1
                for j in range(w_rows.size[w.cls[x]]):
                    wx *= choose(rest[w_rows.ranks[w.cls[x], j]], w_rows.mult[w.cls[x], j])
        if wy != 0 or wx != 0:
            c_top = wy * _query(z_rows, z.cls[y], vw, False, gen_u) if wy != 0 else 0
            d_top = 0
            if wx != 0:
                if w_flush:
                    d_top = wx * _query(w_rows, w.cls[x], vz, False, gen_u)
                else:
                    d_top = _query(w_rows, w.cls[x], vz, True, gen_u)
            level = 0
            if wy != 0 and wx != 0:
                if w_flush:
                    ok = not same_suit or (z.mask[y] & w.mask[x]) == 0
                    level = wy * wx if ok else 0
                else:
                    level = wy
                    c = w.cls[x]
                    for j in range(w_rows.size[c]):
                        r = w_rows.ranks[c, j]
                        level *= choose(rest[r] - z.prof[y, r], w_rows.mult[c, j])
            strength[e] = s
            table[e, 0] = below
            table[e, 1] = c_top
            table[e, 2] = d_top
            table[e, 3] = level
            below += c_top + d_top + level
            if wy != 0:
                _add(z.cls[y], wy, ones, ff if w_flush else Dt, z_rows, vz, kstart, kmult)
            if wx != 0:
                if w_flush:
                    _add(w.cls[x], wx, ones, ff, w_rows, vw, kstart, kmult)
                else:
                    _add(w.cls[x], 1, gen_u, D, w_rows, vw, kstart, kmult)
            e += 1
        if sy == s:
            y += 1
        if sx == s:
            x += 1
    table[e, 0] = below
    return strength[:e], table[: e + 1]


@njit(cache=True, nogil=True, parallel=True)
def flush_group_counts(avail: np.ndarray, a, b, z, z_rows, w, w_rows, w_flush: bool, same_suit: bool,
                       pairs: np.ndarray, starts: np.ndarray, keys: np.ndarray,
                       kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """Outcome counts (4, 5) of the terms with flush sets for the outer players (items of ``a``
    and ``b``, grouped by :func:`.fourway.outer_pairs`), for Z and, with ``w_flush``,
    for W (``same_suit``: Z and W draw to one suit); players A, B, Z, W = 0..3."""
    n = starts.shape[0] - 1
    per = np.zeros((n, 4, 5), np.int64)
    for g in prange(n):
        first = starts[g]
        last = starts[g + 1]
        rest = avail - a.prof[pairs[first, 0]] - b.prof[pairs[first, 1]]
        strength, table = _flush_sweep(rest, z, z_rows, taken_ranks(keys[g], 0), w, w_rows, w_flush,
                                       taken_ranks(keys[g], 1), same_suit, kstart, kmult)
        local = np.zeros((4, 5), np.int64)
        score_group(local, strength, table, pairs, first, last, a.strength, b.strength)
        per[g] = local
    total = np.zeros((4, 5), np.int64)
    for g in range(n):
        total += per[g]
    return total

