"""A whole session as a multi-hand PHH file (``.phhs``): one ``[N]`` table per hand, N = 1, 2, ...

This is the PHH specification's multi-hand form: each table holds the fields of one hand.
Besides the F5S fields of :mod:`exactodds.stud.history.phh`, every hand records the PHH optional
fields ``hand`` (its number), ``seat_count``, ``seats`` (each player's seat, the hand's
players listed from the dealer's left so the dealer comes last) and ``players`` (names), and
two user-defined fields (PHH's underscore prefix): ``_dealer``, the dealer's seat, and
``_rebuys``, the chips each player bought just before the hand (only when someone did).

:func:`replay_session` checks every hand under the rules and that the session holds
together: stacks carry over exactly from hand to hand, the deal moves left past players with
no chips, and every rebuy is between hands by a busted player.

>>> from exactodds.stud.bots.policy import bot_action
>>> from exactodds.stud.history.session import StudSession
>>> s = StudSession(players=("Ann", "Bob"), reserve=20, hands=2, seed=3)
>>> _ = [s.play_hand(bot_action) for _ in range(2)]
>>> again = replay_session(parse_session(dumps_session(s)))
>>> again.result == s.result(), [t.dealer for t in again.hands]
(True, [1, 2])
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exactodds.cache import atomic_write_text
from exactodds.errors import ExactOddsError
from exactodds.stud.history.phh import (
    BOM,
    HandHistory,
    HandHistoryError,
    dumps_phh,
    history_from_fields,
    read_history_text,
    replay,
)
from exactodds.stud.history.session import (
    Rebuy,
    SessionResult,
    StudSession,
    TableHand,
    next_dealer,
    seats_in_hand,
    session_result,
)

SESSION_SUFFIX = ".phhs"
_HEADER = re.compile(r'^[ \t]*\[[ \t]*("?)([^\]"\n]*)\1[ \t]*\][ \t]*(?:#.*)?$', re.MULTILINE)


class SessionHistoryError(HandHistoryError):
    """A session file that cannot be read, or whose hands do not hold together; names hand and line."""


@dataclass(frozen=True, kw_only=True)
class SessionHandHistory:
    """One ``[N]`` table: the hand's fields plus its place in the session."""

    number: int
    history: HandHistory
    seat_count: int
    seats: tuple[int, ...]
    dealer: int
    rebuys: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class SessionHistory:
    """Every hand of a session file, in order."""

    source: str
    hands: tuple[SessionHandHistory, ...]


@dataclass(frozen=True, kw_only=True)
class SessionReplay:
    """A replayed session: every hand (the state machine at its end) and the net results."""

    names: tuple[str, ...]
    reserve: int
    hands: tuple[TableHand, ...]
    rebuys: tuple[Rebuy, ...]
    result: SessionResult

    def to_dict(self) -> dict[str, object]:
        hands = []
        for t in self.hands:
            out = t.hand.outcome
            assert out is not None
            hands.append({
                "hand": t.number, "dealer_seat": t.dealer, "seats": list(t.seats),
                "starting_stacks": list(t.hand.starting_stacks), "rebuys": list(t.rebuys),
                "pots": [{"amount": pot.amount, "seats": [t.seats[p] for p in pot.players],
                          "winners": {str(t.seats[p]): c for p, c in sorted(out.winners[k].items())}}
                         for k, pot in enumerate(out.pots)],
                "finishing_stacks": list(out.finishing_stacks),
            })
        return {"variant": "F5S", "players": list(self.names), "reserve": self.reserve, "hands": hands,
                **self.result.to_dict()}


# ---------------------------------------------------------------------- writing
def dumps_hand(table: TableHand, names: Sequence[str]) -> str:
    """One finished hand of a session as the body of its ``[N]`` table."""
    extra = [f"hand = {table.number}", f"seat_count = {len(names)}", f"seats = {list(table.seats)}",
             f"_dealer = {table.dealer}"]
    if any(table.rebuys):
        extra.append(f"_rebuys = {list(table.rebuys)}")
    return dumps_phh(table.hand, players=[names[s - 1] for s in table.seats], extra=extra, comment=False)


def dumps_session(session: StudSession) -> str:
    """Every finished hand of a session as multi-hand PHH text (a hand in play is left out)."""
    head = ("# A five-card stud session: one [N] table per hand (PHH multi-hand file; variant F5S is the\n"
            f"# exactodds five-card stud extension). {len(session.names)} players, starting reserve "
            f"{session.reserve}, first dealer seat {session.first_dealer} by lot.\n")
    tables = [f"[{t.number}]\n{dumps_hand(t, session.names)}" for t in session.finished]
    return head + "".join(f"\n{t}" for t in tables)


def write_session(path: str | os.PathLike[str], session: StudSession) -> None:
    """Write the finished hands of a session (atomically: the file is always a valid session)."""
    atomic_write_text(path, dumps_session(session))


# ---------------------------------------------------------------------- reading
def _int_field(data: dict[str, Any], key: str, where: str, *, minimum: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SessionHistoryError(f"{where}: {key} must be a whole number >= {minimum}, got {value!r}")
    return value


def _int_tuple(data: dict[str, Any], key: str, where: str, *, minimum: int) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= minimum for v in value):
        raise SessionHistoryError(f"{where}: {key} must be a list of whole numbers >= {minimum}, "
                                  f"got {value!r}")
    return tuple(value)


def parse_session(text: str, *, source: str = "session") -> SessionHistory:
    """Read every ``[N]`` table of a session file (without replaying the hands)."""
    if not isinstance(text, str):
        raise SessionHistoryError(f"{source}: a session file must be text, got {type(text).__name__}")
    text = text.removeprefix(BOM)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SessionHistoryError(f"{source}: not valid TOML ({exc})") from None
    loose = [k for k, v in data.items() if not isinstance(v, dict)]
    if loose:
        raise SessionHistoryError(f"{source}: field {loose[0]} stands outside the hand tables; a session "
                                  "file holds one [N] table per hand ([1], [2], ...)")
    if not data:
        raise SessionHistoryError(f"{source}: no hands; a session file holds one [N] table per hand "
                                  "([1], [2], ...)")
    headers = [(m.group(2).strip(), m.start(), m.end()) for m in _HEADER.finditer(text)]
    keys = list(data)
    if [h[0] for h in headers] != keys:
        raise SessionHistoryError(f"{source}: a session file holds only [N] tables, one per hand "
                                  f"(found {', '.join(f'[{k}]' for k in keys)})")
    hands = []
    line, counted = 1, 0
    for k, (key, start, end) in enumerate(headers, 1):
        line += text.count("\n", counted, start)
        counted = start
        if key != str(k):
            raise SessionHistoryError(f"{source} line {line}: table [{key}] should be [{k}]: hands are "
                                      "numbered [1], [2], ... in order")
        body_end = headers[k][1] if k < len(headers) else len(text)
        hands.append(_hand_table(data[key], text[end:body_end], number=k, source=source, first_line=line))
    return SessionHistory(source=source, hands=tuple(hands))


def _hand_table(data: dict[str, Any], body: str, *, number: int, source: str,
                first_line: int) -> SessionHandHistory:
    where = f"{source} hand {number}"
    try:
        history = history_from_fields(data, text=body, source=where, first_line=first_line)
    except SessionHistoryError:
        raise
    except HandHistoryError as exc:
        raise SessionHistoryError(str(exc)) from None
    if "hand" in data and data["hand"] != number:
        raise SessionHistoryError(f"{where} line {history.line_of('hand')}: hand = {data['hand']!r} but the "
                                  f"table is [{number}]")
    for key in ("seat_count", "seats", "_dealer"):
        if key not in data:
            raise SessionHistoryError(f"{where}: missing field {key} (a session hand records seat_count, "
                                      "seats and _dealer)")
    seat_count = _int_field(data, "seat_count", where, minimum=2)
    seats = _int_tuple(data, "seats", where, minimum=1)
    n = len(history.starting_stacks)
    at = f"{where} line {history.line_of('seats')}"
    if len(seats) != n or len(set(seats)) != n or max(seats) > seat_count:
        raise SessionHistoryError(f"{at}: seats {list(seats)} must list {n} different seats of "
                                  f"1..{seat_count}, one per player")
    dealer = _int_field(data, "_dealer", where, minimum=1)
    if dealer != seats[-1]:
        raise SessionHistoryError(f"{where} line {history.line_of('_dealer')}: the dealer (seat {dealer}) "
                                  f"must be the last player, dealt last; seats are {list(seats)}")
    rebuys = _int_tuple(data, "_rebuys", where, minimum=0) if "_rebuys" in data else (0,) * n
    if len(rebuys) != n:
        raise SessionHistoryError(f"{where} line {history.line_of('_rebuys')}: _rebuys lists {len(rebuys)} "
                                  f"values for {n} players")
    return SessionHandHistory(number=number, history=history, seat_count=seat_count, seats=seats,
                              dealer=dealer, rebuys=rebuys)


def load_session(path: str | os.PathLike[str]) -> SessionHistory:
    """Read a session file."""
    return parse_session(read_history_text(path), source=Path(path).name)


def is_session_text(text: str, *, name: str = "") -> bool:
    """Whether a hand history file holds a session: a ``.phhs`` name, or TOML made only of tables.

    >>> is_session_text("[1]\\nvariant = 'F5S'\\n"), is_session_text("variant = 'F5S'\\n")
    (True, False)
    """
    if Path(name).suffix.lower() == SESSION_SUFFIX:
        return True
    try:
        data = tomllib.loads(text.removeprefix(BOM))
    except tomllib.TOMLDecodeError:
        return False
    return bool(data) and all(isinstance(v, dict) for v in data.values())


# ---------------------------------------------------------------------- replaying
def replay_session(session: SessionHistory) -> SessionReplay:
    """Replay every hand and check that the session holds together (see the module docstring)."""
    first = session.hands[0]
    seat_count = first.seat_count
    names = [f"seat {k}" for k in range(1, seat_count + 1)]
    stacks: list[int] = []
    tables: list[TableHand] = []
    rebuys: list[Rebuy] = []
    reserve = 0
    for entry in session.hands:
        h, where = entry.history, f"{session.source} hand {entry.number}"
        at_stacks = f"{where} line {h.line_of('starting_stacks')}"
        if entry.seat_count != seat_count:
            raise SessionHistoryError(f"{where} line {h.line_of('seat_count')}: seat_count "
                                      f"{entry.seat_count} differs from hand 1's {seat_count}")
        for seat, name in zip(entry.seats, h.players or (), strict=False):
            if entry.number == 1:
                names[seat - 1] = name
            elif name != names[seat - 1]:
                raise SessionHistoryError(f"{where} line {h.line_of('players')}: seat {seat} is "
                                          f"{names[seat - 1]!r} in hand 1, not {name!r}")
        if entry.number == 1:
            if len(entry.seats) != seat_count or len(set(h.starting_stacks)) != 1:
                raise SessionHistoryError(f"{at_stacks}: hand 1 deals every seat the same starting reserve, "
                                          f"got {list(h.starting_stacks)} for seats {list(entry.seats)}")
            if any(entry.rebuys):
                raise SessionHistoryError(f"{where} line {h.line_of('_rebuys')}: no rebuy before the "
                                          "first hand")
            reserve = h.starting_stacks[0]
            stacks = [reserve] * seat_count
        else:
            _check_rebuys(entry, stacks, rebuys, where)
            expected_dealer = next_dealer(tables[-1].dealer, stacks)
            if entry.dealer != expected_dealer:
                raise SessionHistoryError(
                    f"{where} line {h.line_of('_dealer')}: seat {entry.dealer} deals, but the deal passes "
                    f"left from seat {tables[-1].dealer} to seat {expected_dealer}, the next player with "
                    "chips")
        expected_seats = seats_in_hand(entry.dealer, stacks)
        if entry.seats != expected_seats:
            raise SessionHistoryError(
                f"{where} line {h.line_of('seats')}: seats {list(entry.seats)} should be "
                f"{list(expected_seats)}, every player with chips from the dealer's left")
        for seat, start in zip(entry.seats, h.starting_stacks, strict=True):
            if start != stacks[seat - 1]:
                had = (f"finished hand {entry.number - 1} with {stacks[seat - 1] - _bought(entry, seat)}"
                       + (f" and rebought {_bought(entry, seat)}" if _bought(entry, seat) else "")
                       if entry.number > 1 else f"starts with {stacks[seat - 1]}")
                raise SessionHistoryError(f"{at_stacks}: starting_stacks {list(h.starting_stacks)}: "
                                          f"seat {seat} ({names[seat - 1]}) starts with {start} but {had}")
        try:
            hand = replay(h)
        except SessionHistoryError:
            raise
        except HandHistoryError as exc:
            raise SessionHistoryError(str(exc)) from None
        assert hand.outcome is not None
        for seat, stack in zip(entry.seats, hand.outcome.finishing_stacks, strict=True):
            stacks[seat - 1] = stack
        tables.append(TableHand(number=entry.number, dealer=entry.dealer, seats=entry.seats, hand=hand,
                                deck=[], rebuys=entry.rebuys))
    try:
        result = session_result(names=names, reserve=reserve, stacks=stacks, rebuys=rebuys,
                                hands_played=len(tables))
    except ExactOddsError as exc:  # pragma: no cover - every hand conserves chips
        raise SessionHistoryError(f"{session.source}: {exc}") from None
    return SessionReplay(names=tuple(names), reserve=reserve, hands=tuple(tables), rebuys=tuple(rebuys),
                         result=result)


def _bought(entry: SessionHandHistory, seat: int) -> int:
    return entry.rebuys[entry.seats.index(seat)] if seat in entry.seats else 0


def _check_rebuys(entry: SessionHandHistory, stacks: list[int], rebuys: list[Rebuy], where: str) -> None:
    """Apply the rebuys recorded before a hand (only by players with no chips)."""
    line = entry.history.line_of("_rebuys")
    for seat, amount in zip(entry.seats, entry.rebuys, strict=True):
        if not amount:
            continue
        if stacks[seat - 1] > 0:
            raise SessionHistoryError(f"{where} line {line}: seat {seat} rebuys {amount} with "
                                      f"{stacks[seat - 1]} chips left; only a player with no chips may rebuy")
        stacks[seat - 1] += amount
        rebuys.append(Rebuy(before_hand=entry.number, seat=seat, amount=amount))
