"""The five-card subset counters of the whole deck: a cache-sized specialisation (numba kernels).

For a threshold t, ``N_t(T)`` is the number of counted five-card hands (those weaker than t,
in a sweep) that contain the card set T. :class:`HandCounters` holds N_t(T) for every T of
1 to 5 cards of the 52-card deck, each size in its own array indexed by colex index:

* ``c1`` int32 (52), ``c2`` int16 (1,326), ``c3`` int16 (22,100), ``c4`` int8 (270,725),
  ``bits`` one bit per five-card hand.

Why the small dtypes (this is the specialisation): a 1-card set lies in at most
C(51, 4) = 249,900 hands, a 2-card set in 19,600, a 3-card set in 1,176, a 4-card set in
48 and a 5-card set in one, so every count fits; the whole set of counters is ~630 kB and
stays in cache during a sweep, which benchmarks showed is what makes it fast.
The plain reference is :class:`exactodds.counting.reference.ReferenceCounters`.

Operations (all njit):

* :func:`new_hand_counters`, :func:`add_hand` (count one hand in all its subsets),
  :func:`counters_below` (counters holding every hand of a StrengthDeck weaker than a level);
* :func:`hand_count` - N_t of one set by size and colex index;
* :func:`count_avoiding` - hands avoiding a 5-card set P: sum over S subset of P of (-1)^|S| N_t(S);
  :func:`count_avoiding_pair` the same on two sets of counters at once;
* :func:`count_avoiding_with_each` - for every card u not in P, hands holding u and avoiding P,
  sum over S subset of P of (-1)^|S| N_t(S + {u}), with the unrolled per-size loops.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from exactodds.combinatorics import BINOM, N_HANDS


class HandCounters(NamedTuple):
    """N_t(T) for every set T of 1..5 cards of the deck, by size and colex index (see the module)."""

    c1: np.ndarray    # (52,) int32
    c2: np.ndarray    # (1326,) int16
    c3: np.ndarray    # (22100,) int16
    c4: np.ndarray    # (270725,) int8
    bits: np.ndarray  # (C(52,5) / 8 + 1,) uint8, bit i = hand of colex index i counted


@numba.njit(cache=True, nogil=True)
def new_hand_counters():
    """Empty counters."""
    return HandCounters(np.zeros(52, dtype=np.int32), np.zeros(1326, dtype=np.int16),
                        np.zeros(22100, dtype=np.int16), np.zeros(270725, dtype=np.int8),
                        np.zeros(N_HANDS // 8 + 1, dtype=np.uint8))


@numba.njit(cache=True, inline="always")
def add_hand(counters, index, cards):
    """Count one 5-card hand (sorted ``cards``, colex ``index``) in the counters of all its subsets."""
    c1, c2, c3, c4, bits = counters
    bits[index >> 3] |= np.uint8(1 << (index & 7))
    for a in range(5):
        ca = cards[a]
        c1[ca] += 1
        for b in range(a + 1, 5):
            cb = cards[b]
            ib = BINOM[ca, 1] + BINOM[cb, 2]
            c2[ib] += 1
            for c in range(b + 1, 5):
                ic = ib + BINOM[cards[c], 3]
                c3[ic] += 1
                for d in range(c + 1, 5):
                    c4[ic + BINOM[cards[d], 4]] += 1


@numba.njit(cache=True, nogil=True)
def counters_below(deck, level):
    """Counters holding every hand of the StrengthDeck ``deck`` weaker than ``level``."""
    counters = new_hand_counters()
    add_levels(counters, deck, 0, level)
    return counters


@numba.njit(cache=True, inline="always")
def add_levels(counters, deck, lo, hi):
    """Count the deck's hands of strength lo..hi-1."""
    order = deck.order
    for i in range(deck.level_start[lo], deck.level_start[hi]):
        add_hand(counters, order[i], deck.hands[order[i]])


@numba.njit(cache=True, inline="always")
def hand_count(counters, size, index):
    """N_t of the card set of this size (1..5) with this colex index."""
    if size == 5:
        return np.int64((counters.bits[index >> 3] >> (index & 7)) & 1)
    if size == 4:
        return np.int64(counters.c4[index])
    if size == 3:
        return np.int64(counters.c3[index])
    if size == 2:
        return np.int64(counters.c2[index])
    return np.int64(counters.c1[index])


@numba.njit(cache=True, inline="always")
def count_avoiding(counters, player, counted):
    """Counted hands sharing no card with the sorted 5-card row ``player``.

    ``counted`` is N_t of the empty set (all counted hands); the other 31 terms are read
    from the counters: sum over S subset of P of (-1)^|S| N_t(S).
    """
    total = np.int64(counted)
    for m in range(1, 32):
        index = 0
        size = 0
        for j in range(5):
            if (m >> j) & 1:
                size += 1
                index += BINOM[player[j], size]
        if size & 1:
            total -= hand_count(counters, size, index)
        else:
            total += hand_count(counters, size, index)
    return total


@numba.njit(cache=True, inline="always")
def count_avoiding_pair(first, second, player, counted_first, counted_second):
    """:func:`count_avoiding` on two sets of counters at once (the subsets' indices computed
    once): (from ``first``, from ``second``)."""
    a = np.int64(counted_first)
    b = np.int64(counted_second)
    for m in range(1, 32):
        index = 0
        size = 0
        for j in range(5):
            if (m >> j) & 1:
                size += 1
                index += BINOM[player[j], size]
        if size & 1:
            a -= hand_count(first, size, index)
            b -= hand_count(second, size, index)
        else:
            a += hand_count(first, size, index)
            b += hand_count(second, size, index)
    return a, b


def _insert_tables():
    """Constant tables for count_avoiding_with_each: subsets (bit masks) of the player's 5 cards
    grouped by size 0..4, and BELOW[nb, m] = cards of subset m among the player's nb lowest."""
    by_size = [[m for m in range(32) if bin(m).count("1") == k] for k in range(5)]
    masks = np.array([m for group in by_size for m in group], dtype=np.int64)
    starts = np.cumsum([0] + [len(g) for g in by_size]).astype(np.int64)
    below = np.array([[bin(m & ((1 << nb) - 1)).count("1") for m in range(32)] for nb in range(6)],
                     dtype=np.int64)
    return masks, starts, below


SUBSET_MASKS, SUBSET_STARTS, BELOW = _insert_tables()


@numba.njit(cache=True, nogil=True)
def count_avoiding_with_each(counters, player, base, out):
    """out[u] = counted hands that hold u and none of the player's (sorted) cards, for every u
    not in the player's hand (entries of the player's cards are left alone).

    Inclusion-exclusion over the subsets S of the player's cards: sum (-1)^|S| N(S + {u}).
    Unrolled per size: one loop per subset size, so the sign is a constant. ``base`` is
    scratch space of shape (32, 6).
    """
    c1, c2, c3, c4, bits = counters
    masks, starts, below = SUBSET_MASKS, SUBSET_STARTS, BELOW
    # base[m, g]: colex index of (subset m of player) + {u}, less u's own term, when g cards
    # of the subset lie below u: those keep their positions, the others move up by one.
    for m in range(32):
        k = 0
        for j in range(5):
            if (m >> j) & 1:
                k += 1
        for g in range(k + 1):
            index = 0
            i = 0
            for j in range(5):
                if (m >> j) & 1:
                    index += BINOM[player[j], i + 1] if i < g else BINOM[player[j], i + 2]
                    i += 1
            base[m, g] = index
    nb = 0  # player cards below u
    for u in range(52):
        if nb < 5 and player[nb] == u:
            nb += 1
            continue
        total = np.int64(c1[u])
        for t in range(starts[1], starts[2]):
            m = masks[t]
            g = below[nb, m]
            total -= c2[base[m, g] + BINOM[u, g + 1]]
        for t in range(starts[2], starts[3]):
            m = masks[t]
            g = below[nb, m]
            total += c3[base[m, g] + BINOM[u, g + 1]]
        for t in range(starts[3], starts[4]):
            m = masks[t]
            g = below[nb, m]
            total -= c4[base[m, g] + BINOM[u, g + 1]]
        for t in range(starts[4], starts[5]):
            m = masks[t]
            g = below[nb, m]
            index = base[m, g] + BINOM[u, g + 1]
            total += (bits[index >> 3] >> (index & 7)) & 1
        out[u] = total
