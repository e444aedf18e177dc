"""The result types of a solve: the method, each decision point's strategy per hole card, the values
of the actual hole card's actions, each player's game value and the exploitability.

Chips are counted *from now* (the root of the solve): a player's value is the chips they expect to
end the hand with minus their stack now, so the two values add up to the pot now. Higher is better
for that player; exploitability is lower-is-better (0 at an exact equilibrium).

:func:`decision_points` lists the decision points of a solved profile that the equilibrium reaches: the
current round in full and, after given up cards to come, the later rounds after them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from exactodds.cards import format_card, format_cards
from exactodds.stud.engine.actions import action_words
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.solve.best_response import Exploitability
from exactodds.stud.solve.cfr import StopReason
from exactodds.stud.solve.game import Game, Profile
from exactodds.stud.solve.query import deal_row, holding, locate, reaches, strategy_of
from exactodds.stud.solve.start import SolveError
from exactodds.stud.solve.tree import DEAL

SHARED_NOTE = ("hole cards of one class play the same mix: swapping two cards of a class changes no "
               "strength, no opener and no range weight, so the solve treats each class as one card (an "
               "exact reduction, not an approximation)")


class SolveMethod(StrEnum):
    """How the equilibrium was computed."""

    LINEAR_PROGRAM = "linear-program"  # the sequence-form LP (scipy's HiGHS): exact, last round only
    CFR_PLUS = "cfr-plus"  # CFR+ over public states with range vectors (numpy), iterated to a target


@dataclass(frozen=True, kw_only=True)
class HoleStrategy:
    """One hole card's probability of each legal action (in the decision point's action order), and
    how likely the player is to hold it there (``weight``, summing to 1 over the listed cards)."""

    card: int
    probabilities: tuple[float, ...]
    weight: float

    def to_dict(self) -> dict[str, Any]:
        return {"card": format_card(self.card), "weight": self.weight,
                "probabilities": list(self.probabilities)}


@dataclass(frozen=True, kw_only=True)
class DecisionPoint:
    """A decision the equilibrium reaches: the actions from the root (``history``), the last up cards
    dealt on the way (``next_up``, seat order, after the third round), the player to act (heads-up
    seat 0 or 1) and the chips they must add to call (``to_call``, 0: nothing to call), their legal
    actions (PHH codes), the probability the equilibrium gets here (after the last up cards: given
    that they are ``next_up``), each hole card's mix and the range-weighted frequency of each action
    (``totals``). ``history_words`` is the history in words, for text."""

    history: tuple[str, ...]
    next_up: tuple[int, ...] | None
    player: int
    to_call: int
    actions: tuple[str, ...]
    reach: float
    holes: tuple[HoleStrategy, ...]
    totals: tuple[float, ...]
    history_words: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"history": list(self.history),
                "next_up": None if self.next_up is None else [format_card(c) for c in self.next_up],
                "player": self.player + 1, "to_call": self.to_call, "actions": list(self.actions),
                "reach": self.reach,
                "totals": dict(zip(self.actions, self.totals, strict=True)),
                "holes": [h.to_dict() for h in self.holes]}

    def words(self) -> tuple[str, ...]:
        """The legal actions in words ("check", "bet 4", "call 4", "raise to 8", "fold")."""
        return tuple(action_words(a, to_call=self.to_call) for a in self.actions)


@dataclass(frozen=True, kw_only=True)
class ActionValue:
    """The actual hole card's chips from now for one legal action, played on as well as possible
    against the equilibrium opponent, and the equilibrium's probability of that action."""

    action: str
    chips: float
    probability: float

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "chips": self.chips, "probability": self.probability}


@dataclass(frozen=True, kw_only=True)
class Solution:
    """The solved game and profile behind a result (for queries; not part of ``to_dict``)."""

    game: Game
    profile: Profile


@dataclass(frozen=True, kw_only=True)
class SolveResult:
    """A heads-up equilibrium from a decision of the second, third or last round.

    ``seats`` are the two players' seats in the hand (0-based, seat order); every other player index
    of the result is 0 or 1 in that order. ``round_index`` is 0-based (2: the third round, 3: the
    last). ``ranges`` describes each player's range. ``values`` are each player's chips from now under
    the equilibrium (they sum to ``pot``); ``exploitability`` is that of the profile found, and
    ``stopped`` why the computation stopped (exact, target reached, iteration limit, time budget)."""

    method: SolveMethod
    round_index: int
    seats: tuple[int, int]
    up: tuple[tuple[int, ...], tuple[int, ...]]
    dead: tuple[int, ...]
    pot: int
    stacks: tuple[int, int]
    history: tuple[str, ...]
    actor: int
    actions: tuple[str, ...]
    ranges: tuple[str, str]
    root: DecisionPoint
    decisions: tuple[DecisionPoint, ...]
    hole: int | None
    action_values: tuple[ActionValue, ...] | None
    values: tuple[float, float]
    exploitability: Exploitability
    iterations: int
    stopped: StopReason
    seconds: float
    solution: Solution = field(repr=False, compare=False)

    def policy(self, *, actions: Sequence[str] = (), hole: int, next_up: Sequence[int] | None = None
               ) -> dict[str, float]:
        """Action -> equilibrium probability for hole card ``hole`` (a card number) of the player to act
        after ``actions`` from the root (PHH action texts such as ``"cbr 4"``; through the deal of
        ``next_up``, the last up cards in seat order, on a third-round solve)."""
        at = locate(self.solution.game, actions, next_up)
        return strategy_of(self.solution.game, self.solution.profile, at, hole)

    def path_to(self, hand: StudHand) -> tuple[tuple[str, ...], tuple[int, ...] | None]:
        """Where a later state of the hand this result was solved from stands in the solved tree: the
        actions taken since the solve's root and the last up cards dealt since (seat order), if any.
        SolveError when the player to act is not one of the solved pair."""
        if hand.phase is not Phase.BET or hand.actor is None or hand.actor not in self.seats:
            raise SolveError("the hand has no decision of a solved player now")
        taken = [e for e in hand.events if e.round_index >= self.round_index and e.kind != "deal"]
        texts = tuple(f"cbr {e.amount}" if e.kind == "cbr" else e.kind for e in taken)[len(self.history):]
        next_up = None
        if hand.round_index > self.round_index:  # the up cards dealt since the root, each deal in seat order
            later = range(self.round_index + 1, hand.round_index + 1)
            next_up = tuple(hand.up[self.seats[p]][r] for r in later for p in range(2))
        return texts, next_up

    def policy_in(self, hand: StudHand) -> dict[str, float]:
        """The equilibrium mix of the player to act in ``hand`` (a later state of the hand this result
        was solved from) for their actual hole card."""
        actions, next_up = self.path_to(hand)
        assert hand.actor is not None
        hole = hand.down[hand.actor]
        assert hole is not None
        return self.policy(actions=actions, hole=hole, next_up=next_up)

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method.value, "round": self.round_index + 1,
            "seats": [s + 1 for s in self.seats],
            "up": [[format_card(c) for c in cards] for cards in self.up],
            "dead": [format_card(c) for c in self.dead], "pot": self.pot, "stacks": list(self.stacks),
            "history": list(self.history), "player_to_act": self.actor + 1, "actions": list(self.actions),
            "ranges": list(self.ranges), "note": SHARED_NOTE,
            "card_classes": [[format_card(c) for c in members]
                             for members in self.solution.game.classes.members],
            "root": self.root.to_dict(),
            "hole": None if self.hole is None else format_card(self.hole),
            "action_values": (None if self.action_values is None
                              else [a.to_dict() for a in self.action_values]),
            "values": list(self.values), "exploitability": self.exploitability.to_dict(),
            "iterations": self.iterations, "stopped": self.stopped.value, "seconds": self.seconds,
            "decisions": [d.to_dict() for d in self.decisions],
        }

    def describe_up(self) -> str:
        """Both players' up cards as text."""
        return " vs ".join(format_cards(u) for u in self.up)


def decision_points(game: Game, profile: Profile, *, next_up: tuple[int, ...] | None = None
                    ) -> tuple[DecisionPoint, ...]:
    """The root first, then every decision of the current round the profile reaches (with a probability
    above 0, however small) in tree order, then (with ``next_up``, the up cards dealt since the root:
    seat 0's then seat 1's of each deal) every reached decision of the later rounds after those deals."""
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
        if node_id and joint <= 0.0:  # never reached (the linear program's unreached lines)
            continue
        out.append(_point(game, profile, node_id, wanted[node_id], (r0, r1), joint, next_up))
    return tuple(out)


def _point(game: Game, profile: Profile, node_id: int, row: int, reach: tuple[np.ndarray, np.ndarray],
           joint: float, next_up: tuple[int, ...] | None) -> DecisionPoint:
    node = game.tree.nodes[node_id]
    p = node.player
    avail = game.contexts[node.ctx].avail[row]
    held = holding(reach[p], reach[1 - p], avail)
    total = float(held @ avail)
    sigma = profile.strategy[node_id][row]
    weights = held / total if total > 0 else held
    layers = game.contexts[node.ctx].layers
    dealt = set(next_up[:2 * layers]) if layers and next_up is not None else set()
    classes = game.classes
    holes = tuple(HoleStrategy(card=int(c), probabilities=tuple(float(x) for x in sigma[classes.of[i]]),
                               weight=float(weights[classes.of[i]]))
                  for i, c in sorted(enumerate(classes.unseen), key=lambda ic: -ic[1])
                  if int(c) not in dealt and weights[classes.of[i]] > 0)
    totals = tuple(float(x) for x in (weights * avail) @ sigma)
    history = tuple(s for s in node.path if s != DEAL)
    dealt_on_the_way = next_up[:2 * layers] if layers and next_up is not None else None
    return DecisionPoint(history=history, next_up=dealt_on_the_way, player=p,
                         to_call=node.to_call, actions=node.actions, reach=joint, holes=holes, totals=totals,
                         history_words=_words(game, node.path, node.ctx))


def _words(game: Game, path: tuple[str, ...], ctx: int) -> tuple[str, ...]:
    """The actions of ``path`` (ending in context ``ctx``) in words, each as its player saw it ("check",
    "bet 4", "raise to 8")."""
    line = [ctx]  # the contexts from the root down to ``ctx``
    while game.contexts[line[-1]].parent >= 0:
        line.append(game.contexts[line[-1]].parent)
    out = []
    node = game.tree.nodes[0]
    for step in path:
        if step == DEAL:  # into the child context on the way to ``ctx``
            node = next(game.tree.nodes[c] for c in node.children
                        if c >= 0 and game.tree.nodes[c].ctx in line)
            continue
        out.append(action_words(step, to_call=node.to_call))
        node = game.tree.nodes[node.children[node.actions.index(step)]]
    return tuple(out)
