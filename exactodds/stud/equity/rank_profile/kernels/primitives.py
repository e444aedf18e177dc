"""Compiled rank-level counting primitives of the exact multiway stud equity (integers only),
shared by the three-way kernels (:mod:`.threeway`, :mod:`.threeway_inner`) and the
four-way ones (:mod:`.fourway`, :mod:`.fourway_flush`): binomials, kernel tables,
subset counters and the strength-ordered sweeps over them, class weights and flush-set checks,
and the kernels' thread count.

Completions are handled as rank-profile classes (:mod:`exactodds.stud.equity.rank_profile.profiles`).
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

Outcome counts are ``out[p, t]`` as in :mod:`exactodds.stud.equity.kernels.deal_counts`.
"""

from __future__ import annotations

import numpy as np
from numba import get_num_threads, njit, set_num_threads

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
def choose(n: int, k: int) -> int:
    """C(n, k) for 0 <= n <= 52, k < 8; 0 when impossible, 1 for k = 0."""
    if k == 0:
        return 1
    if n < k or k < 0:
        return 0
    return _BINOM[n, k]


@njit(cache=True, nogil=True)
def kernel_tables(avail: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(U, E, gen_u)`` for a deck with ``avail[r]`` unseen cards of rank r (see module doc);
    ``gen_u[r, y] = C(avail_r, y)`` is the outside-Q factor of a class in counters."""
    U = np.zeros((4, 13, 5), np.int64)
    E = np.zeros((4, 13, 5, 5), np.int64)
    gen_u = np.zeros((13, 5), np.int64)
    for r in range(13):
        m = avail[r]
        for x in range(5):
            gen_u[r, x] = choose(m, x)
            U[0, r, x] = choose(m, x)
            U[1, r, x] = 1
            U[2, r, x] = 1
            U[3, r, x] = 1
            for y in range(1, 5):
                if x > 0:
                    E[0, r, x, y] = choose(m, x) * (choose(m - x, y) - choose(m, y))
                    E[1, r, x, y] = choose(m - x, y) - choose(m, y)
        E[2, r, 1, 1] = -1
    return U, E, gen_u


@njit(cache=True, nogil=True)
def class_u(avail: np.ndarray) -> np.ndarray:
    """``u[r, y] = C(m_r, y)``: the factor of a class's ranks outside the shared ones."""
    u = np.zeros((13, 5), np.int64)
    for r in range(13):
        for y in range(5):
            u[r, y] = choose(avail[r], y)
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


@njit(cache=True, nogil=True)
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
def class_weight(ranks: np.ndarray, mult: np.ndarray, size: np.ndarray, i: int, avail: np.ndarray) -> int:
    """Card sets in class i for the deck ``avail`` (as :func:`_weight`, over its ranks only)."""
    w = 1
    for j in range(size[i]):
        w *= choose(avail[ranks[i, j]], mult[i, j])
    return w


@njit(cache=True, inline="always")
def pattern_weight(a_ranks: np.ndarray, a_mult: np.ndarray, a_size: np.ndarray, i: int,
                    y_prof: np.ndarray, y: int, avail: np.ndarray) -> int:
    """Card sets of class i avoiding one card of each rank of y's flush set."""
    w = 1
    for j in range(a_size[i]):
        r = a_ranks[i, j]
        w *= choose(avail[r] - y_prof[y, r], a_mult[i, j])
    return w


@njit(cache=True, inline="always")
def full_mask(qmask: np.ndarray, size: np.ndarray, i: int) -> int:
    """Rank mask of class i."""
    return qmask[i, (1 << size[i]) - 1]


@njit(cache=True, inline="always")
def compatible(suit_p: int, mask_p: int, suit_q: int, mask_q: int) -> bool:
    """Two flush sets can be dealt together: other suits, or no rank in common."""
    return suit_p != suit_q or (mask_p & mask_q) == 0


@njit(cache=True, inline="always")
def score_third(out: np.ndarray, p: int, q: int, third: int, sp: int, sq: int, w: int,
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


@njit(cache=True, nogil=True)
def disjoint_table(avail: np.ndarray) -> np.ndarray:
    """``D[r, x, y] = C(m_r - x, y) - C(m_r, y)`` (x, y >= 1): the shared-rank kernel of a flush
    set or class with x cards of rank r against a class with y cards of it (0 elsewhere)."""
    D = np.zeros((13, 5, 5), np.int64)
    for r in range(13):
        for x in range(1, 5):
            for y in range(1, 5):
                D[r, x, y] = choose(avail[r] - x, y) - choose(avail[r], y)
    return D


@njit(cache=True, inline="always")
def add_transformed(i: int, u: np.ndarray, D: np.ndarray, ranks: np.ndarray, mult: np.ndarray,
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


@njit(cache=True, nogil=True)
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
                add_transformed(c_idx[j], c_u, D, c_ranks, c_mult, c_size, c_qmask, V, kstart, kmult)
            j += 1
        if q_w[q] != 0:
            i = q_idx[q]
            total = 0
            for sub in range(1 << q_size[i]):
                total += V[q_slots[i, sub]]
            res[q] = q_w[q] * total
    return res
