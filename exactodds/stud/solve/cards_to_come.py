"""The cards behind the solve: the deals of the last up cards (chance outcomes, grouped by who acts
first after them) and each hand's showdown strength, over classes of interchangeable cards
(:mod:`exactodds.stud.solve.card_classes`).

Strengths are the exact integers of the hand-strength table (:mod:`exactodds.handrank`), higher is
stronger. A *context* holds a batch of K chance outcomes (K = 1 before the deal and on the last
round): one outcome is a pair of classes, the classes of the two last up cards (seat order), and it
stands for every deal of one card of each. For each outcome and each class x of m: each player's
strength with a hole card of x, how many cards of x the deal leaves (``avail``), and how many deals
of the outcome avoid one given card of x (``mult``: the outcome's weight for a player holding it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.handrank import evaluate_batch
from exactodds.stud.engine.rules import round_opener
from exactodds.stud.solve.card_classes import CardClasses


@dataclass(frozen=True, kw_only=True)
class Context:
    """K chance outcomes over m card classes: ``dealt`` (K x 2 representative last up cards, seat order;
    empty before the deal and on the last round), ``dealt_class`` (K x 2 their classes), ``avail``
    (K x m cards of each class left by the deal), ``mask`` (K x m, 1.0 where a hole card of the class is
    still possible), ``mult`` (K x m deals of the outcome that avoid one card of the class; 1.0 before
    the deal), ``strength[p]`` (K x m)."""

    dealt: np.ndarray
    dealt_class: np.ndarray
    avail: np.ndarray
    mask: np.ndarray
    mult: np.ndarray
    strength: tuple[np.ndarray, np.ndarray]

    @property
    def size(self) -> int:
        """K, the number of chance outcomes in the batch."""
        return int(self.mask.shape[0])

    def row_of(self, dealt: Sequence[int], classes: CardClasses) -> int | None:
        """The outcome holding the deal of these last up cards (seat order), or None."""
        pair = [classes.class_of(int(c)) for c in dealt]
        hit = np.nonzero((self.dealt_class[:, 0] == pair[0]) & (self.dealt_class[:, 1] == pair[1]))[0]
        return int(hit[0]) if len(hit) else None


def _members(classes: CardClasses) -> np.ndarray:
    """m x S (S >= 2): each class's cards, padded with -1."""
    width = max(2, int(classes.size.max()) if classes.count else 0)
    out = np.full((classes.count, width), -1, dtype=np.int64)
    for k, cards in enumerate(classes.members):
        out[k, :len(cards)] = cards
    return out


def _strengths(holes: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """K x m strengths of hole card holes[k, x] with the K rows of ``fixed`` four cards (-1: none, 0)."""
    k, m = holes.shape
    hands = np.empty((k, m, 5), dtype=np.int64)
    hands[:, :, 0] = holes
    hands[:, :, 1:] = fixed[:, None, :]
    ok = holes >= 0
    out = np.zeros((k, m), dtype=np.int32)
    if ok.any():
        out[ok] = evaluate_batch(hands[ok]).astype(np.int32)
    return out


def _single(up: Sequence[Sequence[int]], classes: CardClasses, *, strengths: bool) -> Context:
    m = classes.count
    size = classes.size.astype(np.float64)[None, :]
    if strengths:
        holes = _members(classes)[:, :1].T  # any card of a class: they are interchangeable
        strength = tuple(_strengths(holes, np.array([list(up[p])], dtype=np.int64)) for p in range(2))
    else:
        strength = (np.zeros((1, m), dtype=np.int32),) * 2
    return Context(dealt=np.zeros((1, 0), dtype=np.int64), dealt_class=np.zeros((1, 0), dtype=np.int64),
                   avail=size.copy(), mask=(size > 0).astype(np.float64), mult=np.ones((1, m)),
                   strength=(strength[0], strength[1]))


def root_context(classes: CardClasses) -> Context:
    """The single context before the deal of a third-round solve (no showdown there)."""
    return _single((), classes, strengths=False)


def last_round_context(up: Sequence[Sequence[int]], classes: CardClasses) -> Context:
    """The single context of a last-round solve."""
    return _single(up, classes, strengths=True)


def third_round_contexts(up: Sequence[Sequence[int]],
                         classes: CardClasses) -> tuple[Context, Context, Context]:
    """The root context and one context per opener of the last round (seat 0, seat 1), from the third
    round: every ordered pair of classes that can be dealt as the players' last up cards."""
    size = classes.size
    m = classes.count
    members = _members(classes)
    first, second = (g.ravel() for g in np.meshgrid(np.arange(m), np.arange(m), indexing="ij"))
    possible = (first != second) | (size[first] >= 2)
    first, second = first[possible], second[possible]
    dealt = np.stack([members[first, 0], np.where(first == second, members[second, 1], members[second, 0])],
                     axis=1)
    opener = np.array([round_opener(([*up[0], int(a)], [*up[1], int(b)]), (0, 1), round_index=3)
                       for a, b in dealt], dtype=np.int64)
    groups = []
    for seat in range(2):
        pick = opener == seat
        i, j, cards = first[pick][:, None], second[pick][:, None], dealt[pick]
        x = np.arange(m)[None, :]
        avail = (size[None, :] - (x == i) - (x == j)).astype(np.float64)
        mult = ((size[i] - (x == i)) * (size[j] - (i == j) - (x == j))).astype(np.float64)
        holes = _hole_cards(members, cards)
        strength = tuple(
            _strengths(holes, np.concatenate([np.tile(np.array(up[p], dtype=np.int64), (len(cards), 1)),
                                              cards[:, p:p + 1]], axis=1)) for p in range(2))
        groups.append(Context(dealt=cards, dealt_class=np.concatenate([i, j], axis=1), avail=avail,
                              mask=(avail > 0).astype(np.float64), mult=mult,
                              strength=(strength[0], strength[1])))
    return root_context(classes), groups[0], groups[1]


def _hole_cards(members: np.ndarray, dealt: np.ndarray) -> np.ndarray:
    """K x m: for each deal, a card of each class that the deal leaves (-1 when it leaves none)."""
    k = len(dealt)
    out = np.full((k, members.shape[0]), -1, dtype=np.int64)
    for column in range(members.shape[1] - 1, -1, -1):  # the lowest free member wins
        card = members[None, :, column]
        free = (card >= 0) & (card != dealt[:, :1]) & (card != dealt[:, 1:])
        out = np.where(free, card, out)
    return out


def representative(context: Context) -> tuple[int, int] | None:
    """One deal of the context (seat order), or None when it holds none."""
    if context.size == 0:
        return None
    return int(context.dealt[0, 0]), int(context.dealt[0, 1])
