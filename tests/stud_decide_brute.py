"""A brute-force decision, for tests: every world (the other players' hole cards) weighed by the
probability its players' models give the actions they took, played on the real engine
(:class:`StudHand`, the models' :func:`model_probabilities`, the settlement), every card dealt one at a
time, the player maximising over its actions at each information set (worlds grouped by what the
player sees) or following its own model. Pure Python and Fractions: slow, obviously correct."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from fractions import Fraction

from exactodds.errors import ExactOddsError
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.policy import model_probabilities
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand

World = tuple[StudHand, Fraction]


def _likelihood(hand: StudHand, holes: dict[int, int], models: Mapping[int, OpponentModel],
                from_round: int) -> tuple[StudHand, Fraction] | None:
    """``hand`` replayed with the given hole cards and the probability its players' models give the
    actions they took (None when the cards clash)."""
    world = StudHand(stacks=hand.starting_stacks, profile=hand.profile)
    p = Fraction(1)
    try:
        for e in hand.events:
            if e.kind == "deal":
                cards = (holes[e.player], e.cards[1]) if e.player in holes and e.round_index == 0 else e.cards
                world.deal(e.player, cards)
                continue
            taken = Action(player=e.player, kind=e.kind, amount=e.amount if e.kind == "cbr" else None)
            if e.player in holes and world.round_index >= from_round:
                p *= model_probabilities(models[e.player], world, world.legal()).get(taken, Fraction(0))
            world.act(taken)
    except ExactOddsError:  # a clash of cards: not a possible world
        return None
    return world, p


class Brute:
    """The brute-force walk; ``later`` plays the player's decisions before round ``best_from_round``."""

    def __init__(self, player: int, stack: int, dead: frozenset[int], models: Mapping[int, OpponentModel],
                 later: OpponentModel | None, best_from_round: int) -> None:
        self.player, self.stack, self.dead, self.models = player, stack, dead, models
        self.later, self.best_from_round = later, best_from_round

    def value(self, worlds: list[World]) -> Fraction:
        first = worlds[0][0]
        if first.phase is Phase.DONE:
            assert all(w.outcome is not None for w, _ in worlds)
            return sum((p * (w.outcome.finishing_stacks[self.player] - self.stack) for w, p in worlds),
                       Fraction(0))
        if first.phase is Phase.DEAL:
            q = first.deal_due[0]
            groups: dict[int, list[World]] = {}
            for w, p in worlds:
                free = [c for c in range(52) if c not in w.used and c not in self.dead]
                for c in free:
                    child = w.copy()
                    child.deal(q, (c,))
                    groups.setdefault(c, []).append((child, p / len(free)))
            return sum((self.value(g) for g in groups.values()), Fraction(0))
        if first.actor == self.player and (self.later is None or first.round_index >= self.best_from_round):
            return max(self.after(worlds, a) for a in first.legal().actions())
        by_action: dict[Action, list[World]] = {}
        for w, p in worlds:
            model = self.later if w.actor == self.player else self.models[w.actor]
            assert model is not None
            for a, q in model_probabilities(model, w, w.legal()).items():
                by_action.setdefault(a, []).append((w, p * q))
        return sum((self.after(g, a) for a, g in by_action.items()), Fraction(0))

    def after(self, worlds: list[World], action: Action) -> Fraction:
        if action.player == self.player and action.kind == "f":
            return sum((p * (w.stacks[self.player] - self.stack) for w, p in worlds), Fraction(0))
        moved = []
        for w, p in worlds:
            child = w.copy()
            child.act(action)
            moved.append((child, p))
        return self.value(moved)


def brute_action_evs(hand: StudHand, player: int, models: Mapping[int, OpponentModel], *,
                     dead: tuple[int, ...] = (), later: OpponentModel | None = None, best_from_round: int = 0,
                     from_round: int = 0) -> dict[Action, Fraction]:
    """The EV of each legal action of ``player`` by brute force (the player's own later decisions:
    the best response from ``best_from_round`` on, ``later`` before)."""
    seen = {c for up in hand.up for c in up} | {hand.down[player]} | set(dead)
    unseen = [c for c in range(52) if c not in seen]
    others = [q for q in range(hand.n) if q != player]
    worlds: list[World] = []
    for combo in itertools.permutations(unseen, len(others)):
        found = _likelihood(hand, dict(zip(others, combo, strict=True)), models, from_round)
        if found is not None and found[1]:
            worlds.append(found)
    total = sum((p for _, p in worlds), Fraction(0))
    worlds = [(w, p / total) for w, p in worlds]
    brute = Brute(player, hand.stacks[player], frozenset(dead), models, later, best_from_round)
    return {a: brute.after(worlds, a) for a in hand.legal().actions()}
