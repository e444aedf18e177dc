"""Reading a solved profile: the node a sequence of actions leads to, the strategy of a hole card
there, and each decision point's reach and range-weighted action frequencies."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.cards import format_cards
from exactodds.stud.solve.game import Game, Profile
from exactodds.stud.solve.start import SolveError
from exactodds.stud.solve.tree import NodeKind

REACHED = 1e-9  # a decision point the equilibrium reaches with at least this probability is listed


@dataclass(frozen=True, kw_only=True)
class Located:
    """A decision node and the row of its context (the chance outcome; 0 before the deal)."""

    node: int
    row: int


def locate(game: Game, actions: Sequence[str], next_up: Sequence[int] | None = None) -> Located:
    """The decision node reached from the root by ``actions`` (through the deal of ``next_up``, the
    last up cards in seat order, when the solve starts on the third round)."""
    tree = game.tree
    node_id, row = 0, 0
    steps = list(actions)
    while True:
        node = tree.nodes[node_id]
        if node.kind is NodeKind.CHANCE:
            if next_up is None:
                raise SolveError("these actions end the third round: give the last up cards (next_up)")
            node_id, row = _deal(game, node.children, next_up)
            continue
        if not steps:
            break
        step = steps.pop(0)
        if node.kind is not NodeKind.DECISION or step not in node.actions:
            allowed = " or ".join(node.actions) if node.actions else "nothing (the hand is over)"
            raise SolveError(f'"{step}" is not an action of the solved tree here; allowed: {allowed}')
        node_id = node.children[node.actions.index(step)]
    if tree.nodes[node_id].kind is not NodeKind.DECISION:
        raise SolveError("these actions end the hand: there is no decision to read")
    return Located(node=node_id, row=row)


def deal_row(game: Game, next_up: Sequence[int], ctx: int) -> int | None:
    """The row of context ``ctx`` holding the deal of ``next_up`` (the last up cards, seat order), or
    None; SolveError unless they are two different unseen cards."""
    pair = (int(next_up[0]), int(next_up[1]))
    if pair[0] == pair[1] or any(c not in game.unseen for c in pair):
        raise SolveError(f"{format_cards(pair)} cannot be the last up cards: each must be an unseen card, "
                         "and they must differ")
    return game.contexts[ctx].row_of(pair, game.classes)


def _deal(game: Game, children: Sequence[int], next_up: Sequence[int]) -> tuple[int, int]:
    for child in children:
        if child < 0:
            continue
        row = deal_row(game, next_up, game.tree.nodes[child].ctx)
        if row is not None:
            return child, row
    raise SolveError(f"{format_cards(next_up)} cannot be the last up cards here")  # pragma: no cover


def hole_class(game: Game, card: int) -> int:
    """The class of a hole card (its row in every strategy array)."""
    if card not in game.unseen:
        raise SolveError(f"{format_cards([card])} cannot be a hole card here: it is seen")
    return game.classes.class_of(card)


def strategy_of(game: Game, profile: Profile, at: Located, card: int) -> dict[str, float]:
    """Action -> probability for ``card`` at a located decision node."""
    node = game.tree.nodes[at.node]
    probs = profile.strategy[at.node][at.row, hole_class(game, card)]
    return {a: float(p) for a, p in zip(node.actions, probs, strict=True)}


def reaches(game: Game, profile: Profile, wanted: dict[int, int]) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Both players' reach per card (m-vectors, range weights included) at each wanted node (node -> row)."""
    out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    tree = game.tree
    stack = [(0, game.weights[0][None, :].copy(), game.weights[1][None, :].copy())]
    while stack:
        node_id, r0, r1 = stack.pop()
        node = tree.nodes[node_id]
        if node_id in wanted:
            row = wanted[node_id]
            out[node_id] = (r0[row], r1[row])
        if node.kind is NodeKind.CHANCE:
            for child in node.children:
                if child >= 0:
                    mask = game.contexts[tree.nodes[child].ctx].mask
                    stack.append((child, r0 * mask, r1 * mask))
        elif node.kind is NodeKind.DECISION:
            if not any(w >= node_id for w in wanted):
                continue
            sigma = profile.strategy[node_id]
            for a, child in enumerate(node.children):
                if node.player == 0:
                    stack.append((child, r0 * sigma[:, :, a], r1))
                else:
                    stack.append((child, r0, r1 * sigma[:, :, a]))
    return out


def holding(r_own: np.ndarray, r_other: np.ndarray, avail: np.ndarray) -> np.ndarray:
    """The (unnormalised) probability that the player holds one given card of each class at a node (m
    classes of ``avail`` cards): own reach times the opponent's reach on every other card."""
    out: np.ndarray = r_own * ((r_other * avail).sum() - r_other)
    return out
