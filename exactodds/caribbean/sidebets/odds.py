"""A side bet's exact odds: the probability of each paid category, the return at a meter, the
return as a function of the meter, the break-even meter, the hit frequency and the variance.

Probabilities are exact counts: out of the C(52,5) = 2,598,960 hands for a bet on the player's
five cards, and out of the 2,598,960 x 47 = 122,151,120 (hand, up card) pairs for a bet on the
best five of six (each six-card set is 6 such pairs, whichever of its cards is the up card).

The return is per unit staked; positive favours the player. A pay ``fixed + share x meter``
(capped) makes the return a non-decreasing, piecewise linear function of the meter.

>>> odds = sidebet_odds("progressive-100-75-50", meter=263_205)
>>> odds.break_even_meter, odds.expected_return
(Fraction(5000900, 19), Fraction(-1, 1299480))
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from exactodds.caribbean.profile import PAY_FLOORS, PAY_LABELS
from exactodds.caribbean.sidebets.profile import (
    SIDEBET_CATEGORIES,
    SideBetError,
    SideBetProfile,
    load_sidebet,
)
from exactodds.combinatorics import N_HANDS
from exactodds.handrank import N_STRENGTHS, rank_table
from exactodds.money import Amount, parse_amount
from exactodds.stopping import stoppable

PAIRS_PER_SIX = 6
HAND_UP_PAIRS = N_HANDS * 47  # 122,151,120
_CATEGORY_FLOORS = dict(zip(reversed(SIDEBET_CATEGORIES), PAY_FLOORS, strict=True))


def _by_category(histogram: np.ndarray, multiplier: int = 1) -> dict[str, int]:
    """Counts per category (royal flush first) from a histogram over strengths."""
    bounds = [_CATEGORY_FLOORS[c] for c in SIDEBET_CATEGORIES]
    out, top = {}, N_STRENGTHS
    for category, floor in zip(SIDEBET_CATEGORIES, bounds, strict=True):
        out[category] = int(histogram[floor:top].sum()) * multiplier
        top = floor
    return out


@lru_cache(maxsize=2)
def category_counts(pays_on: str) -> tuple[tuple[str, int], ...]:
    """(category, outcomes) royal flush first, and the total as ("total", n).

    "player": hands of C(52,5); "player_and_up_card": (hand, up card) pairs by best five of six.
    """
    if pays_on == "player":
        counts = _by_category(np.bincount(rank_table(), minlength=N_STRENGTHS))
        total = N_HANDS
    elif pays_on == "player_and_up_card":
        from exactodds.caribbean.sidebets.kernels.best_of_six import best_of_six_histogram

        counts = _by_category(stoppable(best_of_six_histogram), PAIRS_PER_SIX)
        total = HAND_UP_PAIRS
    else:
        raise SideBetError(f"unknown pays_on {pays_on!r}")
    return (*counts.items(), ("total", total))


@dataclass(frozen=True, kw_only=True)
class SideBetLine:
    """One paid category: its outcomes, its exact probability, its pay at the meter (dollars)."""

    category: str
    label: str
    outcomes: int
    total: int
    pay: Fraction
    meter_share: Fraction

    @property
    def probability(self) -> Fraction:
        return Fraction(self.outcomes, self.total)

    @property
    def contribution(self) -> Fraction:
        """probability x pay (dollars)."""
        return self.probability * self.pay


@dataclass(frozen=True, kw_only=True)
class SideBetOdds:
    """The exact odds of a side bet at one meter. Amounts per unit staked unless said otherwise."""

    profile: SideBetProfile
    meter: Fraction
    lines: tuple[SideBetLine, ...]
    total: int
    expected_return: Fraction         # per unit staked; positive favours the player
    return_slope: Fraction            # d(return)/d(meter) per dollar of meter, at this meter
    return_intercept: Fraction        # return = intercept + slope x meter on this meter's linear piece
    break_even_meter: Fraction | None  # None: no meter gives a return of exactly 0
    break_even_note: str
    hit_frequency: Fraction
    variance: Fraction                # of the net per unit staked

    @property
    def house_edge(self) -> Fraction:
        return -self.expected_return

    @property
    def standard_deviation(self) -> float:
        return math.sqrt(float(self.variance))

    def to_dict(self) -> dict[str, Any]:
        p = self.profile
        return {
            "sidebet": p.name, "description": p.description, "example": p.example, "pays_on": p.pays_on,
            "stake": p.stake, "stake_returned": p.stake_returned, "exact": True,
            "meter": self.meter, "meter_reset": p.meter_reset, "meter_contribution": p.meter_contribution,
            "combinations": self.total,
            "lines": [{"category": line.category, "combinations": line.outcomes,
                       "probability": line.probability,
                       "probability_float": float(line.probability), "pay": line.pay,
                       "contribution": line.contribution} for line in self.lines],
            "expected_return": self.expected_return, "expected_return_float": float(self.expected_return),
            "house_edge": self.house_edge, "house_edge_float": float(self.house_edge),
            "return_slope_per_meter_dollar": self.return_slope,
            "return_intercept": self.return_intercept,
            "break_even_meter": self.break_even_meter,
            "break_even_meter_float": None if self.break_even_meter is None else float(self.break_even_meter),
            "break_even_note": self.break_even_note,
            "hit_frequency": self.hit_frequency, "hit_frequency_float": float(self.hit_frequency),
            "variance": self.variance, "variance_float": float(self.variance),
            "standard_deviation_float": self.standard_deviation,
        }


def _net_per_stake(profile: SideBetProfile, pay: Fraction) -> Fraction:
    """Net of a paid outcome per unit staked: the pay, less the stake unless it is returned."""
    return pay / profile.stake - (0 if profile.stake_returned else 1)


def return_at(profile: SideBetProfile, meter: Fraction) -> Fraction:
    """The exact expected return per unit staked at ``meter`` (no validation; see sidebet_odds)."""
    counts = dict(category_counts(profile.pays_on))
    total = counts["total"]
    paid = sum((Fraction(counts[c]) * p.amount(meter) for c, p in profile.pays.items()), Fraction(0))
    hits = sum(counts[c] for c in profile.pays)
    stake_back = hits * profile.stake if profile.stake_returned else 0
    return (paid + stake_back) / (total * profile.stake) - 1


def _linear_piece(profile: SideBetProfile, meter: Fraction) -> tuple[Fraction, Fraction]:
    """(intercept, slope) of the return on the linear piece holding ``meter`` (to its right)."""
    counts = dict(category_counts(profile.pays_on))
    denominator = counts["total"] * profile.stake
    slope = Fraction(0)
    for c, p in profile.pays.items():
        if p.meter_share and (p.cap is None or p.fixed + p.meter_share * meter < p.cap):
            slope += counts[c] * p.meter_share
    slope /= denominator
    return return_at(profile, meter) - slope * meter, slope


def break_even(profile: SideBetProfile) -> tuple[Fraction | None, str]:
    """The smallest meter where the return reaches 0, with a note when there is none."""
    if not profile.is_progressive:
        return None, "no meter: the return does not depend on one"
    if return_at(profile, Fraction(0)) >= 0:
        return None, "none: the fixed pays alone return at least the stake"
    caps = sorted({(p.cap - p.fixed) / p.meter_share for p in profile.pays.values()
                   if p.meter_share and p.cap is not None})
    start = Fraction(0)
    for end in [*caps, None]:
        intercept, slope = _linear_piece(profile, start)
        if slope > 0:
            root = -intercept / slope
            if root >= start and (end is None or root <= end):
                return root, ""
        if end is None:
            break
        start = end
    return None, "none: the capped pays never return the stake"


def sidebet_odds(profile: SideBetProfile | str, *, meter: Amount | None = None) -> SideBetOdds:
    """The exact odds of a side bet at ``meter`` dollars (default: the profile's reset value, else 0;
    read by :func:`exactodds.money.parse_amount`: SideBetError when negative or beyond its bound)."""
    profile = load_sidebet(profile)
    if meter is None:
        meter = profile.meter_reset or Fraction(0)
    meter = parse_amount(meter, name="the meter", error=SideBetError)
    counts = dict(category_counts(profile.pays_on))
    total = counts["total"]
    lines = tuple(SideBetLine(category=c, label=PAY_LABELS[c], outcomes=counts[c], total=total,
                              pay=p.amount(meter), meter_share=p.meter_share)
                  for c, p in profile.pays.items())
    expected = return_at(profile, meter)
    intercept, slope = _linear_piece(profile, meter)
    root, note = break_even(profile)
    hits = sum(line.outcomes for line in lines)
    # an unpaid outcome loses the stake: net -1 per unit staked
    second = (sum((Fraction(line.outcomes) * _net_per_stake(profile, line.pay)**2 for line in lines),
                  Fraction(0)) + (total - hits)) / total
    return SideBetOdds(profile=profile, meter=meter, lines=lines, total=total, expected_return=expected,
                       return_slope=slope, return_intercept=intercept, break_even_meter=root,
                       break_even_note=note, hit_frequency=Fraction(hits, total),
                       variance=second - expected**2)
