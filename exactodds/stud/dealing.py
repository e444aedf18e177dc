"""Dealing five-card stud: a seeded shuffled deck, and the order of the up cards that decides who
opens a round (:func:`visible_key`); :class:`TableSetupError` for a hand that cannot start."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from exactodds.cards import DECK_SIZE, rank_of, suit_of
from exactodds.errors import ExactOddsError


class TableSetupError(ExactOddsError):
    """A hand that cannot start: wrong number of players or a non-positive stack."""


def visible_key(up: Sequence[int]) -> tuple[int, tuple[int, ...], int]:
    """Order of the up cards for who acts first: quads > trips > two pair > pair > high cards.

    Straights and flushes do not count; a tie is broken by the suit of the highest card.

    >>> from exactodds.cards import parse_cards
    >>> visible_key(parse_cards("Kh 9c 4d")) > visible_key(parse_cards("Qh Js 7d"))
    True
    >>> visible_key(parse_cards("8s 8d")) > visible_key(parse_cards("8h 8c"))
    True
    >>> visible_key(parse_cards("3c 3d As")) > visible_key(parse_cards("3h 3s Ah"))
    True
    """
    counts = Counter(rank_of(c) for c in up)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    category = {4: 4, 3: 3}.get(shape[0], 0)
    if shape[0] == 2:
        category = 2 if shape.count(2) == 2 else 1
    top_rank = max(counts)  # the highest card itself, not the leading group
    top_suit = max(suit_of(c) for c in up if rank_of(c) == top_rank)
    return category, tuple(r for r, _ in groups), top_suit


def shuffled_deck(seed: int | None) -> list[int]:
    """The 52 cards shuffled by a seeded generator (the same seed gives the same deck).

    ``seed`` is a whole number >= 0 (random.Random would silently treat -5 as 5), or None.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise TableSetupError(f"the seed must be a whole number >= 0, got {seed!r}")
    deck = list(range(DECK_SIZE))
    random.Random(seed).shuffle(deck)
    return deck


def round_opener(up: Sequence[Sequence[int]], live: Sequence[int], *, round_index: int) -> int:
    """Who opens a betting round: on the first round the lowest up card (suit breaking ties) brings
    in; later the strongest up cards by :func:`visible_key` act first."""
    if round_index == 0:
        return min(live, key=lambda i: (rank_of(up[i][0]), suit_of(up[i][0])))
    return max(live, key=lambda i: visible_key(up[i]))


def shows_open_pair(up: Sequence[Sequence[int]], live: Sequence[int], *, round_index: int) -> bool:
    """Whether a visible pair of a player still in allows the big bet this round (second round only)."""
    return round_index == 1 and any(len({rank_of(c) for c in up[i]}) < len(up[i]) for i in live)
