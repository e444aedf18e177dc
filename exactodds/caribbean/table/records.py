"""One hand of a table session as recorded: cards, decision, the coach's EVs and the net result.

Money in chips; EVs and the cost of a decision in antes (ante = 1). Exact values are
Fractions, written "p/q" in JSON with a float beside.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from exactodds.cards import format_card
from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.decision.settle import EVENT_LABELS
from exactodds.caribbean.table.coach import Coach
from exactodds.handrank import describe
from exactodds.jsonable import exact

VOID = "void"


@dataclass(frozen=True, kw_only=True)
class HandRecord:
    """One settled (or void) hand. Money in chips; EVs and cost in antes."""

    number: int           # 1-based among the session's counted hands (0 for a void hand)
    deal: int             # 1-based among all deals, void ones included
    ante: int
    player: tuple[int, ...]
    dealer: tuple[int, ...]  # the up card first
    decision: str         # "raise", "fold" or "void"
    optimal: str
    ev_raise: Fraction
    ev_fold: Fraction
    event: str            # a settle() event, or "void"
    net: Fraction         # chips won (+) or lost (-)

    @cached_property
    def cost(self) -> Fraction:
        """EV (antes) the decision gave up: 0 when optimal or void."""
        if self.decision not in (Choice.RAISE, Choice.FOLD):
            return Fraction(0)
        return Coach(ev_raise=self.ev_raise, ev_fold=self.ev_fold).cost(self.decision)

    @property
    def expected_net(self) -> Fraction:
        """The chips the decision was worth on average, given the cards: ante x EV(choice)."""
        if self.decision == Choice.RAISE:
            return self.ante * self.ev_raise
        if self.decision == Choice.FOLD:
            return self.ante * self.ev_fold
        return Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: cards as strings, exact values "p/q" with floats beside."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self._dict.items()}

    @cached_property
    def _dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number, "deal": self.deal, "ante": self.ante,
            "player": [format_card(c) for c in self.player],
            "dealer": [format_card(c) for c in self.dealer],
            "player_hand": describe_hand(self.player), "dealer_hand": describe_hand(self.dealer),
            "decision": self.decision, "optimal": self.optimal, "event": self.event,
            "event_label": EVENT_LABELS.get(self.event, "void deal: bets returned"),
        }
        for key in ("ev_raise", "ev_fold", "net", "cost", "expected_net"):
            value = getattr(self, key)
            out[key] = exact(value)
            out[f"{key}_float"] = float(value)
        return out


def describe_hand(cards: tuple[int, ...]) -> str:
    """The hand's name, or "" for the incomplete hand of a void deal."""
    return describe(cards) if len(set(cards)) == 5 else ""


def fraction_of(text: str) -> Fraction:
    """The Fraction of a "p/q" text."""
    return Fraction(text)


def record_from_dict(d: dict[str, Any]) -> HandRecord:
    """Inverse of the stored form of a hand record (cards as integers, exact values "p/q")."""
    return HandRecord(number=d["number"], deal=d["deal"], ante=d["ante"], player=tuple(d["player"]),
                      dealer=tuple(d["dealer"]), decision=d["decision"], optimal=d["optimal"],
                      ev_raise=fraction_of(d["ev_raise"]), ev_fold=fraction_of(d["ev_fold"]),
                      event=d["event"], net=fraction_of(d["net"]))


def record_to_stored(r: HandRecord) -> dict[str, Any]:
    """A hand record in stored form (see :func:`record_from_dict`)."""
    d = asdict(r)
    d["player"], d["dealer"] = list(r.player), list(r.dealer)
    for key in ("ev_raise", "ev_fold", "net"):
        d[key] = exact(getattr(r, key))
    return d
