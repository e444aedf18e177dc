"""Every situation of a partial-information game, streamed in chunks: the strategy as data.

A situation is what the player sees: their hand, the seen dealer cards and the signal (how many
hidden cards are in the sorted set, or the flashed rank). :func:`partial_situations` runs the
counting kernel of :mod:`exactodds.caribbean.holecard.partial` with recording on and yields
:class:`SituationBatch` es: per situation the dealer completions below the qualifier, below the
player and equal to the player, all of them, the optimal decision, and the weight (how many
deals' worth of situations the row stands for: the seen set's suit class size times the player
hand's orbit size). The weighted rows reproduce the whole game exactly (tested), so any other
strategy over the same situations is evaluated exactly from them (:func:`strategy_value`).

On the full deck, one seen set per suit class and one player hand per orbit of the renamings of
the suits the seen cards leave free: 13 x about 450,000 hands x up to 5 signals with the up card
seen (edge sort), rather than 2,598,960 x 47 x 5. A reduced deck (``deck``, for tests) takes
every seen set and every hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np

from exactodds.caribbean.decision.settle import kernel_nets
from exactodds.caribbean.holecard.exact import payout_bundle, seen_set_classes, strength_ordered_hands
from exactodds.caribbean.holecard.kernels import partial_signals as pk
from exactodds.caribbean.holecard.partial import PartialInfo, check_profile, full_deal, signal_bundle
from exactodds.caribbean.profile import PAY_FLOORS, Profile, load_profile
from exactodds.combinatorics import all_subsets_colex
from exactodds.counting.deck import strength_deck
from exactodds.counting.layout import Net
from exactodds.progress import Progress, staged
from exactodds.stopping import stoppable
from exactodds.threaded import run_spans, thread_count

HANDS_PER_TASK = 40_000  # player hands recorded per task (the record is hands x signals x 6 int64)


@dataclass(frozen=True)
class SituationBatch:
    """Situations as columns (one row each; rows with no completion for their signal are left out).

    ``position``: the player hand's position in strength order (``strength_ordered_hands()``);
    ``seen``: (rows, K) the seen dealer cards; ``signal``: 0..hidden cards in the sorted set, or
    the flashed rank (0 = deuce); ``weight``: deals' worth per completion; ``below_qualifier``,
    ``weaker``, ``equal``: weighted dealer completions below the qualifier, below the player, equal
    to the player (the last two as the kernel counts them: ``weaker`` = ``below_qualifier`` and
    ``equal`` = 0 when the hand cannot beat a qualifying dealer); ``completions``: all of them;
    ``raised``: the optimal decision (raise iff EV(raise) > -1, an exact tie folds); ``strength``:
    the player hand's strength (0..7461, higher is stronger).
    """

    position: np.ndarray
    seen: np.ndarray
    signal: np.ndarray
    weight: np.ndarray
    below_qualifier: np.ndarray
    weaker: np.ndarray
    equal: np.ndarray
    completions: np.ndarray
    raised: np.ndarray
    strength: np.ndarray

    def __len__(self) -> int:
        return len(self.position)

    def raise_units(self, profile: Profile) -> np.ndarray:
        """Net of raising, in the kernel's scaled units (``kernel_nets``), summed over each row's
        completions (int64). Divide by completions x scale for EV(raise) per ante."""
        nets, _ = kernel_nets(profile)
        pay = np.searchsorted(np.array(PAY_FLOORS), self.strength, side="right") - 1
        contend = self.strength >= profile.qualify_strength
        win = np.where(contend, self.weaker - self.below_qualifier, 0)
        push = np.where(contend, self.equal, 0)
        dealer_wins = self.completions - self.below_qualifier - win - push
        win_net = nets[Net.WIN + np.maximum(pay, 0)]
        units: np.ndarray = (self.below_qualifier * nets[Net.NOT_QUALIFY] + push * nets[Net.PUSH]
                             + dealer_wins * nets[Net.DEALER_WINS] + win * win_net)
        return units

    def fold_units(self, profile: Profile) -> np.ndarray:
        """Net of folding in the same units: completions x the fold's net."""
        nets, _ = kernel_nets(profile)
        units: np.ndarray = self.completions * nets[Net.FOLD]
        return units


def _live_mask(cards: Sequence[int]) -> np.uint64:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return np.uint64(mask)


def _seen_sets(k: int, deck: Sequence[int] | None) -> tuple[np.ndarray, np.ndarray]:
    """Seen sets and their weights: one per suit class (full deck) or every k-subset of ``deck``."""
    if deck is None:
        return seen_set_classes(k)
    cards = np.array(sorted(deck), dtype=np.int64)
    sets = cards[all_subsets_colex(len(cards), k).astype(np.int64)]
    return sets, np.ones(len(sets), dtype=np.int64)


def _ranges(level_start: np.ndarray, hands: int) -> list[tuple[int, int]]:
    """Strength ranges [lo, hi) of at most about ``hands`` player hands each."""
    out, lo = [], 0
    for s in range(1, len(level_start)):
        if level_start[s] - level_start[lo] >= hands or s == len(level_start) - 1:
            out.append((lo, s))
            lo = s
    return out


def situation_tasks(info: PartialInfo, deck: Sequence[int] | None = None) -> list[tuple[int, int, int]]:
    """The recording tasks (seen-set number, lo, hi) of a whole game, in order: on the full deck
    strength ranges of about HANDS_PER_TASK hands, on a reduced deck every strength at once."""
    sets, _ = _seen_sets(info.dealer_known, deck)
    level_start = strength_ordered_hands().level_start
    ranges = _ranges(level_start, HANDS_PER_TASK) if deck is None else [(0, len(level_start) - 1)]
    return [(c, lo, hi) for c in range(len(sets)) for lo, hi in ranges]


@lru_cache(maxsize=2)
def _slots(deck: tuple[int, ...] | None) -> np.ndarray:
    """The record slot of each hand by strength-order position: the position itself on the full
    deck; on a reduced deck, the number of live hands before it (-1 for a hand off the deck)."""
    players = strength_ordered_hands()
    positions = np.arange(len(players.masks), dtype=np.int64)
    if deck is None:
        return positions
    live = (players.masks & ~_live_mask(deck)) == 0
    return np.where(live, np.cumsum(live) - 1, -1).astype(np.int64)


def record_tasks(profile: Profile, info: PartialInfo, tasks: Sequence[tuple[int, int, int]],
                 deck: Sequence[int] | None = None) -> SituationBatch:
    """The situations of ``tasks`` (from :func:`situation_tasks`) as one batch."""
    k = info.dealer_known
    sets, set_weights = _seen_sets(k, deck)
    players = strength_ordered_hands()
    slot_of = _slots(None if deck is None else tuple(sorted(deck)))
    rows = np.asarray(tasks, dtype=np.int64).reshape(-1, 3)
    if deck is None:
        bases = players.level_start[rows[:, 1]]
        slots = int((players.level_start[rows[:, 2]] - bases).max())
    else:
        bases = np.zeros(len(rows), dtype=np.int64)
        slots = int(slot_of.max()) + 1
    recs = np.zeros((len(rows), slots, info.signals, pk.RECORD_FIELDS), dtype=np.int64)
    acc = np.zeros((len(rows), pk.PARTIAL_COLUMNS), dtype=np.int64)
    if deck is None:
        deal, symmetric = full_deal(k), True
    else:
        live = sorted(deck)
        deal = pk.Deal(live=_live_mask(live), table=strength_deck().table,
                       tsubs=all_subsets_colex(len(live) - k, 5 - k).astype(np.int64))
        symmetric = False
    batch = pk.Tasks(seen=sets[rows[:, 0]], lo=rows[:, 1].copy(), hi=rows[:, 2].copy())
    stoppable(run_spans, pk.partial_tasks, len(rows), batch, deal, players, payout_bundle(profile),
              signal_bundle(info, -1), symmetric, acc, (slot_of, bases, recs), chunks=len(rows))
    task, slot, signal = np.nonzero(recs[:, :, :, 3])
    fields = recs[task, slot, signal]
    if deck is None:
        position = bases[task] + slot
    else:
        position = np.flatnonzero(slot_of >= 0)[slot]
    strength = np.repeat(np.arange(len(players.level_start) - 1), np.diff(players.level_start))[position]
    return SituationBatch(position=position, seen=sets[rows[task, 0]], signal=signal,
                          weight=fields[:, 5] * set_weights[rows[task, 0]], below_qualifier=fields[:, 0],
                          weaker=fields[:, 1], equal=fields[:, 2], completions=fields[:, 3],
                          raised=fields[:, 4].astype(bool), strength=strength)


def partial_situations(profile: Profile | str, info: PartialInfo, *, progress: Progress | None = None,
                       deck: Sequence[int] | None = None) -> Iterator[SituationBatch]:
    """Every situation of the game, a batch per chunk of ``thread_count()`` tasks (each about
    0.1-0.5 s), reporting one step per chunk to ``progress``."""
    profile = load_profile(profile)
    check_profile(profile)
    tasks = situation_tasks(info, deck)
    per_chunk = thread_count()
    chunks = [tasks[i:i + per_chunk] for i in range(0, len(tasks), per_chunk)]
    with staged(progress, f"recording every situation, {info.describe()}", steps=len(chunks)) as stage:
        for chunk in chunks:
            yield record_tasks(profile, info, chunk, deck)
            stage.step()


@dataclass(frozen=True, kw_only=True)
class StrategyValue:
    """A strategy's exact result over the recorded situations: ``units`` over ``deals`` x ``scale``
    is the expected net per ante (higher is better for the player)."""

    units: int
    deals: int
    scale: int

    @property
    def total_return(self) -> Fraction:
        return Fraction(self.units, self.deals * self.scale)


def strategy_value(profile: Profile, batches: Sequence[SituationBatch] | Iterator[SituationBatch],
                   raises: Callable[[SituationBatch], np.ndarray] | None = None) -> StrategyValue:
    """The exact result of raising where ``raises(batch)`` (a bool array per batch) says so; the
    recorded optimal decisions when ``raises`` is None."""
    _, scale = kernel_nets(profile)
    units = deals = 0
    for batch in batches:
        chosen = batch.raised if raises is None else raises(batch)
        per_row = np.where(chosen, batch.raise_units(profile), batch.fold_units(profile))
        units += int((per_row * batch.weight).sum())
        deals += int((batch.completions * batch.weight).sum())
    return StrategyValue(units=units, deals=deals, scale=scale)
