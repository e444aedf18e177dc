"""Compiled rank-level counting for exact three-way stud equity (integers only).

Completions are handled as rank-profile classes (:mod:`exactodds.stud.equity.profiles`).
The number of disjoint card-set pairs between a class x of one player and a class y of
another, in a deck with ``m_r`` unseen cards of rank r, is a product over ranks of a
small kernel ``K_r(x_r, y_r)``; writing ``K_r(x, y) = u_r(x) v_r(y) + E_r(x, y)`` with
``E_r = 0`` when ``x = 0`` or ``y = 0``, the product expands into a sum over the shared
ranks Q of ``prod_{r in Q} E_r * prod_{r not in Q} u_r v_r``. Counters ``V[key]`` (one per
sub-multiset Q, y|Q) hold the classes swept so far; a query sums over the sub-multisets
of the querying class. Kernel tables, per query type ``tau`` (``U[tau, r, x]``,
``E[tau, r, x, y]``):

* 0: class against classes: ``K = C(m, x) C(m - x, y)``;
* 1: one flush set against classes: ``K = C(m - x, y)``;
* 2: flush set against flush sets of the same suit: ``K = [x y = 0]``;
* 3: flush set against flush sets of another suit: ``K = 1``.

Outcome counts are ``out[p, t]`` as in :mod:`exactodds.stud.equity.kernel`.
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, prange, set_num_threads

from exactodds.combinatorics import BINOM

INF = 1 << 40


def set_threads(count: int | None) -> int:
    """Set the kernels' thread count (None: leave it) and return the previous one; small
    positions run on one thread (starting threads on a busy machine costs more than they save)."""
    previous = get_num_threads()
    if count is not None:
        set_num_threads(count)
    return previous


_BINOM = BINOM.copy()


@njit(cache=True, inline="always")
def _c(n: int, k: int) -> int:
    """C(n, k) for 0 <= n <= 52, k < 8; 0 when impossible, 1 for k = 0."""
    if k == 0:
        return 1
    if n < k or k < 0:
        return 0
    return _BINOM[n, k]


@njit(cache=True)
def kernel_tables(avail: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(U, E, gen_u)`` for a deck with ``avail[r]`` unseen cards of rank r (see module doc);
    ``gen_u[r, y] = C(avail_r, y)`` is the outside-Q factor of a class in counters."""
    U = np.zeros((4, 13, 5), np.int64)
    E = np.zeros((4, 13, 5, 5), np.int64)
    gen_u = np.zeros((13, 5), np.int64)
    for r in range(13):
        m = avail[r]
        for x in range(5):
            gen_u[r, x] = _c(m, x)
            U[0, r, x] = _c(m, x)
            U[1, r, x] = 1
            U[2, r, x] = 1
            U[3, r, x] = 1
            for y in range(1, 5):
                if x > 0:
                    E[0, r, x, y] = _c(m, x) * (_c(m - x, y) - _c(m, y))
                    E[1, r, x, y] = _c(m - x, y) - _c(m, y)
        E[2, r, 1, 1] = -1
    return U, E, gen_u


@njit(cache=True)
def _class_u(avail: np.ndarray) -> np.ndarray:
    """``u[r, y] = C(m_r, y)``: the factor of a class's ranks outside the shared ones."""
    u = np.zeros((13, 5), np.int64)
    for r in range(13):
        for y in range(5):
            u[r, y] = _c(avail[r], y)
    return u


@njit(cache=True, inline="always")
def _add(i: int, w: int, u: np.ndarray, ranks: np.ndarray, mult: np.ndarray, size: np.ndarray,
         slots: np.ndarray, V: np.ndarray) -> None:
    s = size[i]
    for sub in range(1 << s):
        f = w
        for j in range(s):
            if not (sub >> j) & 1:
                f *= u[ranks[i, j], mult[i, j]]
        V[slots[i, sub]] += f


@njit(cache=True, inline="always")
def _query(i: int, tau: int, U: np.ndarray, E: np.ndarray, ranks: np.ndarray, mult: np.ndarray,
           size: np.ndarray, qmask: np.ndarray, V: np.ndarray, kstart: np.ndarray,
           kmult: np.ndarray) -> int:
    s = size[i]
    total = 0
    for sub in range(1 << s):
        outside = 1
        for j in range(s):
            if not (sub >> j) & 1:
                outside *= U[tau, ranks[i, j], mult[i, j]]
        if outside == 0:
            continue
        qm = qmask[i, sub]
        acc = 0
        for key in range(kstart[qm], kstart[qm + 1]):
            v = V[key]
            if v == 0:
                continue
            coef = 1
            k = 0
            for j in range(s):
                if (sub >> j) & 1:
                    coef *= E[tau, ranks[i, j], mult[i, j], kmult[key, k]]
                    k += 1
            acc += coef * v
        total += outside * acc
    return total


@njit(cache=True)
def sweep(c_idx: np.ndarray, c_str: np.ndarray, c_w: np.ndarray, c_u: np.ndarray,
          c_ranks: np.ndarray, c_mult: np.ndarray, c_size: np.ndarray, c_slots: np.ndarray,
          q_idx: np.ndarray, q_thr: np.ndarray, q_phase: np.ndarray, q_w: np.ndarray, q_tau: np.ndarray,
          q_ranks: np.ndarray, q_mult: np.ndarray, q_size: np.ndarray, q_qmask: np.ndarray,
          U: np.ndarray, E: np.ndarray, kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """Answer every query against the counter classes weaker than (phase 0) or at most as
    strong as (phase 1) its threshold: the weighted number of disjoint card-set pairs.

    Counter classes ``c_idx`` (rows of the ``c_*`` profile arrays) come sorted by strength
    ``c_str`` (ascending, higher = stronger), with weights ``c_w`` and outside factors ``c_u``.
    Queries (rows ``q_idx`` of the ``q_*`` arrays) are answered in order of (threshold, phase),
    times ``q_w``. Returns one count per query, in the order given.
    """
    n_keys = kmult.shape[0]
    V = np.zeros(n_keys, np.int64)
    nq = q_idx.shape[0]
    order = np.argsort(q_thr * 2 + q_phase, kind="mergesort")
    res = np.zeros(nq, np.int64)
    j = 0
    nc = c_idx.shape[0]
    for o in range(nq):
        q = order[o]
        t = q_thr[q]
        ph = q_phase[q]
        while j < nc and (c_str[j] < t or (ph == 1 and c_str[j] == t)):
            if c_w[j] != 0:
                _add(c_idx[j], c_w[j], c_u, c_ranks, c_mult, c_size, c_slots, V)
            j += 1
        if q_w[q] != 0:
            res[q] = q_w[q] * _query(q_idx[q], q_tau[q], U, E, q_ranks, q_mult, q_size, q_qmask, V,
                                     kstart, kmult)
    return res


@njit(cache=True, inline="always")
def _class_weight(ranks: np.ndarray, mult: np.ndarray, size: np.ndarray, i: int, avail: np.ndarray) -> int:
    """Card sets in class i for the deck ``avail`` (as :func:`_weight`, over its ranks only)."""
    w = 1
    for j in range(size[i]):
        w *= _c(avail[ranks[i, j]], mult[i, j])
    return w


@njit(cache=True, inline="always")
def _pattern_weight(a_ranks: np.ndarray, a_mult: np.ndarray, a_size: np.ndarray, i: int,
                    y_prof: np.ndarray, y: int, avail: np.ndarray) -> int:
    """Card sets of class i avoiding one card of each rank of y's flush set."""
    w = 1
    for j in range(a_size[i]):
        r = a_ranks[i, j]
        w *= _c(avail[r] - y_prof[y, r], a_mult[i, j])
    return w


@njit(cache=True, inline="always")
def _full(qmask: np.ndarray, size: np.ndarray, i: int) -> int:
    """Rank mask of class i."""
    return qmask[i, (1 << size[i]) - 1]


@njit(cache=True, inline="always")
def _compatible(suit_p: int, mask_p: int, suit_q: int, mask_q: int) -> bool:
    """Two flush sets can be dealt together: other suits, or no rank in common."""
    return suit_p != suit_q or (mask_p & mask_q) == 0


@njit(cache=True, inline="always")
def _score_third(out: np.ndarray, p: int, q: int, third: int, sp: int, sq: int, w: int,
                 less: int, eq: int, more: int) -> None:
    """Add outcomes when p and q hold fixed strengths sp, sq and ``less``/``eq``/``more`` count
    the third player's hands below, level with and above max(sp, sq) (weight ``w``)."""
    if sp > sq:
        out[p, 1] += w * less
        out[p, 2] += w * eq
        out[third, 1] += w * more
        out[third, 2] += w * eq
    elif sp < sq:
        out[q, 1] += w * less
        out[q, 2] += w * eq
        out[third, 1] += w * more
        out[third, 2] += w * eq
    else:
        out[p, 2] += w * less
        out[q, 2] += w * less
        out[p, 3] += w * eq
        out[q, 3] += w * eq
        out[third, 3] += w * eq
        out[third, 1] += w * more


@njit(cache=True)
def disjoint_table(avail: np.ndarray) -> np.ndarray:
    """``D[r, x, y] = C(m_r - x, y) - C(m_r, y)`` (x, y >= 1): the shared-rank kernel of a flush
    set or class with x cards of rank r against a class with y cards of it (0 elsewhere)."""
    D = np.zeros((13, 5, 5), np.int64)
    for r in range(13):
        for x in range(1, 5):
            for y in range(1, 5):
                D[r, x, y] = _c(avail[r] - x, y) - _c(avail[r], y)
    return D


@njit(cache=True, inline="always")
def _add_transformed(i: int, u: np.ndarray, D: np.ndarray, ranks: np.ndarray, mult: np.ndarray,
                     size: np.ndarray, qmask: np.ndarray, V: np.ndarray, kstart: np.ndarray,
                     kmult: np.ndarray) -> None:
    """Add class i to the transformed counters: ``V[Q, x] += sum over the sub-multisets of the
    class on Q of prod D`` so that a query is the plain sum of V over its own sub-multisets."""
    s = size[i]
    for sub in range(1 << s):
        f = 1
        for j in range(s):
            if not (sub >> j) & 1:
                f *= u[ranks[i, j], mult[i, j]]
        if f == 0:
            continue
        qm = qmask[i, sub]
        for key in range(kstart[qm], kstart[qm + 1]):
            coef = f
            k = 0
            for j in range(s):
                if (sub >> j) & 1:
                    coef *= D[ranks[i, j], kmult[key, k], mult[i, j]]
                    k += 1
            V[key] += coef


@njit(cache=True)
def sweep_below(c_idx: np.ndarray, c_str: np.ndarray, c_live: np.ndarray, c_u: np.ndarray,
                c_ranks: np.ndarray, c_mult: np.ndarray, c_size: np.ndarray, c_qmask: np.ndarray,
                q_idx: np.ndarray, q_thr: np.ndarray, q_w: np.ndarray, q_slots: np.ndarray,
                q_size: np.ndarray, D: np.ndarray, kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """For each query (sorted by threshold), ``q_w`` times the number of disjoint card-set pairs
    of its flush set (weight 1) or class (weight its size) with the counter classes below the
    threshold. Counter classes ``c_idx`` come sorted by strength ``c_str``."""
    V = np.zeros(kmult.shape[0], np.int64)
    nq = q_idx.shape[0]
    res = np.zeros(nq, np.int64)
    j = 0
    nc = c_idx.shape[0]
    for q in range(nq):
        t = q_thr[q]
        while j < nc and c_str[j] < t:
            if c_live[j]:
                _add_transformed(c_idx[j], c_u, D, c_ranks, c_mult, c_size, c_qmask, V, kstart, kmult)
            j += 1
        if q_w[q] != 0:
            i = q_idx[q]
            total = 0
            for sub in range(1 << q_size[i]):
                total += V[q_slots[i, sub]]
            res[q] = q_w[q] * total
    return res


@njit(cache=True, inline="always")
def _level_pairs(avail: np.ndarray, q_prof: np.ndarray, i: int, weight: int, c_ranks: np.ndarray,
                 c_mult: np.ndarray, c_size: np.ndarray, c_str: np.ndarray, c_live: np.ndarray,
                 t: int) -> int:
    """Disjoint pairs of query class i (``weight`` its size, or 1 for its flush set) with the
    counter classes at strength t: weight * prod over the counter class's ranks C(m - x, z)."""
    lo = np.searchsorted(c_str, t, side="left")
    total = 0
    z = lo
    while z < c_str.shape[0] and c_str[z] == t:
        if c_live[z]:
            w = weight
            for j in range(c_size[z]):
                r = c_ranks[z, j]
                w *= _c(avail[r] - q_prof[i, r], c_mult[z, j])
            total += w
        z += 1
    return total


@njit(cache=True)
def _inner_pass(avail: np.ndarray, D: np.ndarray, gen_u: np.ndarray,
                # counter player (generic classes)
                c_prof: np.ndarray, c_ranks: np.ndarray, c_mult: np.ndarray, c_size: np.ndarray,
                c_qmask: np.ndarray, c_str: np.ndarray,
                # query player
                q_prof: np.ndarray, q_ranks: np.ndarray, q_mult: np.ndarray, q_size: np.ndarray,
                q_slots: np.ndarray, q_str: np.ndarray, q_flush: np.ndarray,
                thresholds: np.ndarray, kstart: np.ndarray, kmult: np.ndarray, generic: bool = True,
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One direction of the inner heads-up sweep in the deck ``avail``.

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
    nc = c_prof.shape[0]
    live = np.zeros(nc, np.bool_)
    c_idx = np.arange(nc)
    for z in range(nc):
        live[z] = _class_weight(c_ranks, c_mult, c_size, z, avail) > 0
    nqc = q_prof.shape[0]
    q_w = np.zeros(nqc, np.int64)
    for i in range(nqc):
        q_w[i] = _class_weight(q_ranks, q_mult, q_size, i, avail)
    n_avail = 0
    for r in range(13):
        n_avail += avail[r]
    c_need = 0
    q_need = 0
    for r in range(13):
        c_need += c_prof[0, r]
        q_need += q_prof[0, r]
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
    res = sweep_below(c_idx, c_str, live, gen_u, c_ranks, c_mult, c_size, c_qmask,
                      qi, qt, qw, q_slots, q_size, D, kstart, kmult)
    below = np.zeros(n_gen + n_sq + nt * nqc, np.int64)
    for n in range(total):
        below[slot[n]] = res[n]
    gen = np.zeros((nqc, 2 + 2 * nt), np.int64)
    for i in range(n_gen):
        if q_w[i] == 0:
            continue
        gen[i, 0] = below[i]
        gen[i, 1] = below[i] + _level_pairs(avail, q_prof, i, q_w[i], c_ranks, c_mult, c_size, c_str, live,
                                                q_str[i])
        for k in range(nt):
            if i < b_count[k]:
                less = below[n_gen + n_sq + k * nqc + i]
                gen[i, 2 + 2 * k] = less
                gen[i, 3 + 2 * k] = less + _level_pairs(avail, q_prof, i, q_w[i], c_ranks, c_mult, c_size,
                                                        c_str, live, thresholds[k])
    spec = np.zeros((n_spec, 2 * nt + 1), np.int64)
    for v in range(n_spec):
        i = spec_idx[v, 0]
        sign = spec_idx[v, 2]
        for k in range(nt):
            t = s_thr[v * nt + k]
            less = below[n_gen + v * nt + k]
            spec[v, 2 * k] = less
            spec[v, 2 * k + 1] = less + sign * _level_pairs(avail, q_prof, i, 1, c_ranks, c_mult, c_size,
                                                            c_str, live, t)
        fits = True
        for r in range(13):
            if avail[r] < q_prof[i, r]:
                fits = False
        if fits:
            spec[v, 2 * nt] = sign * _c(n_avail - q_need, c_need)
    return gen, spec_idx, spec


@njit(cache=True)
def _generic_outcomes(out: np.ndarray, k: int, t: int, w: int, q_str: np.ndarray, gen: np.ndarray,
                      q_total: np.ndarray) -> None:
    """Outcomes of the outer player (row 0) at strength t (weight w) against every pair of a
    query class (row 1; counts ``gen`` from :func:`_inner_pass`, all pairs ``q_total``) and a
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


@njit(cache=True)
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
        compat = 1 if _compatible(a_suit, a_mask, q_suit, y_mask) else 0
        for k in range(nt):
            if k == 0:
                t = a_str
                w = _pattern_weight(a_ranks, a_mult, a_size, i, q_prof, y, avail)
                if a_flush >= 0:
                    w -= compat
            else:
                t = a_flush
                w = compat
            if w == 0:
                continue
            less = spec[v, 2 * k]
            leq = spec[v, 2 * k + 1]
            _score_third(out, a, q, third, t, s, w, less, leq - less, total - leq)


@njit(cache=True, parallel=True)
def outer_counts(avail: np.ndarray, order: np.ndarray, only_flush: bool,
                 prof: tuple, ranks: tuple, mult: tuple, size: tuple, slots: tuple, qmask: tuple,
                 strength: tuple, flush: tuple, suits: np.ndarray,
                 kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """For every class of the outer player ``order[0]`` (its card sets and its flush set's
    +1/-1 entries; with ``only_flush`` just the flush entries of classes that have one): the
    terms in which ``order[1]`` is a class or a flush entry and ``order[2]`` a class (in the
    counters). Returns (3, 4) counts."""
    a, b, c = order[0], order[1], order[2]
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
        gen_u = _class_u(rest)
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
            thresholds[0], weights[0] = a_str, _class_weight(ranks[0], mult[0], size[0], i, avail) - fa
            if fa:
                thresholds[1], weights[1] = a_flush, 1
        gen, sidx, spec = _inner_pass(rest, D, gen_u,
                                      prof[2], ranks[2], mult[2], size[2], qmask[2], strength[2],
                                      prof[1], ranks[1], mult[1], size[1], slots[1], strength[1], flush[1],
                                      thresholds, kstart, kmult)
        nb = prof[1].shape[0]
        q_total = np.zeros(nb, np.int64)
        pairs = _c(n_rest - kb, kc)
        for y in range(nb):
            q_total[y] = _class_weight(ranks[1], mult[1], size[1], y, rest) * pairs
        local = np.zeros((3, 4), np.int64)
        for k in range(nt):
            _generic_outcomes(local, k, thresholds[k], weights[k], strength[1], gen, q_total)
        a_mask = _full(qmask[0], size[0], i)
        if only_flush:
            for v in range(sidx.shape[0]):
                y = sidx[v, 0]
                if not _compatible(suits[0], a_mask, suits[1], _full(qmask[1], size[1], y)):
                    continue
                for k in range(nt):
                    less = spec[v, 2 * k]
                    leq = spec[v, 2 * k + 1]
                    _score_third(local, 0, 1, 2, thresholds[k], sidx[v, 1], weights[k], less, leq - less,
                                 spec[v, 2 * nt] - leq)
        else:
            _spec_outcomes(local, 0, 1, 2, ranks[0], mult[0], size[0], i, a_str, a_flush, suits[0], a_mask,
                           prof[1], qmask[1], size[1], suits[1], sidx, spec, avail)
        per[i] = local
    total = np.zeros((3, 4), np.int64)
    for i in range(na):
        total += per[i]
    result = np.zeros((3, 4), np.int64)
    result[a] = total[0]
    result[b] = total[1]
    result[c] = total[2]
    return result


@njit(cache=True, parallel=True)
def two_flush_counts(avail: np.ndarray, order: np.ndarray,
                     prof: tuple, ranks: tuple, mult: tuple, size: tuple, slots: tuple, qmask: tuple,
                     strength: tuple, flush: tuple, suits: np.ndarray,
                     kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """Terms with flush entries for players ``order[0]`` (outer) and ``order[2]`` and all card
    sets of ``order[1]`` (swept as classes in counters). Returns (3, 4) counts."""
    a, b, c = order[0], order[1], order[2]
    a_prof = prof[0]
    na = a_prof.shape[0]
    per = np.zeros((na, 3, 4), np.int64)
    for i in prange(na):
        if flush[0][i] < 0:
            continue
        rest = avail - a_prof[i]
        gen_u = _class_u(rest)
        D = disjoint_table(rest)
        thresholds = np.array([flush[0][i], strength[0][i]], np.int64)
        _, sidx, spec = _inner_pass(rest, D, gen_u,
                                    prof[1], ranks[1], mult[1], size[1], qmask[1], strength[1],
                                    prof[2], ranks[2], mult[2], size[2], slots[2], strength[2], flush[2],
                                    thresholds, kstart, kmult, False)
        a_mask = qmask[0][i, (1 << size[0][i]) - 1]
        local = np.zeros((3, 4), np.int64)
        for v in range(sidx.shape[0]):
            z = sidx[v, 0]
            z_mask = qmask[2][z, (1 << size[2][z]) - 1]
            if not _compatible(suits[0], a_mask, suits[2], z_mask):
                continue
            for k in range(2):
                w = 1 if k == 0 else -1
                less = spec[v, 2 * k]
                leq = spec[v, 2 * k + 1]
                _score_third(local, 0, 2, 1, thresholds[k], sidx[v, 1], w, less, leq - less,
                             spec[v, 4] - leq)
        per[i] = local
    total = np.zeros((3, 4), np.int64)
    for i in range(na):
        total += per[i]
    result = np.zeros((3, 4), np.int64)
    result[a] = total[0]
    result[b] = total[1]
    result[c] = total[2]
    return result


@njit(cache=True, parallel=True)
def three_flush_counts(avail: np.ndarray, order: np.ndarray,
                       prof: tuple, ranks: tuple, mult: tuple, size: tuple, slots: tuple, qmask: tuple,
                       strength: tuple, flush: tuple, suits: np.ndarray,
                       kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """The term with a flush entry for each of the three players. Returns (3, 4) counts."""
    a, b, c = order[0], order[1], order[2]
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
            if flush[2][z] >= 0 and _compatible(suits[0], a_mask, suits[2], _full(qmask[2], size[2], z)):
                n += 2
        c_idx = np.zeros(n, np.int64)
        c_str = np.zeros(n, np.int64)
        c_w = np.zeros(n, np.int64)
        n = 0
        for z in range(nc):
            if flush[2][z] >= 0 and _compatible(suits[0], a_mask, suits[2], _full(qmask[2], size[2], z)):
                c_idx[n], c_str[n], c_w[n] = z, flush[2][z], 1
                c_idx[n + 1], c_str[n + 1], c_w[n + 1] = z, strength[2][z], -1
                n += 2
        by = np.argsort(c_str, kind="mergesort")
        c_idx, c_str, c_w = c_idx[by], c_str[by], c_w[by]
        # Queries: the compatible flush versions of the second player at max(threshold, own).
        nv = 0
        for y in range(nb):
            if flush[1][y] >= 0 and _compatible(suits[0], a_mask, suits[1], _full(qmask[1], size[1], y)):
                nv += 2
        q_idx = np.zeros(nv * 5, np.int64)
        q_thr = np.zeros(nv * 5, np.int64)
        q_phase = np.zeros(nv * 5, np.int64)
        q_w = np.zeros(nv * 5, np.int64)
        q_tau = np.full(nv * 5, tau, np.int64)
        v_str = np.zeros(nv, np.int64)
        v = 0
        for y in range(nb):
            if flush[1][y] >= 0 and _compatible(suits[0], a_mask, suits[1], _full(qmask[1], size[1], y)):
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
                _score_third(total, 0, 1, 2, thresholds[k], v_str[v], w, less, leq - less,
                             res[5 * v + 4] - leq)
    total = np.zeros((3, 4), np.int64)
    for i in range(na):
        total += per[i]
    result = np.zeros((3, 4), np.int64)
    result[a] = total[0]
    result[b] = total[1]
    result[c] = total[2]
    return result
