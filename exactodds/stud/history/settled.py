"""A settled five-card stud hand as ``stud replay --json`` reports it: the streets' events, the
pots and who won them, the hands shown and every player's payoff (seats 1-based)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exactodds.handrank import describe
from exactodds.jsonable import card_list
from exactodds.stud.engine.state import StudHand


@dataclass(frozen=True)
class SettledHand:
    """A replayed hand that reached its settlement (``hand.outcome`` is set)."""

    hand: StudHand

    def to_dict(self) -> dict[str, Any]:
        hand = self.hand
        out = hand.outcome
        if out is None:
            raise ValueError("the hand is not settled yet")
        streets = []
        for r in range(hand.profile.rounds):
            events = [e for e in hand.events if e.round_index == r]
            if events:
                streets.append({"round": r + 1, "events": [e.description for e in events]})
        return {
            "variant": "F5S",
            "starting_stacks": list(hand.starting_stacks),
            "streets": streets,
            "pots": [
                {"amount": pot.amount, "players": [p + 1 for p in pot.players],
                 "winners": {str(p + 1): c for p, c in sorted(out.winners[k].items())}}
                for k, pot in enumerate(out.pots)
            ],
            "returned": list(out.returned),
            "showdown_order": [p + 1 for p in out.showdown_order],
            "hands": {str(p + 1): {"cards": card_list(hand.cards_of(p)), "description": describe(s)}
                      for p, s in out.strengths.items()},
            "payoffs": list(out.payoffs),
            "finishing_stacks": list(out.finishing_stacks),
        }
