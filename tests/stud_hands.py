"""Small hands for the stud tests, written as compact steps."""

from __future__ import annotations

from exactodds.cards import parse_cards
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand


def steps_hand(*steps: str, stacks: int = 40) -> StudHand:
    """A heads-up hand from compact steps: "d0 Kh 9c" deals to p1, "a cc" acts for the player to act."""
    hand = StudHand(stacks=(stacks, stacks))
    for step in steps:
        word, _, rest = step.partition(" ")
        if word.startswith("d"):
            hand.deal(int(word[1:]), parse_cards(rest))
        else:
            hand.act(Action.parse(hand.actor, rest))
    return hand
