"""Single-hand questions: a hand's strength, category and description, and which of two wins.

>>> hand_info("As Kd 10h 9c 2s").to_dict()["category"]
'high_card'
>>> compare_hands("Ah Ad 7c 7s 2h", "Kh Kd Kc 3s 2d").winner
-1
"""

from __future__ import annotations

from dataclasses import dataclass

from exactodds.cards import parse_cards
from exactodds.handrank import ROYAL_FLUSH_STRENGTH, category_name, describe, evaluate
from exactodds.jsonable import JSONDict, card_list


@dataclass(frozen=True, kw_only=True)
class HandInfo:
    """A 5-card hand and its strength (0..7461, higher is stronger)."""

    cards: tuple[int, ...]
    strength: int

    @property
    def category(self) -> str:
        """The hand category as written for people: "two pair", "straight flush", ..."""
        return category_name(self.strength)

    @property
    def category_key(self) -> str:
        """The category in the JSON vocabulary: "two_pair", ..., "royal_flush" for the top hand."""
        return "royal_flush" if self.strength == ROYAL_FLUSH_STRENGTH else self.category.replace(" ", "_")

    @property
    def description(self) -> str:
        return describe(self.strength)

    def to_dict(self) -> JSONDict:
        return {"hand": card_list(self.cards), "strength": self.strength, "category": self.category_key,
                "description": self.description}


@dataclass(frozen=True, kw_only=True)
class Comparison:
    """Two hands; ``winner`` is 1 when the first is stronger, -1 when the second is, 0 for a tie."""

    first: HandInfo
    second: HandInfo

    @property
    def winner(self) -> int:
        return (self.first.strength > self.second.strength) - (self.first.strength < self.second.strength)

    def to_dict(self) -> JSONDict:
        return {"result": self.winner, "first": self.first.to_dict(), "second": self.second.to_dict()}


def hand_info(text: str) -> HandInfo:
    """The hand written in ``text`` (five cards), with its strength."""
    cards = tuple(parse_cards(text, count=5, what="a poker hand"))
    return HandInfo(cards=cards, strength=int(evaluate(list(cards))))


def compare_hands(first: str, second: str) -> Comparison:
    """Which of two 5-card hands is stronger."""
    return Comparison(first=hand_info(first), second=hand_info(second))
