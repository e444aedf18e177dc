"""Monte Carlo play of Caribbean Stud: real shuffled decks, a strategy, and a test against the exact EV.

This is the independent check that ties the enumeration to play. Each hand is a full
52-card shuffle (numpy Generator seeded by the caller, in fixed batches, so a seed and a
number of hands always give the same result): the player gets cards 1-5, the dealer 6-10
with card 6 face up. The strategy's decision is looked up in its raise mask over the class
tables (:func:`exactodds.caribbean.strategy.strategies.situation_index`); every hand is settled by
the table of :func:`settlement_table`, whose nets all come from
:func:`exactodds.caribbean.decision.settle.settle`.

The observed mean is compared with the exact EV of the same strategy by a one-sample
t-test, and the event frequencies with the exact return table by a chi-square test.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from types import MappingProxyType

import numpy as np
from scipy import stats

from exactodds.caribbean.analysis.game import SituationOutcomes, evaluate_strategy
from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.decision.settle import EVENTS, settle
from exactodds.caribbean.profile import Profile
from exactodds.caribbean.strategy.strategies import Strategy, situation_index
from exactodds.errors import ExactOddsError
from exactodds.handrank import N_STRENGTHS, evaluate_batch
from exactodds.jsonable import JSONDict, with_float
from exactodds.progress import Progress, or_none

MAX_HANDS = 10**10  # about an hour at a few million hands a second
BATCH = 50_000  # hands per vectorised batch (fixed: part of what a seed reproduces)
MIN_EXPECTED = 5  # chi-square: events expected fewer times are pooled
# Outcome classes of a hand, before the payout: what settle() distinguishes.
FOLDED, NOT_QUALIFY, DEALER_STRONGER, TIE, PLAYER_STRONGER = range(5)


class SimulationError(ExactOddsError):
    """A simulation that cannot run as asked (e.g. too few hands)."""


@dataclass(frozen=True, kw_only=True)
class SettlementTable:
    """``settle``'s event and net for every (player strength, outcome class), for vectorised play.

    Nets are integers over ``scale``. Cells a class cannot reach (e.g. a tie below the
    qualifier, which is a non-qualifying dealer) hold event -1.
    """

    profile: Profile
    event: np.ndarray       # (N_STRENGTHS, 5) int8 index into EVENTS
    net_scaled: np.ndarray  # (N_STRENGTHS, 5) int64
    scale: int

    def settle_batch(self, player: np.ndarray, dealer: np.ndarray,
                     raised: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Event indices and scaled nets of many hands, as ``settle`` gives them one by one."""
        player = np.asarray(player, dtype=np.intp)
        dealer = np.asarray(dealer, dtype=np.intp)
        outcome = np.select(
            [~np.asarray(raised, dtype=bool), dealer < self.profile.qualify_strength,
             dealer > player, dealer == player],
            [FOLDED, NOT_QUALIFY, DEALER_STRONGER, TIE], default=PLAYER_STRONGER)
        return self.event[player, outcome], self.net_scaled[player, outcome]


def settlement_table(profile: Profile) -> SettlementTable:
    """Call ``settle`` once per reachable (player strength, outcome class) with a dealer strength
    of that class: every dealer strength of a class settles alike."""
    q = profile.qualify_strength
    settled: dict[tuple[int, int], tuple[int, Fraction]] = {}
    for s in range(N_STRENGTHS):
        dealers = {FOLDED: 0, NOT_QUALIFY: 0 if q > 0 else None,
                   DEALER_STRONGER: max(q, s + 1) if s + 1 < N_STRENGTHS else None,
                   TIE: s if s >= q else None, PLAYER_STRONGER: q if s > q else None}
        for outcome, dealer in dealers.items():
            if dealer is not None:
                result = settle(s, dealer, raised=outcome != FOLDED, profile=profile)
                settled[s, outcome] = EVENTS.index(result.event), result.net
    scale = lcm(*{net.denominator for _, net in settled.values()})
    event = np.full((N_STRENGTHS, 5), -1, dtype=np.int8)
    net = np.zeros((N_STRENGTHS, 5), dtype=np.int64)
    for (s, outcome), (e, value) in settled.items():
        event[s, outcome] = e
        net[s, outcome] = int(value * scale)
    return SettlementTable(profile=profile, event=event, net_scaled=net, scale=scale)


@dataclass(frozen=True, kw_only=True)
class SimulationResult:
    """Observed play against the exact figures of the same strategy. Sampled, not exact."""

    profile: str
    strategy: str
    seed: int
    requested: int
    hands: int                       # hands played (fewer than requested if interrupted)
    interrupted: bool
    total_net: Fraction              # exact sum of the sampled nets
    total_squares: Fraction          # exact sum of their squares
    event_counts: Mapping[str, int]
    exact: GameResult                # the same strategy, counted over every deal

    @property
    def mean(self) -> Fraction:
        return self.total_net / self.hands

    @property
    def exact_ev(self) -> Fraction:
        return self.exact.total_return

    @property
    def sample_variance(self) -> Fraction:
        return (self.total_squares - self.hands * self.mean**2) / (self.hands - 1)

    @property
    def standard_error(self) -> float:
        # a float power is typed Any (a negative base would give a complex)
        error: float = float(self.sample_variance / self.hands) ** 0.5
        return error

    @property
    def t_statistic(self) -> float:
        return float(self.mean - self.exact_ev) / self.standard_error

    @property
    def p_value(self) -> float:
        """Two-sided p-value of the one-sample t-test of the mean against the exact EV."""
        return float(2 * stats.t.sf(abs(self.t_statistic), df=self.hands - 1))

    @property
    def interval_95(self) -> tuple[float, float]:
        """95% confidence interval of the mean (Student t)."""
        low, high = stats.t.interval(0.95, df=self.hands - 1, loc=float(self.mean), scale=self.standard_error)
        return float(low), float(high)

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): the sampled mean with its standard error and interval, the
        exact EV beside it, the t-test and the chi-square test of the event counts."""
        chi2, chi2_p, cells = self.event_test()
        return {
            "exact": False, "method": "sampled", "paytable": self.profile, "strategy": self.strategy,
            "seed": self.seed, "samples": self.hands, "hands": self.hands, "requested": self.requested,
            "interrupted": self.interrupted,
            **with_float("mean", self.mean), "standard_error": self.standard_error,
            "interval_95": list(self.interval_95), **with_float("expected_return", self.exact_ev),
            "t_statistic": self.t_statistic, "p_value": self.p_value,
            "chi_square": chi2, "chi_square_p_value": chi2_p, "chi_square_cells": cells,
            "event_counts": dict(self.event_counts),
            "event_expected": {row.event: float(row.probability * self.hands) for row in self.exact.rows},
        }

    def event_test(self) -> tuple[float, float, int]:
        """Chi-square test of the event counts against the exact return table: (statistic, p, cells).

        Events expected fewer than MIN_EXPECTED times are pooled into one cell (joined to the
        smallest other cell if still too small); events the strategy never reaches are left out.
        """
        expected = {r.event: r.probability * self.hands
                    for r in (self.exact.row(e) for e in EVENTS) if r.combinations}
        observed = [self.event_counts[e] for e in expected]
        rare = [i for i, e in enumerate(expected) if expected[e] < MIN_EXPECTED]
        exp = [float(x) for x in expected.values()]
        cells = [[i] for i in range(len(exp)) if i not in rare]
        if rare:
            cells.append(rare)
            if sum(exp[i] for i in rare) < MIN_EXPECTED and len(cells) > 1:
                smallest = min(range(len(cells) - 1), key=lambda c: sum(exp[i] for i in cells[c]))
                cells[smallest] += cells.pop()
        f_obs = [sum(observed[i] for i in c) for c in cells]
        f_exp = [sum(exp[i] for i in c) for c in cells]
        result = stats.chisquare(f_obs, f_exp)
        return float(result.statistic), float(result.pvalue), len(cells)


def check_simulation(hands: int, seed: int) -> None:
    """Raise SimulationError unless hands >= 2 (a variance needs two) and seed >= 0."""
    if hands < 2:
        raise SimulationError(f"a simulation needs at least 2 hands (for its variance), got {hands}")
    if hands > MAX_HANDS:
        raise SimulationError(f"a simulation deals at most {MAX_HANDS:,} hands, got {hands:,}")
    if seed < 0:
        raise SimulationError(f"the seed must not be negative, got {seed}")


def simulate(
    outcomes: SituationOutcomes,
    strategy: Strategy,
    *,
    hands: int,
    seed: int,
    progress: Progress | None = None,
) -> SimulationResult:
    """Play ``hands`` shuffled deals under ``strategy`` and the profile of ``outcomes``.

    Reports one stage "dealing" of ``hands`` steps (one step per hand). Ctrl-C (KeyboardInterrupt)
    stops after the last finished batch; the result then says ``interrupted``.
    """
    check_simulation(hands, seed)
    mask = strategy.raise_mask(outcomes)
    exact = evaluate_strategy(outcomes, mask, name=strategy.name)
    table = settlement_table(outcomes.profile)
    rng = np.random.default_rng(seed)
    deck = np.broadcast_to(np.arange(52, dtype=np.int64), (BATCH, 52))
    played, total, squares = 0, 0, 0
    events = np.zeros(len(EVENTS), dtype=np.int64)
    interrupted = False
    stage = or_none(progress)
    stage.stage("dealing", steps=hands)
    try:
        while played < hands:
            n = min(BATCH, hands - played)
            decks = rng.permuted(deck[:n], axis=1)  # a full shuffle of each row
            player, dealer = decks[:, :5], decks[:, 5:10]
            rows, up = situation_index(outcomes, player, decks[:, 5])
            event, net = table.settle_batch(evaluate_batch(player), evaluate_batch(dealer), mask[rows, up])
            batch_events = np.bincount(event, minlength=len(EVENTS))
            # one assignment, so an interrupt leaves the totals consistent
            played, total, squares, events = (played + n, total + int(net.sum()),
                                              squares + int((net * net).sum()), events + batch_events)
            stage.step(n)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        stage.end()
    if played < 2:  # interrupted before anything can be said
        raise KeyboardInterrupt
    return SimulationResult(
        profile=outcomes.profile.name, strategy=strategy.name, seed=seed, requested=hands, hands=played,
        interrupted=interrupted, total_net=Fraction(total, table.scale),
        total_squares=Fraction(squares, table.scale**2),
        event_counts=MappingProxyType({e: int(c) for e, c in zip(EVENTS, events, strict=True)}),
        exact=exact)
