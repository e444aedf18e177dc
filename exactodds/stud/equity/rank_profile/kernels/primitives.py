"""Compiled rank-level counting primitives of the exact multiway stud equity (integers only),
shared by the three-way kernels (:mod:`.threeway`, :mod:`.threeway_inner`) and the
four-way ones (:mod:`.fourway`): binomials, kernel tables,
subset counters and the strength-ordered sweeps over them, class weights and flush-set checks.

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

from typing import NamedTuple

import numpy as np
from numba import njit

from exactodds.combinatorics import BINOM

INF = 1 << 40


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


class SweepCounters(NamedTuple):
    """The classes a :func:`sweep` puts into counters: rows ``idx`` of the counter player's
    :class:`~exactodds.stud.equity.rank_profile.profiles.Profiles`, sorted by ``strength``
    (ascending, higher = stronger), each added ``weight`` times."""

    idx: np.ndarray
    strength: np.ndarray
    weight: np.ndarray


class SweepQueries(NamedTuple):
    """The queries of a :func:`sweep`: class ``idx`` of the query player against the counter
    classes weaker than (``phase`` 0) or at most as strong as (phase 1) ``threshold``, with kernel
    tables ``tau`` (module doc), times ``weight``."""

    idx: np.ndarray
    threshold: np.ndarray
    phase: np.ndarray
    weight: np.ndarray
    tau: np.ndarray


class BelowQueries(NamedTuple):
    """The queries of a :func:`sweep_below`, sorted by ``threshold``: class ``idx`` of the query
    player against the counter classes below ``threshold``, times ``weight``."""

    idx: np.ndarray
    threshold: np.ndarray
    weight: np.ndarray


@njit(cache=True, inline="always")
def _add(rows, i: int, w: int, u: np.ndarray, V: np.ndarray) -> None:
    s = rows.size[i]
    for sub in range(1 << s):
        f = w
        for j in range(s):
            if not (sub >> j) & 1:
                f *= u[rows.ranks[i, j], rows.mult[i, j]]
        V[rows.slots[i, sub]] += f


@njit(cache=True, inline="always")
def _query(rows, i: int, tau: int, U: np.ndarray, E: np.ndarray, V: np.ndarray, kstart: np.ndarray,
           kmult: np.ndarray) -> int:
    s = rows.size[i]
    total = 0
    for sub in range(1 << s):
        outside = 1
        for j in range(s):
            if not (sub >> j) & 1:
                outside *= U[tau, rows.ranks[i, j], rows.mult[i, j]]
        if outside == 0:
            continue
        qm = rows.qmask[i, sub]
        acc = 0
        for key in range(kstart[qm], kstart[qm + 1]):
            v = V[key]
            if v == 0:
                continue
            coef = 1
            k = 0
            for j in range(s):
                if (sub >> j) & 1:
                    coef *= E[tau, rows.ranks[i, j], rows.mult[i, j], kmult[key, k]]
                    k += 1
            acc += coef * v
        total += outside * acc
    return total


@njit(cache=True, nogil=True)
def sweep(counter, counters: SweepCounters, u: np.ndarray, query, queries: SweepQueries, U: np.ndarray,
          E: np.ndarray, kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """Answer every query against its counter classes: the weighted number of disjoint card-set pairs.

    ``counter`` and ``query`` are the two players' Profiles; counter classes enter with the
    outside factors ``u``. Queries are answered in order of (threshold, phase). Returns one count
    per query, in the order given.
    """
    V = np.zeros(kmult.shape[0], np.int64)
    order = np.argsort(queries.threshold * 2 + queries.phase, kind="mergesort")
    res = np.zeros(queries.idx.shape[0], np.int64)
    j = 0
    nc = counters.idx.shape[0]
    for o in range(order.shape[0]):
        q = order[o]
        t = queries.threshold[q]
        ph = queries.phase[q]
        while j < nc and (counters.strength[j] < t or (ph == 1 and counters.strength[j] == t)):
            if counters.weight[j] != 0:
                _add(counter, counters.idx[j], counters.weight[j], u, V)
            j += 1
        if queries.weight[q] != 0:
            res[q] = queries.weight[q] * _query(query, queries.idx[q], queries.tau[q], U, E, V, kstart, kmult)
    return res


@njit(cache=True, inline="always")
def class_weight(rows, i: int, avail: np.ndarray) -> int:
    """Card sets in class i of ``rows`` (Profiles) for the deck ``avail``: prod C(avail_r, c_r)."""
    w = 1
    for j in range(rows.size[i]):
        w *= choose(avail[rows.ranks[i, j]], rows.mult[i, j])
    return w


@njit(cache=True, inline="always")
def pattern_weight(rows, i: int, flush_rows, y: int, avail: np.ndarray) -> int:
    """Card sets of class i of ``rows`` avoiding one card of each rank of class y of ``flush_rows``
    (its flush set)."""
    w = 1
    for j in range(rows.size[i]):
        r = rows.ranks[i, j]
        w *= choose(avail[r] - flush_rows.prof[y, r], rows.mult[i, j])
    return w


@njit(cache=True, inline="always")
def full_mask(rows, i: int) -> int:
    """Rank mask of class i of ``rows``."""
    return rows.qmask[i, (1 << rows.size[i]) - 1]


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
def add_transformed(rows, i: int, w: int, u: np.ndarray, T: np.ndarray, V: np.ndarray, kstart: np.ndarray,
                    kmult: np.ndarray) -> None:
    """Add ``w`` times class i of ``rows`` to the transformed counters ``V``: on every sub-multiset
    Q of it and every querying multiplicity x on Q, ``prod_{r in Q} T[r, x_r, i_r]`` times ``u``
    over its other ranks, so that a query is the plain sum of V over its own sub-multisets
    (:func:`counter_sum`). With ``T`` the :func:`disjoint_table` and ``u`` the :func:`class_u`,
    V counts the card sets of the classes added disjoint from one card set of the query."""
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
def counter_sum(rows, i: int, V: np.ndarray) -> int:
    """Sum of the transformed counters over the sub-multisets of class i of ``rows``
    (:func:`add_transformed`)."""
    total = 0
    for sub in range(1 << rows.size[i]):
        total += V[rows.slots[i, sub]]
    return total


@njit(cache=True, nogil=True)
def sweep_below(counter, live: np.ndarray, u: np.ndarray, query, queries: BelowQueries, D: np.ndarray,
                kstart: np.ndarray, kmult: np.ndarray) -> np.ndarray:
    """For each query, its ``weight`` times the number of disjoint card-set pairs of its flush set
    (weight 1) or class (weight its size) of ``query`` with the ``live`` classes of ``counter``
    below the threshold (both Profiles, sorted by strength). Counter classes enter with the
    outside factors ``u``."""
    V = np.zeros(kmult.shape[0], np.int64)
    nq = queries.idx.shape[0]
    res = np.zeros(nq, np.int64)
    j = 0
    nc = counter.strength.shape[0]
    for q in range(nq):
        t = queries.threshold[q]
        while j < nc and counter.strength[j] < t:
            if live[j]:
                add_transformed(counter, j, 1, u, D, V, kstart, kmult)
            j += 1
        if queries.weight[q] != 0:
            res[q] = queries.weight[q] * counter_sum(query, queries.idx[q], V)
    return res
