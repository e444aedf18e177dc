"""Exact five-card stud showdown equity from any visible position: the methods and their chooser.

A position lists, for every player still in, the hole card (or unknown) and the up
cards so far, plus dead cards (folded hands, exposed cards). Every unseen card -
opponents' hole cards and future up cards alike - is uniformly distributed over the
unseen deck. Whole five-card hands are compared (strength from the hand-rank table,
higher is stronger); exact ties split the pot.

Methods (``EquityResult.method``):

* ``heads-up inclusion-exclusion`` - two players, any street, exact.
* ``last-street hole-card DP`` - any number of players once everyone has four up cards, exact.
* ``rank-profile inclusion-exclusion`` - three players, any earlier street, and four players,
  any earlier street (the first round's 1.4e20 deals too, its sums in two int64 words), exact
  (:mod:`exactodds.stud.equity.rank_profile.multiway`).
* ``prefix enumeration + pairwise inclusion-exclusion`` or ``enumeration`` - earlier
  multiway streets of fewer than 2**62 deals (int64 counts), exact.
* ``monte carlo with control variates`` - otherwise: a seeded uniform sample of complete
  deals, the equities corrected by control variates with exactly known means
  (:mod:`exactodds.stud.equity.controls`); not exact, with the sample size and standard errors.
  ``monte carlo`` (:func:`sampled_equity`) is the plain sample mean of the same deals.

The exact methods return an :class:`ExactEquity`, the sampled ones a :class:`SampledEquity`
(``EquityResult`` is either; ``isinstance`` tells them apart).

On early multiway streets the chooser takes the exact method with the smallest estimated
time (:func:`exact_seconds`) when that time is within the budget, in seconds.

>>> r = stud_equity(parse_position(["Kh | 9c 4d Ks 2h", "Qc | Qh Js 7d 3c"]))
>>> r.players[0].win, r.exact, r.method
(Fraction(1, 1), True, 'heads-up inclusion-exclusion')
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from types import ModuleType

import numpy as np

from exactodds.cards import format_card, format_cards
from exactodds.combinatorics import colex_index_batch
from exactodds.counting.deck import SlottedRows, StackedRows, rows_by_strength
from exactodds.handrank import rank_table
from exactodds.progress import Progress, or_none, staged
from exactodds.stopping import stoppable
from exactodds.stud.equity.controls import control_variate_equity
from exactodds.stud.equity.deals import enumeration_size, player_cards, player_completions
from exactodds.stud.equity.position import (
    UP_CARDS,
    PositionError,
    StudPlayer,
    StudPosition,
    cards_to_come,
    check_position,
    parse_position,
)
from exactodds.stud.equity.rank_profile.multiway import (
    rank_profile_counts,
    rank_profile_seconds,
    rank_profile_supported,
)
from exactodds.stud.equity.results import EquityMethod, EquityResult, ExactEquity, exact_result
from exactodds.stud.equity.sampling import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    check_sampling,
)

__all__ = [
    "ENUMERATION_RATE", "PAIRWISE_RATE", "choose_method", "enumeration_equity", "exact_seconds",
    "headsup_equity", "last_street_equity", "pairwise_equity", "pairwise_work", "rank_profile_equity",
    "stud_equity",
]

# Measured rates of the exact methods' work units (steps a second, one core of the 2-core
# benchmark machine); they turn work estimates into the seconds the budget is compared with.
ENUMERATION_RATE = 3e8
PAIRWISE_RATE = 1e8


# --------------------------------------------------------------------------- methods
def _kernel() -> ModuleType:
    """The compiled kernels, imported on first use (numba costs ~0.2 s to import)."""
    from exactodds.stud.equity.kernels import deal_counts

    return deal_counts


def _subset_counters() -> ModuleType:
    """The compiled subset counters, imported on first use."""
    from exactodds.counting.kernels import subset_counters

    return subset_counters


def headsup_equity(position: StudPosition) -> ExactEquity:
    """Exact heads-up odds at any street by inclusion-exclusion counting."""
    pool = position.unseen()
    n = len(pool)
    a_player, b_player = position.players
    need_a, need_b = cards_to_come(position)
    a = rows_by_strength(*player_completions(player_cards(a_player), pool, need_a))
    b = rows_by_strength(*player_completions(player_cards(b_player), pool, need_b))
    less, leq = stoppable(_kernel().headsup_sweep, a, b, n)
    per_x = math.comb(n - need_a, need_b)
    total = len(a.rows) * per_x
    win, tie = int(less.sum()), int((leq - less).sum())
    out = np.zeros((2, 3), dtype=np.int64)
    out[0, 1], out[1, 1] = win, total - win - tie
    out[0, 2] = out[1, 2] = tie
    return exact_result(out, total, method=EquityMethod.HEADS_UP)


def last_street_equity(position: StudPosition) -> ExactEquity:
    """Exact odds on the last street (four up cards each), any number of players."""
    if position.street != UP_CARDS:
        raise PositionError("the last-street method needs four up cards per player")
    pool = position.unseen()
    table = rank_table()
    n_players = len(position.players)
    known = np.full(n_players, -1, dtype=np.int64)
    unknown = np.zeros((n_players, len(pool)), dtype=np.int64)
    for p, player in enumerate(position.players):
        if player.hole is not None:
            known[p] = table[colex_index_batch(np.array([player_cards(player)]))[0]]
        else:
            hands = np.hstack([np.tile(np.array(player.up, dtype=np.int64), (len(pool), 1)), pool[:, None]])
            unknown[p] = table[colex_index_batch(hands)]
    out = stoppable(_kernel().last_street_counts, known, unknown)
    k = int((known < 0).sum())
    return exact_result(out, math.perm(len(pool), k), method=EquityMethod.LAST_STREET)


def enumeration_equity(
    position: StudPosition, *, progress: Progress | None = None
) -> ExactEquity:
    """Exact odds by visiting every complete deal (any position; used within the budget).

    Nested loops over each player's completions (precomputed strengths, bit masks for
    overlap); the player with the most completions is innermost and only counted.
    """
    needs = cards_to_come(position)
    pool = position.unseen()
    # Fewest completions outermost, most innermost: the inner loop is the cheap one.
    order = sorted(range(len(needs)), key=lambda p: needs[p])
    masks, strengths, offsets = [], [], [0]
    for p in order:
        subsets, values = player_completions(player_cards(position.players[p]), pool, needs[p])
        masks.append((np.int64(1) << subsets).sum(axis=1, dtype=np.int64))
        strengths.append(values)
        offsets.append(offsets[-1] + len(values))
    players = StackedRows(masks=np.concatenate(masks), strengths=np.concatenate(strengths),
                          offsets=np.array(offsets, dtype=np.int64))
    out = np.zeros((len(needs), len(needs) + 1), dtype=np.int64)
    first_count = offsets[1]
    chunk = max(1, first_count // 100)
    with staged(progress, "enumerating deals", steps=first_count) as stage:
        for start in range(0, first_count, chunk):
            stop = min(first_count, start + chunk)
            stoppable(_kernel().nested_counts, players, start, stop, out)
            stage.step(stop - start)
    ordered = np.zeros_like(out)
    ordered[order] = out
    return exact_result(ordered, enumeration_size(position), method=EquityMethod.ENUMERATION)


def _pairwise_plan(position: StudPosition) -> tuple[list[int], int]:
    """Players in the order the pairwise method uses (fewest completions first; the last two
    are swept by inclusion-exclusion) and the number of prefix deals it enumerates."""
    needs = cards_to_come(position)
    order = sorted(range(len(needs)), key=lambda p: needs[p])
    n = len(position.unseen())
    prefix_deals = 1
    for p in order[:-2]:
        prefix_deals *= math.comb(n, needs[p])
        n -= needs[p]
    return order, prefix_deals


def pairwise_work(position: StudPosition) -> int:
    """Work estimate of :func:`pairwise_equity` (counter updates and queries, ~1e8 per second):
    prefix deals times the cost of one inclusion-exclusion sweep of the last two players."""
    order, prefix_deals = _pairwise_plan(position)
    needs = cards_to_come(position)
    n = len(position.unseen())
    b, c = needs[order[-2]], needs[order[-1]]
    work: int = prefix_deals * (3 * math.comb(n, b) * 2**b + 2 * math.comb(n, c) * 2**c)  # int ** int: Any
    return work


def pairwise_equity(
    position: StudPosition, *, progress: Progress | None = None
) -> ExactEquity:
    """Exact odds for any number of players and any street: nested loops over every
    player but the two with the most completions (the prefix), and for each prefix an
    inclusion-exclusion sweep of those two against each other and the prefix's best hand."""
    needs = cards_to_come(position)
    pool = position.unseen()
    n = len(pool)
    order, _ = _pairwise_plan(position)
    completions = {}
    for p in order:
        subsets, values = player_completions(player_cards(position.players[p]), pool, needs[p])
        completions[p] = (subsets, values, (np.int64(1) << subsets).sum(axis=1, dtype=np.int64))
    prefix = order[:-2]
    b_player, c_player = order[-2], order[-1]
    masks = [completions[p][2] for p in prefix]
    strengths = [completions[p][1] for p in prefix]
    offsets = np.concatenate([[0], np.cumsum([len(m) for m in masks])]).astype(np.int64)
    stacked = StackedRows(masks=np.concatenate(masks) if masks else np.zeros(0, np.int64),
                          strengths=np.concatenate(strengths) if strengths else np.zeros(0, np.int64),
                          offsets=offsets)
    ys, sy, my = completions[b_player]
    zs, sz, mz = completions[c_player]
    taken = sum(needs[p] for p in prefix)
    b, c = needs[b_player], needs[c_player]
    pairs = math.comb(n - taken, b) * math.comb(n - taken - b, c)
    kernel, subset_counters = _kernel(), _subset_counters()
    counters = subset_counters.new_subset_counters(n, c)  # C's completions; B's subsets up to C's size
    b_rows = SlottedRows(slots=subset_counters.subset_slots(ys, counters.offsets), strengths=sy, masks=my)
    c_rows = SlottedRows(slots=subset_counters.subset_slots(zs, counters.offsets), strengths=sz, masks=mz)
    out = np.zeros((len(needs), len(needs) + 1), dtype=np.int64)
    first_count = int(offsets[1]) if prefix else 1
    chunk = max(1, first_count // 100)
    with staged(progress, "enumerating deals", steps=first_count) as stage:
        for start in range(0, first_count, chunk):
            stop = min(first_count, start + chunk)
            stoppable(kernel.prefix_pair_counts, stacked, start, stop, b_rows, c_rows, counters, pairs, out)
            stage.step(stop - start)
    ordered = np.zeros_like(out)
    ordered[order] = out
    return exact_result(ordered, enumeration_size(position), method=EquityMethod.PAIRWISE)


def rank_profile_equity(
    position: StudPosition, *, progress: Progress | None = None
) -> ExactEquity:
    """Exact three-way (or four-way, see :mod:`.multiway`) odds before the last street by
    rank-profile counting (one stage of progress, its length told by the counting's first report)."""
    target = or_none(progress)
    reported = [0, -1]  # steps reported, steps announced (-1: no stage yet)

    def tick(done: int, total: int) -> None:
        if reported[1] < 0:
            target.stage("counting rank profiles", steps=total)
            reported[1] = total
        target.step(done - reported[0])
        reported[0] = done

    try:
        out = rank_profile_counts(position, tick=tick)
    finally:
        if reported[1] >= 0:
            target.end()
    return exact_result(out, enumeration_size(position), method=EquityMethod.RANK_PROFILES)


INT64_DEALS = 2**62  # the enumeration and pairwise methods count in int64: positions with fewer deals


def exact_seconds(position: StudPosition) -> dict[EquityMethod, float]:
    """Estimated seconds of each exact method that applies to an early multiway street
    (work estimate over the method's measured rate); smaller is faster. Empty when none applies."""
    seconds = {}
    if enumeration_size(position) < INT64_DEALS:
        seconds = {EquityMethod.ENUMERATION: enumeration_size(position) / ENUMERATION_RATE,
                   EquityMethod.PAIRWISE: pairwise_work(position) / PAIRWISE_RATE}
    if rank_profile_supported(position):
        seconds[EquityMethod.RANK_PROFILES] = rank_profile_seconds(position)
    return seconds


def choose_method(position: StudPosition, *, budget: float = DEFAULT_BUDGET) -> EquityMethod:
    """The method stud_equity uses: exact heads-up and last street; on earlier multiway
    streets the exact method with the smallest estimated time (:func:`exact_seconds`) when
    that time is within ``budget`` seconds, else Monte Carlo with control variates
    (:mod:`exactodds.stud.equity.controls`)."""
    if len(position.players) == 2:
        return EquityMethod.HEADS_UP
    if position.street == UP_CARDS:
        return EquityMethod.LAST_STREET
    seconds = exact_seconds(position)
    if not seconds:
        return EquityMethod.CONTROL_VARIATES
    method = min(seconds, key=lambda m: seconds[m])
    return method if seconds[method] <= budget else EquityMethod.CONTROL_VARIATES


def stud_equity(
    position: StudPosition | Sequence[str | StudPlayer], *, dead: str | Sequence[int] = "",
    budget: float = DEFAULT_BUDGET, samples: int = DEFAULT_SAMPLES,
    seed: int = DEFAULT_SEED, progress: Progress | None = None,
) -> EquityResult:
    """Showdown odds of every player in ``position`` (see the module docstring for methods).

    ``position`` is a :class:`StudPosition`, or the players still in, in seat order, as text
    ``"HOLE | UP CARDS"`` (``"?"`` for an unknown hole card) with ``dead`` the folded or
    exposed cards. Returns an :class:`ExactEquity` (win, tie, lose and equity of every player
    as exact fractions; higher equity is better) or, when sampled, a :class:`SampledEquity`
    (the same as sample frequencies, with ``samples``, ``seed`` and each player's
    ``standard_error``).

    ``budget`` caps the estimated seconds (:func:`exact_seconds`) spent on an exact answer on
    early multiway streets; beyond it ``samples`` random deals drawn with ``seed`` are used instead.
    Long work (enumeration, pairwise, rank profiles, sampling) reports one stage with its steps to
    ``progress``.

    >>> r = stud_equity(["Kh | 9c 4d", "? | Qh 4c"])
    >>> r.exact, r.combinations, r.players[0].equity
    (True, 15339390, Fraction(3180535, 6135756))
    """
    if not isinstance(position, StudPosition):
        if isinstance(position, str) or not isinstance(position, Sequence):
            raise PositionError('expected a StudPosition or a list of players such as ["Kh | 9c 4d", '
                                f'"? | Qh 4c"], got {type(position).__name__}')
        position = parse_position(position, dead=dead)
    elif dead:
        raise PositionError("give the dead cards inside the StudPosition, not beside it")
    check_position(position)
    check_sampling(budget=budget, samples=samples, seed=seed)
    result = _run(position, choose_method(position, budget=budget), samples=samples, seed=seed,
                  progress=progress)
    hands = tuple(("?" if p.hole is None else format_card(p.hole)) + " | " + format_cards(p.up)
                  for p in position.players)
    return dataclasses.replace(result, hands=hands)


def _run(position: StudPosition, method: EquityMethod, *, samples: int, seed: int,
         progress: Progress | None) -> EquityResult:
    """The result of ``method`` on ``position``."""
    if method == EquityMethod.HEADS_UP:
        return headsup_equity(position)
    if method == EquityMethod.LAST_STREET:
        return last_street_equity(position)
    if method == EquityMethod.ENUMERATION:
        return enumeration_equity(position, progress=progress)
    if method == EquityMethod.PAIRWISE:
        return pairwise_equity(position, progress=progress)
    if method == EquityMethod.RANK_PROFILES:
        return rank_profile_equity(position, progress=progress)
    return control_variate_equity(position, samples=samples, seed=seed, progress=progress)
