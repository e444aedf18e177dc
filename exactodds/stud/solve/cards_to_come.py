"""The cards behind the solve: the unseen cards a hole card can be, the deals of the last up cards
(chance outcomes, grouped by who acts first after them) and each hand's showdown strength.

Strengths are the exact integers of the hand-strength table (:mod:`exactodds.handrank`), higher is
stronger. A *context* holds, for a batch of K chance outcomes (K = 1 on the last round), each player's
strength with each possible hole card (K x N arrays) and which hole cards the outcome leaves possible.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.handrank import evaluate_batch
from exactodds.stud.dealing import visible_key


@dataclass(frozen=True, kw_only=True)
class Context:
    """K chance outcomes: ``dealt`` (K x 2 last up cards, seat order; empty on the last round),
    ``mask`` (K x N, 1.0 where hole card n is still possible), ``strength[p]`` (K x N)."""

    dealt: np.ndarray
    mask: np.ndarray
    strength: tuple[np.ndarray, np.ndarray]

    @property
    def size(self) -> int:
        """K, the number of chance outcomes in the batch."""
        return int(self.mask.shape[0])


def unseen_cards(up: Sequence[Sequence[int]], dead: Sequence[int]) -> np.ndarray:
    """The cards no one has seen (sorted int64): every hole card and every card to come is one of them."""
    seen = {c for cards in up for c in cards} | set(dead)
    return np.array([c for c in range(52) if c not in seen], dtype=np.int64)


def _strengths(unseen: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """K x N strengths of hole card n with the K rows of ``fixed`` four cards (a duplicate card gives 0)."""
    k, n = fixed.shape[0], unseen.shape[0]
    hands = np.empty((k, n, 5), dtype=np.int64)
    hands[:, :, 0] = unseen[None, :]
    hands[:, :, 1:] = fixed[:, None, :]
    clash = (fixed[:, None, :] == unseen[None, :, None]).any(axis=2)
    safe = np.where(clash[:, :, None], np.array([0, 1, 2, 3, 4])[None, None, :], hands)
    out = evaluate_batch(safe.reshape(-1, 5)).astype(np.int32).reshape(k, n)
    return np.where(clash, 0, out)


def last_round_context(up: Sequence[Sequence[int]], unseen: np.ndarray) -> Context:
    """The single context of a last-round solve."""
    strengths = tuple(_strengths(unseen, np.array([list(up[p])], dtype=np.int64)) for p in range(2))
    return Context(dealt=np.zeros((1, 0), dtype=np.int64), mask=np.ones((1, len(unseen))),
                   strength=(strengths[0], strengths[1]))


def third_round_contexts(up: Sequence[Sequence[int]], unseen: np.ndarray) -> tuple[Context, Context, Context]:
    """The root context and one context per opener of the last round (seat 0, seat 1), from the third
    round: every ordered pair of distinct unseen cards as the players' last up cards."""
    first, second = np.meshgrid(unseen, unseen, indexing="ij")
    pairs = np.stack([first.ravel(), second.ravel()], axis=1)
    pairs = pairs[pairs[:, 0] != pairs[:, 1]]
    opener = np.array([0 if visible_key([*up[0], int(a)]) > visible_key([*up[1], int(b)]) else 1
                       for a, b in pairs], dtype=np.int64)
    root = Context(dealt=np.zeros((1, 0), dtype=np.int64), mask=np.ones((1, len(unseen))),
                   strength=(np.zeros((1, len(unseen)), dtype=np.int32),) * 2)
    groups = []
    for seat in range(2):
        dealt = pairs[opener == seat]
        mask = ((unseen[None, :] != dealt[:, :1]) & (unseen[None, :] != dealt[:, 1:])).astype(np.float64)
        strength = tuple(
            _strengths(unseen, np.concatenate([np.tile(np.array(up[p], dtype=np.int64), (len(dealt), 1)),
                                               dealt[:, p:p + 1]], axis=1)) for p in range(2))
        groups.append(Context(dealt=dealt, mask=mask, strength=(strength[0], strength[1])))
    return root, groups[0], groups[1]


def representative(context: Context) -> tuple[int, int] | None:
    """One deal of the context (seat order), or None when it holds none."""
    if context.size == 0:
        return None
    return int(context.dealt[0, 0]), int(context.dealt[0, 1])
