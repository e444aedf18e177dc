"""The main wager's figures, exact, from a whole-game result's return table.

Every figure is computed from the rows of :class:`~exactodds.caribbean.analysis.game.GameResult`
(an event, its net result X in antes and its integer deal count), so no kernel is involved:

* house edge per ante = -E[X];
* average total wager per hand E[W], in antes (W = 1 after a fold, 1 + call otherwise);
* element of risk per unit wagered = -E[X] / E[W]; RTP per unit wagered = 1 - element of risk;
* hit frequency P(X > 0) (a dealer who does not qualify counts), P(X = 0), P(X < 0);
* variance per ante Var(X) = E[X^2] - E[X]^2 (a hand's net measured in antes: the per-hand
  figure for a one-unit ante); per unit wagered Var(X) / E[W]^2 (the net scaled by the average
  wager, as published "per unit wagered").

Lower house edge and element of risk are better for the player; a higher RTP is better.

>>> from exactodds.caribbean.analysis.result import TOTAL_DEALS, ReturnRow, GameResult
>>> from exactodds.caribbean.profile import load_profile
>>> rows = (ReturnRow("fold", "fold", Fraction(-1), TOTAL_DEALS // 2),
...         ReturnRow("dealer_not_qualify", "dnq", Fraction(1), TOTAL_DEALS // 2))
>>> g = GameResult(profile=load_profile("standard"), strategy="toy", rows=rows,
...                total_combinations=TOTAL_DEALS, total_units=Fraction(0), raised_deals=TOTAL_DEALS // 2,
...                dealer_qualifies_frequency=Fraction(0))
>>> f = main_wager_figures(g)
>>> f.variance_per_ante, f.average_total_wager_antes, f.hit_frequency
(Fraction(1, 1), Fraction(2, 1), Fraction(1, 2))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.decision.settle import FOLD

Z95 = 1.959963984540054  # two-sided 95% normal quantile
HOLD_HANDS = (100, 1_000, 10_000, 100_000, 1_000_000)
EXACT_HOLD_HANDS = (100,)  # the hold sizes of HOLD_HANDS at most MAX_HANDS, also given exactly
UP_RANKS = "23456789TJQKA"
UP_COMPLETIONS = 249_900  # C(51, 4): the dealer's other four cards from the 51 cards besides the up card


@dataclass(frozen=True, kw_only=True)
class MainWagerFigures:
    """The exact figures of the main wager under one strategy (see the module docstring).

    Names carry the basis: ``_per_ante`` (a hand's net in antes), ``_per_unit_wagered`` (over the
    average total wager), ``_antes`` (an amount in antes).
    """

    profile: str
    strategy: str
    house_edge_per_ante: Fraction
    average_total_wager_antes: Fraction
    element_of_risk_per_unit_wagered: Fraction
    rtp_per_unit_wagered: Fraction
    hit_frequency: Fraction       # P(net > 0)
    push_frequency: Fraction      # P(net = 0)
    loss_frequency: Fraction      # P(net < 0), folds included
    raise_frequency: Fraction
    variance_per_ante: Fraction
    variance_per_unit_wagered: Fraction
    # Var(X + EoR x W) / E[W]^2: one hand's share of the variance of the hold win/drop, drop = total wagered
    hold_variance_per_unit_wagered: Fraction

    @property
    def expected_return_per_ante(self) -> Fraction:
        """E[X]: the player's expected net per ante (negative: the house wins)."""
        return -self.house_edge_per_ante

    @property
    def standard_deviation_per_ante(self) -> float:
        """Square root of the exact variance per ante (display only)."""
        return math.sqrt(self.variance_per_ante)

    @property
    def standard_deviation_per_unit_wagered(self) -> float:
        return math.sqrt(self.variance_per_unit_wagered)

    def to_dict(self) -> dict[str, Any]:
        """Exact values as Fractions (the JSON writer prints "p/q") with ``_float`` twins."""
        out: dict[str, Any] = {"paytable": self.profile, "strategy": self.strategy}
        for key in ("house_edge_per_ante", "average_total_wager_antes", "element_of_risk_per_unit_wagered",
                    "rtp_per_unit_wagered", "hit_frequency", "push_frequency", "loss_frequency",
                    "raise_frequency", "variance_per_ante", "variance_per_unit_wagered",
                    "hold_variance_per_unit_wagered"):
            value = getattr(self, key)
            out[key] = value
            out[f"{key}_float"] = float(value)
        out["standard_deviation_per_ante_float"] = self.standard_deviation_per_ante
        out["standard_deviation_per_unit_wagered_float"] = self.standard_deviation_per_unit_wagered
        return out


FIGURE_LABELS = {
    "house_edge_per_ante": "house edge (expected loss per ante)",
    "average_total_wager_antes": "average total wager per hand (antes: ante + call when made)",
    "element_of_risk_per_unit_wagered": "element of risk (expected loss per unit wagered)",
    "rtp_per_unit_wagered": "RTP (return to player per unit wagered = 1 - element of risk)",
    "hit_frequency": "hit frequency P(net > 0), dealer not qualifying included",
    "push_frequency": "push P(net = 0)",
    "loss_frequency": "loss P(net < 0), folds included",
    "raise_frequency": "raise frequency",
    "variance_per_ante": "variance of a hand's net, per ante (antes squared)",
    "variance_per_unit_wagered": "variance per unit wagered (net / average wager)",
    "hold_variance_per_unit_wagered": "hold variance per unit wagered (per hand, for win / drop)",
}


def _wager(event: str, call: Fraction) -> Fraction:
    return Fraction(1) if event == FOLD else 1 + call


def main_wager_figures(result: GameResult) -> MainWagerFigures:
    """The exact figures of ``result`` computed from its return-table rows."""
    total = result.total_combinations
    call = result.profile.call
    mean = sum((r.net_units * r.combinations for r in result.rows), Fraction(0)) / total
    second = sum((r.net_units**2 * r.combinations for r in result.rows), Fraction(0)) / total
    wager = sum((_wager(r.event, call) * r.combinations for r in result.rows), Fraction(0)) / total
    variance = second - mean**2
    risk = -mean / wager
    # hold H = -sum X / sum W; by the delta method Var(H) ~ Var(X + risk * W) / (N E[W]^2)
    centred = sum(((r.net_units + risk * _wager(r.event, call))**2 * r.combinations for r in result.rows),
                  Fraction(0)) / total

    def share(test: Callable[[Fraction], bool]) -> Fraction:
        return Fraction(sum(r.combinations for r in result.rows if test(r.net_units)), total)

    return MainWagerFigures(
        profile=result.profile.name, strategy=result.strategy,
        house_edge_per_ante=-mean, average_total_wager_antes=wager,
        element_of_risk_per_unit_wagered=risk, rtp_per_unit_wagered=1 - risk,
        hit_frequency=share(lambda x: x > 0), push_frequency=share(lambda x: x == 0),
        loss_frequency=share(lambda x: x < 0), raise_frequency=result.raise_frequency,
        variance_per_ante=variance, variance_per_unit_wagered=variance / wager**2,
        hold_variance_per_unit_wagered=centred / wager**2,
    )


# --------------------------------------------------------------------------- dealer qualifying
@dataclass(frozen=True, kw_only=True)
class DealerQualifying:
    """P(dealer qualifies) from the up card alone: per up-card rank over the C(51,4) completions,
    and over every deal of a strategy's game (where the player's five cards are removed)."""

    qualifier: str
    by_up_rank: tuple[tuple[str, int], ...]   # (rank, qualifying completions of 249,900)
    over_all_deals: Fraction

    def probability(self, rank: str) -> Fraction:
        return Fraction(dict(self.by_up_rank)[rank], UP_COMPLETIONS)

    @property
    def from_up_card(self) -> Fraction:
        """P(qualifies) for a random up card, the player's cards unseen."""
        return Fraction(sum(n for _, n in self.by_up_rank), 13 * UP_COMPLETIONS)

    def to_dict(self) -> dict[str, Any]:
        return {
            "qualifier": self.qualifier, "combinations_per_up_card": UP_COMPLETIONS,
            "by_up_rank": [{"rank": r, "qualifying": n, "probability": Fraction(n, UP_COMPLETIONS),
                            "probability_float": n / UP_COMPLETIONS} for r, n in self.by_up_rank],
            "from_up_card": self.from_up_card, "from_up_card_float": float(self.from_up_card),
            "over_all_deals": self.over_all_deals, "over_all_deals_float": float(self.over_all_deals),
        }


@lru_cache(maxsize=4)
def qualifying_by_up_rank(qualify_strength: int) -> tuple[tuple[str, int], ...]:
    """For each up-card rank: the dealer's completions (4 of the other 51 cards) that qualify.

    Every qualifier is at most a pair, so a hand that does not qualify is a no-pair hand: five
    distinct ranks, no straight, not all one suit, whose strength depends only on its ranks.
    For a rank set holding the up card's rank, 4^4 - 1 = 255 suit choices of the other four
    cards avoid a flush. So the non-qualifying completions of an up card of rank r are 255 x the
    rank sets holding r whose no-pair strength is below the qualifier (tests check this against
    every hand).
    """
    from itertools import combinations

    from exactodds.handrank import CATEGORY_FLOOR, Category, evaluate_batch

    if qualify_strength > CATEGORY_FLOOR[Category.PAIR]:
        raise ValueError("the up-card formula needs a qualifier of at most a pair")
    rank_sets = np.array(list(combinations(range(13), 5)), dtype=np.int64)
    cards = rank_sets * 4 + np.array([0, 1, 2, 3, 0])  # two clubs: never a flush
    low = evaluate_batch(cards) < qualify_strength  # below a pair, so also no straight
    per_rank = np.bincount(rank_sets[low].ravel(), minlength=13)
    return tuple((UP_RANKS[r], UP_COMPLETIONS - 255 * int(per_rank[r])) for r in range(13))


def dealer_qualifying(result: GameResult) -> DealerQualifying:
    """Dealer qualifying by up-card rank for ``result``'s qualifier, and over all its deals."""
    return DealerQualifying(qualifier=result.profile.qualifier,
                            by_up_rank=qualifying_by_up_rank(result.profile.qualify_strength),
                            over_all_deals=result.dealer_qualifies_frequency)


# --------------------------------------------------------------------------- hold intervals
@dataclass(frozen=True, kw_only=True)
class HoldInterval:
    """The 95% range of the hold after ``hands`` hands, per ante and per unit wagered.

    ``method`` is "normal" (mean +- 1.96 sd / sqrt(N), from the exact variance) or "exact" (the
    2.5% and 97.5% quantiles of the exact session distribution; per ante only).
    """

    hands: int
    method: str
    per_ante: tuple[float, float]
    per_unit_wagered: tuple[float, float] | None

    def to_dict(self) -> dict[str, Any]:
        return {"hands": self.hands, "method": self.method, "interval_95_per_ante": list(self.per_ante),
                "interval_95_per_unit_wagered": (None if self.per_unit_wagered is None
                                                 else list(self.per_unit_wagered))}


def normal_hold_intervals(figures: MainWagerFigures,
                          hands: tuple[int, ...] = HOLD_HANDS) -> tuple[HoldInterval, ...]:
    """Normal-approximation 95% hold intervals (house's win per ante and per unit wagered)."""
    edge = float(figures.house_edge_per_ante)
    risk = float(figures.element_of_risk_per_unit_wagered)
    sd_ante = figures.standard_deviation_per_ante
    sd_wagered = math.sqrt(figures.hold_variance_per_unit_wagered)
    out = []
    for n in hands:
        half_ante, half_wagered = Z95 * sd_ante / math.sqrt(n), Z95 * sd_wagered / math.sqrt(n)
        out.append(HoldInterval(hands=n, method="normal", per_ante=(edge - half_ante, edge + half_ante),
                                per_unit_wagered=(risk - half_wagered, risk + half_wagered)))
    return tuple(out)


def session_counts_upto(result: GameResult, *, hands: int, upto: Fraction) -> tuple[list[int], Fraction]:
    """Exact counts of a ``hands``-hand session's net, for every grid value up to ``upto`` antes.

    Returns (counts, low): counts[j] deals (out of total ** hands) give the net low + j x step.
    In grid indices every hand adds a non-negative index, so a partial sum above the last
    index kept can never come back below it: cutting each step there keeps the counts exact.
    """
    from exactodds.caribbean.studies.session import hand_distribution

    per_hand = hand_distribution(result)
    last = max(0, math.floor((upto * per_hand.scale - hands * per_hand.low) / per_hand.step))
    support = [(i, int(c)) for i, c in enumerate(per_hand.counts) if c and i <= last]
    acc = np.zeros(last + 1, dtype=object)  # Python ints
    acc[:] = 0
    acc[0] = 1
    for _ in range(hands):
        out = np.zeros(last + 1, dtype=object)
        out[:] = 0
        for offset, count in support:
            out[offset:] += acc[:last + 1 - offset] * count
        acc = out
    return [int(c) for c in acc], Fraction(hands * per_hand.low, per_hand.scale)


def exact_hold_interval(result: GameResult, *, hands: int) -> HoldInterval:
    """The exact 95% hold range per ante after ``hands`` hands (hold per ante = -net / hands).

    Between the session net's exact 2.5% and 97.5% quantiles (the smallest net x with
    P(net <= x) >= q), from integer counts of the session distribution.
    """
    from exactodds.caribbean.studies.session import check_session_hands, hand_distribution

    check_session_hands(hands)
    per_hand = hand_distribution(result)
    step = Fraction(per_hand.step, per_hand.scale)
    figures = main_wager_figures(result)
    reach = math.ceil(4 * figures.standard_deviation_per_ante * math.sqrt(hands)) + 1
    total = per_hand.total**hands
    while True:
        upto = -hands * figures.house_edge_per_ante + reach
        counts, low = session_counts_upto(result, hands=hands, upto=upto)
        running, quantiles = 0, []
        targets = [Fraction(25, 1000) * total, Fraction(975, 1000) * total]
        for j, c in enumerate(counts):
            running += c
            while targets and c and running >= targets[0]:
                quantiles.append(low + j * step)
                targets.pop(0)
        if not targets:
            break
        reach *= 2
    low_net, high_net = quantiles
    per_ante = (float(-high_net / hands), float(-low_net / hands))
    return HoldInterval(hands=hands, method="exact", per_ante=per_ante, per_unit_wagered=None)


def hold_intervals(result: GameResult, figures: MainWagerFigures) -> tuple[HoldInterval, ...]:
    """Every hold interval of ``result``: the normal approximations of :func:`normal_hold_intervals`
    (``figures`` being ``main_wager_figures(result)``), then the exact ones for ``EXACT_HOLD_HANDS``."""
    exact = tuple(exact_hold_interval(result, hands=n) for n in EXACT_HOLD_HANDS)
    return normal_hold_intervals(figures) + exact
