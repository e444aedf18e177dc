"""Collusion: N players at one table share their hands; each decides exactly with every shared card.

Each sample is one table deal: N five-card hands and the dealer's up card from a shuffled
deck (numpy Generator with the caller's seed). For every seat the decision is exact:
:func:`exactodds.caribbean.decision.decide.decide` enumerates all C(46 - 5(N-1), 4) completions of
the dealer's hand with the other players' cards dead, and the seat's value is the exact
max(EV(raise), EV(fold) = -1). The outer space of table deals is too large to enumerate,
so it is sampled: every figure here is an estimate with a standard error.

Two estimators, over the same samples (all seats are symmetric; each sample averages its seats):

* direct: the mean of the seat values; N = 1 reproduces the exact game within its error;
* paired: the gain over the normal game, seat value minus the exact EV (given the shared
  cards) of the decision the normal optimal strategy takes with the same hand and up card.
  That decision depends on the hand and up card only, so its mean is exactly the normal
  game's return; the gain is non-zero only where sharing changes a decision, and its
  standard error is far smaller. Return = exact normal return + gain.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
from scipy import stats

from exactodds.caribbean.analysis.game import SituationOutcomes, evaluate_strategy
from exactodds.caribbean.decision.decide import decide
from exactodds.caribbean.strategy.strategies import situation_index
from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict, with_float
from exactodds.progress import Progress, or_none

MAX_PLAYERS = 7
DEFAULT_SAMPLES = 2_000
MAX_SAMPLES = 10_000_000  # each sample decides every seat exactly: about an hour at the most


class CollusionError(ExactOddsError):
    """A collusion study that cannot run as asked (players outside 1..7, too few samples)."""


@dataclass(frozen=True, kw_only=True)
class Estimate:
    """A sampled mean with its standard error and 95% interval (Student t)."""

    mean: Fraction
    standard_error: float
    interval_95: tuple[float, float]

    def to_dict(self) -> JSONDict:
        return {**with_float("mean", self.mean), "standard_error": self.standard_error,
                "interval_95": list(self.interval_95)}

    @classmethod
    def of(cls, values: list[Fraction]) -> Estimate:
        mean = sum(values, Fraction(0)) / len(values)
        se = float(np.std(np.array(values, dtype=float), ddof=1)) / len(values) ** 0.5
        if se == 0:
            return cls(mean=mean, standard_error=0.0, interval_95=(float(mean), float(mean)))
        low, high = stats.t.interval(0.95, df=len(values) - 1, loc=float(mean), scale=se)
        return cls(mean=mean, standard_error=se, interval_95=(float(low), float(high)))


@dataclass(frozen=True, kw_only=True)
class CollusionResult:
    """Sampled return of one seat when N players share their hands. Not exact: estimates with SEs."""

    profile: str
    players: int
    seed: int
    requested: int
    samples: int                 # samples done (fewer than requested if interrupted)
    interrupted: bool
    normal_return: Fraction      # exact return per ante of the normal game (optimal strategy)
    direct: Estimate             # mean over samples of the seats' exact max(EV(raise), -1)
    gain: Estimate               # paired gain over the normal decision, on the same deals
    changed_decisions: int       # seats (over all samples) whose decision sharing changed

    @property
    def completions(self) -> int:
        """Dealer completions each decision enumerates."""
        return comb(52 - 5 * self.players - 1, 4)

    @property
    def paired_return(self) -> Fraction:
        """Return per ante estimated as the exact normal return plus the sampled gain (SE of the gain)."""
        return self.normal_return + self.gain.mean

    @property
    def changed_share(self) -> float:
        return self.changed_decisions / (self.samples * self.players)

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): sampled estimates beside the exact normal return."""
        return {
            "exact": False, "method": "sampled", "paytable": self.profile, "players": self.players,
            "seed": self.seed, "samples": self.samples, "requested": self.requested,
            "interrupted": self.interrupted, "dealer_completions": self.completions,
            **with_float("normal_return", self.normal_return),
            "paired_return_float": float(self.paired_return), "gain": self.gain.to_dict(),
            "direct_return": self.direct.to_dict(), "changed_decisions": self.changed_decisions,
        }


def check_collusion(players: int, samples: int, seed: int = 0) -> None:
    """Raise CollusionError unless 1 <= players <= 7, samples >= 2 and seed >= 0."""
    if not 1 <= players <= MAX_PLAYERS:
        raise CollusionError(f"players must be 1 to {MAX_PLAYERS}, got {players}")
    if samples < 2:
        raise CollusionError(f"samples must be at least 2 (for a standard error), got {samples}")
    if samples > MAX_SAMPLES:
        raise CollusionError(f"samples must be at most {MAX_SAMPLES:,}, got {samples:,}")
    if seed < 0:
        raise CollusionError(f"the seed must not be negative, got {seed}")


def collusion(
    outcomes: SituationOutcomes,
    *,
    players: int,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    progress: Progress | None = None,
) -> CollusionResult:
    """Estimate one seat's return per ante when ``players`` share their hands (profile of ``outcomes``).

    Reports one stage of ``samples`` steps. Ctrl-C stops after the last finished sample.
    """
    check_collusion(players, samples, seed)
    profile = outcomes.profile
    normal_mask = outcomes.optimal_raise()
    normal_return = evaluate_strategy(outcomes, normal_mask, name="optimal").total_return
    rng = np.random.default_rng(seed)
    dealt = rng.permuted(np.broadcast_to(np.arange(52), (samples, 52)), axis=1)[:, :5 * players + 1]
    hands = dealt[:, :-1].reshape(samples, players, 5)
    ups = dealt[:, -1]
    rows, up_cols = situation_index(outcomes, hands.reshape(-1, 5), np.repeat(ups, players))
    normal_raise = normal_mask[rows, up_cols].reshape(samples, players)

    values: list[Fraction] = []
    gains: list[Fraction] = []
    changed = 0
    interrupted = False
    stage = or_none(progress)
    stage.stage("sampling table deals", steps=samples)
    try:
        for k in range(samples):
            value = gain = Fraction(0)
            sample_changed = 0
            for seat in range(players):
                others = np.delete(hands[k], seat, axis=0).ravel().tolist()
                d = decide(hands[k, seat].tolist(), up=int(ups[k]), dead=others, profile=profile)
                best = max(d.ev_raise, d.ev_fold)
                normal = d.ev_raise if normal_raise[k, seat] else d.ev_fold
                value += best
                gain += best - normal
                sample_changed += (d.decision == "raise") != bool(normal_raise[k, seat])
            values.append(value / players)
            gains.append(gain / players)
            changed += sample_changed
            stage.step()
    except KeyboardInterrupt:
        interrupted = True
        done = min(len(values), len(gains))
        values, gains = values[:done], gains[:done]
    finally:
        stage.end()
    if len(values) < 2:  # interrupted before anything can be said
        raise KeyboardInterrupt
    return CollusionResult(
        profile=profile.name, players=players, seed=seed, requested=samples, samples=len(values),
        interrupted=interrupted, normal_return=normal_return, direct=Estimate.of(values),
        gain=Estimate.of(gains), changed_decisions=changed)
