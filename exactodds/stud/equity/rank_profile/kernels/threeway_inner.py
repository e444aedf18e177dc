"""Compiled inner sweep of the exact three-way stud equity (integers only): for one outer class,
the two other players' classes swept against each other in the deck it leaves (one direction),
with the counts below and at the thresholds the outer class's outcomes need.

Used by the three-way term loops of :mod:`.threeway`; the counters and the sweep are the
shared primitives of :mod:`.primitives`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exactodds.stud.equity.rank_profile.kernels.primitives import (
    INF,
    BelowQueries,
    choose,
    class_u,
    class_weight,
    disjoint_table,
    sweep_below,
)


@njit(cache=True, inline="always")
def _level_pairs(avail: np.ndarray, query, i: int, weight: int, counter, live: np.ndarray, t: int) -> int:
    """Disjoint pairs of query class i (``weight`` its size, or 1 for its flush set) with the
    ``live`` counter classes at strength t: weight * prod over the counter class's ranks C(m - x, z)."""
    c_str = counter.strength
    total = 0
    z = np.searchsorted(c_str, t, side="left")
    while z < c_str.shape[0] and c_str[z] == t:
        if live[z]:
            w = weight
            for j in range(counter.size[z]):
                r = counter.ranks[z, j]
                w *= choose(avail[r] - query.prof[i, r], counter.mult[z, j])
            total += w
        z += 1
    return total


@njit(cache=True, nogil=True)
def inner_pass(avail: np.ndarray, counter, query, thresholds: np.ndarray, kstart: np.ndarray,
               kmult: np.ndarray, generic: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One direction of the inner heads-up sweep in the deck ``avail``: the classes of ``counter``
    (Profiles) in counters, those of ``query`` querying them.

    Returns ``(gen, spec_idx, spec)``: ``gen[i, 0:2] = (less, leq)`` counts of disjoint pairs
    of query class i with counter classes below / at most its strength (class sizes included),
    and ``gen[i, 2 + 2 * k : 4 + 2 * k]`` the same below / at most ``thresholds[k]`` for the
    classes weaker than it;
    for each flush version (flush strength +1, rank strength -1) of a query class with a
    flush set, ``spec_idx`` (class, strength, sign) and ``spec[v, 2 * k + phase]`` the counts
    below / at most ``max(thresholds[k], strength)``, and ``spec[v, -1]`` all pairs.
    With ``generic`` false the classes' own queries are skipped (``gen`` is zero).
    Counts below a strength come from the counters; the few pairs level with it directly.
    """
    q_str = query.strength
    q_flush = query.flush
    nc = counter.strength.shape[0]
    live = np.zeros(nc, np.bool_)
    for z in range(nc):
        live[z] = class_weight(counter, z, avail) > 0
    nqc = q_str.shape[0]
    q_w = np.zeros(nqc, np.int64)
    for i in range(nqc):
        q_w[i] = class_weight(query, i, avail)
    n_avail = 0
    c_need = 0
    q_need = 0
    for r in range(13):
        n_avail += avail[r]
        c_need += counter.prof[0, r]
        q_need += query.prof[0, r]
    n_spec = 0
    for i in range(nqc):
        if q_flush[i] >= 0:
            n_spec += 2
    nt = thresholds.shape[0]
    spec_idx = np.zeros((n_spec, 3), np.int64)
    s_thr = np.zeros(n_spec * nt, np.int64)
    v = 0
    for i in range(nqc):
        if q_flush[i] < 0:
            continue
        for version in range(2):
            s = q_flush[i] if version == 0 else q_str[i]
            spec_idx[v, 0] = i
            spec_idx[v, 1] = s
            spec_idx[v, 2] = 1 if version == 0 else -1
            for k in range(nt):
                s_thr[v * nt + k] = max(thresholds[k], s)
            v += 1
    s_order = np.argsort(s_thr, kind="mergesort")
    # Threshold blocks: every class below thresholds[k], queried at thresholds[k].
    n_gen = nqc if generic else 0
    n_sq = n_spec * nt
    b_order = np.argsort(thresholds, kind="mergesort")
    b_count = np.zeros(nt, np.int64)
    if generic:
        for k in range(nt):
            b_count[k] = np.searchsorted(q_str, thresholds[k], side="left")
    total = n_gen + n_sq + b_count.sum()
    qi = np.zeros(total, np.int64)
    qt = np.zeros(total, np.int64)
    qw = np.zeros(total, np.int64)
    slot = np.zeros(total, np.int64)
    # Merge the three streams (own strengths, flush versions, blocks) by threshold.
    g = 0
    h = 0
    bk = 0
    n = 0
    while n < total:
        tg = q_str[g] if g < n_gen else INF + 1
        th = s_thr[s_order[h]] if h < n_sq else INF + 1
        tb = thresholds[b_order[bk]] if bk < nt and generic else INF + 1
        if tg <= th and tg <= tb:
            qi[n] = g
            qt[n] = tg
            qw[n] = q_w[g]
            slot[n] = g
            g += 1
            n += 1
        elif th <= tb:
            k = s_order[h]
            qi[n] = spec_idx[k // nt, 0]
            qt[n] = th
            qw[n] = spec_idx[k // nt, 2]
            slot[n] = n_gen + k
            h += 1
            n += 1
        else:
            k = b_order[bk]
            for y in range(b_count[k]):
                qi[n] = y
                qt[n] = tb
                qw[n] = q_w[y]
                slot[n] = n_gen + n_sq + k * nqc + y
                n += 1
            bk += 1
    res = sweep_below(counter, live, class_u(avail), query, BelowQueries(qi, qt, qw), disjoint_table(avail),
                      kstart, kmult)
    below = np.zeros(n_gen + n_sq + nt * nqc, np.int64)
    for n in range(total):
        below[slot[n]] = res[n]
    gen = np.zeros((nqc, 2 + 2 * nt), np.int64)
    for i in range(n_gen):
        if q_w[i] == 0:
            continue
        gen[i, 0] = below[i]
        gen[i, 1] = below[i] + _level_pairs(avail, query, i, q_w[i], counter, live, q_str[i])
        for k in range(nt):
            if i < b_count[k]:
                less = below[n_gen + n_sq + k * nqc + i]
                gen[i, 2 + 2 * k] = less
                gen[i, 3 + 2 * k] = less + _level_pairs(avail, query, i, q_w[i], counter, live, thresholds[k])
    spec = np.zeros((n_spec, 2 * nt + 1), np.int64)
    for v in range(n_spec):
        i = spec_idx[v, 0]
        sign = spec_idx[v, 2]
        for k in range(nt):
            t = s_thr[v * nt + k]
            less = below[n_gen + v * nt + k]
            spec[v, 2 * k] = less
            spec[v, 2 * k + 1] = less + sign * _level_pairs(avail, query, i, 1, counter, live, t)
        fits = True
        for r in range(13):
            if avail[r] < query.prof[i, r]:
                fits = False
        if fits:
            spec[v, 2 * nt] = sign * choose(n_avail - q_need, c_need)
    return gen, spec_idx, spec
