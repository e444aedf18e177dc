"""Hole-carding: the whole game of Caribbean Stud when K of the dealer's cards are seen.

K = 1 is the normal game (the up card); K = 2 adds one seen hole card; K = 5 shows the
whole dealer hand. The player plays the optimal strategy given what is seen: raise iff
EV(raise) > EV(fold) = -1 (an exact tie folds, as everywhere in this package).

**Deal count.** A deal is (player hand, the K seen dealer cards as a set, the dealer's
unseen cards): C(52,5) x C(47,K) x C(47-K, 5-K) deals, which is C(52,5) x C(47,5) x C(5,K):
every (player hand, dealer hand) pair counted once for each choice of which K dealer cards
are seen. For K = 1 this is the usual 19,933,230,517,200. Whether a seen card is the up
card or a hole card does not change the outcome, so the set convention loses nothing.

Exact methods (see :mod:`exactodds.caribbean.holecard.kernels.seen_cards`): K = 1 is the normal
analysis; K = 5 queries the normal sweep's counters per player class with no card
inserted; K = 2..4 run one sweep per suit class of the seen set over every player hand.
:mod:`exactodds.caribbean.holecard.sample` estimates the result by sampling situations
and deciding each one by full enumeration: the independent cross-check.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, ClassVar

import numpy as np

from exactodds.caribbean.analysis.counting import player_classes
from exactodds.caribbean.analysis.game import analyze
from exactodds.caribbean.analysis.result import GameResult, ReturnRow
from exactodds.caribbean.decision.settle import (
    DEALER_NOT_QUALIFY,
    DEALER_WINS,
    EVENT_LABELS,
    EVENTS,
    FOLD,
    PUSH,
    Event,
    event_net,
    kernel_nets,
)
from exactodds.caribbean.holecard.kernels import seen_cards as hk
from exactodds.caribbean.holecard.sample import SampledEstimate, check_known, sample_known
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_FLOORS, Profile, load_profile
from exactodds.caribbean.published.holecard import PublishedFigure, published_figures
from exactodds.combinatorics import N_HANDS, all_subsets_colex, colex_index
from exactodds.counting.deck import strength_deck
from exactodds.counting.kernels.hand_counters import counters_below
from exactodds.counting.layout import ACC_COLUMNS, Acc
from exactodds.errors import ExactOddsError
from exactodds.handrank import N_STRENGTHS
from exactodds.jsonable import JSONDict, with_float
from exactodds.progress import Progress, staged
from exactodds.scale import ChunkRunner, SerialRunner
from exactodds.stopping import stoppable
from exactodds.symmetry import suit_signature
from exactodds.threaded import run_spans, thread_count
from exactodds.wording import counted

DEAL_CONVENTION = ("player hand x seen dealer cards (a set) x unseen dealer cards = "
                   "C(52,5) x C(47,K) x C(47-K,5-K)")


def total_deals(dealer_known: int) -> int:
    """C(52,5) x C(47,K) x C(47-K, 5-K): player hand x seen dealer set x unseen dealer cards."""
    check_known(dealer_known)
    return N_HANDS * comb(47, dealer_known) * comb(47 - dealer_known, 5 - dealer_known)


def completions(dealer_known: int) -> int:
    """Dealer completions of one situation: C(47-K, 5-K)."""
    return comb(47 - dealer_known, 5 - dealer_known)


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, kw_only=True)
class _HoleCardBase:
    """What exact and sampled hole-carding results share."""

    dealer_known: int
    profile: Profile
    seconds: float
    method: str

    @property
    def total_return(self) -> Fraction:
        """Expected net per ante for the player (higher is better for the player)."""
        raise NotImplementedError

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per ante; negative means a player edge."""
        return -self.total_return

    @property
    def player_edge(self) -> Fraction:
        return self.total_return

    @property
    def published(self) -> PublishedFigure | None:
        """The published figure for this profile and number of seen cards, if any."""
        return published_figures().get((self.profile.name, self.dealer_known))

    def _common_dict(self) -> JSONDict:
        out: JSONDict = {"dealer_known": self.dealer_known}
        published = self.published
        if published is not None:
            out["published"] = published.to_dict(house_edge=self.house_edge)
        out["seconds"] = round(self.seconds, 3)
        return out


@dataclass(frozen=True, kw_only=True)
class ExactHoleCardResult(_HoleCardBase):
    """The whole game with K dealer cards seen, counted exactly: ``game`` is its return table."""

    game: GameResult
    exact: ClassVar[bool] = True

    @property
    def total_return(self) -> Fraction:
        return self.game.total_return

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): the return table, the deal count and the published figure."""
        return {"method": self.method, **self.game.to_dict(), "deal_count": DEAL_CONVENTION,
                **self._common_dict()}


@dataclass(frozen=True, kw_only=True)
class SampledHoleCardResult(_HoleCardBase):
    """The whole game with K dealer cards seen, estimated from sampled situations (not exact)."""

    sample: SampledEstimate
    exact: ClassVar[bool] = False

    @property
    def total_return(self) -> Fraction:
        """The sample mean of the situations' exact optimal returns."""
        return self.sample.total_return

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): the estimate of the house edge, its standard error and
        95% interval (negative values are a player edge)."""
        low, high = self.sample.interval_95
        return {
            "exact": False, "method": self.method, "paytable": self.profile.name,
            "strategy": f"optimal, {counted(self.dealer_known, 'dealer card')} seen",
            "samples": self.sample.samples, "seed": self.sample.seed,
            **with_float("expected_return", self.sample.total_return),
            **with_float("house_edge", -self.sample.total_return),
            "standard_error": self.sample.standard_error,
            "interval_95": [-high, -low],
            **with_float("raise_frequency", self.sample.raise_frequency),
            **self._common_dict(),
        }


HoleCardResult = ExactHoleCardResult | SampledHoleCardResult


# --------------------------------------------------------------------------- exact


def _chunk_bounds(strength_start: np.ndarray, qualify: int, parts: int) -> np.ndarray:
    """Split strengths 0..7461 into ``parts`` chunks of about equal work (K = 5 sweep).

    A class below the qualifier costs one query, one above it two."""
    per_level = np.diff(strength_start).astype(np.float64)
    per_level[qualify:] *= 2
    cumulative = np.concatenate([[0.0], np.cumsum(per_level)])
    cuts = np.searchsorted(cumulative, cumulative[-1] * np.arange(1, parts) / parts)
    return np.unique(np.concatenate([[0], cuts, [N_STRENGTHS]])).astype(np.int64)


@lru_cache(maxsize=4)
def seen_set_classes(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Suit classes of the k-card seen sets: (one sorted member per class (m, k), class sizes).

    Every count of the game is the same for two seen sets that differ by a renaming of suits
    (the player's hand runs over all hands), so one member per class, weighted, suffices.
    """
    sets = all_subsets_colex(52, k).astype(np.int64)
    _, first, sizes = np.unique(suit_signature(sets), return_index=True, return_counts=True)
    return sets[first], sizes.astype(np.int64)


@lru_cache(maxsize=1)
def strength_ordered_hands() -> hk.SortedHands:
    """Every five-card hand, stored in strength order (the K = 2..4 kernels' player hands)."""
    deck = strength_deck()
    return hk.SortedHands(hands=deck.hands[deck.order], masks=deck.masks[deck.order], index=deck.order,
                          level_start=deck.level_start)


def _pay_of_strength() -> np.ndarray:
    """Pay index (into PAY_CATEGORIES) of every strength, -1 below A-K high."""
    return (np.searchsorted(np.array(PAY_FLOORS), np.arange(N_STRENGTHS), side="right") - 1).astype(np.int64)


def payout_bundle(profile: Profile) -> hk.Payout:
    nets, _ = kernel_nets(profile)
    return hk.Payout(qualify=profile.qualify_strength, pay_of=_pay_of_strength(), nets=nets)


BATCHES = {2: 8, 3: 20, 4: 50}


def analyze_known(
    profile: Profile | str = "standard", *, dealer_known: int = 1, samples: int = 0, seed: int = 2026,
    progress: Progress | None = None, runner: ChunkRunner | None = None,
) -> HoleCardResult:
    """The whole game with ``dealer_known`` (1..5) dealer cards seen, under the optimal strategy.

    Exact by default; with ``samples`` > 0, a seeded estimate from that many sampled
    situations (:func:`sample_known`). Reports its stages and steps to ``progress``.
    With ``runner`` (e.g. a Dask cluster, :mod:`exactodds.scale`) the K = 2..4 sweep's chunks
    run there; the counts are the same integers.
    Returns an :class:`ExactHoleCardResult` or a :class:`SampledHoleCardResult`; ``house_edge``
    is the expected loss per ante (negative: a player edge, so lower is better for the player).

    >>> analyze_known("standard", dealer_known=1).house_edge
    Fraction(142031221, 2718662100)
    """
    check_known(dealer_known)
    profile = load_profile(profile)
    if profile.qualify_strength < PAY_FLOORS[0]:
        raise ExactOddsError("the qualifier is below A-K high: a qualifying hand would have no pay")
    start = time.perf_counter()
    if samples:
        sample = sample_known(profile, dealer_known=dealer_known, samples=samples, seed=seed,
                              progress=progress)
        return SampledHoleCardResult(dealer_known=dealer_known, profile=profile,
                              sample=sample, seconds=time.perf_counter() - start,
                              method="sampled situations, each decided by full enumeration of the "
                                     "dealer's unseen cards")
    if dealer_known == 1:
        game = analyze(profile, progress=progress)
        method = "counting sweep over (player class, up card), the normal game"
    elif dealer_known == 5:
        with staged(progress, "counting all deals, 5 dealer cards seen", steps=2) as stage:
            game = _all_known_game(profile, lambda _label: stage.step())
        method = "counting sweep over player classes, every dealer hand disjoint from each"
    else:
        with staged(progress, f"counting all deals, {dealer_known} dealer cards seen",
                    steps=1 + BATCHES[dealer_known]) as stage:
            game = _seen_sets_game(profile, dealer_known, lambda _label: stage.step(), runner)
        method = SEEN_SETS_METHOD.format(k=dealer_known)
    return ExactHoleCardResult(dealer_known=dealer_known, profile=profile, game=game,
                               seconds=time.perf_counter() - start, method=method)


def _all_known_game(profile: Profile, step: Callable[[str], None]) -> GameResult:
    deck = strength_deck()
    classes = player_classes()
    payout = payout_bundle(profile)
    qualify_counters = counters_below(deck, profile.qualify_strength)
    step("qualifier counters")
    bounds = _chunk_bounds(classes.level_start, profile.qualify_strength, 2 * thread_count())
    acc = np.zeros((len(bounds) - 1, ACC_COLUMNS), dtype=np.int64)
    chunks = len(bounds) - 1
    stoppable(run_spans, hk.all_known_sweep, chunks, deck, classes, bounds, payout, qualify_counters, acc,
              chunks=chunks)
    step("dealer hands")
    return _game_from_sums(profile, 5, [int(x) for x in acc.sum(axis=0)])


def seen_sets_chunk(profile: Profile, k: int, classes: Sequence[int]) -> list[int]:
    """One chunk of the K = 2..4 sweep: the accumulator sums of the seen-set classes numbered
    ``classes`` (see :func:`seen_set_classes`), each class's counts times its weight (exact ints)."""
    reps, weights = seen_set_classes(k)
    batch = np.asarray(classes, dtype=np.int64)
    acc = np.zeros((len(batch), ACC_COLUMNS), dtype=np.int64)
    stoppable(run_spans, hk.seen_sets, len(batch), reps[batch], strength_deck().table, _unseen_subsets(k),
              strength_ordered_hands(), payout_bundle(profile), acc, chunks=len(batch))
    sums = [0] * ACC_COLUMNS
    for row, w in zip(acc.tolist(), weights[batch].tolist(), strict=True):
        sums = [t + w * x for t, x in zip(sums, row, strict=True)]
    return sums


@lru_cache(maxsize=4)
def _unseen_subsets(k: int) -> np.ndarray:
    return all_subsets_colex(52 - k, 5 - k).astype(np.int64)


def seen_sets_chunks(profile: Profile, k: int, batches: int | None = None) -> list[tuple[Any, ...]]:
    """The K = 2..4 sweep as chunk arguments of :func:`seen_sets_chunk` (``BATCHES[k]`` by default)."""
    reps, _ = seen_set_classes(k)
    groups = np.array_split(np.arange(len(reps)), batches or BATCHES[k])
    return [(profile, k, group.tolist()) for group in groups if len(group)]


def _seen_sets_game(profile: Profile, k: int, step: Callable[[str], None],
                    runner: ChunkRunner | None = None) -> GameResult:
    step("inputs")
    return seen_sets_games([profile], k, runner=runner, on_chunk=lambda _i: step("seen sets"))[0]


SEEN_SETS_METHOD = "counting sweep per suit class of {k} seen dealer cards, over every player hand"


def analyze_known_profiles(
    profiles: Sequence[Profile | str], *, dealer_known: int, runner: ChunkRunner | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> list[HoleCardResult]:
    """The exact game with 2..4 dealer cards seen for each profile, all profiles' chunks in one
    job (:func:`seen_sets_games`); ``seconds`` of each result is the whole job's time."""
    start = time.perf_counter()
    loaded = [load_profile(p) for p in profiles]
    games = seen_sets_games(loaded, dealer_known, runner=runner, on_chunk=on_chunk)
    seconds = time.perf_counter() - start
    return [ExactHoleCardResult(dealer_known=dealer_known, profile=p, game=g,
                                seconds=seconds, method=SEEN_SETS_METHOD.format(k=dealer_known))
            for p, g in zip(loaded, games, strict=True)]


def seen_sets_games(profiles: Sequence[Profile | str], k: int, *, runner: ChunkRunner | None = None,
                    on_chunk: Callable[[int], None] | None = None) -> list[GameResult]:
    """The exact K = 2..4 game of each profile, every profile's chunks in one job (one list of
    chunks for the runner to spread), results in the profiles' order."""
    if not 2 <= k <= 4:
        raise ExactOddsError(f"the seen-set sweep needs 2..4 dealer cards seen, got {k}")
    loaded = [load_profile(p) for p in profiles]
    per_profile = [seen_sets_chunks(p, k) for p in loaded]
    tasks = [task for chunks in per_profile for task in chunks]
    parts = (runner or SerialRunner()).map(seen_sets_chunk, tasks, on_done=on_chunk)
    games, start = [], 0
    for profile, chunks in zip(loaded, per_profile, strict=True):
        mine = parts[start:start + len(chunks)]
        start += len(chunks)
        games.append(_game_from_sums(profile, k, [sum(c) for c in zip(*mine, strict=True)]))
    return games


def _game_from_sums(profile: Profile, k: int, sums: list[int]) -> GameResult:
    return game_from_sums(profile, sums, total=total_deals(k), strategy=f"optimal, {k} dealer cards seen")


def game_from_sums(profile: Profile, sums: Sequence[int], *, total: int, strategy: str) -> GameResult:
    """The return table of accumulator sums (Acc layout) over ``total`` deals; raises
    AssertionError unless the events sum to ``total``."""
    combos: dict[str, int] = {Event.win(c): sums[Acc.WIN + i] for i, c in enumerate(PAY_CATEGORIES)}
    combos[DEALER_NOT_QUALIFY] = sums[Acc.NOT_QUALIFY]
    combos[PUSH] = sums[Acc.PUSH]
    combos[FOLD] = sums[Acc.FOLD]
    combos[DEALER_WINS] = sums[Acc.DEALER_WINS]
    rows = tuple(
        ReturnRow(event=e, label=EVENT_LABELS[e], net_units=event_net(e, profile), combinations=combos[e],
                  total_deals=total)
        for e in EVENTS
    )
    counted = sum(r.combinations for r in rows)
    if counted != total:
        raise AssertionError(f"return table sums to {counted}, expected {total}")
    units = sum((r.net_units * r.combinations for r in rows), Fraction(0))
    return GameResult(profile=profile, strategy=strategy, rows=rows,
                      total_combinations=total, total_units=units, raised_deals=sums[Acc.RAISED],
                      dealer_qualifies_frequency=Fraction(sums[Acc.DEALER_QUALIFIES], total))


# --------------------------------------------------------------------------- one seen set, every hand


@dataclass(frozen=True, kw_only=True)
class SeenSetSituations:
    """The kernel's counts for one seen dealer set and every player hand (K = 2..4).

    Arrays are indexed by the colex index of the player's hand; hands meeting the seen set
    are 0. ``below_qualifier``, ``weaker``, ``equal``: dealer completions below the
    qualifier, below the player, equal to the player (``weaker`` repeats
    ``below_qualifier`` and ``equal`` is 0 when the hand cannot beat a qualifying dealer).
    """

    seen: tuple[int, ...]
    below_qualifier: np.ndarray
    weaker: np.ndarray
    equal: np.ndarray
    raises: np.ndarray

    def counts(self, hand: Iterable[int]) -> tuple[int, int, int, bool]:
        i = colex_index(hand)
        return (int(self.below_qualifier[i]), int(self.weaker[i]), int(self.equal[i]), bool(self.raises[i]))


def seen_set_situations(seen: Iterable[int], profile: Profile | str = "standard") -> SeenSetSituations:
    """Run the K = 2..4 kernel on one seen dealer set and keep every player hand's situation."""
    cards = np.array(sorted(int(c) for c in seen), dtype=np.int64)
    k = len(cards)
    if not 2 <= k <= 4 or len(set(cards.tolist())) != k:
        raise ExactOddsError(f"a seen set here has 2..4 distinct cards, got {k}")
    profile = load_profile(profile)
    rec = np.zeros((4, N_HANDS), dtype=np.int32)
    stoppable(hk.seen_set, cards, strength_deck().table, all_subsets_colex(52 - k, 5 - k).astype(np.int64),
              strength_ordered_hands(), payout_bundle(profile), np.zeros(ACC_COLUMNS, dtype=np.int64),
              True, rec)
    return SeenSetSituations(seen=tuple(cards.tolist()), below_qualifier=rec[0], weaker=rec[1], equal=rec[2],
                             raises=rec[3].astype(bool))
