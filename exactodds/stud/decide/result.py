"""The result of a decision: every legal action of the player to act with its EV in chips from now
(the rest of the hand played out), how it was computed, and what the opponents' actions revealed.

An EV is the expected change of the player's stack from the decision to the end of the hand (folding
now is 0; higher is better). Exact EVs are fractions; a sampled EV is an estimate with its standard
error, and the difference between the two best actions has its own (paired) standard error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from exactodds.cards import format_card
from exactodds.jsonable import JSONDict, card_list, with_float
from exactodds.stud.decide.belief import Surprise
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.engine.actions import Action, action_words


class DecideMethod(StrEnum):
    """How the EVs were obtained."""

    EXACT = "exact"  # every deal of the cards to come and every hole-card state
    SAMPLED_DEALS = "sampled deals"  # runs of the cards to come sampled; hole cards weighed exactly
    SAMPLED_HANDS = "sampled hands"  # hole cards and runs of cards sampled together


@dataclass(frozen=True, kw_only=True)
class ActionEV:
    """One legal action and its EV in chips from now (higher is better); ``standard_error`` is None
    when exact; ``later_play`` how the player's own later decisions are played in it (see
    :func:`later_text`)."""

    action: Action
    words: str  # "check", "call 2", "raise to 8", "fold", "bring in", "complete to 2"
    ev: Fraction
    standard_error: float | None
    later_play: str = "best response"

    def to_dict(self) -> JSONDict:
        """The action as PHH text and in words, its EV (``expected_return``, "p/q" and float), its
        standard error (null when exact) and the later play it was valued with."""
        return {"action": self.action.text(), "words": self.words, **with_float("expected_return", self.ev),
                "standard_error": self.standard_error, "later_play": self.later_play}


@dataclass(frozen=True, kw_only=True)
class Difference:
    """The best action's EV minus the second best's, with the standard error of the paired estimate."""

    best: str
    second: str
    ev: Fraction
    standard_error: float | None

    def to_dict(self) -> JSONDict:
        return {"best": self.best, "second": self.second, **with_float("margin", self.ev),
                "standard_error": self.standard_error}


@dataclass(frozen=True, kw_only=True)
class Opponent:
    """Another player as the decision sees it: the model it follows and the hole cards it may hold."""

    player: int
    model: str
    in_hand: bool
    hole_cards: tuple[int, ...]

    def to_dict(self) -> JSONDict:
        return {"player": self.player + 1, "model": self.model, "in_hand": self.in_hand,
                "hole_cards": [format_card(c) for c in self.hole_cards]}


@dataclass(frozen=True, kw_only=True)
class EquilibriumLine:
    """Heads-up, where the solver covers the round: the equilibrium's mix for the player's hole card
    and each action's EV against an equilibrium opponent (chips from now), with how close the solve
    came (``exploitability``, a fraction of the pot; 0 is exact)."""

    round_index: int
    method: str
    mix: dict[str, float]  # PHH action text -> probability
    evs: dict[str, float]  # PHH action text -> chips from now
    exploitability: float

    def best(self) -> str:
        return max(self.evs, key=lambda a: self.evs[a])

    def to_dict(self) -> JSONDict:
        return {"round": self.round_index + 1, "method": self.method,
                "actions": [{"action": a, "probability": self.mix[a], "chips": self.evs[a]}
                            for a in self.mix],
                "exploitability_fraction_of_pot": self.exploitability}


@dataclass(frozen=True, kw_only=True)
class Decision:
    """Every legal action of ``player`` (0-based) with its EV, the best first in :attr:`ranked`.

    ``method`` says how the EVs were obtained; ``later_play`` how the player's own later decisions
    are played in them (the best response, or a model where the best response did not fit the
    budget, or the better of ``later_candidates`` for each action, chosen on a separate pilot of
    ``pilot_samples`` hands; each action says its own). Sampled results carry ``samples`` (runs or
    hands) and ``seed``; ``target_met`` says whether every standard error came within ``target``
    chips."""

    player: int
    round_index: int
    hole: int
    up: tuple[tuple[int, ...], ...]  # every player's up cards (folded players' too)
    in_hand: tuple[bool, ...]
    pot: int
    to_call: int
    actions: tuple[ActionEV, ...]
    method: DecideMethod
    later_play: str
    samples: int | None
    seed: int | None
    target: float | None
    hidden_states: int
    opponents: tuple[Opponent, ...]
    surprises: tuple[Surprise, ...]
    equilibrium: EquilibriumLine | None
    equilibrium_note: str
    difference: Difference | None
    seconds: float
    pair_errors: dict[tuple[str, str], float] = field(default_factory=dict)  # sampled: SE of a - b, paired
    later_candidates: tuple[str, ...] = ()  # sampled: the models the later play was chosen from
    pilot_samples: int | None = None  # hands of the pilot that chose it (None: one model, no pilot)

    @property
    def exact(self) -> bool:
        return self.method is DecideMethod.EXACT

    @property
    def best(self) -> ActionEV:
        """The action of highest EV (the first such in legal order)."""
        return max(self.actions, key=lambda a: a.ev)

    @property
    def ranked(self) -> tuple[ActionEV, ...]:
        """The actions from the highest EV to the lowest."""
        return tuple(sorted(self.actions, key=lambda a: -a.ev))

    @property
    def target_met(self) -> bool:
        return self.target is None or all((a.standard_error or 0.0) <= self.target for a in self.actions)

    def error_between(self, a: str, b: str) -> float | None:
        """The standard error of EV(a) - EV(b) (PHH texts) from the same samples; None when exact."""
        if self.exact or a == b:
            return None if self.exact else 0.0
        return self.pair_errors.get((a, b), self.pair_errors.get((b, a)))

    def ev_of_text(self, text: str) -> Fraction:
        """The EV of the legal action written ``text`` in PHH ("cc", "cbr 4"...; KeyError if not legal)."""
        for a in self.actions:
            if a.action.text() == text:
                return a.ev
        raise KeyError(text)

    def ev_of(self, action: Action) -> ActionEV:
        """The EV of one legal action (KeyError if it is not legal here)."""
        for a in self.actions:
            if a.action == action:
                return a
        raise KeyError(action.text())

    def to_dict(self) -> dict[str, Any]:
        """The JSON object (docs/json.md vocabulary)."""
        return {
            "player": self.player + 1, "round": self.round_index + 1, "hole": format_card(self.hole),
            "up": [card_list(u) for u in self.up], "in_hand": list(self.in_hand), "pot": self.pot,
            "to_call": self.to_call,
            "best": self.best.action.text(), "actions": [a.to_dict() for a in self.actions],
            "difference": None if self.difference is None else self.difference.to_dict(),
            "exact": self.exact, "method": self.method.value, "later_play": self.later_play,
            "later_candidates": list(self.later_candidates), "pilot_samples": self.pilot_samples,
            "samples": self.samples, "seed": self.seed, "target_standard_error": self.target,
            "target_met": self.target_met, "hidden_states": self.hidden_states,
            "opponents": [o.to_dict() for o in self.opponents],
            "surprises": [s.to_dict() for s in self.surprises],
            "equilibrium": None if self.equilibrium is None else self.equilibrium.to_dict(),
            "equilibrium_note": self.equilibrium_note, "seconds": self.seconds,
        }


def words_of(action: Action, *, to_call: int, completing: bool) -> str:
    """An action in words for the player who has ``to_call`` to call (``completing``: a first full bet
    of round 1 completes the bring-in)."""
    text = action_words(action.text(), to_call=to_call)
    if completing and action.kind == "cbr":
        return f"complete to {action.amount}"
    return text


def later_text(method: DecideMethod, model: OpponentModel | None) -> str:
    """How the player's later decisions are played after one action: "best response" (exact), the
    ``model``'s name (sampled hands), or the model until the last round and then the best response
    (sampled deals)."""
    if method is DecideMethod.EXACT or model is None:
        return "best response"
    if method is DecideMethod.SAMPLED_DEALS:
        return f"{model.name} {_UNTIL_LAST}"
    return model.name


def later_summary(method: DecideMethod, candidates: Sequence[OpponentModel]) -> str:
    """:func:`later_text` for the whole decision: with several candidates, "the better of A and B for
    each action"."""
    if method is DecideMethod.EXACT or len(candidates) <= 1:
        return later_text(method, candidates[0] if candidates else None)
    names = [m.name for m in candidates]
    better = f"the better of {', '.join(names[:-1])} and {names[-1]} for each action"
    return f"{better} {_UNTIL_LAST}" if method is DecideMethod.SAMPLED_DEALS else better


_UNTIL_LAST = "until the last round, then the best response"
