"""Rank profiles: a player's completions grouped by the ranks they add, for rank-level counting.

A five-card stud hand that is not a flush is worth what its ranks are worth, so the
completions of a player (the unseen cards still to come to them) fall into classes by
*rank profile*: how many cards of each rank 2..A they add. A class holds
``prod_r C(m_r, c_r)`` card sets (``m_r`` unseen cards of rank r, ``c_r`` taken), all of
the same strength unless one of them is a flush. A player whose known cards all share
one suit has at most one flush set per profile (that suit's card of each rank); it is
kept as a *flush entry*: counted once more at its flush strength and once less at the
rank strength (see docs/methods-multiway.md).

Keys: every sub-multiset of at most ``MAX_NEED`` ranks is a counter key; keys are
numbered by support (13-bit rank mask), so the keys with a given support are the range
``key_start[mask] : key_start[mask + 1]``, with their multiplicities in ``key_mult``
(in increasing rank order).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import NamedTuple

import numpy as np

from exactodds.combinatorics import colex_index
from exactodds.handrank import rank_table

RANKS = 13
MAX_NEED = 4
NO_FLUSH = -1


@dataclass(frozen=True)
class KeyTable:
    """Counter keys (sub-multisets of at most MAX_NEED cards), grouped by support mask."""

    start: np.ndarray  # (8193,) int64
    mult: np.ndarray  # (n_keys, MAX_NEED) int64, multiplicities in increasing rank order
    index: dict[tuple[tuple[int, int], ...], int]


@lru_cache(maxsize=1)
def key_table() -> KeyTable:
    keys: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    for size in range(MAX_NEED + 1):
        for ranks in itertools.combinations(range(RANKS), size):
            for mults in itertools.product(range(1, MAX_NEED + 1), repeat=size):
                if sum(mults) <= MAX_NEED:
                    mask = sum(1 << r for r in ranks)
                    keys.append((mask, tuple(zip(ranks, mults, strict=True))))
    keys.sort()
    start = np.zeros((1 << RANKS) + 1, dtype=np.int64)
    mult = np.zeros((len(keys), MAX_NEED), dtype=np.int64)
    index = {}
    for i, (mask, pairs) in enumerate(keys):
        start[mask + 1] += 1
        for j, (_, c) in enumerate(pairs):
            mult[i, j] = c
        index[pairs] = i
    np.cumsum(start, out=start)
    return KeyTable(start=start, mult=mult, index=index)


class Profiles(NamedTuple):
    """One player's completion classes, sorted by rank strength (ascending, higher = stronger);
    a named tuple, so the compiled kernels take it whole.

    ``prof[i, r]`` cards of rank r; ``ranks[i, :size[i]]`` the ranks present, ascending, with
    ``mult``; ``slots[i, sub]`` the key of the restriction to the ranks picked by the bits of
    ``sub`` and ``qmask[i, sub]`` its rank mask. ``strength[i]`` is the rank (non-flush)
    strength; ``flush[i]`` the strength of the flush set with this profile, or -1 if none.
    ``suit`` is the flush suit (-1 when the known cards are not all of one suit).
    """

    prof: np.ndarray
    ranks: np.ndarray
    mult: np.ndarray
    size: np.ndarray
    slots: np.ndarray
    qmask: np.ndarray
    strength: np.ndarray
    flush: np.ndarray
    suit: int


def rank_counts(cards: np.ndarray) -> np.ndarray:
    """Cards of each rank among ``cards`` (13 int64)."""
    return np.bincount(np.asarray(cards, dtype=np.int64) // 4, minlength=RANKS).astype(np.int64)


def _strength(cards: list[int]) -> int:
    return int(rank_table()[colex_index(cards)])


def _rank_strength(known: list[int], profile: tuple[int, ...]) -> int:
    """Strength of the known cards plus cards of these ranks, suits chosen to avoid a flush."""
    used = set(known)
    cards = list(known)
    for r, c in enumerate(profile):
        for _ in range(c):
            card = next(4 * r + s for s in range(4) if 4 * r + s not in used)
            used.add(card)
            cards.append(card)
    if len({c % 4 for c in cards}) == 1:
        # All ranks differ: move one added card to another suit.
        card = cards[-1]
        cards[-1] = 4 * (card // 4) + (card % 4 + 1) % 4
    return _strength(cards)


def player_profiles(known: list[int], need: int, unseen: np.ndarray) -> Profiles:
    """The completion classes of a player holding ``known`` and receiving ``need`` of ``unseen``."""
    if need > MAX_NEED:
        raise ValueError(f"rank profiles handle at most {MAX_NEED} cards to come, got {need}")
    avail = rank_counts(unseen)
    unseen_set = {int(c) for c in unseen}
    suits = {c % 4 for c in known}
    suit = suits.pop() if len(suits) == 1 else -1
    keys = key_table()
    rows = []
    for combo in itertools.combinations_with_replacement(range(RANKS), need):
        profile = tuple(combo.count(r) for r in range(RANKS))
        if any(profile[r] > avail[r] for r in range(RANKS)):
            continue
        rows.append(profile)
    n = len(rows)
    prof = np.array(rows, dtype=np.int64).reshape(n, RANKS)
    ranks = np.zeros((n, MAX_NEED), dtype=np.int64)
    mult = np.zeros((n, MAX_NEED), dtype=np.int64)
    size = np.zeros(n, dtype=np.int64)
    slots = np.full((n, 1 << MAX_NEED), -1, dtype=np.int64)
    qmask = np.zeros((n, 1 << MAX_NEED), dtype=np.int64)
    strength = np.zeros(n, dtype=np.int64)
    flush = np.full(n, NO_FLUSH, dtype=np.int64)
    for i, profile in enumerate(rows):
        present = [(r, c) for r, c in enumerate(profile) if c]
        size[i] = len(present)
        for j, (r, c) in enumerate(present):
            ranks[i, j], mult[i, j] = r, c
        for sub in range(1 << len(present)):
            picked = tuple(p for j, p in enumerate(present) if (sub >> j) & 1)
            slots[i, sub] = keys.index[picked]
            qmask[i, sub] = sum(1 << r for r, _ in picked)
        strength[i] = _rank_strength(known, profile)
        if suit >= 0 and all(c <= 1 for c in profile):
            cards = [4 * r + suit for r, c in present]
            if all(card in unseen_set for card in cards):
                flush[i] = _strength(list(known) + cards)
    order = np.argsort(strength, kind="stable")
    return Profiles(prof=prof[order], ranks=ranks[order], mult=mult[order], size=size[order],
                    slots=slots[order], qmask=qmask[order], strength=strength[order], flush=flush[order],
                    suit=suit)


def profile_count(avail: np.ndarray, cards: int) -> int:
    """The number of rank profiles of ``cards`` cards that the deck holds (at most ``avail[r]``
    of rank r): the classes of a player receiving that many, without building them."""
    ways = [1] + [0] * cards  # ways[k]: profiles of k cards over the ranks seen so far
    for r in range(RANKS):
        top = int(avail[r])
        ways = [sum(ways[k - c] for c in range(min(top, k) + 1)) for k in range(cards + 1)]
    return ways[cards]


def class_sizes(profiles: Profiles, avail: np.ndarray) -> np.ndarray:
    """Card sets in each class for a deck with ``avail[r]`` cards of rank r: prod C(avail_r, c_r)."""
    sizes = np.ones(len(profiles.strength), dtype=np.int64)
    for r in range(RANKS):
        sizes *= np.array([comb(int(avail[r]), int(c)) for c in profiles.prof[:, r]], dtype=np.int64)
    return sizes
