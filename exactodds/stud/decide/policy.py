"""A model's action probabilities at one decision, for many possible hands at once.

:func:`action_weights` reads, for one betting decision of the hand (the same legal actions for every
row), each row's own cards (its hole card and up cards) and the highest up card the other players
still in show, and returns each legal action's probability as a whole-number numerator over the
model's denominator. :func:`model_action` is the same for the one real hand at the table (a mixed
choice drawn with the caller's generator).

>>> from exactodds.cards import parse_cards
>>> from exactodds.stud.decide.models import load_model
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> hand.act(model_action(load_model("bots"), hand, hand.legal()))   # p1 brings in
>>> model_probabilities(load_model("maniac"), hand, hand.legal())   # p2 completes to 2
{Action(player=1, kind='cbr', amount=2): Fraction(1, 1)}
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exactodds.stud.decide.models import (
    BRING_IN,
    CAP,
    INTENTS,
    Conditions,
    Facing,
    Intent,
    OpponentModel,
    RaiseSize,
)
from exactodds.stud.decide.reading import own_class, paired, shown_high, top_rank
from exactodds.stud.decide.strength import denominator, strength_numerators
from exactodds.stud.engine.actions import Action, ActionKind, Legal
from exactodds.stud.engine.state import StudHand


@dataclass(frozen=True, kw_only=True)
class Situation:
    """What every row of one decision shares: the legal actions and the betting so far."""

    legal: Legal
    round_index: int
    wagers: int  # bets and raises made so far this round
    opponents: int  # other players still in the hand
    bring_in: int  # the table's bring-in amount
    cap: int  # a bet and the table's raises

    @property
    def facing(self) -> Facing:
        if self.legal.bring_in is not None:
            return Facing.BRING_IN
        return Facing.BET if self.legal.call else Facing.NOTHING

    @classmethod
    def of(cls, hand: StudHand, legal: Legal) -> Situation:
        wagers = hand.round.wagers if hand.round is not None else 0
        return cls(legal=legal, round_index=hand.round_index, wagers=wagers, opponents=len(hand.in_hand) - 1,
                   bring_in=hand.profile.bring_in, cap=1 + hand.profile.max_raises)


def intended_actions(model: OpponentModel, legal: Legal) -> dict[Intent, Action]:
    """The legal action each intent becomes here (see :mod:`exactodds.stud.decide.models`)."""
    p = legal.player
    kind = ActionKind.BRING_IN if legal.bring_in is not None else ActionKind.CHECK_CALL
    passive = Action(player=p, kind=kind)
    out = {Intent.PASSIVE: passive, Intent.FOLD: passive}
    if legal.fold:
        out[Intent.FOLD] = Action(player=p, kind=ActionKind.FOLD)
    if legal.raise_to:
        amount = min(legal.raise_to) if model.raise_size is RaiseSize.SMALLEST else max(legal.raise_to)
        out[Intent.AGGRESSIVE] = Action(player=p, kind=ActionKind.BET_RAISE, amount=amount)
    else:
        out[Intent.AGGRESSIVE] = passive
    return out


def _scalar_holds(when: Conditions, s: Situation) -> bool:
    """The conditions every row shares: the situation, the round, the bets, the players in."""
    if when.facing is not None and s.facing not in when.facing:
        return False
    if when.rounds is not None and s.round_index not in when.rounds:
        return False
    if when.to_call_at_most is not None:
        most = s.bring_in if when.to_call_at_most == BRING_IN else int(when.to_call_at_most)
        if (s.legal.call or 0) > most:
            return False
    if when.bets_below is not None:
        below = s.cap if when.bets_below == CAP else int(when.bets_below)
        if s.wagers >= below:
            return False
    if when.opponents_at_most is not None and s.opponents > when.opponents_at_most:
        return False
    return when.opponents_at_least is None or s.opponents >= when.opponents_at_least


class _Reader:
    """The per-row readings of the seat's cards, each computed once when a rule first needs it."""

    def __init__(self, own: np.ndarray, shown: np.ndarray) -> None:
        self.own, self.shown = own, shown
        self._cache: dict[str, np.ndarray] = {}

    def get(self, name: str) -> np.ndarray:
        if name not in self._cache:
            if name == "paired":
                self._cache[name] = paired(self.own)
            elif name == "class":
                self._cache[name] = own_class(self.own)
            elif name == "strength":
                self._cache[name] = strength_numerators(self.own)
            else:  # "covers"
                self._cache[name] = top_rank(self.own) >= self.shown
        return self._cache[name]

    def holds(self, when: Conditions) -> np.ndarray:
        ok = np.ones(len(self.own), dtype=bool)
        if when.paired is not None:
            ok &= self.get("paired") == when.paired
        if when.top_card_covers_board is not None:
            ok &= self.get("covers") == when.top_card_covers_board
        if when.hand_at_least is not None:
            ok &= self.get("class") >= int(when.hand_at_least)
        if when.hand_below is not None:
            ok &= self.get("class") < int(when.hand_below)
        whole = denominator(self.own.shape[1])
        if when.strength_at_least is not None:
            t = when.strength_at_least
            ok &= self.get("strength") * t.denominator >= t.numerator * whole
        if when.strength_below is not None:
            t = when.strength_below
            ok &= self.get("strength") * t.denominator < t.numerator * whole
        return ok


def action_weights(model: OpponentModel, situation: Situation, *, own: np.ndarray,
                   shown: np.ndarray) -> tuple[tuple[Action, ...], np.ndarray]:
    """The legal actions and, per row, each one's probability times ``model.denominator`` (int64, rows
    summing to the denominator). ``own``: (n, k) each row's own cards, hole card first; ``shown``: (n,)
    the highest up-card rank among the other players still in (-1 when none)."""
    intended = intended_actions(model, situation.legal)
    actions = tuple(dict.fromkeys(intended[i] for i in INTENTS))
    column = {a: j for j, a in enumerate(actions)}
    rows = len(own)
    chosen = np.full(rows, -1, dtype=np.int64)
    reader = _Reader(own, shown)
    for k, rule in enumerate(model.rules):
        if not _scalar_holds(rule.when, situation):
            continue
        free = chosen < 0
        if not free.any():
            break
        chosen[free & reader.holds(rule.when)] = k
    numerators = np.zeros((len(model.rules), len(actions)), dtype=np.int64)
    for k, rule in enumerate(model.rules):
        for intent, p in rule.probabilities.items():
            numerators[k, column[intended[intent]]] += p.numerator * (model.denominator // p.denominator)
    assert (chosen >= 0).all()  # the last rule has no conditions
    out: np.ndarray = numerators[chosen]
    return actions, out


def model_probabilities(model: OpponentModel, hand: StudHand, legal: Legal) -> dict[Action, Fraction]:
    """Each legal action's probability for the player to act in the real ``hand`` (hole card known),
    only those above 0."""
    p = legal.player
    down = hand.down[p]
    cards = ([] if down is None else [down]) + list(hand.up[p])
    own = np.array([cards], dtype=np.int64)
    others = [q for q in hand.in_hand if q != p]
    shown = shown_high({q: np.array([hand.up[q]], dtype=np.int64) for q in range(hand.n)}, others, 1)
    actions, weights = action_weights(model, Situation.of(hand, legal), own=own, shown=shown)
    return {a: Fraction(int(w), model.denominator) for a, w in zip(actions, weights[0], strict=True) if w}


def model_action(model: OpponentModel, hand: StudHand, legal: Legal,
                 rng: random.Random | None = None) -> Action:
    """The model's action for the player to act in ``hand``; a mixed choice is drawn with ``rng``."""
    mix = model_probabilities(model, hand, legal)
    if len(mix) == 1:
        return next(iter(mix))
    if rng is None:
        raise ValueError(f"model {model.name} mixes its actions here: give a random generator")
    actions = list(mix)
    return rng.choices(actions, weights=[float(mix[a]) for a in actions], k=1)[0]
