"""Subset counters over any deck: the general counters and their fast specialisations (numba kernels).

The counting idea behind every sweep here: to count the counted card sets Y (say, an
opponent's completions weaker than a threshold) that share no card with a set X, keep
for every small set S the number M(S) of counted sets containing S; then

    #{Y counted, Y disjoint from X} = sum over S subset of X of (-1)^|S| M(S)

(inclusion-exclusion: a Y meeting X in j >= 1 cards is counted sum_i (-1)^i C(j, i) = 0
times, a disjoint Y once). Only sets S up to the size r of the Y's can have M(S) > 0.

:class:`SubsetCounters` is the bundle: ``counts`` is one flat array holding M(S) for every
S of 0..r cards of an n-card deck at ``offsets[|S|] + colex(S)`` (:mod:`.bits`), r =
``len(offsets) - 2``. Build it with :func:`new_subset_counters` (int64) or
:func:`new_small_subset_counters` (int16, the cache-sized specialisation; the caller
guarantees every count stays below 2**15).

General operations (njit, any r, rows sorted):

* :func:`add_subsets` (add ``sign`` to M(S) for every subset S of a row, |S| <= r);
* :func:`count_avoiding` (the inclusion-exclusion sum above for a row X).

Specialisations (same results, tested against :mod:`.reference`):

* **slots** - :func:`subset_slots` precomputes, for each row, the counter position of each
  of its subsets; :func:`add_slots` and :func:`count_avoiding_slots` then skip the colex
  arithmetic (a row is added or queried many times in a multiway sweep);
* **unrolled five-card queries** - :func:`count_avoiding5` and :func:`count_avoiding5_pair`
  for a 5-card X and r = 1..3, one fixed loop nest per r that the compiler unrolls; the
  pair version reads two counter sets with the same indices;
* **popcount** - with r = 1, M({c}) is 0 or 1: keep the counted cards as a mask and
  count = counted - popcount(mask & X) (:func:`exactodds.counting.kernels.bits.popcount`).
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from exactodds.combinatorics import BINOM
from exactodds.counting.kernels.bits import counter_offsets, subset_colex


class SubsetCounters(NamedTuple):
    """M(S) for every set S of 0..r cards of an n-card deck (see the module docstring)."""

    counts: np.ndarray   # flat int64 (or int16), M(S) at offsets[|S|] + colex(S)
    offsets: np.ndarray  # (r + 2,) int64


@numba.njit(cache=True, nogil=True)
def new_subset_counters(n, max_size):
    """Empty int64 counters for the sets of 0..max_size cards of an n-card deck."""
    offsets = counter_offsets(n, max_size)
    return SubsetCounters(np.zeros(offsets[max_size + 1], dtype=np.int64), offsets)


@numba.njit(cache=True, nogil=True)
def new_small_subset_counters(n, max_size):
    """Empty int16 counters (cache-sized specialisation: every count must stay below 2**15)."""
    offsets = counter_offsets(n, max_size)
    return SubsetCounters(np.zeros(offsets[max_size + 1], dtype=np.int16), offsets)


@numba.njit(cache=True, inline="always")
def add_subsets(counters, row, sign):
    """Add ``sign`` to M(S) for every subset S of the sorted row with |S| <= r."""
    counts, offsets = counters
    r = offsets.shape[0] - 2
    for mask in range(1 << row.shape[0]):
        index, size = subset_colex(row, mask)
        if size <= r:
            counts[offsets[size] + index] += sign


@numba.njit(cache=True, inline="always")
def count_avoiding(counters, row):
    """Counted sets sharing no card with the sorted ``row``: sum over S subset of row of (-1)^|S| M(S)."""
    counts, offsets = counters
    r = offsets.shape[0] - 2
    total = np.int64(0)
    for mask in range(1 << row.shape[0]):
        index, size = subset_colex(row, mask)
        if size <= r:
            if size & 1:
                total -= counts[offsets[size] + index]
            else:
                total += counts[offsets[size] + index]
    return total


# --------------------------------------------------------------------------- slots


@numba.njit(cache=True, nogil=True)
def subset_slots(rows, offsets):
    """``slots[i, mask]``: counter position of the subset of ``rows[i]`` picked by ``mask``
    (-1 for subsets larger than r), for counters with these ``offsets``."""
    r = offsets.shape[0] - 2
    count, width = rows.shape
    slots = np.empty((count, 1 << width), np.int64)
    for i in range(count):
        for mask in range(1 << width):
            index, size = subset_colex(rows[i], mask)
            slots[i, mask] = offsets[size] + index if size <= r else -1
    return slots


@numba.njit(cache=True, inline="always")
def add_slots(slots, counts, sign):
    """Add ``sign`` to the counter of every subset of one row (its row of :func:`subset_slots`;
    every subset must fit, i.e. the row has at most r cards)."""
    for mask in range(slots.shape[0]):
        counts[slots[mask]] += sign


@numba.njit(cache=True, inline="always")
def count_avoiding_slots(slots, counts):
    """:func:`count_avoiding` for one row given by its row of :func:`subset_slots`."""
    total = 0
    for mask in range(slots.shape[0]):
        slot = slots[mask]
        if slot >= 0:
            parity = 0
            m = mask
            while m:
                parity ^= 1
                m &= m - 1
            if parity:
                total -= counts[slot]
            else:
                total += counts[slot]
    return total


# --------------------------------------------------------------------------- unrolled five-card queries


@numba.njit(cache=True, inline="always")
def count_avoiding5(counters, p):
    """:func:`count_avoiding` for a sorted 5-card row ``p`` and r = 1..3, one loop nest per r."""
    m, offsets = counters
    r = offsets.shape[0] - 2
    o1 = offsets[1]
    total = np.int64(m[0])
    if r == 3:
        o2 = offsets[2]
        o3 = offsets[3]
        for x in range(5):
            ix = p[x]
            total -= m[o1 + ix]
            for y in range(x + 1, 5):
                iy = ix + BINOM[p[y], 2]
                total += m[o2 + iy]
                for z in range(y + 1, 5):
                    total -= m[o3 + iy + BINOM[p[z], 3]]
    elif r == 2:
        o2 = offsets[2]
        for x in range(5):
            ix = p[x]
            total -= m[o1 + ix]
            for y in range(x + 1, 5):
                total += m[o2 + ix + BINOM[p[y], 2]]
    else:
        for x in range(5):
            total -= m[o1 + p[x]]
    return total


@numba.njit(cache=True, inline="always")
def count_avoiding5_pair(first, second, p):
    """:func:`count_avoiding5` on two counter sets with the same offsets at once: (first, second)."""
    mq = first.counts
    ms = second.counts
    offsets = first.offsets
    r = offsets.shape[0] - 2
    o1 = offsets[1]
    a = np.int64(mq[0])
    b = np.int64(ms[0])
    if r == 3:
        o2 = offsets[2]
        o3 = offsets[3]
        for x in range(5):
            ix = p[x]
            a -= mq[o1 + ix]
            b -= ms[o1 + ix]
            for y in range(x + 1, 5):
                iy = ix + BINOM[p[y], 2]
                a += mq[o2 + iy]
                b += ms[o2 + iy]
                for z in range(y + 1, 5):
                    iz = o3 + iy + BINOM[p[z], 3]
                    a -= mq[iz]
                    b -= ms[iz]
    elif r == 2:
        o2 = offsets[2]
        for x in range(5):
            ix = p[x]
            a -= mq[o1 + ix]
            b -= ms[o1 + ix]
            for y in range(x + 1, 5):
                iy = o2 + ix + BINOM[p[y], 2]
                a += mq[iy]
                b += ms[iy]
    else:
        for x in range(5):
            a -= mq[o1 + p[x]]
            b -= ms[o1 + p[x]]
    return a, b
