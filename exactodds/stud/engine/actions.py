"""The actions of a five-card stud hand: the PHH action codes, an :class:`Action` and its parsing,
:class:`Legal` (what the player to act may do) and the wording of a refused action.

Players are numbered 0..n-1 from the dealer's left; :func:`player_name` gives their PHH names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from exactodds.errors import IllegalActionError


class ActionKind(StrEnum):
    """The PHH action codes (JSON and hand histories use the codes themselves)."""

    BRING_IN = "pb"  # post the bring-in
    CHECK_CALL = "cc"  # check or call
    BET_RAISE = "cbr"  # complete, bet or raise *to* a round total
    FOLD = "f"

    def __repr__(self) -> str:  # shown as the plain code, as before
        return repr(self.value)


ACTION_KINDS = tuple(ActionKind)
_CHIPS = re.compile(r"[0-9]{1,15}")  # ASCII digits only: "²".isdigit() is True but int("²") fails


def parse_chips(word: str) -> int | None:
    """A whole number of chips written in ASCII digits (at most 15), or None when ``word`` is not one.

    >>> parse_chips("12"), parse_chips("²"), parse_chips("-3")
    (12, None, None)
    """
    return int(word) if isinstance(word, str) and _CHIPS.fullmatch(word) else None


def action_words(text: str, *, to_call: int) -> str:
    """A PHH action code (``"cc"``, ``"cbr 8"``, ``"f"``, ``"pb"``) in words, for a player who has
    ``to_call`` chips to call: "check", "call 4", "bet 4", "raise to 8", "fold", "bring in".

    >>> action_words("cc", to_call=0), action_words("cc", to_call=4), action_words("cbr 4", to_call=0)
    ('check', 'call 4', 'bet 4')
    >>> action_words("cbr 8", to_call=4), action_words("f", to_call=4)
    ('raise to 8', 'fold')
    """
    kind, _, amount = text.partition(" ")
    if kind == ActionKind.BET_RAISE:
        return f"raise to {amount}" if to_call else f"bet {amount}"
    if kind == ActionKind.CHECK_CALL:
        return f"call {to_call}" if to_call else "check"
    if kind == ActionKind.FOLD:
        return "fold"
    return "bring in" if kind == ActionKind.BRING_IN else text


def player_name(index: int) -> str:
    """PHH name of a 0-based player: ``p1`` is the first player to the dealer's left."""
    return f"p{index + 1}"


@dataclass(frozen=True, kw_only=True)
class Action:
    """A player's action; ``amount`` is the round total for ``cbr`` ("raise to")."""

    player: int
    kind: str
    amount: int | None = None

    def __post_init__(self) -> None:
        for name in ("player", "amount"):
            value = getattr(self, name)
            if value is None and name == "amount":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise IllegalActionError(f"action {name} must be a non-negative whole number, got {value!r}")
        if not isinstance(self.kind, str):
            raise IllegalActionError(f"action kind must be text such as cc, got {self.kind!r}")

    @classmethod
    def parse(cls, player: int, text: str) -> Action:
        """Read ``"cc"``, ``"f"``, ``"pb"`` or ``"cbr 4"`` for a player.

        >>> Action.parse(1, "cbr 4")
        Action(player=1, kind='cbr', amount=4)
        """
        if not isinstance(text, str):
            raise IllegalActionError(f"an action must be text such as \"cbr 4\", got {type(text).__name__}")
        words = text.split()
        if not words or words[0] not in ACTION_KINDS:
            raise IllegalActionError(f'unknown action "{text.strip()}" (expected pb, cc, cbr N or f)')
        kind = words[0]
        amount = parse_chips(words[1]) if len(words) == 2 else None
        if kind == ActionKind.BET_RAISE:
            if amount is None:
                raise IllegalActionError(f'"{text.strip()}": cbr needs one whole amount, e.g. "cbr 4"')
            return cls(player=player, kind=kind, amount=amount)
        if len(words) > 2 or (len(words) == 2 and (kind != ActionKind.BRING_IN or amount is None)):
            raise IllegalActionError(f'"{text.strip()}": unexpected words after {kind}')
        return cls(player=player, kind=kind, amount=amount)

    def text(self) -> str:
        """PHH form without the player, e.g. ``"cbr 4"``."""
        return f"cbr {self.amount}" if self.kind == ActionKind.BET_RAISE else self.kind


@dataclass(frozen=True, kw_only=True)
class Legal:
    """What the player to act may do."""

    player: int
    bring_in: int | None
    check: bool
    call: int | None
    fold: bool
    raise_to: tuple[int, ...]
    no_raise_reason: str = ""

    def actions(self) -> tuple[Action, ...]:
        """Every legal action (one per raise target)."""
        out: list[Action] = []
        if self.bring_in is not None:
            out.append(Action(player=self.player, kind=ActionKind.BRING_IN))
        if self.check or self.call is not None:
            out.append(Action(player=self.player, kind=ActionKind.CHECK_CALL))
        if self.fold:
            out.append(Action(player=self.player, kind=ActionKind.FOLD))
        out.extend(Action(player=self.player, kind=ActionKind.BET_RAISE, amount=t) for t in self.raise_to)
        return tuple(out)


def bring_in_message(legal: Legal) -> str:
    """Why a call, check or fold is refused while the bring-in is due."""
    complete = f" or complete (cbr {legal.raise_to[0]})" if legal.raise_to else ""
    return f"{player_name(legal.player)} must post the bring-in (pb){complete}"


def raise_message(action: Action, legal: Legal) -> str:
    """Why a bet or raise to ``action.amount`` is refused, and the amounts allowed."""
    name = player_name(action.player)
    if not legal.raise_to:
        return f"{name} cannot bet or raise: {legal.no_raise_reason}"
    allowed = " or ".join(str(t) for t in legal.raise_to)
    return f"{name} cannot bet or raise to {action.amount}; allowed: to {allowed}"
