"""The cards behind the solve: the deals of the last up cards (chance outcomes, grouped by who acts
first after them) and each hand's showdown strength, over classes of interchangeable cards
(:mod:`exactodds.stud.solve.card_classes`).

Strengths are the exact integers of the hand-strength table (:mod:`exactodds.handrank`), higher is
stronger. A *context* holds a batch of K chance outcomes (K = 1 before the deal and on the last
round): one outcome is a pair of classes, the classes of the two last up cards (seat order), and it
stands for every deal of one card of each. For each outcome and each class x of m: each player's
strength with a hole card of x, how many cards of x the deal leaves (``avail``), and how many deals
of the outcome avoid one given card of x (``mult``: the outcome's weight for a player holding it).

Payoffs at the leaves of the public tree (:func:`leaf_values`), vectorised over hole-card classes and
chance outcomes: for player p at a leaf, the counterfactual value of each (outcome k, hole card of
class x) is the sum over the opponent's possible hole cards (every card the outcome leaves, but p's
own) of the opponent's reach times p's chips from the root: the final pot minus p's own chips put in
from the root when p wins, minus those chips when p loses, and p's share of an even split (odd chip to
seat 0, as the engine's :func:`~exactodds.stud.engine.settlement.split_evenly`) on a tie. A reach is
per card: the opponent's class y counts ``avail[k, y]`` cards, less p's own card when it is of class y.
Showdowns compare the exact strengths in O(K m) by sorting the opponent's strengths once per context
(:class:`ShowdownIndex`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.handrank import evaluate_batch
from exactodds.stud.engine.rules import round_opener
from exactodds.stud.engine.settlement import split_evenly
from exactodds.stud.solve.card_classes import CardClasses
from exactodds.stud.solve.tree import Node, NodeKind


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


@dataclass(frozen=True, kw_only=True)
class ShowdownIndex:
    """Player p's view of one context's showdown: the opponent's strength order over the classes, for
    each of p's classes the number of opponent classes below and at most its strength, and p's
    result against a card of its own class (one such card is p's own, subtracted)."""

    order: np.ndarray
    below: np.ndarray
    at_most: np.ndarray
    self_sign: np.ndarray

    @classmethod
    def build(cls, context: Context, player: int) -> ShowdownIndex:
        mine, theirs = context.strength[player], context.strength[1 - player]
        k, n = theirs.shape
        order = np.argsort(theirs, axis=1, kind="stable")
        ranked = np.take_along_axis(theirs, order, axis=1).astype(np.int64)
        offset = (np.arange(k, dtype=np.int64) * 10_000)[:, None]
        flat = (ranked + offset).ravel()
        keys = (mine.astype(np.int64) + offset).ravel()
        below = np.searchsorted(flat, keys, side="left").reshape(k, n) - np.arange(k)[:, None] * n
        at_most = np.searchsorted(flat, keys, side="right").reshape(k, n) - np.arange(k)[:, None] * n
        return cls(order=order, below=below, at_most=at_most, self_sign=np.sign(mine - theirs))


def showdown_weights(index: ShowdownIndex, reach: np.ndarray,
                     avail: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(win, tie, lose): the opponent reach player p beats, ties and loses to, per (k, x), given the
    opponent's reach per card (K x m) and the cards of each class left (``avail``, K x m)."""
    ranked = np.take_along_axis(reach * avail, index.order, axis=1)
    cum = np.zeros((reach.shape[0], reach.shape[1] + 1))
    np.cumsum(ranked, axis=1, out=cum[:, 1:])
    below = np.take_along_axis(cum, index.below, axis=1)
    at_most = np.take_along_axis(cum, index.at_most, axis=1)
    win = below - reach * (index.self_sign > 0)
    tie = at_most - below - reach * (index.self_sign == 0)
    lose = cum[:, -1:] - at_most - reach * (index.self_sign < 0)
    return win, tie, lose


def leaf_values(node: Node, player: int, reach: np.ndarray, index: ShowdownIndex | None,
                avail: np.ndarray) -> np.ndarray:
    """Player ``player``'s counterfactual values (K x m) at a leaf, given the opponent's reach per card
    (K x m) and the cards of each class left (``avail``, K x m)."""
    own = node.added[player]
    others = (reach * avail).sum(axis=1, keepdims=True) - reach
    if node.kind is NodeKind.FOLD:
        folded: np.ndarray = (node.final_pot - own if node.winner == player else -own) * others
        return folded
    assert node.kind is NodeKind.SHOWDOWN and index is not None
    win, tie, _ = showdown_weights(index, reach, avail)
    share = split_evenly(node.final_pot, (0, 1))[player]
    out: np.ndarray = win * node.final_pot + tie * share - own * others
    return out
