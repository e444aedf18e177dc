"""What each legal action is worth against an opponent who plays a solved strategy, when more is known
about the opponent's hole card than the solve assumed.

The table's solver bots play the equilibrium of a solve with uniform ranges, but their actions on the
earlier rounds (the simple policy) tell which hole cards they may hold. Against such an opponent the
player's best play differs from the equilibrium's: :func:`response_values` weights the opponent's hole
card by a prior (the cards its earlier actions allow) and, within the solved rounds, by the
probability of each action it took (Bayes, through its strategy), then plays a best response for the
player's own hole card over the rest of the solved tree. Exact: the same counts as the solve, on
classes of cards refined so that the prior is one weight per class.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from exactodds.cards import format_card
from exactodds.stud.engine.state import StudHand
from exactodds.stud.solve.best_response import walk
from exactodds.stud.solve.game import Game, Profile, build_game
from exactodds.stud.solve.query import locate, reaches
from exactodds.stud.solve.results import SolveResult
from exactodds.stud.solve.start import SolveError


@dataclass(frozen=True, kw_only=True)
class ResponseValues:
    """Each legal action of the player to act (solver texts, in legal order) and its chips from now,
    playing on as well as possible against the solved opponent (higher is better); ``opponent_cards``
    is the number of hole cards the opponent may still hold."""

    actions: tuple[str, ...]
    chips: tuple[float, ...]
    opponent_cards: int

    @property
    def best(self) -> str:
        """The action of highest value (the first such in legal order)."""
        return self.actions[int(np.argmax(self.chips))]

    def to_dict(self) -> dict[str, Any]:
        return {"actions": [{"action": a, "chips": c} for a, c in zip(self.actions, self.chips, strict=True)],
                "best": self.best, "opponent_cards": self.opponent_cards}


def lift_profile(profile: Profile, coarse: Game, fine: Game) -> Profile:
    """``profile`` of the game ``coarse`` as a profile of ``fine``: the same position and tree on finer
    classes of cards (each fine class inside one coarse class), every card playing as in ``coarse``."""
    of = np.array([coarse.classes.class_of(members[0]) for members in fine.classes.members], dtype=np.int64)
    out = {}
    for node, sigma in profile.strategy.items():
        ctx = fine.tree.nodes[node].ctx
        context = fine.contexts[ctx]
        if ctx == 0:
            rows = np.zeros(context.size, dtype=np.int64)
        else:
            found = [coarse.contexts[ctx].row_of(tuple(int(c) for c in dealt), coarse.classes)
                     for dealt in context.dealt]
            rows = np.array(found, dtype=np.int64)
        out[node] = sigma[rows][:, of, :]
    return Profile(strategy=out)


def response_values(result: SolveResult, hand: StudHand, *, prior: Mapping[int, float] | None = None
                    ) -> ResponseValues:
    """For the player to act in ``hand`` (a later state of the hand ``result`` was solved from; their
    hole card known): each legal action's chips from now against the other player's strategy in
    ``result``, that player's hole card weighted by ``prior`` (card -> weight; None: the solve's range)
    and by their actions since the solve's root. SolveError when the prior leaves no hole card the
    opponent's actions allow."""
    actions, next_up = result.path_to(hand)
    assert hand.actor is not None
    me = result.seats.index(hand.actor)
    hole = hand.down[hand.actor]
    if hole is None:
        raise SolveError("the player to act has no hole card yet")
    coarse = result.solution.game
    weights = [coarse.card_weights(0), coarse.card_weights(1)]
    if prior is not None:
        weights[1 - me] = weights[1 - me] * np.array([float(prior.get(int(c), 0.0)) for c in coarse.unseen])
        if weights[1 - me].sum() <= 0:
            raise SolveError("the opponent's prior gives no weight to any unseen card")
    # the fine classes refine the solve's: a prior can make two cards' weights equal that the solve kept apart
    fine = build_game(coarse.spec, dead=result.dead, weights=(weights[0], weights[1]),
                      keep_apart=coarse.classes.of)
    profile = lift_profile(result.solution.profile, coarse, fine)
    at = locate(fine, actions, next_up)
    node = fine.tree.nodes[at.node]
    r0, r1 = reaches(fine, profile, {at.node: at.row})[at.node]
    x = fine.classes.class_of(hole)
    avail = fine.contexts[node.ctx].avail[at.row]
    opponent = r1 if me == 0 else r0
    mass = float(opponent @ avail - opponent[x])
    if mass <= 0:
        raise SolveError(f"no hole card of the opponent is consistent with its actions and the prior "
                         f"(the player holds {format_card(hole)})")
    sunk = result.stacks[me] - hand.stacks[hand.actor]  # chips put in since the solve's root
    chips = []
    rows = fine.contexts[node.ctx].size  # the walk below a deal runs every outcome: this one is read
    for child in node.children:
        values = walk(fine, profile, child, np.tile(r0, (rows, 1)), np.tile(r1, (rows, 1)))
        chips.append(float(values[2 + me][at.row, x]) / mass + sunk)
    cards = float(((opponent > 0) * avail).sum()) - (1.0 if opponent[x] > 0 else 0.0)
    return ResponseValues(actions=node.actions, chips=tuple(chips), opponent_cards=int(round(cards)))
