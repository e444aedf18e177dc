"""Compiled three-way terms of the exact three-way stud equity (integers only): the loops over the
outer player's classes (:func:`outer_counts`, :func:`two_flush_counts`, :func:`three_flush_counts`,
called by :mod:`exactodds.stud.equity.rank_profile.multiway`) and the scoring of their outcomes.

The kernels take a span ``lo <= i < hi`` of the outer player's classes (the driver runs spans on
several threads: :func:`exactodds.threaded.threaded_sum`) and the three players' Profiles whole:
``a`` the outer player (its classes enumerated), ``b`` and ``c`` the inner ones; they return
(3, 4) counts in that order (the caller puts them back in seat order). Each outer class's inner sweep is
:func:`.threeway_inner.inner_pass`; the counters, kernel tables and weights are the shared
primitives of :mod:`.primitives`. Outcome counts are ``out[p, t]`` as in
:mod:`exactodds.stud.equity.kernels.deal_counts`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exactodds.stud.equity.rank_profile.kernels.primitives import (
    INF,
    SweepCounters,
    SweepQueries,
    choose,
    class_weight,
    compatible,
    full_mask,
    kernel_tables,
    pattern_weight,
    score_third,
    sweep,
)
from exactodds.stud.equity.rank_profile.kernels.threeway_inner import inner_pass


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
def _spec_outcomes(out: np.ndarray, a, i: int, b, spec_idx: np.ndarray, spec: np.ndarray,
                   avail: np.ndarray) -> None:
    """Outcomes of the terms with one flush entry of the inner player b (row 1; row 2 the third
    player): outer class i of a (row 0; all its card sets at the rank strength, and its flush
    set's +1/-1 versions)."""
    a_flush = a.flush[i]
    a_mask = full_mask(a, i)
    nt = 2 if a_flush >= 0 else 1
    for v in range(spec_idx.shape[0]):
        y = spec_idx[v, 0]
        s = spec_idx[v, 1]
        total = spec[v, 2 * nt]
        compat = 1 if compatible(a.suit, a_mask, b.suit, full_mask(b, y)) else 0
        for k in range(nt):
            if k == 0:
                t = a.strength[i]
                w = pattern_weight(a, i, b, y, avail)
                if a_flush >= 0:
                    w -= compat
            else:
                t = a_flush
                w = compat
            if w == 0:
                continue
            less = spec[v, 2 * k]
            leq = spec[v, 2 * k + 1]
            score_third(out, 0, 1, 2, t, s, w, less, leq - less, total - leq)


@njit(cache=True, nogil=True)
def _flush_versions_outcomes(out: np.ndarray, q: int, third: int, a, i: int, flushing,
                             thresholds: np.ndarray, spec_idx: np.ndarray, spec: np.ndarray) -> None:
    """Outcomes of outer class i's flush entry (row 0; +1 at ``thresholds[0]``, its flush
    strength, -1 at ``thresholds[1]``, its rank strength) against the flush versions of the
    inner player ``flushing`` (row q; ``spec_idx``, ``spec`` from :func:`inner_pass`) and the
    card sets of the third player (row ``third``)."""
    a_mask = full_mask(a, i)
    for v in range(spec_idx.shape[0]):
        if not compatible(a.suit, a_mask, flushing.suit, full_mask(flushing, spec_idx[v, 0])):
            continue
        for k in range(2):
            less = spec[v, 2 * k]
            leq = spec[v, 2 * k + 1]
            score_third(out, 0, q, third, thresholds[k], spec_idx[v, 1], 1 - 2 * k, less, leq - less,
                        spec[v, 4] - leq)


@njit(cache=True, nogil=True)
def _deck_without(avail: np.ndarray, prof: np.ndarray) -> np.ndarray:
    """The unseen ranks ``avail`` less a class's ranks ``prof`` (a loop: numba's array
    subtraction compiles its broadcasting checks, seconds of the first run)."""
    rest = np.empty(13, np.int64)
    for r in range(13):
        rest[r] = avail[r] - prof[r]
    return rest


@njit(cache=True, nogil=True)
def outer_counts(lo: int, hi: int, avail: np.ndarray, only_flush: bool, a, b, c, kstart: np.ndarray,
                 kmult: np.ndarray) -> np.ndarray:
    """For the classes ``lo <= i < hi`` of the outer player ``a`` (its card sets and its flush
    set's +1/-1 entries; with ``only_flush`` just the flush entries of classes that have one):
    the terms in which ``b`` is a class or a flush entry and ``c`` a class (in the counters).
    Returns (3, 4) counts, rows a, b, c."""
    total = np.zeros((3, 4), np.int64)
    kb = 0
    kc = 0
    for r in range(13):
        kb += b.prof[0, r]
        kc += c.prof[0, r]
    for i in range(lo, hi):
        a_flush = a.flush[i]
        if only_flush and a_flush < 0:
            continue
        rest = _deck_without(avail, a.prof[i])
        n_rest = 0
        for r in range(13):
            n_rest += rest[r]
        a_str = a.strength[i]
        nt = 2 if a_flush >= 0 else 1
        thresholds = np.zeros(nt, np.int64)
        weights = np.zeros(nt, np.int64)
        fa = 1 if a_flush >= 0 else 0
        if only_flush:
            thresholds[0], weights[0] = a_flush, 1
            thresholds[1], weights[1] = a_str, -1
        else:
            thresholds[0], weights[0] = a_str, class_weight(a, i, avail) - fa
            if fa:
                thresholds[1], weights[1] = a_flush, 1
        generic = nt > 0  # True, as a value: a constant would compile inner_pass once more for it
        gen, sidx, spec = inner_pass(rest, c, b, thresholds, kstart, kmult, generic)
        nb = b.strength.shape[0]
        q_total = np.zeros(nb, np.int64)
        pairs = choose(n_rest - kb, kc)
        for y in range(nb):
            q_total[y] = class_weight(b, y, rest) * pairs
        for k in range(nt):
            _generic_outcomes(total, k, thresholds[k], weights[k], b.strength, gen, q_total)
        if only_flush:
            _flush_versions_outcomes(total, 1, 2, a, i, b, thresholds, sidx, spec)
        else:
            _spec_outcomes(total, a, i, b, sidx, spec, avail)
    return total


@njit(cache=True, nogil=True)
def two_flush_counts(lo: int, hi: int, avail: np.ndarray, a, b, c, kstart: np.ndarray,
                     kmult: np.ndarray) -> np.ndarray:
    """Terms with flush entries for the outer player ``a`` (its classes ``lo <= i < hi``) and for
    ``c``, and all card sets of ``b`` (swept as classes in counters). Returns (3, 4) counts, rows
    a, b, c."""
    total = np.zeros((3, 4), np.int64)
    for i in range(lo, hi):
        if a.flush[i] < 0:
            continue
        thresholds = np.array([a.flush[i], a.strength[i]], np.int64)
        generic = a.flush[i] < 0  # False, as a value: a constant would compile inner_pass once more for it
        _, sidx, spec = inner_pass(_deck_without(avail, a.prof[i]), b, c, thresholds, kstart, kmult, generic)
        _flush_versions_outcomes(total, 2, 1, a, i, c, thresholds, sidx, spec)
    return total


@njit(cache=True, nogil=True)
def _compatible_flushes(a_suit: int, a_mask: int, rows) -> np.ndarray:
    """The classes of ``rows`` with a flush set that can be dealt with one of suit ``a_suit`` on
    the ranks ``a_mask``."""
    n = rows.strength.shape[0]
    keep = np.zeros(n, np.bool_)
    for z in range(n):
        keep[z] = rows.flush[z] >= 0 and compatible(a_suit, a_mask, rows.suit, full_mask(rows, z))
    return np.nonzero(keep)[0]


@njit(cache=True, nogil=True)
def three_flush_counts(lo: int, hi: int, avail: np.ndarray, a, b, c, kstart: np.ndarray,
                       kmult: np.ndarray) -> np.ndarray:
    """The term with a flush entry for each of the three players, the outer player ``a``'s
    classes ``lo <= i < hi``. Returns (3, 4) counts, rows a, b, c."""
    total = np.zeros((3, 4), np.int64)
    U, E, _ = kernel_tables(avail)
    tau = 2 if b.suit == c.suit else 3
    ones = np.ones((13, 5), np.int64)
    for i in range(lo, hi):
        if a.flush[i] < 0:
            continue
        a_mask = full_mask(a, i)
        thresholds = np.array([a.flush[i], a.strength[i]], np.int64)
        # Counters: the compatible flush versions of the third player, by strength.
        zs = _compatible_flushes(a.suit, a_mask, c)
        n = 2 * zs.shape[0]
        c_idx = np.zeros(n, np.int64)
        c_str = np.zeros(n, np.int64)
        c_w = np.zeros(n, np.int64)
        for k in range(zs.shape[0]):
            z = zs[k]
            c_idx[2 * k], c_str[2 * k], c_w[2 * k] = z, c.flush[z], 1
            c_idx[2 * k + 1], c_str[2 * k + 1], c_w[2 * k + 1] = z, c.strength[z], -1
        by = np.argsort(c_str, kind="mergesort")
        # Queries: the compatible flush versions of the second player at max(threshold, own).
        ys = _compatible_flushes(a.suit, a_mask, b)
        nv = 2 * ys.shape[0]
        q_idx = np.zeros(nv * 5, np.int64)
        q_thr = np.zeros(nv * 5, np.int64)
        q_phase = np.zeros(nv * 5, np.int64)
        q_w = np.zeros(nv * 5, np.int64)
        v_str = np.zeros(nv, np.int64)
        v = 0
        for y in ys:
            for version in range(2):
                s = b.flush[y] if version == 0 else b.strength[y]
                v_str[v] = s
                for k in range(2):
                    for ph in range(2):
                        q = 5 * v + 2 * k + ph
                        q_idx[q], q_thr[q], q_phase[q] = y, max(thresholds[k], s), ph
                        q_w[q] = 1 if version == 0 else -1
                q = 5 * v + 4
                q_idx[q], q_thr[q], q_phase[q], q_w[q] = y, INF, 1, 1 if version == 0 else -1
                v += 1
        counters = SweepCounters(c_idx[by], c_str[by], c_w[by])
        queries = SweepQueries(q_idx, q_thr, q_phase, q_w, np.full(nv * 5, tau, np.int64))
        res = sweep(c, counters, ones, b, queries, U, E, kstart, kmult)
        for v in range(nv):
            for k in range(2):
                less = res[5 * v + 2 * k]
                leq = res[5 * v + 2 * k + 1]
                score_third(total, 0, 1, 2, thresholds[k], v_str[v], 1 - 2 * k, less, leq - less,
                            res[5 * v + 4] - leq)
    return total
