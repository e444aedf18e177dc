"""Cards: the one integer encoding, parsing what people type, and formatting.

Encoding: ``card = 4 * rank + suit`` with

* rank 0..12 for 2, 3, ..., 10, J, Q, K, A (ace is 12);
* suit 0..3 for clubs, diamonds, hearts, spades (the suit order of the home five-card stud rules,
  lowest to highest).

So 0 is the 2 of clubs and 51 the ace of spades. Card sets are always handled as
sorted tuples or numpy arrays of these integers.

>>> parse_cards("As Kd 10h 9c 2s")
(51, 45, 34, 28, 3)
>>> format_cards(parse_cards("ASKD10H"))
'As Kd Th'
>>> format_cards(parse_cards("a♠ k♥"), pretty=True)
'A♠ K♥'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from exactodds.errors import CardError, DuplicateCardError, HandSizeError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight",
    "nine", "ten", "jack", "queen", "king", "ace",
)
RANK_PLURALS = (
    "twos", "threes", "fours", "fives", "sixes", "sevens", "eights",
    "nines", "tens", "jacks", "queens", "kings", "aces",
)
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
ACE = 12
KING = 11
DECK_SIZE = 52

_SUIT_FROM_CHAR = {c: i for i, c in enumerate(SUIT_CHARS)} | {
    s: i for i, s in enumerate(SUIT_SYMBOLS)
}
# One card token: rank (10 or one character) then suit (letter or symbol).
_TOKEN = re.compile(r"(10|[2-9tjqka])([cdhs♣♦♥♠\ufe0f]+)", re.IGNORECASE)


def make_card(rank: int, suit: int) -> int:
    """Return the card integer for a rank 0..12 (2..A) and a suit 0..3 (c, d, h, s)."""
    if not (isinstance(rank, (int, np.integer)) and isinstance(suit, (int, np.integer))
            and 0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(f"rank {rank} / suit {suit} out of range")
    return 4 * rank + suit


def rank_of(card: int) -> int:
    """Rank 0..12 of a card (0 is a two, 12 an ace)."""
    return card >> 2


def suit_of(card: int) -> int:
    """Suit 0..3 of a card (clubs, diamonds, hearts, spades)."""
    return card & 3


def parse_card(text: str) -> int:
    """Read one card such as ``"As"``, ``"10h"``, ``"td"`` or ``"Q♠"``.

    >>> parse_card("2c"), parse_card("A♠")
    (0, 51)
    """
    if not isinstance(text, str):
        raise CardError(f"expected a card as text, got {type(text).__name__}")
    cards = _parse_tokens(text)
    if len(cards) != 1:
        raise CardError(f'"{text.strip()}" is not one card')
    return cards[0]


def parse_cards(
    text: str | Iterable[str] | Iterable[int],
    *,
    count: int | None = None,
    what: str = "cards",
) -> tuple[int, ...]:
    """Read cards written with or without spaces or commas; return them in the order given.

    ``text`` may be a string, a list of strings, or already card integers.
    With ``count`` set, exactly that many cards are required. Duplicates are refused.

    >>> parse_cards("AsKd")
    (51, 45)
    >>> parse_cards("As As")
    Traceback (most recent call last):
    ...
    exactodds.errors.DuplicateCardError: duplicate card As in cards
    """
    if isinstance(text, str):
        cards = _parse_tokens(text)
    elif isinstance(text, Iterable):
        cards = []
        for item in text:
            if isinstance(item, str):
                cards.extend(_parse_tokens(item))
            else:
                cards.append(_check_int(item))
    else:
        raise CardError(f"{what}: expected cards as text or card numbers, got {type(text).__name__}")
    if count is not None and len(cards) != count:
        raise HandSizeError(f"{what} must have exactly {count} cards, got {len(cards)}")
    ensure_distinct(cards, what=what)
    return tuple(cards)


def ensure_distinct(cards: Sequence[int], *, what: str = "cards") -> None:
    """Raise DuplicateCardError naming the first card that appears twice."""
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(f"duplicate card {format_card(card)} in {what}")
        seen.add(card)


def format_card(card: int, *, pretty: bool = False) -> str:
    """Write a card as ``"As"`` (or ``"A♠"`` with ``pretty``)."""
    card = _check_int(card)
    suits = SUIT_SYMBOLS if pretty else SUIT_CHARS
    return RANK_CHARS[card >> 2] + suits[card & 3]


def format_cards(cards: Iterable[int], *, pretty: bool = False, sep: str = " ") -> str:
    """Write cards separated by spaces, in the order given.

    >>> format_cards([51, 45, 2]), format_cards(parse_cards("AsKd"), pretty=True)
    ('As Kd 2h', 'A♠ K♦')
    """
    return sep.join(format_card(int(c), pretty=pretty) for c in cards)


def full_deck() -> tuple[int, ...]:
    """All 52 cards in encoding order."""
    return tuple(range(DECK_SIZE))


def _check_int(card: object) -> int:
    # Only true integers: a float such as 1.5 must not silently become card 1.
    if isinstance(card, bool) or not isinstance(card, (int, np.integer)):
        raise CardError(f'unknown card "{card}"')
    value = int(card)
    if not 0 <= value < DECK_SIZE:
        raise CardError(f"card number {value} is outside 0..51")
    return value


def _parse_tokens(text: str) -> list[int]:
    compact = re.sub(r"[\s,;]+", "", text)
    cards: list[int] = []
    pos = 0
    while pos < len(compact):
        match = _TOKEN.match(compact, pos)
        if match is None:
            raise CardError(f'unknown card "{_bad_token(compact, pos)}"')
        rank_text, suit_text = match.group(1), match.group(2).replace("\ufe0f", "")
        if len(suit_text) != 1:
            raise CardError(f'unknown card "{match.group(0)}"')
        rank = 8 if rank_text == "10" else RANK_CHARS.index(rank_text.upper())
        cards.append(4 * rank + _SUIT_FROM_CHAR[suit_text.lower()])
        pos = match.end()
    return cards


def _bad_token(compact: str, pos: int) -> str:
    """The unreadable piece starting at pos, up to the next plausible card start."""
    end = pos + 1
    while end < len(compact) and end - pos < 3 and compact[end].lower() not in "23456789tjqka":
        end += 1
    if end < len(compact) and end - pos < 3 and compact[end].lower() in SUIT_CHARS:
        end += 1
    return compact[pos:end]
