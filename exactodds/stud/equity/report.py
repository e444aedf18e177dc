"""The whole answer of ``exactodds stud equity`` as one result: the position, every player's odds,
the budget they were counted within and, with a pot and an amount to call, the call/fold decision."""

from __future__ import annotations

from dataclasses import dataclass

from exactodds.cards import format_card
from exactodds.jsonable import JSONDict, card_list
from exactodds.stud.equity.decision import CallDecision
from exactodds.stud.equity.position import StudPosition
from exactodds.stud.equity.results import EquityResult


@dataclass(frozen=True, kw_only=True)
class EquityReport:
    """A position's showdown odds (``result``, exact or sampled), the ``budget`` in seconds that chose
    the method, and player 1's call/fold ``decision`` when a pot and an amount to call were given."""

    position: StudPosition
    result: EquityResult
    budget: float
    decision: CallDecision | None = None

    def to_dict(self) -> JSONDict:
        """The result's JSON object (docs/json.md) with each player's cards beside their odds, the
        dead cards, the street, the budget and the decision (seat 1)."""
        payload = self.result.to_dict()
        payload["players"] = [
            {"hole": None if player.hole is None else format_card(player.hole), "up": card_list(player.up),
             **odds}
            for player, odds in zip(self.position.players, payload["players"], strict=True)
        ]
        payload |= {"dead": card_list(self.position.dead), "street": self.position.street,
                    "budget": self.budget}
        if self.decision is not None:
            payload["decision"] = {"seat": 1, **self.decision.to_dict(), "equity_exact": self.result.exact}
        return payload
