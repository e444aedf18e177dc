"""A brute-force best response to the bots, for tests: every world (the other players' hole cards)
played on the real engine (:class:`StudHand`, :func:`bot_action`, the settlement), every card dealt
one at a time, the player maximising over its actions at each information set (the public state:
worlds are grouped by what the player sees). Pure Python, slow, obviously correct."""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction

from exactodds.stud.bots.policy import bot_action
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand

World = tuple[StudHand, Fraction]


def _with_holes(hand: StudHand, holes: dict[int, int]) -> StudHand | None:
    """``hand`` replayed with the given hole cards, or None when the bots' actions differ from the
    real ones with these hole cards (or the cards clash)."""
    world = StudHand(stacks=hand.starting_stacks, profile=hand.profile)
    try:
        for e in hand.events:
            if e.kind == "deal":
                cards = (holes[e.player], e.cards[1]) if e.player in holes and e.round_index == 0 else e.cards
                world.deal(e.player, cards)
                continue
            taken = Action(player=e.player, kind=e.kind, amount=e.amount if e.kind == "cbr" else None)
            if e.player in holes and bot_action(world, world.legal()) != taken:
                return None
            world.act(taken)
    except Exception:  # a clash of cards: not a possible world
        return None
    return world


def _value(worlds: list[World], player: int, stack: int, dead: frozenset[int]) -> Fraction:
    first = worlds[0][0]
    if first.phase is Phase.DONE:
        return sum((p * (w.outcome.finishing_stacks[player] - stack) for w, p in worlds), Fraction(0))
    if first.phase is Phase.DEAL:
        q = first.deal_due[0]
        groups: dict[int, list[World]] = {}
        for w, p in worlds:
            free = [c for c in range(52) if c not in w.used and c not in dead]
            for c in free:
                child = copy.deepcopy(w)
                child.deal(q, (c,))
                groups.setdefault(c, []).append((child, p / len(free)))
        return sum((_value(g, player, stack, dead) for g in groups.values()), Fraction(0))
    if first.actor == player:
        return max(_after(worlds, a, player, stack, dead) for a in first.legal().actions())
    by_action: dict[Action, list[World]] = {}
    for w, p in worlds:
        by_action.setdefault(bot_action(w, w.legal()), []).append((w, p))
    return sum((_after(g, a, player, stack, dead) for a, g in by_action.items()), Fraction(0))


def _after(worlds: list[World], action: Action, player: int, stack: int, dead: frozenset[int]) -> Fraction:
    moved = []
    for w, p in worlds:
        child = copy.deepcopy(w)
        child.act(action)
        moved.append((child, p))
    return _value(moved, player, stack, dead)


def brute_action_evs(hand: StudHand, player: int, dead: tuple[int, ...] = ()) -> dict[Action, Fraction]:
    """The EV of each legal action of ``player`` against the bots, by brute force."""
    seen = {c for up in hand.up for c in up} | {hand.down[player]} | set(dead)
    unseen = [c for c in range(52) if c not in seen]
    others = [q for q in range(hand.n) if q != player]
    worlds: list[World] = []
    for combo in itertools.permutations(unseen, len(others)):
        world = _with_holes(hand, dict(zip(others, combo, strict=True)))
        if world is not None:
            worlds.append((world, Fraction(1)))
    total = len(worlds)
    worlds = [(w, p / total) for w, p in worlds]
    stack = hand.stacks[player]
    return {a: _after(worlds, a, player, stack, frozenset(dead)) for a in hand.legal().actions()}
