"""Payoffs at the leaves of the public tree, vectorised over hole-card classes and chance outcomes.

For player p at a leaf, the counterfactual value of each (outcome k, hole card of class x) is the sum
over the opponent's possible hole cards (every card the outcome leaves, but p's own) of the
opponent's reach times p's chips from the root: the final pot minus p's own chips put in from the
root when p wins, minus those chips when p loses, and p's share of an even split (odd chip to seat 0,
as the engine's :func:`~exactodds.stud.engine.settlement.split_evenly`) on a tie. A reach is per card: the
opponent's class y counts ``avail[k, y]`` cards, less p's own card when it is of class y. Showdowns
compare the exact strengths in O(K m) by sorting the opponent's strengths once per context.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exactodds.stud.engine.settlement import split_evenly
from exactodds.stud.solve.cards_to_come import Context
from exactodds.stud.solve.tree import Node, NodeKind


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
