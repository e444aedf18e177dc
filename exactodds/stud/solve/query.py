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


@dataclass(frozen=True, kw_only=True)
class Located:
    """A decision node and the row of its context (the chance outcome; 0 before the deal)."""

    node: int
    row: int


def locate(game: Game, actions: Sequence[str], next_up: Sequence[int] | None = None) -> Located:
    """The decision node reached from the root by ``actions``, through the deals of ``next_up`` (the up
    cards dealt since the root, seat 0's then seat 1's of each deal in order) when the actions end a
    round."""
    tree = game.tree
    node_id, row = 0, 0
    steps = list(actions)
    while True:
        node = tree.nodes[node_id]
        if node.kind is NodeKind.CHANCE:
            layers = game.contexts[node.ctx].layers + 1
            if next_up is None or len(next_up) < 2 * layers:
                raise SolveError("these actions end a round: give the up cards dealt after it (next_up)")
            node_id, row = _deal(game, node.children, next_up[:2 * layers])
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
    """The row of context ``ctx`` holding the deals of ``next_up`` (the up cards dealt since the root, seat
    order, as many as the context's deals), or None; SolveError unless they are different unseen cards."""
    cards = tuple(int(c) for c in next_up)
    if len(set(cards)) != len(cards) or any(c not in game.unseen for c in cards):
        raise SolveError(f"{format_cards(cards)} cannot be the up cards dealt: each must be an unseen card, "
                         "and they must differ")
    return game.contexts[ctx].row_of(cards[:2 * game.contexts[ctx].layers], game.classes)


def _deal(game: Game, children: Sequence[int], next_up: Sequence[int]) -> tuple[int, int]:
    for child in children:
        if child < 0:
            continue
        row = deal_row(game, next_up, game.tree.nodes[child].ctx)
        if row is not None:
            return child, row
    raise SolveError(f"{format_cards(next_up)} cannot be the up cards dealt here")  # pragma: no cover


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
    """Both players' reach per card (m-vectors, range weights included) at each wanted node (node -> row
    of its context); the walk follows only the rows leading to them."""
    tree = game.tree
    rows: dict[int, int] = {}  # context -> the one row followed there
    for node_id, row in wanted.items():
        ctx = tree.nodes[node_id].ctx
        while ctx >= 0 and ctx not in rows:
            rows[ctx] = row
            row, ctx = int(game.contexts[ctx].parent_row[row]), game.contexts[ctx].parent
    out: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    stack = [(0, game.weights[0].copy(), game.weights[1].copy())]
    last = max(wanted)
    while stack:
        node_id, r0, r1 = stack.pop()
        node = tree.nodes[node_id]
        if node_id in wanted:
            out[node_id] = (r0, r1)
        if node_id > last:
            continue
        if node.kind is NodeKind.CHANCE:
            for child in node.children:
                ctx = tree.nodes[child].ctx if child >= 0 else -1
                if ctx in rows:
                    mask = game.contexts[ctx].mask[rows[ctx]]
                    stack.append((child, r0 * mask, r1 * mask))
        elif node.kind is NodeKind.DECISION:
            sigma = profile.strategy[node_id][rows[node.ctx]]
            for a, child in enumerate(node.children):
                if node.player == 0:
                    stack.append((child, r0 * sigma[:, a], r1))
                else:
                    stack.append((child, r0, r1 * sigma[:, a]))
    return out


def holding(r_own: np.ndarray, r_other: np.ndarray, avail: np.ndarray) -> np.ndarray:
    """The (unnormalised) probability that the player holds one given card of each class at a node (m
    classes of ``avail`` cards): own reach times the opponent's reach on every other card."""
    out: np.ndarray = r_own * ((r_other * avail).sum() - r_other)
    return out
