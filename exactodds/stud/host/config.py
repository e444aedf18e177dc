"""A hosted game's set-up: the seats (a name, a person or a bot playing a model), the starting
stacks, the evening's length (hands or minutes, agreed beforehand as the home rules say), whether
the coach is allowed, and the clocks (time to act, a bot's pause, the pause between hands).

>>> config = GameConfig.from_dict({"seats": [{"name": "Ann"}, {"name": "Bob", "bot": "bots"}],
...                                "stack": 50, "hands": 10})
>>> [(s.name, str(s.kind), s.model) for s in config.seats], config.stack, config.hands
([('Ann', 'person', None), ('Bob', 'bot', 'bots')], 50, 10)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from exactodds.errors import ExactOddsError
from exactodds.stud.engine.rules import HOME_RULES
from exactodds.stud.history.session import MAX_NAME
from exactodds.stud.host.bots import DEFAULT_MODEL

MAX_STACK = 10**6
MAX_HANDS = 10_000
MAX_MINUTES = 24 * 60
DEFAULT_ACT_SECONDS = 30.0
DEFAULT_BOT_SECONDS = 1.0
DEFAULT_BETWEEN_SECONDS = 5.0
MAX_MODEL_NAME = 100
FIELDS = ("seats", "stack", "hands", "minutes", "coach", "act_seconds", "bot_seconds", "between_seconds")


class GameSetupError(ExactOddsError):
    """A game that cannot be set up: a field missing, of the wrong type or out of range."""


class SeatKind(StrEnum):
    """Who plays a seat."""

    PERSON = "person"  # someone with the seat's link
    BOT = "bot"        # the server, playing the seat's model


@dataclass(frozen=True, kw_only=True)
class SeatConfig:
    """One seat: its name (fixed for the evening: the hand histories name each seat once), who plays
    it and, for a bot, its model."""

    name: str
    kind: SeatKind
    model: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": str(self.kind), "model": self.model}


@dataclass(frozen=True, kw_only=True)
class GameConfig:
    """A game's set-up. Exactly one of ``hands`` and ``minutes`` sets the length; with ``minutes``
    the evening ends after the hand in play when the time is up (paused time not counted)."""

    seats: tuple[SeatConfig, ...]
    stack: int = 100
    hands: int | None = 20
    minutes: int | None = None
    coach: bool = True
    act_seconds: float = DEFAULT_ACT_SECONDS
    bot_seconds: float = DEFAULT_BOT_SECONDS
    between_seconds: float = DEFAULT_BETWEEN_SECONDS

    def to_dict(self) -> dict[str, Any]:
        """The set-up in the JSON form :meth:`from_dict` reads (a bot seat says its model)."""
        seats = [{"name": s.name, **({"bot": s.model} if s.kind is SeatKind.BOT else {})} for s in self.seats]
        return {"seats": seats, "stack": self.stack, "hands": self.hands,
                "minutes": self.minutes, "coach": self.coach, "act_seconds": self.act_seconds,
                "bot_seconds": self.bot_seconds, "between_seconds": self.between_seconds}

    @classmethod
    def from_dict(cls, body: Mapping[str, Any]) -> GameConfig:
        """A set-up from its JSON form (see docs/stud-host.md); GameSetupError names a bad field."""
        if not isinstance(body, Mapping):
            raise GameSetupError(f"a game's set-up must be a JSON object, got {type(body).__name__}")
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise GameSetupError(f"unknown field {unknown[0]!r} (allowed: {', '.join(FIELDS)})")
        seats = _seats(body.get("seats"))
        hands, minutes = body.get("hands"), body.get("minutes")
        if minutes is None and "hands" not in body:
            hands = 20
        if (hands is None) == (minutes is None):
            raise GameSetupError("give the evening's length as hands or as minutes, not both")
        return cls(
            seats=seats, stack=_whole(body.get("stack", 100), "stack", 2 * HOME_RULES.ante, MAX_STACK),
            hands=None if hands is None else _whole(hands, "hands", 1, MAX_HANDS),
            minutes=None if minutes is None else _whole(minutes, "minutes", 1, MAX_MINUTES),
            coach=_flag(body.get("coach", True), "coach"),
            act_seconds=_seconds(body.get("act_seconds", DEFAULT_ACT_SECONDS), "act_seconds", 3, 600),
            bot_seconds=_seconds(body.get("bot_seconds", DEFAULT_BOT_SECONDS), "bot_seconds", 0, 10),
            between_seconds=_seconds(body.get("between_seconds", DEFAULT_BETWEEN_SECONDS), "between_seconds",
                                     0, 60))


def seat_name(value: Any, seat: int) -> str:
    """A seat's name checked: 1 to MAX_NAME printable characters without quotes or backslashes."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME or '"' in value \
            or "\\" in value or any(not ch.isprintable() for ch in value):
        raise GameSetupError(f"seat {seat}'s name must be 1 to {MAX_NAME} printable characters without "
                             f"quotes or backslashes, got {str(value)[:60]!r}")
    return value.strip()


def bot_model(value: Any, seat: int) -> str:
    """A bot's model name checked for its form (whether the server offers it is the service's check:
    :meth:`~exactodds.stud.host.bots.BotModels.model`)."""
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_MODEL_NAME:
        raise GameSetupError(f"seat {seat}'s bot model must be a model's name such as {DEFAULT_MODEL!r}, "
                             f"got {str(value)[:40]!r}")
    return value.strip()


def _seats(value: Any) -> tuple[SeatConfig, ...]:
    if not isinstance(value, list) or not HOME_RULES.min_players <= len(value) <= HOME_RULES.max_players:
        count = len(value) if isinstance(value, list) else type(value).__name__
        raise GameSetupError(f"seats must be a list of {HOME_RULES.min_players} to {HOME_RULES.max_players} "
                             f"seats, got {count}")
    seats = []
    for k, entry in enumerate(value, 1):
        if not isinstance(entry, dict) or set(entry) - {"name", "bot"}:
            raise GameSetupError(f'seat {k} must be {{"name": ...}} (a person) or {{"name": ..., "bot": '
                                 f'"{DEFAULT_MODEL}"}} (a bot), got {str(entry)[:60]}')
        name = seat_name(entry.get("name", f"Seat {k}"), k)
        if "bot" in entry:
            seats.append(SeatConfig(name=name, kind=SeatKind.BOT, model=bot_model(entry["bot"], k)))
        else:
            seats.append(SeatConfig(name=name, kind=SeatKind.PERSON))
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise GameSetupError(f"seat names must differ, got {names}")
    return tuple(seats)


def _whole(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GameSetupError(f"{what} must be a whole number from {low:,} to {high:,}, got {str(value)[:20]}")
    return value


def _seconds(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise GameSetupError(f"{what} must be a number of seconds from {low:g} to {high:g}, "
                             f"got {str(value)[:20]}")
    return float(value)


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise GameSetupError(f"{what} must be true or false, got {str(value)[:20]}")
    return value
