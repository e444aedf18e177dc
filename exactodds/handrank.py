"""The hand-rank table: the strength of every 5-card hand, indexed by its colex index.

A **strength** is an integer in 0..7461 and **higher is stronger**: 0 is 7-5-4-3-2
with mixed suits, 7461 a royal flush. Two hands have the same strength exactly when
they tie (suits never break ties). Rules: ace high, or low only in A-2-3-4-5 (the
lowest straight); no wrap-around (K-A-2-3-4 is not a straight).

The table has C(52,5) = 2,598,960 uint16 entries. It is built with numpy in about a
second, cached on disk (see :mod:`exactodds.cache`), and checked against a pinned
SHA-256 on every load; a corrupt cache is rebuilt with a warning.

>>> evaluate("As Ks Qs Js Ts")
7461
>>> describe("Kh Kd 7s 7c Qd")
'two pair, kings and sevens, queen kicker'
>>> compare("Ah 2c 3d 4s 5h", "6h 2c 3d 4s 5h")
-1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import lru_cache

import numpy as np

from exactodds.cache import array_digest, cached_array
from exactodds.cards import RANK_NAMES, RANK_PLURALS, parse_cards
from exactodds.combinatorics import N_HANDS, all_subsets_colex, colex_index, colex_index_batch

N_STRENGTHS = 7462
TABLE_FILE = "handrank-v1.npy"
# SHA-256 of the table's little-endian uint16 bytes: pins the order of all 2,598,960 hands.
TABLE_SHA256 = "c266188bf74c1a996a0415392a9a3293dbed9444185fca638f995c28b80fca59"


class Category(IntEnum):
    """Hand categories, weakest to strongest (royal flush is the top straight flush)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        """English name, e.g. "three of a kind"."""
        return CATEGORY_NAMES[self]


CATEGORY_NAMES = (
    "high card", "pair", "two pair", "three of a kind", "straight",
    "flush", "full house", "four of a kind", "straight flush",
)
# Distinct strengths per category (Category order); they sum to 7462.
DISTINCT_PER_CATEGORY = (1277, 2860, 858, 858, 10, 1277, 156, 156, 10)
# CATEGORY_FLOOR[c] = weakest strength of category c.
CATEGORY_FLOOR = tuple(int(x) for x in np.concatenate([[0], np.cumsum(DISTINCT_PER_CATEGORY)[:-1]]))
ROYAL_FLUSH_STRENGTH = N_STRENGTHS - 1

_DIGIT_BASE = 13
_CATEGORY_WEIGHT = _DIGIT_BASE**5


# --------------------------------------------------------------------------- build
def hand_keys(hands: np.ndarray) -> np.ndarray:
    """Order keys (int64) for an (n, 5) array of cards: equal keys tie, larger is stronger.

    ``key = category * 13**5 + d0*13**4 + ... + d4`` where d0..d4 are the ranks
    ordered by (multiplicity, rank) descending; a straight's digits run down from its
    top card (the wheel's top card is the five).
    """
    hands = np.asarray(hands, dtype=np.int16)
    n = hands.shape[0]
    ranks = hands >> 2
    suits = hands & 3
    # Multiplicity of each card's rank within its hand (5x5 comparisons, small dtypes).
    multiplicity = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2, dtype=np.int16)
    # Sort cards by (multiplicity, rank), descending: groups first, high first.
    score = np.sort(multiplicity * 16 + ranks, axis=1)[:, ::-1]
    digits = (score & 15).astype(np.int64)
    multiplicity = score >> 4

    flush = np.all(suits == suits[:, :1], axis=1)
    no_pair = multiplicity[:, 0] == 1
    wheel = no_pair & (digits[:, 0] == 12) & (digits[:, 1] == 3)
    straight = no_pair & ((digits[:, 0] - digits[:, 4] == 4) | wheel)

    category = np.full(n, Category.HIGH_CARD, dtype=np.int64)
    category[multiplicity[:, 0] == 2] = Category.PAIR
    category[(multiplicity[:, 0] == 2) & (multiplicity[:, 2] == 2)] = Category.TWO_PAIR
    category[multiplicity[:, 0] == 3] = Category.THREE_OF_A_KIND
    category[straight] = Category.STRAIGHT
    category[flush] = Category.FLUSH
    category[(multiplicity[:, 0] == 3) & (multiplicity[:, 3] == 2)] = Category.FULL_HOUSE
    category[multiplicity[:, 0] == 4] = Category.FOUR_OF_A_KIND
    category[straight & flush] = Category.STRAIGHT_FLUSH

    # The wheel is five-high: its digits become 3, 2, 1, 0, 12.
    digits = np.where(wheel[:, None], np.array([3, 2, 1, 0, 12]), digits)
    key = category * _CATEGORY_WEIGHT
    for j in range(5):
        key += digits[:, j] * _DIGIT_BASE ** (4 - j)
    return key


def build_table() -> np.ndarray:
    """Build the 2,598,960-entry strength table (uint16, higher = stronger) from scratch."""
    hands = all_subsets_colex(52, 5)
    block = 1 << 18  # hands per call: hand_keys' temporaries stay near 50 MB, not 400
    keys = np.concatenate([hand_keys(hands[i:i + block]) for i in range(0, N_HANDS, block)])
    # A hand's strength is the rank of its key among the distinct keys: keys are below
    # 9 x 13**5, so a table of the keys present, summed up, ranks them without a sort.
    present = np.zeros(len(Category) * _CATEGORY_WEIGHT, dtype=np.int32)
    present[keys] = 1
    strength_of_key = np.cumsum(present, dtype=np.int32) - 1
    table: np.ndarray = strength_of_key[keys].astype(np.uint16)
    return table


def table_digest(table: np.ndarray) -> str:
    """SHA-256 hex digest of a table's little-endian uint16 bytes."""
    return array_digest(np.asarray(table, dtype="<u2"))


# --------------------------------------------------------------------------- cache
@lru_cache(maxsize=1)
def rank_table() -> np.ndarray:
    """The strength table (read-only uint16 array of 2,598,960 entries, higher = stronger).

    Loaded from the cache when it is intact, else built, checked against the pinned
    digest and cached (see :func:`exactodds.cache.cached_array`).
    """
    return cached_array(TABLE_FILE, build=build_table, sha256=TABLE_SHA256, what="hand-rank table")


# --------------------------------------------------------------------------- lookups
def _hand(cards: str | Iterable[int] | Iterable[str]) -> tuple[int, ...]:
    return parse_cards(cards, count=5, what="a poker hand")


def evaluate(cards: str | Iterable[int] | Iterable[str]) -> int:
    """Strength 0..7461 of one 5-card hand (higher = stronger).

    >>> evaluate("7h 5d 4c 3s 2h"), evaluate("5c 4d 3h 2s Ac")
    (0, 5853)
    """
    return int(rank_table()[colex_index(_hand(cards))])


def evaluate_batch(hands: np.ndarray) -> np.ndarray:
    """Strengths (uint16, higher = stronger) of many hands.

    ``hands`` is either an (n, 5) array of card integers, rows in any order, or an
    (n,) array of colex indices.
    """
    hands = np.asarray(hands)
    if hands.ndim == 1:
        index = hands
    elif hands.ndim != 2 or hands.shape[1] != 5:
        raise ValueError(f"expected an (n, 5) card array or (n,) colex indices, got {hands.shape}")
    else:
        index = colex_index_batch(hands)
    strengths: np.ndarray = rank_table()[index]  # fancy indexing: an array, typed Any by numpy
    return strengths


def compare(first: str | Sequence[int], second: str | Sequence[int]) -> int:
    """1 if the first hand is stronger, -1 if the second is, 0 for a tie.

    The two hands are judged independently; they may share cards. Cards are text or
    card integers.

    >>> compare("Ah Ad 2c 3d 4s", "Kh Kd Ac 3d 4s")
    1
    >>> compare("Ah 2c 3d 4s 5h", "6h 2c 3d 4s 5h")
    -1
    """
    a, b = evaluate(first), evaluate(second)
    return (a > b) - (a < b)


def category_of(strength: int) -> Category:
    """Category of a strength (royal flush is Category.STRAIGHT_FLUSH)."""
    _check_strength(strength)
    return Category(int(np.searchsorted(CATEGORY_FLOOR, strength, side="right")) - 1)


def category_name(strength: int) -> str:
    """Category name of a strength, with royal flush apart, e.g. "royal flush", "pair".

    >>> category_name(evaluate("Kh Kd 7s 7c Qd")), category_name(7461)
    ('two pair', 'royal flush')
    """
    if strength == ROYAL_FLUSH_STRENGTH:
        return "royal flush"
    return category_of(strength).label


@lru_cache(maxsize=1)
def _representatives() -> np.ndarray:
    """rep[s] = colex index of one hand of strength s."""
    rep = np.empty(N_STRENGTHS, dtype=np.int64)
    rep[rank_table()] = np.arange(N_HANDS)
    return rep


def strength_digits(strength: int) -> tuple[Category, tuple[int, ...]]:
    """The category and ordered ranks (0..12) behind a strength, as used for ties."""
    _check_strength(strength)
    hand = _rep_cards(strength)
    key = int(hand_keys(np.array([hand]))[0])
    category, rest = divmod(key, _CATEGORY_WEIGHT)
    digits = tuple((rest // _DIGIT_BASE ** (4 - j)) % _DIGIT_BASE for j in range(5))
    return Category(category), digits


def _rep_cards(strength: int) -> tuple[int, ...]:
    return cards_of_index(int(_representatives()[strength]))


def cards_of_index(index: int, k: int = 5) -> tuple[int, ...]:
    """The sorted cards of the k-subset with the given colex index."""
    from math import comb

    cards = []
    for i in range(k, 0, -1):
        c = i - 1
        while comb(c + 1, i) <= index:
            c += 1
        cards.append(c)
        index -= comb(c, i)
    return tuple(sorted(cards))


def describe(hand_or_strength: int | str | Iterable[int] | Iterable[str]) -> str:
    """English description of a hand (or of a strength 0..7461).

    >>> describe("Ad Kc 9h 4s 3s")
    'ace high, king-nine-four-three'
    >>> describe(7461)
    'royal flush'
    """
    if isinstance(hand_or_strength, (int, np.integer)):
        strength = int(hand_or_strength)
    else:
        strength = evaluate(hand_or_strength)
    category, d = strength_digits(strength)
    name = RANK_NAMES
    plural = RANK_PLURALS
    match category:
        case Category.STRAIGHT_FLUSH:
            return "royal flush" if d[0] == 12 else f"straight flush, {name[d[0]]} high"
        case Category.FOUR_OF_A_KIND:
            return f"four {plural[d[0]]}, {name[d[4]]} kicker"
        case Category.FULL_HOUSE:
            return f"full house, {plural[d[0]]} full of {plural[d[3]]}"
        case Category.FLUSH:
            return f"flush, {'-'.join(name[x] for x in d)}"
        case Category.STRAIGHT:
            return f"straight, {name[d[0]]} high"
        case Category.THREE_OF_A_KIND:
            return f"three {plural[d[0]]}, {name[d[3]]}-{name[d[4]]} kickers"
        case Category.TWO_PAIR:
            return f"two pair, {plural[d[0]]} and {plural[d[2]]}, {name[d[4]]} kicker"
        case Category.PAIR:
            return f"pair of {plural[d[0]]}, {'-'.join(name[x] for x in d[2:])} kickers"
        case _:
            return f"{name[d[0]]} high, {'-'.join(name[x] for x in d[1:])}"


def _check_strength(strength: int) -> None:
    if not 0 <= strength < N_STRENGTHS:
        raise ValueError(f"strength {strength} is outside 0..{N_STRENGTHS - 1}")
