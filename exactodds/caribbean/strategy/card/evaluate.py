"""A card's exact cost against optimal play, as a mask over cells of situations that look alike.

The whole-game count gives, for each of the 6,319,573 (player hand class, up card) situations,
EV(raise) as an integer (:class:`~exactodds.caribbean.analysis.game.SituationOutcomes`). A
card's rules read only the :class:`~exactodds.caribbean.strategy.card.grammar.Features` of a situation
(category, ranks by position, up card rank, cards in the up card's suit), so situations with
the same features always get the same decision: they are summed into one *cell*. For each cell,
``gain`` is the exact sum over its situations of hands x (EV(raise) - EV(fold)) x completions x
scale, an int64; a card raising the cells of a mask earns ``gain[mask].sum()``, and its cost
against optimal play is ``optimal_gain - gain[mask].sum()`` (over ``scale``: units over all
19,933,230,517,200 deals; 0 is optimal, lower is better).

Headroom: every |gain| term is at most 24 hands x 163,185 completions x scale x the largest
|net|, and all of them together at most 122,151,120 situations' worth; that bound is checked
against int64 when the cells are built (:class:`CardSearchError` beyond).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from exactodds.caribbean.analysis.game import SituationOutcomes
from exactodds.caribbean.decision.settle import DEALER_COMPLETIONS
from exactodds.caribbean.profile import Profile
from exactodds.caribbean.strategy.card.grammar import BELOW_AK, NEVER, Card, Features
from exactodds.errors import ExactOddsError

INT64_MAX = 2**63 - 1
HAND_SITUATIONS = 2_598_960 * 47  # every (hand, up card) pair, the weights summed


class CardSearchError(ExactOddsError):
    """A strategy card cannot be searched or evaluated as asked (the value and what is expected)."""


class _ClassFeatures(NamedTuple):
    """Per hand class, int64: the category (classes,), ranks by position (classes, 5) and cards of
    each suit (classes, 4); a situation's features are its class's with the up card's rank and suit."""

    category: np.ndarray
    ranks: np.ndarray
    suits: np.ndarray

    @classmethod
    def of(cls, outcomes: SituationOutcomes) -> _ClassFeatures:
        players = outcomes.counts.players
        ranks = (players >> 2)[:, ::-1]  # the representatives' cards are sorted ascending
        suits = np.stack([((players & 3) == suit).sum(axis=1) for suit in range(4)], axis=1)
        return cls(category=outcomes.pay_index.astype(np.int64),
                   ranks=np.ascontiguousarray(ranks, dtype=np.int64), suits=suits.astype(np.int64))

    def situations(self, rows: np.ndarray, ups: np.ndarray) -> Features:
        """The Features of the situations (class row, up card)."""
        return Features(category=self.category[rows], ranks=self.ranks[rows], up=(ups >> 2).astype(np.int64),
                        suited=self.suits[rows, ups & 3])

    def keys(self, rows: np.ndarray, ups: np.ndarray) -> np.ndarray:
        """One int64 per situation packing its features (category first, so keys sort by category)."""
        key = self.category + 1
        for i in range(5):
            key = (key << 4) | self.ranks[:, i]
        packed: np.ndarray = (((key[rows] << 4) | (ups >> 2)) << 3) | self.suits[rows, ups & 3]
        return packed


def situation_features(outcomes: SituationOutcomes) -> tuple[np.ndarray, np.ndarray, Features]:
    """(class rows, up cards, their Features) of every valid situation of ``outcomes``."""
    rows, ups = np.nonzero(outcomes.counts.valid)
    return rows, ups, _ClassFeatures.of(outcomes).situations(rows, ups)


def situation_gain(outcomes: SituationOutcomes, rows: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """hands x (EV(raise) - EV(fold)) x completions x scale of each situation (int64, exact)."""
    d = outcomes.ev_raise_scaled[rows, ups] + DEALER_COMPLETIONS * outcomes.scale
    bound = int(np.abs(d).max()) * HAND_SITUATIONS
    if bound > INT64_MAX:
        raise CardSearchError(f"paytable {outcomes.profile.name}: its amounts' common denominator "
                              f"({outcomes.scale}) is too large for exact int64 card sums "
                              f"(bound {bound:,}); expected amounts with a smaller denominator")
    gain: np.ndarray = outcomes.counts.weights[rows].astype(np.int64) * d
    return gain


@dataclass(frozen=True, kw_only=True)
class Cells:
    """Situations with equal features summed: the unit a card decides (see the module docstring).

    Cells are sorted by category; ``category_start[c + 1]:category_start[c + 2]`` are the cells of
    category c (c = -1 below A-K high .. 9 royal flush).
    """

    profile: Profile
    features: Features
    gain: np.ndarray          # (cells,) int64
    optimal: np.ndarray       # (cells,) int64: the optimal strategy's sum (raise where the situation gains)
    scale: int
    category_start: np.ndarray

    @property
    def optimal_gain(self) -> int:
        """The optimal strategy's gain over every cell."""
        return int(self.optimal.sum())

    def cost_scaled(self, raised: np.ndarray) -> int:
        """Exact cost x scale of raising exactly the cells of the bool mask ``raised`` (>= 0)."""
        return self.optimal_gain - int(self.gain[raised].sum())

    def cost(self, card: Card) -> Fraction:
        """The card's exact cost against optimal play in units over all deals (0 best)."""
        return Fraction(self.cost_scaled(card.decide(self.features)), self.scale)

    def category_slice(self, lowest: int, highest: int) -> slice:
        """The cells of categories lowest..highest."""
        return slice(int(self.category_start[lowest - BELOW_AK]),
                     int(self.category_start[highest - BELOW_AK + 1]))

    def __len__(self) -> int:
        return len(self.gain)

    def restricted(self, lowest: int, highest: int) -> Cells:
        """Only the cells of categories lowest..highest (a smaller problem: costs count those cells)."""
        s = self.category_slice(lowest, highest)
        f = self.features
        features = Features(category=f.category[s], ranks=f.ranks[s], up=f.up[s], suited=f.suited[s])
        start = np.clip(self.category_start - s.start, 0, s.stop - s.start)
        return Cells(profile=self.profile, features=features, gain=self.gain[s], optimal=self.optimal[s],
                     scale=self.scale, category_start=start)


def build_cells(outcomes: SituationOutcomes) -> Cells:
    """The cells of a profile's situations (a second or two: one sort of 6.3 million keys)."""
    rows, ups = np.nonzero(outcomes.counts.valid)
    classes = _ClassFeatures.of(outcomes)
    gain = situation_gain(outcomes, rows, ups)
    key = classes.keys(rows, ups)
    order = np.argsort(key, kind="stable")
    key = key[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    first = order[starts]
    features = classes.situations(rows[first], ups[first])
    cell_gain = np.add.reduceat(gain[order], starts)
    # a tie folds, as optimal_raise does
    optimal = np.add.reduceat(np.where(gain > 0, gain, 0)[order], starts)
    category_start = np.searchsorted(features.category, np.arange(BELOW_AK, NEVER + 1))
    return Cells(profile=outcomes.profile, features=features, gain=cell_gain, optimal=optimal,
                 scale=outcomes.scale, category_start=category_start)
