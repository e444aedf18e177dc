"""What a seat reads from cards, for many deals at once (numpy rows): the class of its own cards,
its highest card, the order of the up cards that decides who acts first, and the open pair.

Each function takes an (n, k) int64 array of cards (0..51, rank ``c >> 2``, suit ``c & 3``), one hand
per row, and agrees with the one-hand functions of :mod:`exactodds.stud.engine.rules`
(``visible_key``, ``round_opener``, ``shows_open_pair``); tests check them on random hands.

>>> import numpy as np
>>> from exactodds.cards import parse_cards
>>> hands = np.array([parse_cards("Kh 9c 4d"), parse_cards("Qh Qs 7d")])
>>> own_class(hands).tolist(), top_rank(hands).tolist()
([0, 1], [11, 10])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from exactodds.handrank import CATEGORY_FLOOR, Category, evaluate_batch

_RANKS = np.arange(13)
_GROUPS = 4  # at most four rank groups among four up cards


def rank_counts(cards: np.ndarray) -> np.ndarray:
    """(n, 13) how many cards of each rank each row holds."""
    n = len(cards)
    slots = (np.arange(n, dtype=np.int64)[:, None] * 13 + (cards >> 2)).ravel()
    return np.bincount(slots, minlength=n * 13).reshape(n, 13)


def own_class(cards: np.ndarray) -> np.ndarray:
    """The :class:`Category` of each row's cards (int64): by rank groups below five cards, the
    hand's own category with five (straights and flushes included)."""
    if cards.shape[1] == 5:
        floors = np.array(CATEGORY_FLOOR, dtype=np.int64)
        out: np.ndarray = np.searchsorted(floors, evaluate_batch(cards).astype(np.int64), side="right") - 1
        return out
    counts = rank_counts(cards)
    most = counts.max(axis=1)
    pairs = (counts == 2).sum(axis=1)
    return np.select(
        [most >= 4, (most == 3) & (pairs >= 1), most == 3, pairs >= 2, pairs == 1],
        [Category.FOUR_OF_A_KIND, Category.FULL_HOUSE, Category.THREE_OF_A_KIND, Category.TWO_PAIR,
         Category.PAIR], default=Category.HIGH_CARD).astype(np.int64)


def paired(cards: np.ndarray) -> np.ndarray:
    """Whether each row holds two cards of a rank (a straight or flush does not count)."""
    out: np.ndarray = rank_counts(cards).max(axis=1) >= 2
    return out


def top_rank(cards: np.ndarray) -> np.ndarray:
    """The highest rank (0 = deuce .. 12 = ace) of each row."""
    out: np.ndarray = (cards >> 2).max(axis=1)
    return out


def visible_keys(up: np.ndarray) -> np.ndarray:
    """One int64 per row ordered as :func:`exactodds.stud.engine.rules.visible_key` orders up cards
    (quads > trips > two pair > pair > high cards, the groups' ranks, then the suit of the highest
    card)."""
    counts = rank_counts(up)
    most = counts.max(axis=1)
    pairs = (counts == 2).sum(axis=1)
    category = np.select([most == 4, most == 3, pairs >= 2, pairs == 1], [4, 3, 2, 1], default=0)
    score = np.where(counts > 0, counts * 16 + _RANKS, -1)  # groups by (count, rank), highest first
    ordered = -np.sort(-score, axis=1)[:, :_GROUPS]
    key = category.astype(np.int64)
    for j in range(_GROUPS):
        key = key * 14 + np.where(ordered[:, j] >= 0, ordered[:, j] % 16 + 1, 0)
    ranks = up >> 2
    top = ranks.max(axis=1)
    top_suit = np.where(ranks == top[:, None], up & 3, -1).max(axis=1)
    out: np.ndarray = key * 4 + top_suit
    return out


def openers(ups: Mapping[int, np.ndarray], live: Sequence[int], *, round_index: int) -> np.ndarray:
    """Who opens the round in each row (``ups[p]``: player p's up cards, one row per deal): on the
    first round the lowest first up card brings in, later the strongest up cards act first."""
    live = list(live)
    if round_index == 0:
        first = np.stack([ups[p][:, 0] for p in live], axis=1)
        low = (first >> 2) * 4 + (first & 3)
        lowest: np.ndarray = np.array(live, dtype=np.int64)[low.argmin(axis=1)]
        return lowest
    keys = np.stack([visible_keys(ups[p]) for p in live], axis=1)
    strongest: np.ndarray = np.array(live, dtype=np.int64)[keys.argmax(axis=1)]
    return strongest


def open_pairs(ups: Mapping[int, np.ndarray], live: Sequence[int], *, round_index: int) -> np.ndarray:
    """Whether a live player's up cards show a pair on the second round, in each row."""
    rows = len(ups[live[0]])
    if round_index != 1:
        return np.zeros(rows, dtype=bool)
    out = np.zeros(rows, dtype=bool)
    for p in live:
        out |= (ups[p][:, 0] >> 2) == (ups[p][:, 1] >> 2)
    return out


def shown_high(ups: Mapping[int, np.ndarray], others: Sequence[int], rows: int) -> np.ndarray:
    """The highest up-card rank among ``others`` in each row (-1 when there are none)."""
    if not others:
        return np.full(rows, -1, dtype=np.int64)
    out: np.ndarray = np.stack([top_rank(ups[p]) for p in others], axis=1).max(axis=1)
    return out
