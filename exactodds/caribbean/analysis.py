"""Whole-game analysis: the exact return table of Caribbean Stud under a profile and a strategy.

Every one of the 19,933,230,517,200 deals (player hand x up card x dealer's other four
cards) is counted exactly: :mod:`exactodds.caribbean.counting` gives, for each player
hand class and up card, how many dealer completions fall in each outcome; a strategy
says raise or fold in each situation; the events are summed with integer weights.

``house_edge`` is the expected loss per ante; ``element_of_risk`` the expected loss per
unit actually wagered (ante plus the call when made). Positive means the house wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from exactodds.caribbean.counting import (
    COUNTING_STAGES,
    DEALER_COMPLETIONS,
    SituationCounts,
    count_situations,
)
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_FLOORS, Profile, load_profile
from exactodds.caribbean.settle import (
    DEALER_NOT_QUALIFY,
    DEALER_WINS,
    EVENT_LABELS,
    EVENTS,
    FOLD,
    PUSH,
    event_net,
)

TOTAL_DEALS = 19_933_230_517_200  # C(52,5) x 47 x C(46,4)


@dataclass(frozen=True)
class ReturnRow:
    """One line of the return table: an event, its net result in antes, and its deal count."""

    event: str
    label: str
    net_units: Fraction
    combinations: int
    total_deals: int = TOTAL_DEALS  # the whole table's deal count (other conventions: hole-carding)

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.total_deals)

    @property
    def return_contribution(self) -> Fraction:
        """This row's share of the expected return per ante."""
        return self.net_units * self.probability


@dataclass(frozen=True)
class GameResult:
    """The exact whole-game result of one profile under one strategy."""

    profile: Profile
    strategy: str
    rows: tuple[ReturnRow, ...]
    total_combinations: int
    total_units: Fraction       # net units summed over every deal (negative: the house wins)
    raised_deals: int
    dealer_qualifies_frequency: Fraction  # over every deal, raised or not

    @property
    def total_return(self) -> Fraction:
        """Expected net result per ante for the player (negative: the house wins)."""
        return self.total_units / self.total_combinations

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per ante."""
        return -self.total_return

    @property
    def average_wager(self) -> Fraction:
        """Average amount wagered per deal, in antes: 1 + call x raise frequency."""
        return 1 + self.profile.call * self.raise_frequency

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss per unit wagered (ante plus call when made)."""
        return self.house_edge / self.average_wager

    @property
    def raise_frequency(self) -> Fraction:
        return Fraction(self.raised_deals, self.total_combinations)

    def row(self, event: str) -> ReturnRow:
        return next(r for r in self.rows if r.event == event)


@dataclass(frozen=True)
class SituationOutcomes:
    """Per (player class, up card): dealer completions by event if the player raises.

    ``win`` counts the completions the player beats (paid at ``win_net`` per class).
    ``ev_raise_numerator / DEALER_COMPLETIONS`` is EV(raise) in antes, kept as an integer
    over ``scale`` (the common denominator of the profile's amounts).
    """

    profile: Profile
    counts: SituationCounts
    not_qualify: np.ndarray
    win: np.ndarray
    push: np.ndarray
    dealer_wins: np.ndarray
    pay_index: np.ndarray          # (classes,) index into PAY_CATEGORIES, -1 below A-K high
    ev_raise_scaled: np.ndarray    # EV(raise) x DEALER_COMPLETIONS x scale, int64
    scale: int

    def ev_raise(self, cls: int, up: int) -> Fraction:
        """EV(raise) of one situation as an exact fraction of an ante."""
        return Fraction(int(self.ev_raise_scaled[cls, up]), DEALER_COMPLETIONS * self.scale)

    def optimal_raise(self) -> np.ndarray:
        """Raise exactly when EV(raise) > EV(fold) = -1 (an exact tie folds)."""
        return (self.ev_raise_scaled > -DEALER_COMPLETIONS * self.scale) & self.counts.valid


_COUNTS_CACHE: dict[int, SituationCounts] = {}


def counts_for(qualify_strength: int, *, on_stage: Callable[[str], None] | None = None) -> SituationCounts:
    """The situation counts for a qualifier, computed once per process (they do not depend on pays)."""
    if qualify_strength not in _COUNTS_CACHE:
        _COUNTS_CACHE[qualify_strength] = count_situations(qualify_strength, on_stage=on_stage)
    elif on_stage is not None:
        for _ in range(COUNTING_STAGES):
            on_stage("cached")
    return _COUNTS_CACHE[qualify_strength]


def situation_outcomes(
    profile: Profile | str = "standard", *, on_stage: Callable[[str], None] | None = None
) -> SituationOutcomes:
    """Outcome counts and EV(raise) of every (player class, up card) under a profile."""
    profile = load_profile(profile)
    counts = counts_for(profile.qualify_strength, on_stage=on_stage)
    qualifies_to_win = (counts.strength >= profile.qualify_strength)[:, None]
    below, weaker, equal = (a.astype(np.int64) for a in
                            (counts.below_qualifier, counts.weaker, counts.equal))
    win = np.where(qualifies_to_win, weaker - below, 0)
    push = np.where(qualifies_to_win, equal, 0)
    dealer_wins = DEALER_COMPLETIONS - below - win - push
    valid = counts.valid
    win, push, dealer_wins, below = (np.where(valid, a, 0) for a in (win, push, dealer_wins, below))

    pay_index = np.searchsorted(np.array(PAY_FLOORS), counts.strength, side="right") - 1
    nets = [profile.category_win_net(c) for c in PAY_CATEGORIES]
    other = [event_net(e, profile) for e in (DEALER_NOT_QUALIFY, DEALER_WINS, FOLD)]
    scale = lcm(*(x.denominator for x in nets + other))
    win_scaled = np.array([int(x * scale) for x in nets] + [0], dtype=np.int64)[pay_index]
    ev = (below * int(event_net(DEALER_NOT_QUALIFY, profile) * scale)
          + win * win_scaled[:, None]
          + dealer_wins * int(profile.lose_net * scale))
    return SituationOutcomes(profile=profile, counts=counts, not_qualify=below, win=win, push=push,
                             dealer_wins=dealer_wins, pay_index=pay_index, ev_raise_scaled=ev,
                             scale=scale)


def evaluate_strategy(outcomes: SituationOutcomes, raise_mask: np.ndarray, *, name: str) -> GameResult:
    """The exact whole-game result when the player raises exactly where ``raise_mask`` is True."""
    counts = outcomes.counts
    raised = raise_mask & counts.valid
    folded = counts.valid & ~raise_mask
    w = counts.weights[:, None]

    def total(values: np.ndarray, mask: np.ndarray) -> int:
        return int((np.where(mask, values, 0) * w).sum())

    combos: dict[str, int] = {}
    win_by_class = (np.where(raised, outcomes.win, 0) * w).sum(axis=1)
    for i, category in enumerate(PAY_CATEGORIES):
        combos[f"win_{category}"] = int(win_by_class[outcomes.pay_index == i].sum())
    combos[DEALER_NOT_QUALIFY] = total(outcomes.not_qualify, raised)
    combos[PUSH] = total(outcomes.push, raised)
    combos[DEALER_WINS] = total(outcomes.dealer_wins, raised)
    combos[FOLD] = int((folded * w).sum()) * DEALER_COMPLETIONS
    return _result(outcomes, combos, int((raised * w).sum()) * DEALER_COMPLETIONS, name)


def _result(outcomes: SituationOutcomes, combos: dict[str, int], raised_deals: int, name: str) -> GameResult:
    profile = outcomes.profile
    rows = tuple(
        ReturnRow(event=e, label=EVENT_LABELS[e], net_units=event_net(e, profile), combinations=combos[e])
        for e in EVENTS
    )
    total = sum(r.combinations for r in rows)
    if total != TOTAL_DEALS:
        raise AssertionError(f"return table sums to {total}, expected {TOTAL_DEALS}")
    units = sum((r.net_units * r.combinations for r in rows), Fraction(0))
    counts = outcomes.counts
    qualifies = DEALER_COMPLETIONS - counts.below_qualifier.astype(np.int64)
    dealer_q = int((np.where(counts.valid, qualifies, 0) * counts.weights[:, None]).sum())
    return GameResult(profile=profile, strategy=name, rows=rows, total_combinations=total,
                      total_units=units, raised_deals=raised_deals,
                      dealer_qualifies_frequency=Fraction(dealer_q, TOTAL_DEALS))


def analyze(profile: Profile | str = "standard", *,
            on_stage: Callable[[str], None] | None = None) -> GameResult:
    """The exact whole-game result of a profile under the optimal strategy.

    ``on_stage`` is called ANALYSIS_STAGES times, once per finished stage (for progress bars).
    """
    outcomes = situation_outcomes(profile, on_stage=on_stage)
    result = evaluate_strategy(outcomes, outcomes.optimal_raise(), name="optimal")
    if on_stage is not None:
        on_stage("return table")
    return result


ANALYSIS_STAGES = COUNTING_STAGES + 1
