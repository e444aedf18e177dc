"""Exact four-way equity before the last street by rank-profile counting (docs/methods-multiway.md).

Each player's completions are G + Delta: G every rank class at its rank strength, Delta
each flush set once more at its flush strength and once less at its rank strength (only
players whose known cards share a suit have flush sets). The deal count is the sum of the
16 terms of the product over the four players; each term is counted by one of two kernels:

* terms in which at most two players take Delta: those two (or fillers) are the *outer*
  players, enumerated item by item; the other two, the *inner* players, take G, so they see
  only the ranks the outer pair leaves. Outer pairs with the same combined rank profile leave
  the same deck, and one strength-ordered sweep of the inner players answers all of them;
* terms in which three or four players take Delta: the outer pair's flush sets, grouped by
  the ranks and flush cards they take, against the third player's flush sets and the fourth
  player's classes or flush sets, in the same sweep.

Both are runs of :mod:`exactodds.stud.equity.rank_profile.kernels.fourway`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import NamedTuple

import numpy as np

from exactodds.stopping import stoppable
from exactodds.stud.equity.deals import player_cards
from exactodds.stud.equity.position import StudPosition, cards_to_come
from exactodds.stud.equity.rank_profile.profiles import (
    MAX_NEED,
    Profiles,
    key_table,
    player_profiles,
    profile_count,
    rank_counts,
)
from exactodds.threaded import run_spans

PLAYERS = 4
CHUNKS = 10  # progress steps (and compiled calls) per run
WORD_BITS = 62  # the kernels' two-word sums: high * 2**62 + low (kernels.fourway.add_wide)


class Items(NamedTuple):
    """A player's completions as signed items sorted by strength: rank classes (kind 0, every
    card set of the class at its rank strength) and flush entries (kind 1, one flush set, +1 at
    its flush strength and -1 at its rank strength). ``cls`` is the item's row in the player's
    :class:`Profiles`."""

    prof: np.ndarray      # (n, 13) int64 cards of each rank
    strength: np.ndarray  # (n,) int64, ascending, higher = stronger
    kind: np.ndarray      # (n,) int64: 0 class, 1 flush set
    sign: np.ndarray      # (n,) int64: +1 or -1
    mask: np.ndarray      # (n,) int64 rank mask (flush compatibility)
    cls: np.ndarray       # (n,) int64 class row


class OuterGroups(NamedTuple):
    """What the compiled sweep reads of some groups of outer item pairs (the compiled
    ``outer_pairs`` groups them by what the inner players see): the outer items' rank profiles
    and strengths, ``pairs[k] = (i, j, weight)``, group g's pairs ``pairs[starts[g]:starts[g + 1]]``
    and its key ``keys[g]``."""

    a_prof: np.ndarray
    a_strength: np.ndarray
    b_prof: np.ndarray
    b_strength: np.ndarray
    pairs: np.ndarray
    starts: np.ndarray
    keys: np.ndarray


class CounterKeys(NamedTuple):
    """The counters' keys as the compiled sweep reads them (:class:`~.profiles.KeyTable`'s arrays)."""

    start: np.ndarray
    mult: np.ndarray


@dataclass(frozen=True, kw_only=True)
class Run:
    """One kernel call: seats ``outer`` (with their parts, "G", "D" or "GD") and ``inner``.

    A grouped run sweeps both inner players' classes (G); a flush run (``flush``) sweeps the
    third seat's flush entries and the fourth seat's ``fourth`` part ("G" or "D")."""

    outer: tuple[tuple[int, str], tuple[int, str]]
    inner: tuple[int, int]
    flush: bool = False
    fourth: str = "G"


def _kernel() -> ModuleType:  # the compiled module, imported on first use
    from exactodds.stud.equity.rank_profile.kernels import fourway as fourway_kernel

    return fourway_kernel


def items(profiles: Profiles, parts: str) -> Items:
    """The items of a player's ``parts``: "G" its classes, "D" its flush entries, "GD" both."""
    classes = np.arange(len(profiles.strength))
    flushed = classes[profiles.flush >= 0]
    pieces = []  # (class rows, strengths, kind, sign)
    if "G" in parts:
        pieces.append((classes, profiles.strength, 0, 1))
    if "D" in parts:
        pieces.append((flushed, profiles.flush[flushed], 1, 1))
        pieces.append((flushed, profiles.strength[flushed], 1, -1))
    cls = np.concatenate([p[0] for p in pieces]).astype(np.int64)
    strength = np.concatenate([p[1] for p in pieces]).astype(np.int64)
    kind = np.concatenate([np.full(len(p[0]), p[2], np.int64) for p in pieces])
    sign = np.concatenate([np.full(len(p[0]), p[3], np.int64) for p in pieces])
    order = np.argsort(strength, kind="stable")
    cls, strength, kind, sign = cls[order], strength[order], kind[order], sign[order]
    masks = profiles.qmask[cls, (1 << profiles.size[cls]) - 1].astype(np.int64)
    return Items(prof=np.ascontiguousarray(profiles.prof[cls]), strength=strength, kind=kind, sign=sign,
                 mask=masks, cls=cls)


def can_flush(profiles: Profiles) -> bool:
    """True when some completion of the player makes a flush."""
    return bool((profiles.flush >= 0).any())


GROUP_LIMIT = 2**62  # a group's counts are int64 in the kernel (their sum over groups is two words)
# Items' weights in absolute value: a player's G + Delta items hold each class's card sets once and
# each flush set twice more (+1 and -1), so at most 3 times the player's card sets; 9 for a pair.
SIGNED_ITEMS = 9


def _heaviest_profile(avail: np.ndarray, cards: int) -> int:
    """The most card sets of one rank profile of ``cards`` cards: max over c (sum c_r = cards,
    c_r <= avail_r) of prod C(avail_r, c_r), by a small exact DP over the ranks.

    >>> _heaviest_profile(np.array([4] * 13), 8), _heaviest_profile(np.array([2, 1] + [0] * 11), 2)
    (65536, 2)
    """
    best = {0: 1}
    for m in (int(x) for x in avail):
        nxt: dict[int, int] = {}
        for used, product in best.items():
            for c in range(min(m, cards - used) + 1):
                value = product * math.comb(m, c)
                if value > nxt.get(used + c, 0):
                    nxt[used + c] = value
        best = nxt
    return best.get(cards, 0)


def group_bound(position: StudPosition) -> int:
    """A bound on the magnitude of any count of one outer pair group (and of every intermediate of
    its sweep), over every outer pair the plan may take: the outer card sets of one combined rank
    profile (the heaviest profile, times the ways to split it between the two players), times the
    inner players' card-set pairs in the deck left, times SIGNED_ITEMS for each pair of players."""
    needs = cards_to_come(position)
    avail = rank_counts(position.unseen())
    n = int(avail.sum())
    bound = 0
    for p, q in itertools.combinations(range(PLAYERS), 2):
        c, d = (s for s in range(PLAYERS) if s not in (p, q))
        together = needs[p] + needs[q]
        outer = _heaviest_profile(avail, together) * math.comb(together, needs[p])
        rest = n - together
        inner = math.comb(rest, needs[c]) * math.comb(rest - needs[c], needs[d])
        bound = max(bound, SIGNED_ITEMS * outer * SIGNED_ITEMS * inner)
    return bound


def fourway_supported(position: StudPosition) -> bool:
    """True when the four-way method applies: four players, at most four cards to come each, and
    every group's counts within int64 (:func:`group_bound` below 2**62; a position's total may go
    far beyond: the first round without dead cards has about 1.4e20 deals)."""
    return (len(position.players) == PLAYERS and max(cards_to_come(position)) <= MAX_NEED
            and group_bound(position) < GROUP_LIMIT)


def plan(*, needs: list[int], flushing: list[bool]) -> list[Run]:
    """The kernel calls that together count all 16 terms once (module doc). ``flushing[p]``:
    seat p has flush sets (a Delta part)."""
    draws = sorted((p for p in range(PLAYERS) if flushing[p]), key=lambda p: (needs[p], p))
    others = sorted((p for p in range(PLAYERS) if not flushing[p]), key=lambda p: (needs[p], p))
    first, second = (draws + others)[:2]

    def rest(*outer: int) -> tuple[int, int]:
        c, d = (p for p in range(PLAYERS) if p not in outer)
        return c, d

    # Terms whose Delta players are among the first two draws.
    runs = [Run(outer=((first, "GD"), (second, "GD")), inner=rest(first, second))]
    # Terms with one or two Delta players, the later of them draw k >= 2.
    for k in range(2, len(draws)):
        late = draws[k]
        partners = [(draws[0], "GD")] + [(draws[j], "D") for j in range(1, k)]
        for partner, parts in partners:
            runs.append(Run(outer=((late, "D"), (partner, parts)), inner=rest(late, partner)))
    # Terms with three or four Delta players.
    for size in (3, 4):
        for team in itertools.combinations(draws, size):
            x, y, z = team[:3]
            (w,) = (p for p in range(PLAYERS) if p not in (x, y, z))
            runs.append(Run(outer=((x, "D"), (y, "D")), inner=(z, w), flush=True,
                            fourth="D" if size == 4 else "G"))
    return runs


def _flushing(position: StudPosition) -> list[bool]:
    """Seats whose known cards (up cards, and the hole card when known) share one suit."""
    return [len({c % 4 for c in cards}) == 1 for cards in _known(position)]


def fourway_work(position: StudPosition) -> int:
    """Work estimate of :func:`fourway_counts`, summed over its runs: the groups (distinct
    combined rank profiles of the outer pair, at most the pairs of items) times the inner items
    swept in each, times the sub-multisets an item adds; halved for a run with an outer player's
    flush entries only (their profiles collide: measured about half the groups)."""
    needs = cards_to_come(position)
    known = _known(position)
    pool = position.unseen()
    avail = rank_counts(pool)
    classes = [profile_count(avail, k) for k in needs]
    # Flush sets: the player's suit's unseen cards, taken `need` at a time.
    flushes = [math.comb(int(sum(1 for c in pool if c % 4 == cards[0] % 4)), need) if draws else 0
               for cards, need, draws in zip(known, needs, _flushing(position), strict=True)]

    def size(seat: int, parts: str) -> int:
        return (classes[seat] if "G" in parts else 0) + (flushes[seat] if "D" in parts else 0)

    work = 0
    for run in plan(needs=needs, flushing=[f > 0 for f in flushes]):
        (p, p_parts), (q, q_parts) = run.outer
        c, d = run.inner
        together = needs[p] + needs[q]
        groups = min(size(p, p_parts) * size(q, q_parts), profile_count(avail, together))
        inner = size(c, "D") + size(d, run.fourth) if run.flush else classes[c] + classes[d]
        cost: int = groups * inner * 2 ** max(needs[c], needs[d])  # int ** int is typed Any
        work += cost // 2 if "D" in (p_parts, q_parts) else cost
    return work


def _known(position: StudPosition) -> list[list[int]]:
    return [player_cards(p) for p in position.players]


def fourway_counts(position: StudPosition, *, tick: Callable[[int, int], None] | None = None,
                   threads: int | None = None, word_bits: int = WORD_BITS) -> np.ndarray:
    """Exact outcome counts ``out[p, t]`` (4, 5) for a four-player position before the last street,
    as Python integers (an object array: a count may pass 2**63), computed on ``threads`` threads
    (default: :func:`exactodds.threaded.thread_count`); progress: CHUNKS steps per run (on the first
    round a flush run takes as long as a grouped one). ``word_bits``: the low word of the kernels'
    two-word sums (62; a test takes fewer, so that small decks carry too)."""
    if not fourway_supported(position):
        raise ValueError("the four-way method handles four players with at most four cards to come "
                         "and groups of fewer than 2**62 deals")
    pool = position.unseen()
    needs = cards_to_come(position)
    profiles = [player_profiles(cards, need, pool)
                for cards, need in zip(_known(position), needs, strict=True)]
    runs = plan(needs=needs, flushing=[can_flush(p) for p in profiles])
    avail = rank_counts(pool)
    steps = CHUNKS * len(runs)
    done = [0]

    def step() -> None:
        done[0] += 1
        if tick is not None:
            tick(done[0], steps)

    total = np.zeros((PLAYERS, PLAYERS + 1), dtype=object)  # Python integers (zeros of the int 0)
    for run in runs:
        total += _run(run, profiles, avail, step, threads, word_bits)
    return total


def _merged(parts: list[np.ndarray], bits: int) -> np.ndarray:
    """The exact sum, as Python integers, of the kernels' two-word counts (each ``(2, 4, 5)``:
    ``words[0] * 2**bits + words[1]``)."""
    total = np.zeros((PLAYERS, PLAYERS + 1), dtype=object)  # Python integers (zeros of the int 0)
    for words in parts:
        total += words[0].astype(object) * (1 << bits) + words[1].astype(object)
    return total


def _run(run: Run, profiles: list[Profiles], avail: np.ndarray, step: Callable[[], None],
         threads: int | None, bits: int) -> np.ndarray:
    """The counts of one run, by seat, as Python integers (``step`` called after each compiled call)."""
    kernel = _kernel()
    keys = key_table()
    (p, p_parts), (q, q_parts) = run.outer
    c, d = run.inner
    a, b = items(profiles[p], p_parts), items(profiles[q], q_parts)
    swept = [profiles[c].suit if run.flush else -1,
             profiles[d].suit if run.flush and run.fourth == "D" else -1]
    suits = np.array([profiles[p].suit, profiles[q].suit, *swept], np.int64)
    pairs, starts, group_keys = stoppable(kernel.outer_pairs, avail, a, b, suits)
    c_items, d_items = items(profiles[c], "D" if run.flush else "G"), items(profiles[d], run.fourth)
    bounds = np.linspace(0, len(starts) - 1, CHUNKS + 1).astype(np.int64)
    local = np.zeros((PLAYERS, PLAYERS + 1), dtype=object)
    for lo, hi in itertools.pairwise(bounds.tolist()):
        outer = OuterGroups(a_prof=a.prof, a_strength=a.strength, b_prof=b.prof, b_strength=b.strength,
                            pairs=pairs, starts=starts[lo:hi + 1], keys=group_keys[lo:hi])
        parts = stoppable(run_spans, kernel.group_counts, hi - lo, avail, outer, c_items, profiles[c],
                          d_items, profiles[d], CounterKeys(start=keys.start, mult=keys.mult), bits,
                          threads=threads)
        local += _merged(parts, bits)
        step()
    out = np.zeros_like(local)
    out[[p, q, c, d]] = local
    return out
