"""Compiled counting kernels for five-card stud showdown equity (integers only).

Every kernel returns **outcome counts** ``out[p, t]``: the number of equally likely
deals in which player ``p`` holds the top strength together with ``t - 1`` others
(``t = 1``: p wins outright). Strengths come from the hand-rank table, higher is
stronger. Deals in which p does not hold the top strength are p's losses.

Cards in the unseen deck are handled as indices ``0..n-1`` into the sorted unseen deck.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from exactodds.counting.kernels.bits import sort_small
from exactodds.counting.kernels.subset_counters import (
    add_slots,
    add_subsets,
    count_avoiding,
    count_avoiding_slots,
    new_subset_counters,
)


@njit(cache=True, nogil=True)
def headsup_sweep(a, b, n):
    """Heads-up counts by inclusion-exclusion (:mod:`exactodds.counting.kernels.subset_counters`).

    ``a`` and ``b`` are StrengthRows (:mod:`exactodds.counting.deck`): each player's
    completions (sorted rows of unseen-deck indices 0..n-1), sorted by strength ascending
    (higher = stronger).

    Returns ``(less, leq)``: for each A completion X, the number of B completions disjoint
    from X whose strength is < (resp. <=) A's strength: B's completions go into subset
    counters in strength order and each X queries them when the sweep reaches its strength.
    """
    xs, sa = a.rows, a.strengths
    ys, sb = b.rows, b.strengths
    na = xs.shape[0]
    nb = ys.shape[0]
    counters = new_subset_counters(n, ys.shape[1])
    less = np.zeros(na, np.int64)
    leq = np.zeros(na, np.int64)
    j = 0
    i = 0
    while i < na:
        s = sa[i]
        end = i
        while end < na and sa[end] == s:
            end += 1
        for phase in range(2):
            # phase 0: counters hold B completions with strength < s; phase 1: <= s.
            while j < nb and (sb[j] < s or (phase == 1 and sb[j] == s)):
                add_subsets(counters, ys[j], 1)
                j += 1
            for q in range(i, end):
                total = count_avoiding(counters, xs[q])
                if phase == 0:
                    less[q] = total
                else:
                    leq[q] = total
        i = end
    return less, leq


@njit(cache=True, nogil=True)
def last_street_counts(known: np.ndarray, unknown: np.ndarray) -> np.ndarray:
    """Exact outcome counts when only hole cards are unknown (the last street).

    ``known[p]`` is the strength of player p when p's hole card is known, else -1.
    ``unknown[p, c]`` is the strength of unknown-hole player p holding unseen card c.
    Counts run over every assignment of distinct unseen cards to the unknown-hole players
    (n! / (n-k)! of them). Returns ``out`` (P, P + 1) as in the module docstring.

    For each player p and each strength v that p can hold, the number of assignments in
    which nobody beats v, split by how many tie it, is a DP over the unseen cards whose
    state is (set of unknown players already given a card, number tied so far).
    """
    n_players = known.shape[0]
    n = unknown.shape[1]
    players = np.empty(n_players, np.int64)
    k = 0
    for p in range(n_players):
        if known[p] < 0:
            players[k] = p
            k += 1
    full = (1 << k) - 1
    out = np.zeros((n_players, n_players + 1), np.int64)
    f = np.zeros((1 << k, n_players + 1), np.int64)
    for p in range(n_players):
        own_bit = -1
        for j in range(k):
            if players[j] == p:
                own_bit = j
        choices = 1 if own_bit < 0 else n
        for choice in range(choices):
            if own_bit < 0:
                v = known[p]
                excluded = -1
                start = 0
            else:
                v = unknown[p, choice]
                excluded = choice
                start = 1 << own_bit
            tied = 1
            beaten = False
            for q in range(n_players):
                if q != p and known[q] >= 0:
                    if known[q] > v:
                        beaten = True
                    elif known[q] == v:
                        tied += 1
            if beaten:
                continue
            f[:, :] = 0
            f[start, 0] = 1
            for c in range(n):
                if c == excluded:
                    continue
                # Descending masks: each card is given to at most one player (0/1 knapsack order).
                for mask in range(full, -1, -1):
                    for j in range(k):
                        if (mask >> j) & 1:
                            continue
                        s = unknown[players[j], c]
                        if s > v:
                            continue
                        step = 1 if s == v else 0
                        target = mask | (1 << j)
                        for t in range(n_players - step):
                            if f[mask, t] != 0:
                                f[target, t + step] += f[mask, t]
            for t in range(n_players + 1 - tied):
                out[p, tied + t] += f[full, t]
    return out


@njit(cache=True, nogil=True)
def score_deal(
    base: np.ndarray, needs: np.ndarray, cards: np.ndarray, table: np.ndarray,
    binom: np.ndarray, strengths: np.ndarray, out: np.ndarray,
) -> None:
    """Add one complete deal to ``out``: player p gets the next ``needs[p]`` of ``cards``."""
    n_players = base.shape[0]
    hand = np.empty(5, np.int64)
    pos = 0
    best = -1
    for p in range(n_players):
        size = 0
        for i in range(base.shape[1]):
            if base[p, i] >= 0:
                hand[size] = base[p, i]
                size += 1
        for _ in range(needs[p]):
            hand[size] = cards[pos]
            size += 1
            pos += 1
        sort_small(hand)  # then the colex index
        index = 0
        for i in range(5):
            index += binom[hand[i], i + 1]
        strengths[p] = table[index]
        if strengths[p] > best:
            best = strengths[p]
    tied = 0
    for p in range(n_players):
        if strengths[p] == best:
            tied += 1
    for p in range(n_players):
        if strengths[p] == best:
            out[p, tied] += 1


class PrefixWalk(NamedTuple):
    """The state of a walk over the disjoint prefixes of some players (:func:`_start_walk`).

    ``state`` is (loop, player 0's end, levels): the walk is over once the loop is negative;
    ``idx``, ``used`` and ``chosen`` hold each loop's completion, the cards taken before it and
    its strength.
    """

    state: np.ndarray
    idx: np.ndarray
    used: np.ndarray
    chosen: np.ndarray


# Complete prefixes handed out per call of _walk_prefixes, in the rows of a block the caller
# allocates: a call per block keeps the walk's state out of the counting loops, and a block of
# known shape lets numba compile them as tight as the hand-written nested loops.
PREFIX_BLOCK = 1024


@njit(cache=True, nogil=True)
def _start_walk(offsets: np.ndarray, levels: int, first: int, stop: int) -> PrefixWalk:
    """A walk over the disjoint prefixes of players 0..levels-1 (entries ``offsets[p]:offsets[p+1]``
    of a StackedRows) visiting player 0's completions ``first..stop-1`` (relative)."""
    idx = np.zeros(levels + 1, np.int64)
    idx[0] = offsets[0] + first
    return PrefixWalk(np.array([0, offsets[0] + stop, levels], np.int64), idx, np.zeros(levels + 1, np.int64),
                      np.zeros(levels + 1, np.int64))


@njit(cache=True, nogil=True)
def _walk_prefixes(walk: PrefixWalk, players, block: np.ndarray) -> int:
    """Step the nested loops over the players' disjoint completions (``players`` a StackedRows)
    on to the next complete prefixes, written to the rows of ``block`` (PREFIX_BLOCK, 4): the
    prefix's cards (bit mask), its best strength (-1 for no players), how many prefix players
    hold it and which (bit p: player p). Returns how many."""
    state, idx, used, chosen = walk
    masks, strengths, offsets = players
    p, end0, levels = state[0], state[1], state[2]
    n = 0
    while p >= 0 and n < block.shape[0]:
        if p == levels:
            best = -1
            for q in range(levels):
                best = max(best, chosen[q])
            tied = 0
            top = 0
            for q in range(levels):
                if chosen[q] == best:
                    tied += 1
                    top |= 1 << q
            block[n, 0] = used[levels]
            block[n, 1] = best
            block[n, 2] = tied
            block[n, 3] = top
            n += 1
            p -= 1
            if p >= 0:
                idx[p] += 1
            continue
        limit = end0 if p == 0 else offsets[p + 1]
        while idx[p] < limit and masks[idx[p]] & used[p]:
            idx[p] += 1
        if idx[p] >= limit:
            p -= 1
            if p >= 0:
                idx[p] += 1
            continue
        chosen[p] = strengths[idx[p]]
        used[p + 1] = used[p] | masks[idx[p]]
        p += 1
        idx[p] = offsets[p]
    state[0] = p
    return n


@njit(cache=True, nogil=True)
def nested_counts(players, first: int, stop: int, out: np.ndarray) -> None:
    """Enumerate every complete deal by nested loops over the players' completions; add to ``out``.

    ``players`` is a StackedRows (:mod:`exactodds.counting.deck`): player p's completions
    are entries ``offsets[p]:offsets[p+1]`` of ``masks`` (bit set of unseen-deck indices)
    and ``strengths`` (higher = stronger). Only player 0's completions
    ``first..stop-1`` (relative) are visited, so the caller can work in chunks. The other
    players but the last are walked by :func:`_walk_prefixes`; the last player's loop only
    counts how many of its completions fall below, level with or above the best hand among
    the others.
    """
    masks, strengths, offsets = players
    last = offsets.shape[0] - 2
    walk = _start_walk(offsets, last, first, stop)
    block = np.zeros((PREFIX_BLOCK, 4), np.int64)
    while walk.state[0] >= 0:
        for k in range(_walk_prefixes(walk, players, block)):
            taken, best, tied, top = block[k, 0], block[k, 1], block[k, 2], block[k, 3]
            below = 0
            level = 0
            above = 0
            for i in range(offsets[last], offsets[last + 1]):
                if masks[i] & taken:
                    continue
                s = strengths[i]
                if s < best:
                    below += 1
                elif s == best:
                    level += 1
                else:
                    above += 1
            out[last, 1] += above
            out[last, tied + 1] += level
            for q in range(last):
                if (top >> q) & 1:
                    out[q, tied] += below
                    out[q, tied + 1] += level


@njit(cache=True, nogil=True)
def sample_counts(
    base: np.ndarray, needs: np.ndarray, samples: np.ndarray, table: np.ndarray,
    binom: np.ndarray, out: np.ndarray,
) -> None:
    """Add each sampled complete deal (a row of card ids, dealt in player order) to ``out``."""
    strengths = np.empty(base.shape[0], np.int64)
    for row in range(samples.shape[0]):
        score_deal(base, needs, samples[row], table, binom, strengths, out)


@njit(cache=True, nogil=True)
def _pair_sweep(taken: int, best: int, threshold: bool, b, c,
                counters) -> tuple[int, int, int, int, int, int]:
    """The inclusion-exclusion sweep of B's and C's completions avoiding the cards ``taken``
    (:func:`prefix_pair_counts`): with ``threshold``, the (Y, Z) pairs with both at most ``best``,
    by whether each is below or level with it, in counters holding C below ``best`` and then at
    most ``best``; and the pairs above ``best`` won by B alone or tied by B and C. Returns
    ``(lt_lt, eq_lt, lt_le, eq_le, b_alone, bc_tie)`` (Y below / level with best, Z below it,
    then Z at most best; B alone; B and C level). The counters are empty on entry and on return."""
    yslots, sy, my = b
    zslots, sz, mz = c
    cnt = counters.counts
    ny, nz = sy.shape[0], sz.shape[0]
    jz = 0
    lt_lt = 0
    eq_lt = 0
    lt_le = 0
    eq_le = 0
    if threshold:
        for phase in range(2):
            while jz < nz and (sz[jz] < best or (phase == 1 and sz[jz] == best)):
                if not mz[jz] & taken:
                    add_slots(zslots[jz], cnt, 1)
                jz += 1
            for i in range(ny):
                if sy[i] > best:
                    break
                if my[i] & taken:
                    continue
                free = count_avoiding_slots(yslots[i], cnt)
                if phase == 0:
                    if sy[i] < best:
                        lt_lt += free
                    else:
                        eq_lt += free
                else:
                    if sy[i] < best:
                        lt_le += free
                    else:
                        eq_le += free
    b_alone = 0
    bc_tie = 0
    i = 0
    while i < ny and sy[i] <= best:
        i += 1
    while i < ny:
        s = sy[i]
        end = i
        while end < ny and sy[end] == s:
            end += 1
        while jz < nz and sz[jz] < s:
            if not mz[jz] & taken:
                add_slots(zslots[jz], cnt, 1)
            jz += 1
        for q in range(i, end):
            if not my[q] & taken:
                b_alone += count_avoiding_slots(yslots[q], cnt)
        while jz < nz and sz[jz] == s:
            if not mz[jz] & taken:
                add_slots(zslots[jz], cnt, 1)
            jz += 1
        for q in range(i, end):
            if not my[q] & taken:
                bc_tie += count_avoiding_slots(yslots[q], cnt)
        i = end
    for j in range(jz):
        if not mz[j] & taken:
            add_slots(zslots[j], cnt, -1)
    return lt_lt, eq_lt, lt_le, eq_le, b_alone, bc_tie - b_alone


@njit(cache=True, nogil=True)
def prefix_pair_counts(prefix, first: int, stop: int, b, c, counters, pairs: int, out: np.ndarray) -> None:
    """Exact counts for any number of players; adds to ``out``.

    The first players (the "prefix", a StackedRows as in :func:`nested_counts`; may be
    none) are walked by :func:`_walk_prefixes`, visiting player 0's completions ``first..stop-1``.
    For each prefix, with best strength m, the last two players B and C (SlottedRows:
    subset slots of ``counters``, strengths sorted ascending, higher = stronger, bit masks)
    are counted as in :func:`headsup_sweep` (:func:`_pair_sweep`), with C's completions in the
    subset counters (empty on entry and on return) and B's as inclusion-exclusion queries, against
    the threshold m as well as each other. ``pairs`` is the number of (Y, Z) pairs disjoint from
    each other and from any prefix. Rows of ``out``: prefix players, then B, then C.
    """
    n_prefix = prefix.offsets.shape[0] - 1
    b_row, c_row = n_prefix, n_prefix + 1
    walk = _start_walk(prefix.offsets, n_prefix, first, stop)
    block = np.zeros((PREFIX_BLOCK, 4), np.int64)
    while walk.state[0] >= 0:
        for k in range(_walk_prefixes(walk, prefix, block)):
            taken, best, tied, top = block[k, 0], block[k, 1], block[k, 2], block[k, 3]
            n1, n2, lt_le, eq_le, b_alone, bc_tie = _pair_sweep(taken, best, n_prefix > 0, b, c, counters)
            n3, n4 = lt_le - n1, eq_le - n2
            for q in range(n_prefix):
                if (top >> q) & 1:
                    out[q, tied] += n1
                    out[q, tied + 1] += n2 + n3
                    out[q, tied + 2] += n4
            out[b_row, tied + 1] += n2
            out[c_row, tied + 1] += n3
            out[b_row, tied + 2] += n4
            out[c_row, tied + 2] += n4
            out[b_row, 1] += b_alone
            out[b_row, 2] += bc_tie
            out[c_row, 1] += pairs - (n1 + n2 + n3 + n4) - b_alone - bc_tie
            out[c_row, 2] += bc_tie
