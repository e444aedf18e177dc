"""The whole-game counting kernel: dealer hands by strength for every (player hand, up card).

For a player hand P and a dealer up card u, the dealer's hand is u plus 4 of the other
46 cards. For a strength threshold t, the number of those hands weaker than t is, by
inclusion-exclusion over the player's cards,

    sum over S subset of P of (-1)^|S| * N_t(S + {u}),

where N_t(T) counts all 5-card hands that contain the set T and are weaker than t. The
kernel sweeps strengths from weakest to strongest, keeping N_t(T) for every set T of 1
to 4 cards in counters indexed by colex index (5-card sets are read from the rank
table), and queries each player class when the sweep reaches its strength.

numba compiles the sweep: it is integer work on small arrays with data-dependent
indices, which numpy cannot vectorise without materialising billions of rows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numba
import numpy as np

from exactodds.combinatorics import BINOM, N_HANDS, all_subsets_colex
from exactodds.handrank import N_STRENGTHS, rank_table
from exactodds.progress import Progress, staged
from exactodds.symmetry import hand_classes

DEALER_COMPLETIONS = 163_185  # C(46, 4)

# --------------------------------------------------------------------------- kernels
# Counter dtypes are as small as the counts allow, to keep the sweep's working set in cache:
# a 1-card set lies in at most C(51,4) = 249,900 hands, a 2-card set in 19,600, a 3-card
# set in 1,176, a 4-card set in 48; a 5-card set is one hand, kept as one bit.


@numba.njit(cache=True)
def _new_counters():
    return (np.zeros(52, dtype=np.int32), np.zeros(1326, dtype=np.int16),
            np.zeros(22100, dtype=np.int16), np.zeros(270725, dtype=np.int8),
            np.zeros(N_HANDS // 8 + 1, dtype=np.uint8))


@numba.njit(cache=True, inline="always")
def _add_hand(index, cards, c1, c2, c3, c4, bits, binom):
    """Count one 5-card hand (sorted cards, colex index) in the counters of all its subsets."""
    bits[index >> 3] |= np.uint8(1 << (index & 7))
    for a in range(5):
        ca = cards[a]
        c1[ca] += 1
        for b in range(a + 1, 5):
            cb = cards[b]
            ib = binom[ca, 1] + binom[cb, 2]
            c2[ib] += 1
            for c in range(b + 1, 5):
                ic = ib + binom[cards[c], 3]
                c3[ic] += 1
                for d in range(c + 1, 5):
                    c4[ic + binom[cards[d], 4]] += 1


def _subset_tables():
    """Constant tables for _query: player-card subsets (bit masks) grouped by size 0..4,
    and BELOW[nb, m] = how many cards of subset m are among the player's nb lowest cards."""
    by_size = [[m for m in range(32) if bin(m).count("1") == k] for k in range(5)]
    masks = np.array([m for group in by_size for m in group], dtype=np.int64)
    starts = np.cumsum([0] + [len(g) for g in by_size]).astype(np.int64)
    below = np.array([[bin(m & ((1 << nb) - 1)).count("1") for m in range(32)] for nb in range(6)],
                     dtype=np.int64)
    return masks, starts, below


SUBSET_MASKS, SUBSET_STARTS, BELOW = _subset_tables()


@numba.njit(cache=True)
def _query(player, c1, c2, c3, c4, bits, binom, masks, starts, below, base, out):
    """out[u] = number of counted hands that hold u and none of the player's (sorted) cards.

    Inclusion-exclusion over the subsets S of the player's cards: sum (-1)^|S| N(S + {u}).
    ``base`` is scratch space of shape (32, 6).
    """
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
                    index += binom[player[j], i + 1] if i < g else binom[player[j], i + 2]
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
            total -= c2[base[m, g] + binom[u, g + 1]]
        for t in range(starts[2], starts[3]):
            m = masks[t]
            g = below[nb, m]
            total += c3[base[m, g] + binom[u, g + 1]]
        for t in range(starts[3], starts[4]):
            m = masks[t]
            g = below[nb, m]
            total -= c4[base[m, g] + binom[u, g + 1]]
        for t in range(starts[4], starts[5]):
            m = masks[t]
            g = below[nb, m]
            index = base[m, g] + binom[u, g + 1]
            total += (bits[index >> 3] >> (index & 7)) & 1
        out[u] = total


@numba.njit(cache=True)
def _sweep_weaker(hands, order, level_start, players, player_level_start, lo, hi, binom, masks, starts,
                  below, out):
    """For player classes with strength in [lo, hi): dealer hands weaker than the player, per up card."""
    c1, c2, c3, c4, bits = _new_counters()
    base = np.zeros((32, 6), dtype=np.int64)
    for i in range(level_start[lo]):
        _add_hand(order[i], hands[order[i]], c1, c2, c3, c4, bits, binom)
    for s in range(lo, hi):
        for r in range(player_level_start[s], player_level_start[s + 1]):
            _query(players[r], c1, c2, c3, c4, bits, binom, masks, starts, below, base, out[r])
        for i in range(level_start[s], level_start[s + 1]):
            _add_hand(order[i], hands[order[i]], c1, c2, c3, c4, bits, binom)


@numba.njit(cache=True, parallel=True)
def _sweep_weaker_parallel(hands, order, level_start, players, player_level_start, bounds, binom, masks,
                           starts, below, out):
    for chunk in numba.prange(len(bounds) - 1):
        _sweep_weaker(hands, order, level_start, players, player_level_start,
                      bounds[chunk], bounds[chunk + 1], binom, masks, starts, below, out)


@numba.njit(cache=True, parallel=True)
def _count_below(hands, order, level_start, players, threshold, binom, masks, starts, below, out):
    """For every player class: dealer hands weaker than a fixed threshold, per up card."""
    c1, c2, c3, c4, bits = _new_counters()
    for i in range(level_start[threshold]):
        _add_hand(order[i], hands[order[i]], c1, c2, c3, c4, bits, binom)
    n = players.shape[0]
    chunks = 64
    for chunk in numba.prange(chunks):
        base = np.zeros((32, 6), dtype=np.int64)
        for r in range(chunk * n // chunks, (chunk + 1) * n // chunks):
            _query(players[r], c1, c2, c3, c4, bits, binom, masks, starts, below, base, out[r])


@numba.njit(cache=True, parallel=True)
def _count_ties(hand_masks, hands, order, level_start, players, player_strength, first, out):
    """For player classes from ``first`` on: dealer hands of exactly the player's strength, per up card."""
    for r in numba.prange(first, players.shape[0]):
        taken = np.uint64(0)
        for j in range(5):
            taken |= np.uint64(1) << np.uint64(players[r, j])
        s = player_strength[r]
        for i in range(level_start[s], level_start[s + 1]):
            h = order[i]
            if hand_masks[h] & taken:
                continue
            for j in range(5):
                out[r, hands[h, j]] += 1


@numba.njit(cache=True)
def _hand_masks(hands):
    masks = np.zeros(hands.shape[0], dtype=np.uint64)
    for i in range(hands.shape[0]):
        m = np.uint64(0)
        for j in range(5):
            m |= np.uint64(1) << np.uint64(hands[i, j])
        masks[i] = m
    return masks


# --------------------------------------------------------------------------- driver


@dataclass(frozen=True)
class SituationCounts:
    """Dealer-hand counts for every (player hand class, up card) with only the up card known.

    Arrays are (classes, 52), indexed by the up card; entries where the up card is one of
    the player's cards are 0 and meaningless (``valid`` marks the real ones). For each
    situation there are DEALER_COMPLETIONS dealer completions in all.

    * ``below_qualifier``: dealer hands weaker than ``qualify_strength`` (dealer does not qualify);
    * ``weaker``: dealer hands weaker than the player's hand;
    * ``equal``: dealer hands exactly as strong as the player's hand.

    For classes weaker than the qualifier no call can win or push, so ``weaker`` and
    ``equal`` are not computed there (``weaker`` repeats ``below_qualifier``, ``equal`` is 0).
    """

    players: np.ndarray          # (classes, 5) sorted cards of each class representative
    weights: np.ndarray          # (classes,) hands per class
    strength: np.ndarray         # (classes,) player strength, higher = stronger
    qualify_strength: int
    below_qualifier: np.ndarray
    weaker: np.ndarray
    equal: np.ndarray
    valid: np.ndarray            # (classes, 52) bool: up card not in the player's hand


@lru_cache(maxsize=1)
def _sweep_inputs():
    table = rank_table()
    hands = all_subsets_colex(52, 5)
    order = np.argsort(table, kind="stable").astype(np.int64)
    level_start = np.searchsorted(table[order], np.arange(N_STRENGTHS + 1)).astype(np.int64)
    return table, hands, order, level_start


@lru_cache(maxsize=1)
def player_classes() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The player hand classes sorted by strength (higher = stronger), as the sweep reads them.

    Returns (players (classes, 5) sorted cards of each representative, weights, strength,
    level_start) where classes with strength s are level_start[s]:level_start[s + 1].
    """
    table, hands, _, _ = _sweep_inputs()
    classes = hand_classes()
    strength = table[classes.representatives].astype(np.int64)
    by_strength = np.argsort(strength, kind="stable")
    players = hands[classes.representatives[by_strength]].astype(np.int64)
    strength = strength[by_strength]
    weights = classes.weights[by_strength]
    level_start = np.searchsorted(strength, np.arange(N_STRENGTHS + 1)).astype(np.int64)
    return players, weights, strength, level_start


COUNTING_STAGES = 4


def count_situations(
    qualify_strength: int, *, progress: Progress | None = None
) -> SituationCounts:
    """Exact dealer counts for all 134,459 player classes x 47 up cards (see SituationCounts).

    Reports one stage "counting all deals" of COUNTING_STAGES steps to ``progress``.
    """
    with staged(progress, "counting all deals", steps=COUNTING_STAGES) as stage:
        return _count_situations(qualify_strength, lambda _label: stage.step())


def _count_situations(qualify_strength: int, step: Callable[[str], None]) -> SituationCounts:
    _, hands, order, level_start = _sweep_inputs()
    players, weights, strength, player_level_start = player_classes()
    step("hand table and suit classes")

    # Classes weaker than the qualifier never beat a qualifying dealer: only the qualifier
    # count matters for them, so the sweep and the tie count start at the qualifier.
    first = int(player_level_start[qualify_strength])
    below = np.zeros((len(players), 52), dtype=np.int32)
    _count_below(hands, order, level_start, players, qualify_strength, BINOM, SUBSET_MASKS,
                 SUBSET_STARTS, BELOW, below)
    step("dealer hands below the qualifier")
    weaker = below.copy()
    bounds = _balanced_bounds(player_level_start, qualify_strength, parts=2)
    _sweep_weaker_parallel(hands, order, level_start, players, player_level_start, bounds, BINOM,
                           SUBSET_MASKS, SUBSET_STARTS, BELOW, weaker)
    step("dealer hands weaker than the player")
    equal = np.zeros_like(weaker)
    _count_ties(_hand_masks(hands), hands, order, level_start, players, strength, first, equal)
    step("dealer hands tying the player")
    valid = np.ones((len(players), 52), dtype=bool)
    np.put_along_axis(valid, players, False, axis=1)
    return SituationCounts(players=players, weights=weights, strength=strength,
                           qualify_strength=qualify_strength, below_qualifier=below, weaker=weaker,
                           equal=equal, valid=valid)


def _balanced_bounds(player_level_start: np.ndarray, lo: int, parts: int) -> np.ndarray:
    """Split strength levels lo..7461 into ``parts`` chunks with about equal numbers of queries."""
    queries = player_level_start[1:]  # classes at or below each level, cumulative
    first = player_level_start[lo]
    cuts = [lo]
    for p in range(1, parts):
        target = first + (queries[-1] - first) * p // parts
        cuts.append(max(int(np.searchsorted(queries, target)), cuts[-1]))
    cuts.append(N_STRENGTHS)
    return np.array(cuts, dtype=np.int64)
