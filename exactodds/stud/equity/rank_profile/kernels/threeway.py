"""Compiled three-way terms of the exact three-way stud equity (integers only): the loops over the
outer player's classes (:func:`outer_counts`, :func:`two_flush_counts`, :func:`three_flush_counts`,
called by :mod:`exactodds.stud.equity.rank_profile.multiway`) and the scoring of their outcomes.

Each outer class's inner sweep is :func:`.threeway_inner.inner_pass`; the counters, kernel
tables and weights are the shared primitives of :mod:`.primitives`. Outcome counts are
``out[p, t]`` as in :mod:`exactodds.stud.equity.kernels.deal_counts`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from exactodds.stud.equity.rank_profile.kernels.primitives import (
    INF,
    choose,
    class_u,
    class_weight,
    compatible,
    disjoint_table,
    full_mask,
    kernel_tables,
    pattern_weight,
    score_third,
    sweep,
)
from exactodds.stud.equity.rank_profile.kernels.threeway_inner import inner_pass

# One array per player (numba types a tuple of arrays by each element).
Arrays = tuple[np.ndarray, ...]


@njit(cache=True, nogil=True)
def _by_seat(per: np.ndarray, order: np.ndarray) -> np.ndarray:
    """The sum of the per-class counts ``per[i]`` (rows in kernel order), rows put back in seat order."""
    total = np.zeros((3, 4), np.int64)
    for i in range(per.shape[0]):
        total += per[i]
    result = np.zeros((3, 4), np.int64)
    for k in range(3):
        result[order[k]] = total[k]
    return result


@njit(cache=True, nogil=True)
def _generic_outcomes(out: np.ndarray, k: int, t: int, w: int, q_str: np.ndarray, gen: np.ndarray,
                      q_total: np.ndarray) -> None:
    """Outcomes of the outer player (row 0) at strength t (weight w) against every pair of a
    query class (row 1; counts ``gen`` from :func:`inner_pass`, all pairs ``q_total``) and a
    counter class (row 2)."""
    if w == 0:
        return
    for y in range(q_str.shape[0]):
        s = q_str[y]
        total = q_total[y]
        if total == 0:
            continue
        less = gen[y, 0]
        leq = gen[y, 1]
        if s < t:
            lt = gen[y, 2 + 2 * k]
            let = gen[y, 3 + 2 * k]
            out[0, 1] += w * lt
            out[0, 2] += w * (let - lt)
            out[2, 2] += w * (let - lt)
            out[2, 1] += w * (total - let)
        elif s == t:
            out[0, 2] += w * less
            out[1, 2] += w * less
            out[0, 3] += w * (leq - less)
            out[1, 3] += w * (leq - less)
            out[2, 3] += w * (leq - less)
            out[2, 1] += w * (total - leq)
        else:
            out[1, 1] += w * less
            out[1, 2] += w * (leq - less)
            out[2, 2] += w * (leq - less)
            out[2, 1] += w * (total - leq)


@njit(cache=True, nogil=True)
def _spec_outcomes(out: np.ndarray, a: int, q: int, third: int, a_ranks: np.ndarray, a_mult: np.ndarray,
                   a_size: np.ndarray, i: int,
                   a_str: int, a_flush: int, a_suit: int, a_mask: int,
                   q_prof: np.ndarray, q_qmask: np.ndarray, q_size: np.ndarray, q_suit: int,
                   spec_idx: np.ndarray, spec: np.ndarray, avail: np.ndarray) -> None:
    """Outcomes of the terms with one flush entry of the inner player q: outer class i of
    player a (all its card sets at the rank strength, and its flush set's +1/-1 versions)."""
    nt = 2 if a_flush >= 0 else 1
    for v in range(spec_idx.shape[0]):
        y = spec_idx[v, 0]
        s = spec_idx[v, 1]
        total = spec[v, 2 * nt]
        y_mask = q_qmask[y, (1 << q_size[y]) - 1]
        compat = 1 if compatible(a_suit, a_mask, q_suit, y_mask) else 0
        for k in range(nt):
            if k == 0:
                t = a_str
                w = pattern_weight(a_ranks, a_mult, a_size, i, q_prof, y, avail)
                if a_flush >= 0:
                    w -= compat
            else:
                t = a_flush
                w = compat
            if w == 0:
                continue
            less = spec[v, 2 * k]
            leq = spec[v, 2 * k + 1]
            score_third(out, a, q, third, t, s, w, less, leq - less, total - leq)


@njit(cache=True, nogil=True, parallel=True)
def outer_counts(avail: np.ndarray, order: np.ndarray, only_flush: bool,
                 prof: Arrays, ranks: Arrays, mult: Arrays, size: Arrays, slots: Arrays, qmask: Arrays,
                 strength: Arrays, flush: Arrays, suits: np.ndarray,
                 kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """For every class of the outer player ``order[0]`` (its card sets and its flush set's
    +1/-1 entries; with ``only_flush`` just the flush entries of classes that have one): the
    terms in which ``order[1]`` is a class or a flush entry and ``order[2]`` a class (in the
    counters). Returns (3, 4) counts."""
    a_prof = prof[0]
    na = a_prof.shape[0]
    per = np.zeros((na, 3, 4), np.int64)
    kb = 0
    kc = 0
    for r in range(13):
        kb += prof[1][0, r]
        kc += prof[2][0, r]
    for i in prange(na):
        a_flush = flush[0][i]
        if only_flush and a_flush < 0:
            continue
        rest = avail - a_prof[i]
        gen_u = class_u(rest)
        D = disjoint_table(rest)
        n_rest = 0
        for r in range(13):
            n_rest += rest[r]
        a_str = strength[0][i]
        nt = 2 if a_flush >= 0 else 1
        thresholds = np.zeros(nt, np.int64)
        weights = np.zeros(nt, np.int64)
        fa = 1 if a_flush >= 0 else 0
        if only_flush:
            thresholds[0], weights[0] = a_flush, 1
            thresholds[1], weights[1] = a_str, -1
        else:
            thresholds[0], weights[0] = a_str, class_weight(ranks[0], mult[0], size[0], i, avail) - fa
            if fa:
                thresholds[1], weights[1] = a_flush, 1
        gen, sidx, spec = inner_pass(rest, D, gen_u,
                                      prof[2], ranks[2], mult[2], size[2], qmask[2], strength[2],
                                      prof[1], ranks[1], mult[1], size[1], slots[1], strength[1], flush[1],
                                      thresholds, kstart, kmult)
        nb = prof[1].shape[0]
        q_total = np.zeros(nb, np.int64)
        pairs = choose(n_rest - kb, kc)
        for y in range(nb):
            q_total[y] = class_weight(ranks[1], mult[1], size[1], y, rest) * pairs
        local = np.zeros((3, 4), np.int64)
        for k in range(nt):
            _generic_outcomes(local, k, thresholds[k], weights[k], strength[1], gen, q_total)
        a_mask = full_mask(qmask[0], size[0], i)
        if only_flush:
            for v in range(sidx.shape[0]):
                y = sidx[v, 0]
                if not compatible(suits[0], a_mask, suits[1], full_mask(qmask[1], size[1], y)):
                    continue
                for k in range(nt):
                    less = spec[v, 2 * k]
                    leq = spec[v, 2 * k + 1]
                    score_third(local, 0, 1, 2, thresholds[k], sidx[v, 1], weights[k], less, leq - less,
                                 spec[v, 2 * nt] - leq)
        else:
            _spec_outcomes(local, 0, 1, 2, ranks[0], mult[0], size[0], i, a_str, a_flush, suits[0], a_mask,
                           prof[1], qmask[1], size[1], suits[1], sidx, spec, avail)
        per[i] = local
    return _by_seat(per, order)


@njit(cache=True, nogil=True, parallel=True)
def two_flush_counts(avail: np.ndarray, order: np.ndarray,
                     prof: Arrays, ranks: Arrays, mult: Arrays, size: Arrays, slots: Arrays, qmask: Arrays,
                     strength: Arrays, flush: Arrays, suits: np.ndarray,
                     kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """Terms with flush entries for players ``order[0]`` (outer) and ``order[2]`` and all card
    sets of ``order[1]`` (swept as classes in counters). Returns (3, 4) counts."""
    a_prof = prof[0]
    na = a_prof.shape[0]
    per = np.zeros((na, 3, 4), np.int64)
    for i in prange(na):
        if flush[0][i] < 0:
            continue
        rest = avail - a_prof[i]
        gen_u = class_u(rest)
        D = disjoint_table(rest)
        thresholds = np.array([flush[0][i], strength[0][i]], np.int64)
        _, sidx, spec = inner_pass(rest, D, gen_u,
                                    prof[1], ranks[1], mult[1], size[1], qmask[1], strength[1],
                                    prof[2], ranks[2], mult[2], size[2], slots[2], strength[2], flush[2],
                                    thresholds, kstart, kmult, False)
        a_mask = qmask[0][i, (1 << size[0][i]) - 1]
        local = np.zeros((3, 4), np.int64)
        for v in range(sidx.shape[0]):
            z = sidx[v, 0]
            z_mask = qmask[2][z, (1 << size[2][z]) - 1]
            if not compatible(suits[0], a_mask, suits[2], z_mask):
                continue
            for k in range(2):
                w = 1 if k == 0 else -1
                less = spec[v, 2 * k]
                leq = spec[v, 2 * k + 1]
                score_third(local, 0, 2, 1, thresholds[k], sidx[v, 1], w, less, leq - less,
                             spec[v, 4] - leq)
        per[i] = local
    return _by_seat(per, order)


@njit(cache=True, nogil=True, parallel=True)
def three_flush_counts(avail: np.ndarray, order: np.ndarray,
                       prof: Arrays, ranks: Arrays, mult: Arrays, size: Arrays, slots: Arrays, qmask: Arrays,
                       strength: Arrays, flush: Arrays, suits: np.ndarray,
                       kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """The term with a flush entry for each of the three players. Returns (3, 4) counts."""
    na = prof[0].shape[0]
    per = np.zeros((na, 3, 4), np.int64)
    U, E, _ = kernel_tables(avail)
    tau = 2 if suits[1] == suits[2] else 3
    ones = np.ones((13, 5), np.int64)
    nb = prof[1].shape[0]
    nc = prof[2].shape[0]
    for i in prange(na):
        if flush[0][i] < 0:
            continue
        total = per[i]
        a_mask = qmask[0][i, (1 << size[0][i]) - 1]
        thresholds = np.array([flush[0][i], strength[0][i]], np.int64)
        # Counters: the compatible flush versions of the third player, by strength.
        n = 0
        for z in range(nc):
            if flush[2][z] >= 0 and compatible(suits[0], a_mask, suits[2], full_mask(qmask[2], size[2], z)):
                n += 2
        c_idx = np.zeros(n, np.int64)
        c_str = np.zeros(n, np.int64)
        c_w = np.zeros(n, np.int64)
        n = 0
        for z in range(nc):
            if flush[2][z] >= 0 and compatible(suits[0], a_mask, suits[2], full_mask(qmask[2], size[2], z)):
                c_idx[n], c_str[n], c_w[n] = z, flush[2][z], 1
                c_idx[n + 1], c_str[n + 1], c_w[n + 1] = z, strength[2][z], -1
                n += 2
        by = np.argsort(c_str, kind="mergesort")
        c_idx, c_str, c_w = c_idx[by], c_str[by], c_w[by]
        # Queries: the compatible flush versions of the second player at max(threshold, own).
        nv = 0
        for y in range(nb):
            if flush[1][y] >= 0 and compatible(suits[0], a_mask, suits[1], full_mask(qmask[1], size[1], y)):
                nv += 2
        q_idx = np.zeros(nv * 5, np.int64)
        q_thr = np.zeros(nv * 5, np.int64)
        q_phase = np.zeros(nv * 5, np.int64)
        q_w = np.zeros(nv * 5, np.int64)
        q_tau = np.full(nv * 5, tau, np.int64)
        v_str = np.zeros(nv, np.int64)
        v = 0
        for y in range(nb):
            if flush[1][y] >= 0 and compatible(suits[0], a_mask, suits[1], full_mask(qmask[1], size[1], y)):
                for version in range(2):
                    s = flush[1][y] if version == 0 else strength[1][y]
                    v_str[v] = s
                    for k in range(2):
                        for ph in range(2):
                            q = 5 * v + 2 * k + ph
                            q_idx[q], q_thr[q], q_phase[q] = y, max(thresholds[k], s), ph
                            q_w[q] = 1 if version == 0 else -1
                    q = 5 * v + 4
                    q_idx[q], q_thr[q], q_phase[q], q_w[q] = y, INF, 1, 1 if version == 0 else -1
                    v += 1
        res = sweep(c_idx, c_str, c_w, ones, ranks[2], mult[2], size[2], slots[2],
                    q_idx, q_thr, q_phase, q_w, q_tau, ranks[1], mult[1], size[1], qmask[1],
                    U, E, kstart, kmult)
        for v in range(nv):
            for k in range(2):
                w = 1 if k == 0 else -1
                less = res[5 * v + 2 * k]
                leq = res[5 * v + 2 * k + 1]
                score_third(total, 0, 1, 2, thresholds[k], v_str[v], w, less, leq - less,
                             res[5 * v + 4] - leq)
    return _by_seat(per, order)
