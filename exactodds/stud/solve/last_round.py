"""The last betting round of a third-round solve laid out for the compiled walks: each context's
subtree below the deal as flat arrays (tree order, parents first) and its chance outcomes (showdown
orders, cards left), and the actions of all its decisions laid end to end so that one K x m x A array
holds a player's regrets (or average strategy) for the whole subtree."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from exactodds.stud.engine.settlement import split_evenly
from exactodds.stud.solve.game import Game
from exactodds.stud.solve.tree import NodeKind

KIND_CODES = {NodeKind.DECISION: 0, NodeKind.FOLD: 1, NodeKind.SHOWDOWN: 2, NodeKind.CHANCE: 3}


class Subtree(NamedTuple):
    """M nodes in tree order (local ids, the root is 0): ``kind`` (0 decision, 1 fold, 2 showdown, 3 a deal),
    ``player``, ``first`` (start of the node's children in ``children``), ``actions`` (how many),
    ``offset`` (start of its actions on the A axis), ``added`` (M x 2 chips put in from the root),
    ``final_pot``, ``winner`` (of a fold), ``share`` (M x 2, each seat's half of a split pot) and
    ``width`` (A, all actions)."""

    kind: np.ndarray
    player: np.ndarray
    first: np.ndarray
    actions: np.ndarray
    offset: np.ndarray
    children: np.ndarray
    added: np.ndarray
    final_pot: np.ndarray
    winner: np.ndarray
    share: np.ndarray
    width: int


class Outcomes(NamedTuple):
    """The chance outcomes of one context: both players' showdown indexes (2 x K x m each, see
    :class:`~exactodds.stud.solve.cards_to_come.ShowdownIndex`), the cards of each class each outcome
    leaves (``avail``, K x m) and where a hole card of the class is possible (``mask``, K x m)."""

    order: np.ndarray
    below: np.ndarray
    at_most: np.ndarray
    self_sign: np.ndarray
    avail: np.ndarray
    mask: np.ndarray


class Learner(NamedTuple):
    """What one CFR walk of a context reads and updates: both players' reach per card arriving at the
    deal (m each), the regrets and average strategy (K x m x A, updated in place) and ``keep``, what
    is kept of a positive and of a negative cumulative regret after the update."""

    r0: np.ndarray
    r1: np.ndarray
    regret: np.ndarray
    average: np.ndarray
    keep: np.ndarray


class LastRound(NamedTuple):
    """One context after the deal: the global ids of its nodes (tree order), its subtree and its
    outcomes."""

    ctx: int
    nodes: tuple[int, ...]
    subtree: Subtree
    outcomes: Outcomes

    @property
    def mask(self) -> np.ndarray:
        """K x m, 1.0 where a hole card of the class is possible."""
        return self.outcomes.mask


def subtree_nodes(game: Game, root: int, *, through_deals: bool = True) -> list[int]:
    """The global ids below ``root`` (itself first) in depth-first order: parents before children
    (``through_deals=False``: a deal is kept, what is below it is not)."""
    out, todo = [], [root]
    while todo:
        node_id = todo.pop()
        out.append(node_id)
        node = game.tree.nodes[node_id]
        if through_deals or node.kind is not NodeKind.CHANCE:
            todo.extend(c for c in reversed(node.children) if c >= 0)
    return out


def flat_subtree(game: Game, ids: list[int]) -> Subtree:
    """The nodes ``ids`` (tree order, parents first, every decision's children among them) as flat
    arrays; a deal keeps no children here (its kind says it is one)."""
    local = {g: i for i, g in enumerate(ids)}
    nodes = [game.tree.nodes[g] for g in ids]
    count = np.array([len(n.actions) if n.kind is NodeKind.DECISION else 0 for n in nodes], dtype=np.int64)
    offset = np.concatenate([[0], np.cumsum(count)[:-1]]).astype(np.int64)
    first = offset.copy()  # a decision's children are listed in the same order as its actions
    below = [c for n in nodes if n.kind is NodeKind.DECISION for c in n.children]
    children = np.array([local[c] for c in below], dtype=np.int64)
    return Subtree(
        kind=np.array([KIND_CODES[n.kind] for n in nodes], dtype=np.int64),
        player=np.array([n.player for n in nodes], dtype=np.int64), first=first, actions=count, offset=offset,
        children=children, added=np.array([n.added for n in nodes], dtype=np.float64),
        final_pot=np.array([n.final_pot for n in nodes], dtype=np.float64),
        winner=np.array([n.winner for n in nodes], dtype=np.int64),
        share=np.array([[split_evenly(n.final_pot, (0, 1))[s] for s in (0, 1)] for n in nodes],
                       dtype=np.float64),
        width=int(count.sum()))


def outcomes_of(game: Game, ctx: int) -> Outcomes:
    """The chance outcomes of context ``ctx`` as the compiled walks read them (showdown indexes as
    zeros where no showdown happens)."""
    context = game.contexts[ctx]
    indexes = [game.showdown.get((ctx, p)) for p in range(2)]
    if indexes[0] is None or indexes[1] is None:  # no showdown below (every line ends in a fold)
        empty = np.zeros((2, context.size, game.classes.count), dtype=np.int64)
        order = under = at_most = self_sign = empty
    else:
        order, under, at_most, self_sign = (
            np.ascontiguousarray(np.stack([getattr(i, f) for i in indexes]).astype(np.int64))
            for f in ("order", "below", "at_most", "self_sign"))
    return Outcomes(order=order, below=under, at_most=at_most, self_sign=self_sign,
                    avail=np.ascontiguousarray(context.avail), mask=np.ascontiguousarray(context.mask))


def last_round(game: Game, root: int) -> LastRound:
    """The flat layout of the subtree below the deal at global node ``root`` (worked out once per game)."""
    key = ("last round", root)
    if key not in game.memo:
        game.memo[key] = _last_round(game, root)
    out: LastRound = game.memo[key]
    return out


def _last_round(game: Game, root: int) -> LastRound:
    ids = subtree_nodes(game, root)
    ctx = game.tree.nodes[root].ctx
    return LastRound(ctx=ctx, nodes=tuple(ids), subtree=flat_subtree(game, ids),
                     outcomes=outcomes_of(game, ctx))
