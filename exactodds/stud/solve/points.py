"""The decision points of a solved profile that the equilibrium reaches: the current round in full
and, on a third-round solve, the last round after given last up cards."""

from __future__ import annotations

import numpy as np

from exactodds.stud.engine.actions import action_words
from exactodds.stud.solve.game import Game
from exactodds.stud.solve.profile import Profile
from exactodds.stud.solve.query import REACHED, deal_row, holding, reaches
from exactodds.stud.solve.results import DecisionPoint, HoleStrategy
from exactodds.stud.solve.tree import DEAL


def decision_points(game: Game, profile: Profile, *, next_up: tuple[int, int] | None = None
                    ) -> tuple[DecisionPoint, ...]:
    """The root first, then every reached decision of the current round in tree order, then (with
    ``next_up``) every reached decision of the last round after that deal."""
    tree = game.tree
    wanted = {i: 0 for i in tree.decisions() if tree.nodes[i].ctx == 0}
    if next_up is not None:
        for i in tree.decisions():
            ctx = tree.nodes[i].ctx
            row = deal_row(game, next_up, ctx) if ctx else None
            if row is not None:
                wanted[i] = row
    reach = reaches(game, profile, wanted)
    out = []
    for node_id in sorted(wanted):
        r0, r1 = reach[node_id]
        node = tree.nodes[node_id]
        avail = game.contexts[node.ctx].avail[wanted[node_id]]
        joint = float((r0 * avail).sum() * (r1 * avail).sum() - (r0 * r1) @ avail) / game.norm
        if node.ctx:  # given the deal: divided by the probability of the deal, the pairs it leaves
            w0, w1 = game.weights
            joint /= float((w0 * avail).sum() * (w1 * avail).sum() - (w0 * w1) @ avail) / game.norm
        if node_id and joint < REACHED:
            continue
        out.append(_point(game, profile, node_id, wanted[node_id], (r0, r1), joint, next_up))
    return tuple(out)


def _point(game: Game, profile: Profile, node_id: int, row: int, reach: tuple[np.ndarray, np.ndarray],
           joint: float, next_up: tuple[int, int] | None) -> DecisionPoint:
    node = game.tree.nodes[node_id]
    p = node.player
    avail = game.contexts[node.ctx].avail[row]
    held = holding(reach[p], reach[1 - p], avail)
    total = float(held @ avail)
    sigma = profile.strategy[node_id][row]
    weights = held / total if total > 0 else held
    dealt = set(next_up) if node.ctx and next_up is not None else set()
    classes = game.classes
    holes = tuple(HoleStrategy(card=int(c), probabilities=tuple(float(x) for x in sigma[classes.of[i]]),
                               weight=float(weights[classes.of[i]]))
                  for i, c in sorted(enumerate(classes.unseen), key=lambda ic: -ic[1])
                  if int(c) not in dealt and weights[classes.of[i]] > 0)
    totals = tuple(float(x) for x in (weights * avail) @ sigma)
    history = tuple(s for s in node.path if s != DEAL)
    return DecisionPoint(history=history, next_up=next_up if node.ctx else None, player=p,
                         to_call=node.to_call, actions=node.actions, reach=joint, holes=holes, totals=totals,
                         history_words=_words(game, node.path, node.ctx))


def _words(game: Game, path: tuple[str, ...], ctx: int) -> tuple[str, ...]:
    """The actions of ``path`` (ending in context ``ctx``) in words, each as its player saw it ("check",
    "bet 4", "raise to 8")."""
    out = []
    after = False  # past the deal: the nodes are in ``ctx``
    for k, step in enumerate(path):
        if step == DEAL:
            after = True
            continue
        node = game.tree.nodes[game.tree.index[(ctx if after else 0, path[:k])]]
        out.append(action_words(step, to_call=node.to_call))
    return tuple(out)
