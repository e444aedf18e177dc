"""Stud equity results: the exact and sampled result types, and their constructors from outcome counts.

``EquityResult.method`` names how a result was obtained (the names below; the methods themselves
are in :mod:`exactodds.stud.equity.methods`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import ClassVar

import numpy as np

from exactodds import display
from exactodds.jsonable import JSONDict, exact, with_float


class EquityMethod(StrEnum):
    """The methods' names, as results give them in ``method`` (and JSON as the plain string)."""

    HEADS_UP = "heads-up inclusion-exclusion"
    LAST_STREET = "last-street hole-card DP"
    ENUMERATION = "enumeration"
    MONTE_CARLO = "monte carlo"
    CONTROL_VARIATES = "monte carlo with control variates"
    PAIRWISE = "prefix enumeration + pairwise inclusion-exclusion"
    RANK_PROFILES = "rank-profile inclusion-exclusion"

    def __repr__(self) -> str:  # shown as the plain name it has always had, e.g. in doctests
        return repr(self.value)


@dataclass(frozen=True, kw_only=True)
class PlayerEquity:
    """One player's showdown odds: fractions of the result's ``combinations`` deals (exact counts
    in an :class:`ExactEquity`; sample frequencies in a :class:`SampledPlayerEquity`).

    ``split[t]`` is the probability of sharing the top with ``t - 1`` others (t = 2..8);
    ``tie`` is their sum and ``equity = win + sum(split[t] / t)``, the share of the pot
    (higher is better).
    """

    win: Fraction
    tie: Fraction
    lose: Fraction
    equity: Fraction
    split: dict[int, Fraction]

    def _odds_dict(self) -> JSONDict:
        return {"win": exact(self.win), "tie": exact(self.tie), "lose": exact(self.lose),
                **with_float("equity", self.equity),
                "split": {str(t): exact(f) for t, f in sorted(self.split.items())}}

    def to_dict(self) -> JSONDict:
        """Exact fractions as "p/q"; ``standard_error`` and ``interval_95`` are null (the odds are exact)."""
        return {**self._odds_dict(), "standard_error": None, "interval_95": None}


@dataclass(frozen=True, kw_only=True)
class SampledPlayerEquity(PlayerEquity):
    """One player's sampled showdown odds (frequencies over the sample, not exact) and
    ``standard_error``, the standard error of ``equity`` (smaller is more precise)."""

    standard_error: float

    def to_dict(self) -> JSONDict:
        """The sample frequencies as "p/q", ``standard_error`` (of the equity) as a number and
        ``interval_95``, the equity +/- 1.96 standard errors."""
        low = float(self.equity) - 1.96 * self.standard_error
        high = float(self.equity) + 1.96 * self.standard_error
        return {**self._odds_dict(), "standard_error": self.standard_error, "interval_95": [low, high]}


@dataclass(frozen=True, kw_only=True)
class _EquityBase:
    """What exact and sampled equity results share: how they were obtained and how they show."""

    method: EquityMethod
    # Each player's cards "HOLE | UP CARDS" in seat order: shown by repr and str, not part of the odds.
    hands: tuple[str, ...] = field(default=(), compare=False)

    def __repr__(self) -> str:
        return display.equity_repr(self)

    def __str__(self) -> str:
        return display.equity_str(self)

    def _repr_html_(self) -> str:
        return display.equity_html(self)


# repr=False: keep the base's __repr__ (display.equity_repr) instead of the generated one.
@dataclass(frozen=True, kw_only=True, repr=False)
class ExactEquity(_EquityBase):
    """Exact showdown odds of every player, in seat order, counted over ``combinations`` equally
    likely complete deals."""

    players: tuple[PlayerEquity, ...]
    combinations: int
    exact: ClassVar[bool] = True

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md); ``samples``, ``seed`` and every ``standard_error`` are null."""
        return {"exact": True, "method": str(self.method), "combinations": self.combinations,
                "samples": None, "seed": None, "players": [p.to_dict() for p in self.players]}


@dataclass(frozen=True, kw_only=True, repr=False)
class SampledEquity(_EquityBase):
    """Estimated showdown odds of every player, in seat order, from ``samples`` uniformly random
    complete deals drawn with ``seed`` (not exact; each player has a ``standard_error``)."""

    players: tuple[SampledPlayerEquity, ...]
    samples: int
    seed: int
    exact: ClassVar[bool] = False

    @property
    def combinations(self) -> int:
        """The number of deals the frequencies are over: the sample size."""
        return self.samples

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): ``combinations`` is the sample size."""
        return {"exact": False, "method": str(self.method), "combinations": self.samples,
                "samples": self.samples, "seed": self.seed, "players": [p.to_dict() for p in self.players]}


EquityResult = ExactEquity | SampledEquity
"""A stud equity result: :class:`ExactEquity` or :class:`SampledEquity` (``isinstance`` tells them apart)."""


def _player_odds(row: np.ndarray, total: int) -> PlayerEquity:
    """One player's odds from their outcome counts ``row[t]`` (t = 1: wins; t >= 2: t-way splits)."""
    counts = [int(x) for x in row]
    win = Fraction(counts[1], total)
    split = {t: Fraction(counts[t], total) for t in range(2, len(counts)) if counts[t]}
    tie = sum(split.values(), Fraction(0))
    equity = win + sum((f / t for t, f in split.items()), Fraction(0))
    return PlayerEquity(win=win, tie=tie, lose=1 - win - tie, equity=equity, split=split)


def exact_result(out: np.ndarray, total: int, *, method: EquityMethod) -> ExactEquity:
    """The exact result from outcome counts ``out[p, t]`` over ``total`` equally likely deals."""
    return ExactEquity(players=tuple(_player_odds(row, total) for row in out), method=method,
                       combinations=total)


def _standard_error(odds: PlayerEquity, samples: int) -> float:
    """The standard error of the mean pot share (1 a win, 1/t a t-way split, 0 a loss) over
    ``samples`` deals: sqrt(sample variance / samples)."""
    mean_square = odds.win + sum((f / (t * t) for t, f in odds.split.items()), Fraction(0))
    variance = max(float(mean_square - odds.equity * odds.equity), 0.0)  # over n; / (n - 1) below
    return math.sqrt(variance / max(samples - 1, 1))


def sampled_result(out: np.ndarray, *, samples: int, seed: int) -> SampledEquity:
    """The Monte Carlo result from outcome counts ``out[p, t]`` over ``samples`` deals drawn with ``seed``."""
    players = []
    for row in out:
        odds = _player_odds(row, samples)
        players.append(SampledPlayerEquity(win=odds.win, tie=odds.tie, lose=odds.lose, equity=odds.equity,
                                           split=odds.split, standard_error=_standard_error(odds, samples)))
    return SampledEquity(players=tuple(players), method=EquityMethod.MONTE_CARLO, samples=samples, seed=seed)

