"""A five-card stud position as the equity methods see it: who is still in, their cards, dead cards.

Parse one with :func:`parse_position` (``"Kh | 9c 4d"`` per player; ``"? | 9c 4d"`` for an
unknown hole card) or build :class:`StudPosition` directly; :func:`check_position` refuses a
position that cannot occur.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exactodds import display
from exactodds.cards import format_card, parse_cards
from exactodds.errors import CardError, DuplicateCardError, ExactOddsError, HandSizeError

MAX_PLAYERS = 8
UP_CARDS = 4


class PositionError(ExactOddsError):
    """A stud position that cannot occur: wrong number of players, cards or streets."""


class StreetError(PositionError):
    """Players still in do not all have the same number of up cards."""


# --------------------------------------------------------------------------- input
@dataclass(frozen=True, kw_only=True)
class StudPlayer:
    """One player still in: hole card (None when unknown) and up cards in the order dealt."""

    hole: int | None
    up: tuple[int, ...]

    def __post_init__(self) -> None:
        # Cards as numbers only (text goes through parse_player); normalised to a tuple of ints.
        if isinstance(self.hole, str) or isinstance(self.up, str) or not isinstance(self.up, Sequence) \
                or any(isinstance(c, str) for c in self.up):
            raise CardError("StudPlayer takes card numbers 0..51 (hole may be None); "
                            'use parse_player for text such as "Kh | 9c 4d"')
        hole = None if self.hole is None else parse_cards([self.hole], what="hole card")[0]
        object.__setattr__(self, "hole", hole)
        object.__setattr__(self, "up", parse_cards(self.up, what="up cards"))

    def __repr__(self) -> str:
        return display.stud_player_repr(self)


@dataclass(frozen=True, kw_only=True)
class StudPosition:
    """Everything visible: the players still in, in seat order, and the dead cards."""

    players: tuple[StudPlayer, ...]
    dead: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # Types and card numbers here; whether the position can occur is check_position's job.
        if isinstance(self.players, str) or not isinstance(self.players, Sequence) \
                or not all(isinstance(p, StudPlayer) for p in self.players):
            raise PositionError("StudPosition players must be a sequence of StudPlayer")
        object.__setattr__(self, "players", tuple(self.players))
        object.__setattr__(self, "dead", parse_cards(self.dead, what="dead cards"))

    def __repr__(self) -> str:
        return display.stud_position_repr(self)

    @property
    def street(self) -> int:
        """Up cards each player holds (1..4); 4 is the last street."""
        return len(self.players[0].up) if self.players else 0

    def known_cards(self) -> tuple[int, ...]:
        """Every card seen: holes, up cards, dead cards."""
        cards: list[int] = []
        for player in self.players:
            if player.hole is not None:
                cards.append(player.hole)
            cards.extend(player.up)
        cards.extend(self.dead)
        return tuple(cards)

    def unseen(self) -> np.ndarray:
        """The unseen deck, sorted card ids (int64)."""
        seen = set(self.known_cards())
        return np.array([c for c in range(52) if c not in seen], dtype=np.int64)


def parse_player(text: str, *, seat: int = 1) -> StudPlayer:
    """Read ``"Kh | 9c 4d"`` (hole card, then up cards); ``?`` for an unknown hole card."""
    if not isinstance(text, str):
        raise PositionError(f'player {seat} must be text such as "Kh | 9c 4d", got {type(text).__name__}')
    if text.count("|") != 1:
        raise PositionError(f'player {seat} "{text}" must be written "HOLE | UP CARDS", e.g. "Kh | 9c 4d"')
    hole_text, up_text = (part.strip() for part in text.split("|"))
    if hole_text == "?":
        hole = None
    else:
        holes = parse_cards(hole_text, what=f"player {seat}'s hole card")
        if len(holes) != 1:
            raise HandSizeError(f'player {seat} needs one hole card or "?", got "{hole_text}"')
        hole = holes[0]
    up = parse_cards(up_text, what=f"player {seat}'s up cards")
    return StudPlayer(hole=hole, up=up)


def parse_position(players: Sequence[str | StudPlayer], dead: str | Sequence[int] = "") -> StudPosition:
    """Build and check a position from player strings (or StudPlayer) and dead cards.

    >>> parse_position(["Kh | 9c 4d", "? | Qh 4c"], dead="2s")
    StudPosition(['Kh | 9c 4d', '? | Qh 4c'], dead='2s')
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise PositionError(f"players must be a list of players, got {type(players).__name__}")
    parsed = tuple(
        p if isinstance(p, StudPlayer) else parse_player(p, seat=i + 1) for i, p in enumerate(players)
    )
    dead_cards = parse_cards(dead, what="dead cards")
    position = StudPosition(players=parsed, dead=dead_cards)
    check_position(position)
    return position


def check_position(position: StudPosition) -> None:
    """Raise a specific ExactOddsError if the position cannot occur."""
    if not isinstance(position, StudPosition):
        raise PositionError(f"expected a StudPosition, got {type(position).__name__}")
    players = position.players
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise PositionError(f"five-card stud needs 2 to {MAX_PLAYERS} players still in, got {len(players)}")
    for seat, player in enumerate(players, 1):
        if not 1 <= len(player.up) <= UP_CARDS:
            raise HandSizeError(
                f"player {seat} has {len(player.up)} up cards; a player still in has 1 to {UP_CARDS}"
            )
        for card in ([] if player.hole is None else [player.hole]) + list(player.up):
            if not 0 <= card < 52:
                raise CardError(f"card number {card} is outside 0..51")
    counts = [len(p.up) for p in players]
    if len(set(counts)) != 1:
        listing = ", ".join(f"player {i} has {c}" for i, c in enumerate(counts, 1))
        raise StreetError(f"players still in must have the same number of up cards ({listing})")
    seen: dict[int, str] = {}
    for seat, player in enumerate(players, 1):
        where = f"player {seat}"
        for card in ([] if player.hole is None else [player.hole]) + list(player.up):
            _claim(seen, card, where)
    for card in position.dead:
        _claim(seen, card, "dead cards")
    needed = sum(cards_to_come(position))
    available = 52 - len(seen)
    if needed > available:
        raise PositionError(f"the deal needs {needed} more cards but only {available} are unseen")


def _claim(seen: dict[int, str], card: int, where: str) -> None:
    if card in seen:
        other = seen[card]
        place = where if other == where else f"{other} and {where}"
        raise DuplicateCardError(f"duplicate card {format_card(card)} in {place}")
    seen[card] = where


def cards_to_come(position: StudPosition) -> list[int]:
    """Number of unseen cards each player still receives (unknown hole + future up cards)."""
    return [(p.hole is None) + UP_CARDS - len(p.up) for p in position.players]
