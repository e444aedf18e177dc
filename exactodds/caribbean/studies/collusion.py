"""Collusion: N players at one table share their hands; each decides exactly with every shared card.

Each sample is one table deal: N five-card hands and the dealer's up card from a shuffled
deck (numpy Generator with the caller's seed). For every seat the decision is exact:
:func:`exactodds.caribbean.decision.decide.decide` enumerates all C(46 - 5(N-1), 4) completions of
the dealer's hand with the other players' cards dead, and the seat's value is the exact
max(EV(raise), EV(fold) = -1). The outer space of table deals is too large to enumerate,
so it is sampled: every figure here is an estimate with a standard error.

The samples come in chunks of :data:`CHUNK_SAMPLES` table deals; chunk k draws its deals
from its own generator seeded with ``(seed, k)``, and each chunk returns exact ``Fraction``
sums. So a run gives the same figures whether its chunks ran in this process or on a Dask
cluster (:mod:`exactodds.scale`), and an interrupted run keeps whole chunks only.

Two estimators, over the same samples (all seats are symmetric; each sample averages its seats):

* direct: the mean of the seat values; N = 1 reproduces the exact game within its error;
* paired: the gain over the normal game, seat value minus the exact EV (given the shared
  cards) of the decision the normal optimal strategy takes with the same hand and up card.
  That decision depends on the hand and up card only, so its mean is exactly the normal
  game's return; the gain is non-zero only where sharing changes a decision, and its
  standard error is far smaller. Return = exact normal return + gain.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np
from scipy import stats

from exactodds.caribbean.analysis.game import SituationOutcomes, evaluate_strategy, situation_outcomes
from exactodds.caribbean.decision.decide import Choice, decide
from exactodds.caribbean.profile import Profile
from exactodds.caribbean.published.partial import CollusionFigure, collusion_figures
from exactodds.caribbean.strategy.strategies import situation_index
from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict, with_float
from exactodds.progress import Progress, or_none
from exactodds.scale import ChunkRunner

MAX_PLAYERS = 7
DEFAULT_SAMPLES = 2_000
MAX_SAMPLES = 10_000_000  # each sample decides every seat exactly: about an hour at the most
CHUNK_SAMPLES = 25


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
        """The estimate from the sample values."""
        return cls.from_sums(count=len(values), total=sum(values, Fraction(0)),
                             squares=sum((v * v for v in values), Fraction(0)))

    @classmethod
    def from_sums(cls, *, count: int, total: Fraction, squares: Fraction) -> Estimate:
        """The estimate from the count, sum and sum of squares of the values (exact variance)."""
        mean = total / count
        variance = (squares - total * total / count) / (count - 1)
        se = (float(variance) / count) ** 0.5
        if se == 0:
            return cls(mean=mean, standard_error=0.0, interval_95=(float(mean), float(mean)))
        low, high = stats.t.interval(0.95, df=count - 1, loc=float(mean), scale=se)
        return cls(mean=mean, standard_error=se, interval_95=(float(low), float(high)))


@dataclass(frozen=True, kw_only=True)
class ChunkSums:
    """One chunk's exact sums: samples, seat-mean values and gains (and their squares), changes."""

    samples: int
    values: Fraction
    value_squares: Fraction
    gains: Fraction
    gain_squares: Fraction
    changed: int
    seats: tuple[tuple[SeatRecord, ...], ...] = ()  # per deal, with record_cells: each seat's count cell


SeatRecord = tuple[int, Fraction, Fraction]  # (count cell, EV(fold) - EV(normal), EV(raise) - EV(normal))
COUNT_CELLS = 4 * 2 * 4 * 9  # hand group x normal decision x dead cards of the up card's rank x dead A and K
HAND_GROUPS = ("below A-K", "A-K high", "one pair", "two pair or better")


def count_cell(pay_index: int, normal_raise: bool, up: int, dead: list[int]) -> int:
    """The count strategy's cell of a seat: its hand group (from the pay index: -1 below A-K,
    0 A-K high, 1 a pair, more: two pair or better), the normal game's optimal decision for the
    hand and up card (the basic strategy the count adjusts), the dead cards of the up card's
    rank (the matches, 0..3) and the dead aces and kings (0..8)."""
    group = min(pay_index + 1, 3)
    matches = sum(1 for c in dead if c >> 2 == up >> 2)
    aces_kings = sum(1 for c in dead if c >> 2 >= 11)
    return ((group * 2 + int(normal_raise)) * 4 + matches) * 9 + aces_kings


@dataclass(frozen=True, kw_only=True)
class CountStrategy:
    """A simple count strategy (in the spirit of Grosjean's MAK count: matches, aces, kings):
    the basic strategy adjusted by the count: raise or fold by the cell of :func:`count_cell`,
    each cell's decision the better one over the training deals (the even chunks), valued on the
    other deals (the odd chunks). ``gain`` is the sampled gain over the normal game per ante
    (higher is better for the player)."""

    raised_cells: tuple[int, ...]
    train_samples: int
    test_samples: int
    gain: Estimate

    def to_dict(self, normal_return: Fraction) -> JSONDict:
        return {"cells": COUNT_CELLS, "raised_cells": len(self.raised_cells),
                "train_samples": self.train_samples, "test_samples": self.test_samples,
                **with_float("paired_return", normal_return + self.gain.mean), "gain": self.gain.to_dict()}


def count_strategy(parts: list[ChunkSums]) -> CountStrategy | None:
    """Learn the count strategy on the even chunks' deals and value it on the odd chunks' deals
    (None without recorded seats in both halves)."""
    train = [deal for p in parts[0::2] for deal in p.seats]
    test = [deal for p in parts[1::2] for deal in p.seats]
    if not train or len(test) < 2:
        return None
    better = [Fraction(0)] * COUNT_CELLS
    for deal in train:
        for cell, fold_gain, raise_gain in deal:
            better[cell] += raise_gain - fold_gain
    raised = tuple(c for c in range(COUNT_CELLS) if better[c] > 0)
    chosen = set(raised)
    gains = [sum((r if cell in chosen else f for cell, f, r in deal), Fraction(0)) / len(deal)
             for deal in test]
    return CountStrategy(raised_cells=raised, train_samples=len(train), test_samples=len(test),
                         gain=Estimate.of(gains))


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
    burn_card_seen: bool = False  # the dealer burns one card that the colluders see (also dead)
    count_strategy: CountStrategy | None = None  # the simple count strategy on the same deals, if asked

    @property
    def completions(self) -> int:
        """Dealer completions each decision enumerates."""
        return comb(52 - 5 * self.players - 1 - self.burn_card_seen, 4)

    @property
    def published(self) -> tuple[CollusionFigure, ...]:
        """Published figures for this table (players, burn card seen, paytable), compared only."""
        return tuple(f for f in collusion_figures()
                     if (f.players, f.burn_card_seen, f.profile) == (self.players, self.burn_card_seen,
                                                                      self.profile))

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
            "exact": False, "method": "sampled", "paytable": self.profile, "player_count": self.players,
            "seed": self.seed, "samples": self.samples, "requested": self.requested,
            "interrupted": self.interrupted, "burn_card_seen": self.burn_card_seen,
            "combinations_per_decision": self.completions,
            **with_float("expected_return", self.normal_return),
            **with_float("paired_return", self.paired_return), "gain": self.gain.to_dict(),
            "direct_return": self.direct.to_dict(), "changed_decisions": self.changed_decisions,
            "published": [f.to_dict(player_edge=self.paired_return) for f in self.published],
            "count_strategy": (None if self.count_strategy is None
                               else self.count_strategy.to_dict(self.normal_return)),
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


def chunk_sizes(samples: int) -> list[int]:
    """Table deals in each chunk: :data:`CHUNK_SAMPLES` each, the last one the remainder."""
    return [min(CHUNK_SAMPLES, samples - start) for start in range(0, samples, CHUNK_SAMPLES)]


def collusion_chunk(profile: Profile, players: int, seed: int, chunk: int, size: int,
                    on_sample: Callable[[int], None] | None = None,
                    burn_card_seen: bool = False, record_cells: bool = False) -> ChunkSums:
    """Chunk ``chunk`` of a collusion run: ``size`` table deals drawn with the seed ``(seed, chunk)``,
    each seat decided exactly; the exact sums of the seat-mean values and gains. With
    ``burn_card_seen`` one more card is drawn after the up card: the burn card, dead for every
    seat (the hands and up cards are those of the same seed without it). With ``record_cells``,
    each seat's count cell and gains (:data:`SeatRecord`) are kept per deal."""
    outcomes = situation_outcomes(profile)  # cached per process (each Dask worker has its own)
    normal_mask = outcomes.optimal_raise()
    rng = np.random.default_rng([seed, chunk])
    dealt = rng.permuted(np.broadcast_to(np.arange(52), (size, 52)), axis=1)[:, :5 * players + 2]
    hands = dealt[:, :5 * players].reshape(size, players, 5)
    ups = dealt[:, 5 * players]
    burns = dealt[:, 5 * players + 1]
    rows, up_cols = situation_index(outcomes, hands.reshape(-1, 5), np.repeat(ups, players))
    normal_raise = normal_mask[rows, up_cols].reshape(size, players)
    pay_index = outcomes.pay_index[rows].reshape(size, players)
    seats: list[tuple[SeatRecord, ...]] = []
    values = value_squares = gains = gain_squares = Fraction(0)
    changed = 0
    for k in range(size):
        value = gain = Fraction(0)
        records: list[SeatRecord] = []
        for seat in range(players):
            others = np.delete(hands[k], seat, axis=0).ravel().tolist()
            if burn_card_seen:
                others.append(int(burns[k]))
            d = decide(hands[k, seat].tolist(), up=int(ups[k]), dead=others, profile=outcomes.profile)
            best = max(d.ev_raise, d.ev_fold)
            normal = d.ev_raise if normal_raise[k, seat] else d.ev_fold
            value += best
            gain += best - normal
            changed += (d.decision == Choice.RAISE) != bool(normal_raise[k, seat])
            if record_cells:
                cell = count_cell(int(pay_index[k, seat]), bool(normal_raise[k, seat]), int(ups[k]), others)
                records.append((cell, d.ev_fold - normal, d.ev_raise - normal))
        if record_cells:
            seats.append(tuple(records))
        value, gain = value / players, gain / players
        values += value
        value_squares += value * value
        gains += gain
        gain_squares += gain * gain
        if on_sample is not None:
            on_sample(1)
    return ChunkSums(samples=size, values=values, value_squares=value_squares, gains=gains,
                     gain_squares=gain_squares, changed=changed, seats=tuple(seats))


def collusion(
    outcomes: SituationOutcomes,
    *,
    players: int,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    progress: Progress | None = None,
    runner: ChunkRunner | None = None,
    burn_card_seen: bool = False,
    count: bool = False,
) -> CollusionResult:
    """Estimate one seat's return per ante when ``players`` share their hands (profile of ``outcomes``);
    with ``burn_card_seen`` they also see the card the dealer burns (one more dead card). With
    ``count``, also the simple count strategy's return (:func:`count_strategy`) on the same deals.

    The chunks run in this process, or on ``runner`` (e.g. a Dask cluster) when given; the
    result is the same. Reports one stage of ``samples`` steps (each sample in this process,
    each chunk on a runner). In this process, Ctrl-C stops after the last finished chunk.
    """
    check_collusion(players, samples, seed)
    profile = outcomes.profile
    normal_mask = outcomes.optimal_raise()
    normal_return = evaluate_strategy(outcomes, normal_mask, name="optimal").total_return
    sizes = chunk_sizes(samples)
    parts: list[ChunkSums] = []
    interrupted = False
    stage = or_none(progress)
    stage.stage("sampling table deals", steps=samples)
    try:
        if runner is None:
            try:
                for k, size in enumerate(sizes):
                    parts.append(collusion_chunk(profile, players, seed, k, size, stage.step, burn_card_seen,
                                                 count))
            except KeyboardInterrupt:
                interrupted = True
        else:
            tasks = [(profile, players, seed, k, size, None, burn_card_seen, count)
                     for k, size in enumerate(sizes)]
            parts = runner.map(collusion_chunk, tasks, on_done=lambda k: stage.step(sizes[k]))
    finally:
        stage.end()
    done = sum(p.samples for p in parts)
    if done < 2:  # interrupted before anything can be said
        raise KeyboardInterrupt
    total = ChunkSums(samples=done, values=sum((p.values for p in parts), Fraction(0)),
                      value_squares=sum((p.value_squares for p in parts), Fraction(0)),
                      gains=sum((p.gains for p in parts), Fraction(0)),
                      gain_squares=sum((p.gain_squares for p in parts), Fraction(0)),
                      changed=sum(p.changed for p in parts))
    return CollusionResult(
        profile=profile.name, players=players, seed=seed, requested=samples, samples=done,
        interrupted=interrupted, normal_return=normal_return,
        direct=Estimate.from_sums(count=done, total=total.values, squares=total.value_squares),
        gain=Estimate.from_sums(count=done, total=total.gains, squares=total.gain_squares),
        changed_decisions=total.changed, burn_card_seen=burn_card_seen,
        count_strategy=count_strategy(parts) if count else None)
