"""The keys a player types at the terminal's stud table: what each means now, and why one is refused.

>>> from exactodds.stud.engine.state import StudHand
>>> from exactodds.cards import parse_cards
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 2c")); hand.deal(1, parse_cards("Qc Qh"))
>>> options_text(hand.legal())
'p = post the bring-in 1, r = complete to 2'
>>> read_choice(hand.legal(), "p")
Action(player=0, kind='pb', amount=None)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from exactodds.errors import IllegalActionError
from exactodds.stud.engine.actions import Action, ActionKind, Legal, parse_chips


def options_text(legal: Legal, *, completing: bool = False) -> str:
    """The keys the player may type now (``completing``: a first full bet on round 1 completes)."""
    parts = []
    if legal.bring_in is not None:
        parts.append(f"p = post the bring-in {legal.bring_in}")
    if legal.check:
        parts.append("k = check")
    if legal.call is not None:
        parts.append(f"c = call {legal.call}")
    if legal.raise_to:
        verb = "complete to" if completing or legal.bring_in is not None else "bet/raise to"
        targets = " or ".join(str(t) for t in legal.raise_to)
        parts.append(f"r = {verb} {legal.raise_to[0]}" if len(legal.raise_to) == 1
                     else f"r N = {verb} N ({targets})")
    if legal.fold:
        parts.append("f = fold")
    return ", ".join(parts)


def _why_not(legal: Legal) -> str:
    """What the player must do instead of checking, calling or folding."""
    if legal.bring_in is not None:
        complete = f" or complete (r {legal.raise_to[0]})" if legal.raise_to else ""
        return f"you must post the bring-in (p){complete}"
    if legal.call is not None:
        return f"there is a bet: call {legal.call} (c), raise (r) or fold (f)"
    return "there is no bet to call: check (k) or bet (r)"


def _as_you(reason: str) -> str:
    """The engine's reason, said to the player: "p2 has no chips" becomes "you have no chips"."""
    return re.sub(r"^p\d+ (has|already)\b", lambda m: "you have" if m.group(1) == "has" else "you already",
                  reason)


def read_choice(legal: Legal, text: str) -> Action:
    """The action a typed key means; IllegalActionError (naming the keys) when it is not allowed now."""
    words = text.strip().lower().split()
    p = legal.player
    if not words:
        raise IllegalActionError("type one of the keys")
    word, rest = words[0], words[1:]
    if word in ("r", "b", "raise", "bet", "complete"):
        if not legal.raise_to:
            raise IllegalActionError(f"you cannot bet or raise: {_as_you(legal.no_raise_reason)}")
        if not rest and len(legal.raise_to) > 1:
            raise IllegalActionError("say how much: " + " or ".join(f"r {t}" for t in legal.raise_to))
        amount = legal.raise_to[0] if not rest else (parse_chips(rest[0]) if len(rest) == 1 else None)
        if amount is None:
            raise IllegalActionError("write r, or r N with N the total to raise to")
        if amount not in legal.raise_to:
            allowed = " or ".join(f"r {t}" for t in legal.raise_to)
            raise IllegalActionError(f"you cannot raise to {amount}; allowed: {allowed}")
        return Action(player=p, kind=ActionKind.BET_RAISE, amount=amount)
    key = _PLAIN_KEYS.get(_KEY_ALIASES.get(word, word))
    if key is None:
        raise IllegalActionError(f'unknown key "{text.strip()}"')
    if rest:
        raise IllegalActionError(f'unexpected words after "{word}"')
    if not key.allowed(legal):
        raise IllegalActionError(f"{key.refusal}: {_why_not(legal)}")
    return Action(player=p, kind=key.kind)


@dataclass(frozen=True)
class _PlainKey:
    """A key that takes no amount: the action it means, when it is allowed, and what is said when not."""

    kind: ActionKind
    allowed: Callable[[Legal], bool]
    refusal: str


_PLAIN_KEYS = {
    "post": _PlainKey(ActionKind.BRING_IN, lambda legal: legal.bring_in is not None,
                      "you have no bring-in to post"),
    "check": _PlainKey(ActionKind.CHECK_CALL, lambda legal: legal.check, "you cannot check"),
    "call": _PlainKey(ActionKind.CHECK_CALL, lambda legal: legal.call is not None, "you cannot call"),
    "fold": _PlainKey(ActionKind.FOLD, lambda legal: legal.fold, "you cannot fold"),
}
_KEY_ALIASES = {"p": "post", "k": "check", "c": "call", "f": "fold"}
