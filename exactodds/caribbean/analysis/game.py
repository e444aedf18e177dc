"""Whole-game analysis: the exact return table of Caribbean Stud under a profile and a strategy.

Every one of the 19,933,230,517,200 deals (player hand x up card x dealer's other four
cards) is counted exactly: :mod:`exactodds.caribbean.analysis.counting` gives, for each player
hand class and up card, how many dealer completions fall in each outcome; a strategy
says raise or fold in each situation; the events are summed with integer weights.

``house_edge`` is the expected loss per ante; ``element_of_risk`` the expected loss per
unit actually wagered (ante plus the call when made). Positive means the house wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exactodds.caribbean.analysis.counting import SituationCounts, count_situations
from exactodds.caribbean.analysis.kernels import whole_game as kernel
from exactodds.caribbean.analysis.kernels.whole_game import EventCounts
from exactodds.caribbean.analysis.result import GameResult, build_result
from exactodds.caribbean.decision.settle import (
    DEALER_COMPLETIONS,
    DEALER_NOT_QUALIFY,
    DEALER_WINS,
    FOLD,
    PUSH,
    Event,
    kernel_nets,
)
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_FLOORS, Profile, load_profile
from exactodds.counting.layout import CLASS_SUM_COLUMNS, ClassSum
from exactodds.memo import BoundedCache
from exactodds.progress import Progress
from exactodds.stopping import stoppable
from exactodds.threaded import run_spans

__all__ = ["SituationOutcomes", "analyze", "counts_for", "evaluate_strategy", "situation_outcomes"]


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
        raises: np.ndarray = (self.ev_raise_scaled > -DEALER_COMPLETIONS * self.scale) & self.counts.valid
        return raises


# The counts (about 100 MB) depend on the qualifier only (two exist); the outcomes (about 170 MB
# more each) on the profile.
COUNTS = BoundedCache[int, SituationCounts](maxsize=2, name="situation counts per qualifier")
OUTCOMES = BoundedCache[Profile, "SituationOutcomes"](maxsize=4, name="situation outcomes per paytable")


def counts_for(qualify_strength: int, *, progress: Progress | None = None) -> SituationCounts:
    """The situation counts for a qualifier, computed once per process (they do not depend on pays).

    A cache hit reports no progress (there is no work to show)."""
    return COUNTS.get(qualify_strength, lambda: count_situations(qualify_strength, progress=progress))


def situation_outcomes(
    profile: Profile | str = "standard", *, progress: Progress | None = None
) -> SituationOutcomes:
    """Outcome counts and EV(raise) of every (player class, up card) under a profile.

    Cached per profile (:data:`OUTCOMES`): the analysis, the coach and the collusion study all
    read this one result."""
    profile = load_profile(profile)
    return OUTCOMES.get(profile, lambda: _situation_outcomes(profile, progress=progress))


def _situation_outcomes(profile: Profile, *, progress: Progress | None) -> SituationOutcomes:
    counts = counts_for(profile.qualify_strength, progress=progress)
    pay_index = np.searchsorted(np.array(PAY_FLOORS), counts.strength, side="right") - 1
    nets, scale = kernel_nets(profile)
    n, m = counts.valid.shape
    events = EventCounts(*(np.zeros((n, m), dtype=np.int32) for _ in EventCounts._fields))
    ev = np.zeros((n, m), dtype=np.int64)
    stoppable(run_spans, kernel.situation_events, n, counts.strength, counts.arrays(),
              profile.qualify_strength, pay_index, nets, events, ev)
    return SituationOutcomes(profile=profile, counts=counts, not_qualify=events.not_qualify, win=events.win,
                             push=events.push, dealer_wins=events.dealer_wins, pay_index=pay_index,
                             ev_raise_scaled=ev, scale=scale)


def evaluate_strategy(outcomes: SituationOutcomes, raise_mask: np.ndarray, *, name: str) -> GameResult:
    """The exact whole-game result when the player raises exactly where ``raise_mask`` is True."""
    counts = outcomes.counts
    events = EventCounts(not_qualify=outcomes.not_qualify, win=outcomes.win, push=outcomes.push,
                         dealer_wins=outcomes.dealer_wins)
    sums = np.zeros((len(counts.valid), CLASS_SUM_COLUMNS), dtype=np.int64)
    stoppable(run_spans, kernel.class_sums, len(sums), np.ascontiguousarray(raise_mask, dtype=np.bool_),
              counts.valid, events, sums)
    weighted = sums * counts.weights[:, None]  # int64: at most 47 x 163,185 x 24 per entry
    combos: dict[str, int] = {}
    for i, category in enumerate(PAY_CATEGORIES):
        combos[Event.win(category)] = int(weighted[outcomes.pay_index == i, ClassSum.WIN].sum())
    combos[DEALER_NOT_QUALIFY] = int(weighted[:, ClassSum.NOT_QUALIFY].sum())
    combos[PUSH] = int(weighted[:, ClassSum.PUSH].sum())
    combos[DEALER_WINS] = int(weighted[:, ClassSum.DEALER_WINS].sum())
    combos[FOLD] = int(weighted[:, ClassSum.FOLDED].sum()) * DEALER_COMPLETIONS
    raised_deals = int(weighted[:, ClassSum.RAISED].sum()) * DEALER_COMPLETIONS
    situations = int(weighted[:, ClassSum.RAISED].sum()) + int(weighted[:, ClassSum.FOLDED].sum())
    dealer_qualifies = situations * DEALER_COMPLETIONS - int(weighted[:, ClassSum.ALL_NOT_QUALIFY].sum())
    return build_result(outcomes.profile, combos, raised_deals, dealer_qualifies, name)


def analyze(profile: Profile | str = "standard", *,
            progress: Progress | None = None) -> GameResult:
    """The exact whole-game result of a profile under the optimal strategy.

    ``profile`` is a shipped paytable name, a TOML path or a :class:`Profile`. Returns a
    :class:`GameResult`: the return table over all 19,933,230,517,200 deals as integer
    counts, ``house_edge`` (expected loss per ante; lower is better for the player) and
    ``element_of_risk`` (expected loss per unit wagered) as exact fractions. The counting
    reports its progress to ``progress``.

    >>> game = analyze("standard")
    >>> game.house_edge, f"{float(game.house_edge):.4%}"
    (Fraction(142031221, 2718662100), '5.2243%')
    >>> game.row("push").combinations
    321623100
    """
    outcomes = situation_outcomes(profile, progress=progress)
    return evaluate_strategy(outcomes, outcomes.optimal_raise(), name="optimal")
