"""Read and write five-card stud hands in PHH (the TOML poker hand history format).

PHH has no five-card-stud code, so exactodds uses ``variant = "F5S"`` with the
seven-card-stud fields (``antes``, ``bring_in``, ``small_bet``, ``big_bet``,
``starting_stacks``, ``actions``) plus two explicit rule fields:
``open_pair_big_bet`` (any visible pair on the second round allows ``big_bet``) and
``max_raises`` (raises after the bet when a round starts with 3+ players able to bet).
Players are numbered from the dealer's left: ``p1`` is first to the dealer's left.
Actions: ``d dh p1 Kh9c`` (round 1: hole card then up card; later one up card),
``p1 pb``, ``p1 cc``, ``p1 cbr 4`` (raise *to* 4), ``p1 f``, ``p1 sm Kh`` (show).

>>> text = dumps_phh(replay(parse_phh(EXAMPLE)))
>>> replay(parse_phh(text)).outcome.payoffs
(7, -7)
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exactodds.cache import atomic_write_text
from exactodds.cards import format_card, parse_cards
from exactodds.errors import ExactOddsError
from exactodds.stud.engine.actions import Action, ActionKind, player_name
from exactodds.stud.engine.rules import HOME_RULES, StudProfile
from exactodds.stud.engine.state import Phase, StudHand

VARIANT = "F5S"

EXAMPLE = """\
variant = "F5S"
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
open_pair_big_bet = true
starting_stacks = [20, 20]
actions = ["d dh p1 Kh9c", "d dh p2 QcQh", "p1 cbr 2", "p2 cc", "d dh p1 4d", "d dh p2 Js",
  "p2 cc", "p1 cc", "d dh p1 Ks", "d dh p2 7d", "p1 cbr 4", "p2 cc", "d dh p1 2h", "d dh p2 3c",
  "p1 cc", "p2 cc", "p1 sm Kh", "p2 sm Qc"]
"""

_PLAYER = re.compile(r"^p([1-9][0-9]*)$")


class HandHistoryError(ExactOddsError):
    """A PHH file that cannot be read or replayed; names the line and the reason."""


@dataclass(frozen=True, kw_only=True)
class HandHistory:
    """The fields of an F5S hand history; ``lines`` holds each action's line in the file (or 0)."""

    profile: StudProfile
    starting_stacks: tuple[int, ...]
    actions: tuple[str, ...]
    lines: tuple[int, ...]
    source: str = "hand"
    finishing_stacks: tuple[int, ...] | None = None
    players: tuple[str, ...] | None = None
    field_lines: dict[str, int] = field(default_factory=dict)  # line of each top-level field

    def line_of(self, key: str) -> int:
        """Line of a top-level field in the file (0 when unknown)."""
        return self.field_lines.get(key, 0)


REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
BOM = "\ufeff"


def _int_list(data: dict[str, Any], key: str, source: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise HandHistoryError(f"{source}: {key} must be a list of whole numbers, got {value!r}")
    if any(v < 0 for v in value):
        raise HandHistoryError(f"{source}: {key} must not hold negative numbers, got {value!r}")
    return tuple(value)


def _whole(data: dict[str, Any], key: str, source: str, *, minimum: int, default: int | None = None) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool):
        raise HandHistoryError(f"{source}: {key} must be a whole number, got {value!r}")
    if value < minimum:
        wanted = "positive" if minimum == 1 else f"at least {minimum}"
        raise HandHistoryError(f"{source}: {key} must be {wanted}, got {value}")
    return value


def parse_phh(text: str, *, source: str = "hand", first_line: int = 1) -> HandHistory:
    """Read the fields of an F5S hand history (without replaying it).

    ``first_line`` is the line of ``text``'s first line in its file (for a hand inside a
    multi-hand file), so that every reported line is the file's.
    """
    if not isinstance(text, str):
        raise HandHistoryError(f"{source}: a hand history must be text, got {type(text).__name__}")
    text = text.removeprefix(BOM)  # a UTF-8 byte-order mark some editors write
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HandHistoryError(f"{source}: not valid TOML ({exc})") from None
    return history_from_fields(data, text=text, source=source, first_line=first_line)


def history_from_fields(data: dict[str, Any], *, text: str, source: str, first_line: int = 1) -> HandHistory:
    """Check the fields of one hand (already read from TOML); ``text`` locates their lines."""
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        listing = ", ".join(missing)
        raise HandHistoryError(f"{source}: missing field{'s' if len(missing) > 1 else ''} {listing} "
                               f"(an F5S hand needs {', '.join(REQUIRED)})")
    variant = data["variant"]
    if variant != VARIANT:
        raise HandHistoryError(f'{source}: variant must be "{VARIANT}" (five-card stud), got {variant!r}')
    stacks = _int_list(data, "starting_stacks", source)
    if not HOME_RULES.min_players <= len(stacks) <= HOME_RULES.max_players:
        raise HandHistoryError(f"{source}: starting_stacks must list {HOME_RULES.min_players} to "
                               f"{HOME_RULES.max_players} players (one stack each), got {len(stacks)}")
    antes = _int_list(data, "antes", source)
    if len(antes) != len(stacks):
        raise HandHistoryError(f"{source}: antes lists {len(antes)} value(s) but starting_stacks lists "
                               f"{len(stacks)} players; both need one entry per player")
    if len(set(antes)) != 1:
        raise HandHistoryError(f"{source}: antes must be equal for every player, got {list(antes)}")
    open_pair = data.get("open_pair_big_bet", HOME_RULES.open_pair_big_bet)
    if not isinstance(open_pair, bool):
        raise HandHistoryError(f"{source}: open_pair_big_bet must be true or false, got {open_pair!r}")
    try:
        profile = StudProfile(
            ante=antes[0],
            bring_in=_whole(data, "bring_in", source, minimum=1),
            small_bet=_whole(data, "small_bet", source, minimum=1),
            big_bet=_whole(data, "big_bet", source, minimum=1),
            open_pair_big_bet=open_pair,
            max_raises=_whole(data, "max_raises", source, minimum=0, default=HOME_RULES.max_raises),
        )
    except HandHistoryError:
        raise
    except ExactOddsError as exc:
        raise HandHistoryError(f"{source}: {exc}") from None
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HandHistoryError(f"{source}: actions must be a list of strings")
    finishing = _int_list(data, "finishing_stacks", source) if "finishing_stacks" in data else None
    lines = {key: _field_line(text, key) + first_line - 1 for key in data}
    players = data.get("players")
    if players is not None and not (isinstance(players, list) and all(isinstance(p, str) for p in players)):
        raise HandHistoryError(f"{source}: players must be a list of names")
    if players is not None and len(players) != len(stacks):
        raise HandHistoryError(f"{source} line {lines['players']}: players lists {len(players)} "
                               f"names but starting_stacks has {len(stacks)} players")
    return HandHistory(
        profile=profile, starting_stacks=stacks, actions=tuple(actions),
        lines=tuple(k + first_line - 1 if k else 0 for k in _action_lines(text, actions)),
        source=source, finishing_stacks=finishing, players=tuple(players) if players else None,
        field_lines=lines,
    )


def _field_line(text: str, key: str) -> int:
    """Line number of the top-level field ``key`` (1 when not found)."""
    match = re.search(rf"^[ \t]*{re.escape(key)}[ \t]*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else 1


_TOML_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'')


def _action_lines(text: str, actions: Sequence[str]) -> tuple[int, ...]:
    """Line number of each action string in the file, found in order (0 when not found).

    One pass over the string literals after ``actions =`` (linear in the file's size).
    """
    start = re.search(r"^[ \t]*actions[ \t]*=", text, re.MULTILINE)
    pos = start.start() if start else 0
    literals = [(m.start(), m.group(0)[1:-1]) for m in _TOML_STRING.finditer(text, pos)]
    lines: list[int] = []
    k, line, counted = 0, text.count("\n", 0, pos) + 1, pos
    for action in actions:
        j = k
        while j < len(literals) and literals[j][1] != action:
            j += 1
        if j == len(literals):  # not written literally (escapes): no line, keep looking from here
            lines.append(0)
            continue
        at = literals[j][0]
        line += text.count("\n", counted, at)
        counted, k = at, j + 1
        lines.append(line)
    return tuple(lines)


def read_history_text(path: str | os.PathLike[str]) -> str:
    """The text of a hand history file (UTF-8, a leading byte-order mark dropped)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise HandHistoryError(f"cannot read {p}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise HandHistoryError(f"{p.name}: not a UTF-8 text file (byte {exc.start}: {exc.reason})") from None
    return text.removeprefix(BOM)


def load_phh(path: str | os.PathLike[str]) -> HandHistory:
    """Read an F5S hand history file."""
    return parse_phh(read_history_text(path), source=Path(path).name)


def apply_line(hand: StudHand, line: str, shown: dict[int, tuple[int, ...]]) -> None:
    """Apply one PHH action to the hand (``shown`` collects ``sm`` cards)."""
    words = line.split("#", 1)[0].split()
    if not words:
        raise ExactOddsError("empty action")
    if words[0] == "d":
        if len(words) >= 2 and words[1] == "db":
            raise ExactOddsError("five-card stud has no board cards")
        if len(words) != 4 or words[1] != "dh":
            raise ExactOddsError('a deal must read "d dh pN CARDS"')
        player = _player(words[2], hand.n)
        if "?" in words[3]:
            raise ExactOddsError("unknown cards (??) cannot be refereed")
        hand.deal(player, parse_cards(words[3]))
        return
    player = _player(words[0], hand.n)
    if len(words) >= 2 and words[1] == "sm":
        _show(hand, player, words[2:], shown)
        return
    hand.act(Action.parse(player, " ".join(words[1:])))


def _player(word: str, n: int) -> int:
    match = _PLAYER.match(word)
    if not match or not 1 <= int(match.group(1)) <= n:
        raise ExactOddsError(f'unknown player "{word}" (p1..p{n})')
    return int(match.group(1)) - 1


def _show(hand: StudHand, player: int, words: list[str], shown: dict[int, tuple[int, ...]]) -> None:
    name = player_name(player)
    if hand.phase is not Phase.DONE or hand.outcome is None or player not in hand.outcome.showdown_order:
        raise ExactOddsError(f"{name} cannot show: there is no showdown for {name} now")
    if len(words) != 1 or "?" in words[0]:
        raise ExactOddsError(f"{name} must show known cards, e.g. sm Kh")
    if player in shown:
        raise ExactOddsError(f"{name} has already shown")
    cards = parse_cards(words[0])
    hole = hand.down[player]
    if len(cards) != 1:
        raise ExactOddsError(f"{name} shows {len(cards)} cards; a five-card stud player shows one hole card")
    if cards[0] not in hand.cards_of(player):
        raise ExactOddsError(f"{name} does not hold {format_card(cards[0])}")
    if cards[0] != hole:
        raise ExactOddsError(f"{format_card(cards[0])} is an up card of {name}: show the hole card")
    shown[player] = cards


def replay(history: HandHistory, *, require_complete: bool = True) -> StudHand:
    """Play every action of a hand history; an illegal one raises HandHistoryError with its line."""
    try:
        hand = StudHand(stacks=history.starting_stacks, profile=history.profile)
    except ExactOddsError as exc:
        raise HandHistoryError(f"{history.source}: {exc}") from None
    shown: dict[int, tuple[int, ...]] = {}
    for k, (line, where) in enumerate(zip(history.actions, history.lines, strict=True)):
        try:
            apply_line(hand, line, shown)
        except ExactOddsError as exc:
            at = f"line {where}" if where else f"action {k + 1}"
            raise HandHistoryError(f'{history.source} {at}: "{line}": {exc}') from None
    if require_complete and hand.phase is not Phase.DONE:
        due = (f"cards owed to {', '.join(player_name(i) for i in hand.deal_due)}"
               if hand.phase is Phase.DEAL else f"{player_name(hand.actor or 0)} to act")
        raise HandHistoryError(f"{history.source}: the hand is incomplete ({due})")
    if history.finishing_stacks is not None and hand.outcome is not None:
        if tuple(history.finishing_stacks) != hand.outcome.finishing_stacks:
            raise HandHistoryError(
                f"{history.source} line {history.line_of('finishing_stacks')}: finishing_stacks "
                f"{list(history.finishing_stacks)} disagree with the "
                f"replay {list(hand.outcome.finishing_stacks)}"
            )
    return hand


def history_actions(hand: StudHand) -> list[str]:
    """The PHH action strings of a hand so far (deals, actions, then the showdown)."""
    out: list[str] = []
    for e in hand.events:
        name = player_name(e.player)
        if e.kind == "deal":
            out.append(f"d dh {name} " + "".join(format_card(c) for c in e.cards))
        elif e.kind == ActionKind.BET_RAISE:
            out.append(f"{name} cbr {e.amount}")
        else:
            out.append(f"{name} {e.kind}")
    if hand.outcome is not None:
        for p in hand.outcome.showdown_order:
            out.append(f"{player_name(p)} sm {format_card(hand.down[p])}")  # type: ignore[arg-type]
    return out


def dumps_phh(hand: StudHand, *, players: Sequence[str] | None = None, extra: Sequence[str] = (),
              comment: bool = True) -> str:
    """A hand as F5S PHH text (with ``finishing_stacks`` once it is over).

    ``extra`` holds further ``key = value`` lines written after the variant (e.g. ``hand = 3``).
    """
    prof = hand.profile
    acts = ",\n".join(f'  "{a}"' for a in history_actions(hand))
    lines = [
        *(["# F5S = five-card stud, exactodds extension of PHH (the home fixed-limit five-card stud "
           "profile)."] if comment else []),
        f'variant = "{VARIANT}"',
        *extra,
        f"antes = {[prof.ante] * hand.n}",
        f"bring_in = {prof.bring_in}",
        f"small_bet = {prof.small_bet}",
        f"big_bet = {prof.big_bet}",
        f"open_pair_big_bet = {'true' if prof.open_pair_big_bet else 'false'}",
        f"max_raises = {prof.max_raises}",
        f"starting_stacks = {list(hand.starting_stacks)}",
        f"actions = [\n{acts},\n]" if acts else "actions = []",
    ]
    if players:
        lines.append("players = [" + ", ".join(f'"{p}"' for p in players) + "]")
    if hand.outcome is not None:
        lines.append(f"finishing_stacks = {list(hand.outcome.finishing_stacks)}")
    return "\n".join(lines) + "\n"


def write_phh(path: str | os.PathLike[str], hand: StudHand) -> None:
    """Write a hand as an F5S PHH file (atomically)."""
    atomic_write_text(path, dumps_phh(hand))
