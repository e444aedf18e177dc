"""The references the solver's fast paths are tested against.

The numpy walks: :class:`ReferenceCfrState` and :class:`ReferenceBestResponse` walk the last round in
numpy, one array over all its deals, where the production classes they subclass call the compiled
kernels one deal at a time (:func:`reference_cfr`, with linear averaging by default: the solver's first
version; :func:`reference_exploitability`).

A plain best response: a recursive walk of every deal through the real engine, in pure Python. For
each hole card of the best responder it plays one engine hand per possible opponent hole card
(both real hole cards dealt, the pot realised by the engine), deals every pair of last up cards at
the chance node, reads the opponent's probabilities from the solved result, takes the best action at
its own decisions, and reads the chips won at the end from the engine's own settlement. It is slow
(small positions only: many dead cards) and obviously correct.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.engine.view import player_view
from exactodds.stud.solve.best_response import (
    BestResponseWalk,
    Exploitability,
    Values,
    exploitability_of,
)
from exactodds.stud.solve.cfr import CfrRun, CfrState, iterate_to_target
from exactodds.stud.solve.game import Game, Profile
from exactodds.stud.solve.results import SolveResult
from exactodds.stud.solve.start import copy_hand, root_hand

State = tuple[int, float, StudHand]  # (opponent hole card, weight, engine hand)


class ReferenceCfrState(CfrState):
    """:class:`~exactodds.stud.solve.cfr.CfrState` with the last round walked in numpy (every deal at
    once) instead of the compiled kernel."""

    def lay_out(self, root: int) -> None:
        """Nothing laid out: each decision keeps its own arrays."""

    def below_deal(self, child: int, r0: np.ndarray, r1: np.ndarray, weight: float) -> np.ndarray:
        context = self.game.contexts[self.game.tree.nodes[child].ctx]
        return self.walk(child, context.down(r0), context.down(r1), weight)

    def loads_kernels(self) -> bool:
        return False


def reference_cfr(game: Game, *, max_iterations: int, target: float, check_every: int = 10,
                  averaging: int = 1, stop: Callable[[], bool] | None = None) -> CfrRun:
    """CFR+ walked in numpy throughout (``averaging=1``: the linear averaging of the solver's first
    version), checked by :func:`reference_exploitability`: the method the compiled one replaced."""
    return iterate_to_target(ReferenceCfrState(game, stop=stop), max_iterations=max_iterations, target=target,
                             check=lambda profile: reference_exploitability(game, profile),
                             check_every=check_every, stop=stop, averaging=averaging)


class ReferenceBestResponse(BestResponseWalk):
    """:class:`~exactodds.stud.solve.best_response.BestResponseWalk` with the last round walked in numpy
    (every deal at once) instead of the compiled kernel."""

    def below_deal(self, child: int, r0: np.ndarray, r1: np.ndarray) -> Values:
        context = self.game.contexts[self.game.tree.nodes[child].ctx]
        return self.walk(child, context.down(r0), context.down(r1))


def reference_exploitability(game: Game, profile: Profile) -> Exploitability:
    """The exact exploitability of ``profile`` by the numpy walk (:class:`ReferenceBestResponse`)."""
    return exploitability_of(game, ReferenceBestResponse(game, profile))


def plain_best_response(result: SolveResult, player: int) -> float:
    """``player``'s chips from now when best responding to the other player's solved strategy."""
    game = result.solution.game
    unseen = [int(c) for c in game.unseen]
    mine, theirs = game.card_weights(player), game.card_weights(1 - player)
    total = 0.0
    for i, hole in enumerate(unseen):
        if mine[i] <= 0:
            continue
        states: list[State] = []
        for j, other in enumerate(unseen):
            if j != i and theirs[j] > 0:
                holes = (hole, other) if player == 0 else (other, hole)
                hand = root_hand(game.spec, holes=holes, realize_pot=True)
                states.append((other, float(theirs[j]), hand))
        if not states:  # the other range is this card alone: no deal holds it
            continue
        stack_now = states[0][2].stacks[player]
        total += float(mine[i]) * _walk(result, player, hole, states, [], None, stack_now, unseen)
    return total / game.norm


def plain_response_values(result: SolveResult, hand: StudHand, *,
                          prior: Mapping[int, float]) -> tuple[float, ...]:
    """The reference of :func:`~exactodds.stud.solve.against.response_values`: for the player to act in
    ``hand`` (a later state of a heads-up hand, seats 0 and 1, that ``result`` was solved from), each
    legal action's chips from now against the other player's solved strategy, walking one engine hand
    per possible opponent hole card (weighted by ``prior`` and by the probability of its actions since
    the solve's root)."""
    if result.seats != (0, 1):
        raise ValueError("the plain walk reads heads-up hands of two seats only")
    game = result.solution.game
    unseen = [int(c) for c in game.unseen]
    actor = hand.actor
    assert actor is not None
    me = result.seats.index(actor)
    opponent = result.seats[1 - me]
    hole = hand.down[actor]
    assert hole is not None
    path, next_up = result.path_to(hand)
    taken = [e for e in hand.events if e.round_index >= result.round_index and e.kind != "deal"]
    taken = taken[len(result.history):]
    states: list[State] = []
    for other in unseen:
        weight = float(prior.get(other, 0.0))
        if other == hole or weight <= 0 or other in (next_up or ()):
            continue
        for k, event in enumerate(taken):  # the opponent's actions since the root, by its solved mix
            if event.player == opponent:
                deals = 2 * (event.round_index - result.round_index)  # the up cards dealt before the event
                deal = next_up[:deals] if next_up is not None and deals else None
                mix = result.policy(actions=path[:k], hole=other, next_up=deal)
                weight *= mix[path[k]]
        if weight > 0:
            states.append((other, weight, player_view(hand, actor, holes={opponent: other})))
    total = sum(w for _, w, _ in states)
    stack_now = hand.stacks[actor]
    return tuple(_walk(result, me, hole, _advance(states, actor, a), list(path) + [a], next_up, stack_now,
                       unseen) / total for a in (a.text() for a in hand.legal().actions()))


def plain_exploitability(result: SolveResult) -> float:
    """Both plain best responses summed, minus the pot now (chips)."""
    return plain_best_response(result, 0) + plain_best_response(result, 1) - result.pot


def _walk(result: SolveResult, player: int, hole: int, states: list[State], path: list[str],
          next_up: tuple[int, ...] | None, stack_now: int, unseen: Sequence[int]) -> float:
    if not states:
        return 0.0
    hand = states[0][2]
    if hand.phase is Phase.DONE:
        return sum(w * (h.stacks[player] - stack_now) for _, w, h in states)
    if hand.phase is Phase.DEAL:
        before = next_up or ()  # the up cards dealt since the root
        free = [c for c in unseen if c != hole and c not in before]
        count = (len(unseen) - 2 - len(before)) * (len(unseen) - 3 - len(before))
        value = 0.0
        for c0 in free:
            for c1 in free:
                if c1 == c0:
                    continue
                dealt = []
                for other, w, h in states:
                    if other in (c0, c1):
                        continue
                    copy = copy_hand(h)
                    for seat in list(copy.deal_due):
                        copy.deal(seat, [(c0, c1)[seat]])
                    dealt.append((other, w, copy))
                after = (*before, c0, c1)
                value += _walk(result, player, hole, dealt, path, after, stack_now, unseen) / count
        return value
    actor = hand.actor
    assert actor is not None
    actions = [a.text() for a in hand.legal().actions()]
    if actor == player:
        return max(_walk(result, player, hole, _advance(states, actor, a), path + [a], next_up,
                         stack_now, unseen) for a in actions)
    value = 0.0
    for a in actions:
        weighted = []
        for other, w, h in states:
            p = result.policy(actions=path, hole=other, next_up=next_up)[a]
            if p > 0:
                weighted.append((other, w * p, h))
        value += _walk(result, player, hole, _advance(weighted, actor, a), path + [a], next_up,
                       stack_now, unseen)
    return value


def _advance(states: list[State], actor: int, action: str) -> list[State]:
    out = []
    for other, w, h in states:
        copy = copy_hand(h)
        copy.act(Action.parse(actor, action))
        out.append((other, w, copy))
    return out
