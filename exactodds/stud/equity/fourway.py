"""Exact four-way equity before the last street by rank-profile counting (docs/methods-multiway.md).

Two *outer* players are enumerated item by item (their rank classes, and their flush
entries when their known cards share a suit); the other two, the *inner* players, must be
unable to make a flush, so that they see only the ranks the outer pair leaves. Outer pairs
with the same combined rank profile leave the same deck, and one strength-ordered sweep of
the inner players answers all of them (:mod:`exactodds.stud.equity.fourway_kernel`).

The method applies when at most two players can still make a flush (those two are the
outer ones); with three or four flush draws the chooser uses another method.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from types import ModuleType
from typing import NamedTuple

import numpy as np

from exactodds.stud.equity.position import StudPosition, cards_to_come
from exactodds.stud.equity.profiles import MAX_NEED, Profiles, key_table, player_profiles, rank_counts

PLAYERS = 4
# Group chunks per progress step (and per compiled call).
CHUNKS = 20


class OuterItems(NamedTuple):
    """An outer player's completions as signed items: rank classes (kind 0, every card set of
    the class at its rank strength) and flush entries (kind 1, one flush set, +1 at its flush
    strength and -1 at its rank strength)."""

    prof: np.ndarray      # (n, 13) int64 cards of each rank
    strength: np.ndarray  # (n,) int64, higher = stronger
    kind: np.ndarray      # (n,) int64: 0 class, 1 flush set
    sign: np.ndarray      # (n,) int64: +1 or -1
    mask: np.ndarray      # (n,) int64 rank mask (flush compatibility)


class ClassRows(NamedTuple):
    """An inner player's rank classes sorted by strength (the arrays of :class:`Profiles`)."""

    prof: np.ndarray
    ranks: np.ndarray
    mult: np.ndarray
    size: np.ndarray
    slots: np.ndarray
    qmask: np.ndarray
    strength: np.ndarray


def _kernel() -> ModuleType:  # the compiled module, imported on first use
    from exactodds.stud.equity import fourway_kernel

    return fourway_kernel


def outer_items(profiles: Profiles) -> OuterItems:
    """The items of an outer player: every class, then each flush set's two entries."""
    classes = np.arange(len(profiles.strength))
    flushed = classes[profiles.flush >= 0]
    index = np.concatenate([classes, flushed, flushed])
    n, f = len(classes), len(flushed)
    strength = np.concatenate([profiles.strength, profiles.flush[flushed], profiles.strength[flushed]])
    kind = np.concatenate([np.zeros(n, np.int64), np.ones(2 * f, np.int64)])
    sign = np.concatenate([np.ones(n + f, np.int64), -np.ones(f, np.int64)])
    masks = profiles.qmask[classes, (1 << profiles.size) - 1]
    return OuterItems(prof=np.ascontiguousarray(profiles.prof[index]), strength=strength.astype(np.int64),
                      kind=kind, sign=sign, mask=masks[index].astype(np.int64))


def class_rows(profiles: Profiles) -> ClassRows:
    """The inner player's bundle (its classes, already sorted by strength)."""
    return ClassRows(prof=profiles.prof, ranks=profiles.ranks, mult=profiles.mult, size=profiles.size,
                     slots=profiles.slots, qmask=profiles.qmask, strength=profiles.strength)


def can_flush(profiles: Profiles) -> bool:
    """True when some completion of the player makes a flush."""
    return bool((profiles.flush >= 0).any())


def _flush_draws(position: StudPosition) -> int:
    """Players whose known cards (up cards, and the hole card when known) share one suit."""
    from exactodds.stud.equity.methods import player_cards

    return sum(len({c % 4 for c in player_cards(p)}) == 1 for p in position.players)


def fourway_supported(position: StudPosition) -> bool:
    """True when the four-way method applies: four players, at most four cards to come each,
    and at most two of them able to make a flush."""
    return (len(position.players) == PLAYERS and max(cards_to_come(position)) <= MAX_NEED
            and _flush_draws(position) <= 2)


def _plan(needs: list[int], flushing: list[bool]) -> list[int]:
    """Seat order (outer A, outer B, inner C, inner D): flush draws outer, then fewest cards to come."""
    return sorted(range(PLAYERS), key=lambda p: (not flushing[p], needs[p], p))


def fourway_work(position: StudPosition) -> int:
    """Work estimate of :func:`fourway_counts` in the units of the three-way estimate: groups
    (distinct combined profiles of the outer pair) times the inner classes swept in each, times
    the sub-multisets a class adds."""
    needs = cards_to_come(position)
    flushing = [len({c % 4 for c in cards}) == 1 for cards in _known(position)]
    a, b, c, d = (needs[p] for p in _plan(needs, flushing))
    classes = [math.comb(12 + k, k) for k in (a, b, c, d)]
    groups = min(classes[0] * classes[1], math.comb(12 + a + b, a + b))
    work: int = groups * (classes[2] + classes[3]) * 2 ** max(c, d)  # int ** int is typed Any
    return work


def _known(position: StudPosition) -> list[list[int]]:
    from exactodds.stud.equity.methods import player_cards

    return [player_cards(p) for p in position.players]


def fourway_counts(position: StudPosition, *,
                   tick: Callable[[int, int], None] | None = None) -> np.ndarray:
    """Exact outcome counts ``out[p, t]`` (4, 5) for a four-player position before the last street."""
    if not fourway_supported(position):
        raise ValueError("the four-way method handles four players, at most two of them drawing to a flush")
    pool = position.unseen()
    needs = cards_to_come(position)
    profiles = [player_profiles(cards, need, pool)
                for cards, need in zip(_known(position), needs, strict=True)]
    order = _plan(needs, [can_flush(p) for p in profiles])
    a, b, c, d = (profiles[p] for p in order)
    avail = rank_counts(pool)
    kernel = _kernel()
    outer_a, outer_b = outer_items(a), outer_items(b)
    pairs, starts = kernel.outer_pairs(avail, outer_a, outer_b, np.array([a.suit, b.suit], np.int64))
    keys = key_table()
    inner_c, inner_d = class_rows(c), class_rows(d)
    groups = len(starts) - 1
    bounds = np.linspace(0, groups, CHUNKS + 1).astype(np.int64)
    total = np.zeros((PLAYERS, PLAYERS + 1), np.int64)
    for step in range(CHUNKS):
        total += kernel.group_counts(avail, outer_a, outer_b, inner_c, inner_d, pairs, starts,
                                     int(bounds[step]), int(bounds[step + 1]), keys.start, keys.mult)
        if tick is not None:
            tick(step + 1, CHUNKS)
    out = np.zeros_like(total)
    out[order] = total
    return out
