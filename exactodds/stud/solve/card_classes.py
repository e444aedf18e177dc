"""Classes of strategically identical unseen cards: the lossless reduction that makes the solve small.

Two unseen cards a and b are interchangeable when swapping them everywhere (as a hole card, as an up
card still to be dealt to either player) changes nothing the game depends on: every showdown strength
of either player, who acts first on each round still to come, and both players' range weights. Such a
swap is an automorphism of the game, and so is any product of them; the cards joined by interchangeable pairs
form the classes, and every permutation within the classes is an automorphism.

A zero-sum game that is invariant under a group of automorphisms has an equilibrium that is invariant
too (average any equilibrium over the group), so the solve may give every card of a class the same
strategy and work on classes instead of cards: a hole card becomes its class (N cards, m classes),
a deal of the last up cards becomes a pair of classes, and the card counts of the classes carry the
card removal exactly. Nothing is approximated: the equilibrium found is an equilibrium of the full
game, and its exploitability is the full game's.

When no flush can be made by either player, suits never matter and the classes are the ranks (13
instead of about 46 cards, 169 deals instead of about 1,980). A flush draw keeps its suit's cards
apart, and so on.

>>> from exactodds.cards import parse_cards
>>> up = (tuple(parse_cards("Kd 9c 4d 2s")), tuple(parse_cards("Qc Js 7d 7h")))
>>> classes = card_classes(up=up, dead=(), weights=None)
>>> len(classes.unseen), len(classes.size)
(44, 13)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.cards import format_card, format_cards
from exactodds.handrank import evaluate_batch
from exactodds.stud.engine.rules import round_opener, visible_key


@dataclass(frozen=True, kw_only=True)
class CardClasses:
    """The unseen cards (``unseen``, N sorted card numbers), the class of each (``of``, N class
    indices, classes numbered by their lowest card), each class's number of cards (``size``, m) and
    its cards (``members``)."""

    unseen: np.ndarray
    of: np.ndarray
    size: np.ndarray
    members: tuple[tuple[int, ...], ...]

    @property
    def count(self) -> int:
        """m, the number of classes."""
        return int(self.size.shape[0])

    def class_of(self, card: int) -> int:
        """The class of an unseen card; ValueError for a seen card."""
        hits = np.nonzero(self.unseen == card)[0]
        if not len(hits):
            raise ValueError(f"{format_card(card)} is not an unseen card")
        return int(self.of[hits[0]])

    def describe(self) -> str:
        """The classes of more than one card, as text (``"Ah Ad | 9c 9h"``), or ``"none"``."""
        shared = [format_cards(m) for m in self.members if len(m) > 1]
        return " | ".join(shared) if shared else "none"


def singletons(unseen: np.ndarray) -> CardClasses:
    """Every card its own class: no reduction (the card-level game, the reference)."""
    n = len(unseen)
    return CardClasses(unseen=unseen, of=np.arange(n, dtype=np.int64), size=np.ones(n, dtype=np.int64),
                       members=tuple((int(c),) for c in unseen))


def unseen_cards(up: Sequence[Sequence[int]], dead: Sequence[int]) -> np.ndarray:
    """The cards no one has seen (sorted int64): every hole card and every card to come is one of them."""
    seen = {c for cards in up for c in cards} | set(dead)
    return np.array([c for c in range(52) if c not in seen], dtype=np.int64)


def card_classes(*, up: Sequence[Sequence[int]], dead: Sequence[int],
                 weights: Sequence[np.ndarray] | None) -> CardClasses:
    """The classes of interchangeable unseen cards of a heads-up position with 2, 3 or 4 up cards each
    (``weights``: both players' range weights over :func:`unseen_cards`, and any further per-card
    labels that must be equal within a class; None for uniform ranges)."""
    unseen = unseen_cards(up, dead)
    n = len(unseen)
    tables = _invariants(up, unseen)
    signals = [np.asarray(w, dtype=np.float64) for w in weights] if weights is not None else []
    parent = list(range(n))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for a in range(n):
        for b in range(a + 1, n):
            if root(a) == root(b) or any(w[a] != w[b] for w in signals):
                continue
            if all(_invariant(t, a, b) for t in tables):  # the cheap tables first
                parent[root(b)] = root(a)
    roots = [root(i) for i in range(n)]
    first = {r: i for i, r in reversed(list(enumerate(roots)))}  # a class numbered by its lowest card
    numbers = {r: k for k, r in enumerate(sorted(set(roots), key=lambda r: first[r]))}
    of = np.array([numbers[r] for r in roots], dtype=np.int64)
    size = np.bincount(of, minlength=len(numbers)).astype(np.int64)
    members = tuple(tuple(int(unseen[i]) for i in np.nonzero(of == k)[0]) for k in range(len(numbers)))
    return CardClasses(unseen=unseen, of=of, size=size, members=members)


def _invariant(table: np.ndarray, a: int, b: int) -> bool:
    """Whether relabelling the cards by the swap of ``a`` and ``b`` on every axis leaves ``table``
    unchanged: only the entries with an index in {a, b} can change, so each axis's slab of those two
    indices is compared with its swapped image."""
    n = table.shape[0]
    swap = np.arange(n)
    swap[a], swap[b] = b, a
    for axis in range(table.ndim):
        index = [swap] * table.ndim
        index[axis] = np.array([b, a])
        if not np.array_equal(table[np.ix_(*index)], np.take(table, [a, b], axis=axis)):
            return False
    return True


def _invariants(up: Sequence[Sequence[int]], unseen: np.ndarray) -> list[np.ndarray]:
    """The tables a swap of two unseen cards must leave unchanged: each player's strength by hole card
    and up cards to come; who opens each round to come by the up cards dealt for it (seat 0's and
    seat 1's, seat 0's pair then seat 1's before the last round of a second-round solve)."""
    n = len(unseen)
    to_come = 4 - len(up[0])
    out = [_strength_table(unseen, up[p], to_come) for p in range(2)]
    if to_come >= 1:
        out.append(_opener_table(up, unseen, dealt=1))
    if to_come == 2:
        out.append(_opener_table(up, unseen, dealt=2))
    assert all(t.shape[0] == n for t in out)
    return out


def _strength_table(unseen: np.ndarray, up: Sequence[int], to_come: int) -> np.ndarray:
    """A player's strength by (hole card, up cards to come), -1 where two of them are one card."""
    n = len(unseen)
    axes = np.meshgrid(*[np.arange(n)] * (1 + to_come), indexing="ij")
    flat = [a.ravel() for a in axes]
    clash = np.zeros(flat[0].shape, dtype=bool)
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            clash |= flat[i] == flat[j]
    fixed = np.tile(np.array(up, dtype=np.int64), (len(flat[0]), 1))
    cards = np.column_stack([unseen[f] for f in flat] + [fixed])
    return _evaluate_rows(cards, clash).reshape((n,) * (1 + to_come))


def _opener_table(up: Sequence[Sequence[int]], unseen: np.ndarray, *, dealt: int) -> np.ndarray:
    """Whether seat 0 opens the round after ``dealt`` more up cards each: by (seat 0's card, seat 1's)
    for one card, by (seat 0's two, seat 1's two) for two (visible keys compared as ranked codes)."""
    round_index = len(up[0]) - 1 + dealt
    if dealt == 1:
        return np.array([[round_opener(([*up[0], int(a)], [*up[1], int(b)]), (0, 1), round_index=round_index)
                          == 0 for b in unseen] for a in unseen])
    codes = visible_codes(up, unseen)
    return codes[0][:, :, None, None] > codes[1][None, None, :, :]


def visible_codes(up: Sequence[Sequence[int]], unseen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each player's visible up cards after two more (n x n, by the two cards in dealing order), as
    integer codes ordered as :func:`~exactodds.stud.engine.rules.visible_key` orders the hands: the
    higher code opens the round (the two players' codes are never equal; -1 where both cards are one)."""
    n = len(unseen)
    keys = [{(i, j): visible_key([*up[p], int(unseen[i]), int(unseen[j])]) for i in range(n) for j in range(n)
             if i != j} for p in range(2)]
    ranked = {key: code for code, key in enumerate(sorted(set(keys[0].values()) | set(keys[1].values())))}
    out = []
    for p in range(2):
        table = np.full((n, n), -1, dtype=np.int64)
        for (i, j), key in keys[p].items():
            table[i, j] = ranked[key]
        out.append(table)
    return out[0], out[1]


def _evaluate_rows(hands: np.ndarray, clash: np.ndarray) -> np.ndarray:
    """Strengths of the rows of ``hands``; rows flagged in ``clash`` (not a hand) get -1."""
    out = np.full(len(hands), -1, dtype=np.int64)
    ok = ~clash
    out[ok] = evaluate_batch(hands[ok]).astype(np.int64)
    return out
