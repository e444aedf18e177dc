"""Exact three-way equity on any street by rank-profile counting (see docs/methods-multiway.md),
and the entry point of the four-way method (:mod:`exactodds.stud.equity.rank_profile.fourway`).

Every deal is counted once, exactly, through classes of completions that share their
ranks: the outer player's classes are enumerated, and for each the two other players are
swept against each other by inclusion-exclusion over shared ranks. Flush sets, the only
card sets whose strength is not fixed by their ranks, enter as signed corrections.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import numpy as np

from exactodds.stopping import stoppable
from exactodds.stud.equity.deals import player_cards
from exactodds.stud.equity.position import StudPosition, cards_to_come
from exactodds.stud.equity.rank_profile.fourway import fourway_counts, fourway_supported, fourway_work
from exactodds.stud.equity.rank_profile.profiles import (
    MAX_NEED,
    KeyTable,
    Profiles,
    key_table,
    player_profiles,
    profile_count,
    rank_counts,
)
from exactodds.threaded import thread_count, threaded_sum

# Below this work (about 0.1 s of kernel time) the kernels run on one thread (starting threads on a
# busy machine costs more than they save).
SERIAL_WORK = 2_000_000
# Fixed cost of building the classes in Python, in seconds (added to the time estimate).
SETUP_SECONDS = 0.03
# Measured rates of the work units (a second, the 2-core benchmark machine): three-way
# (rank_profile_work) and four-way (fourway.fourway_work).
RANK_PROFILE_RATE = 1.8e7
FOURWAY_RATE = 4.5e7


def _kernel() -> ModuleType:  # the compiled three-way terms, imported on first use
    from exactodds.stud.equity.rank_profile.kernels import threeway as threeway_kernel

    return threeway_kernel


def position_profiles(position: StudPosition) -> tuple[list[Profiles], np.ndarray]:
    """Every player's completion classes (Profiles, in seat order) and the unseen cards' rank
    counts."""
    pool = position.unseen()
    needs = cards_to_come(position)
    profiles = [player_profiles(player_cards(p), need, pool) for p, need in zip(position.players, needs,
                                                                                 strict=True)]
    return profiles, rank_counts(pool)


def rank_profile_supported(position: StudPosition) -> bool:
    """True when the rank-profile method applies: three players with at most four cards to come
    each, or four players whose groups' counts fit int64 (:func:`.fourway.fourway_supported`: every
    street, the first round too)."""
    if len(position.players) == 4:
        return fourway_supported(position)
    return len(position.players) == 3 and max(cards_to_come(position)) <= MAX_NEED


def rank_profile_seconds(position: StudPosition) -> float:
    """Estimated seconds of :func:`rank_profile_counts` (work over the measured rate, plus setup)."""
    if len(position.players) == 4:
        return SETUP_SECONDS + fourway_work(position) / FOURWAY_RATE
    return SETUP_SECONDS + rank_profile_work(position) / RANK_PROFILE_RATE


def rank_profile_work(position: StudPosition) -> int:
    """Work estimate of the three-way :func:`rank_profile_counts`: outer classes times the inner
    classes they sweep, times the sub-multisets a class adds (``2 ** cards to come``)."""
    needs = sorted(cards_to_come(position))
    avail = rank_counts(position.unseen())
    classes = [profile_count(avail, k) for k in needs]
    work: int = classes[0] * (classes[1] + classes[2]) * 2 ** needs[-1]  # int ** int is typed Any
    return work


def rank_profile_counts(position: StudPosition, *, tick: Callable[[int, int], None] | None = None,
                        threads: int | None = None) -> np.ndarray:
    """Exact outcome counts ``out[p, t]``, (3, 4) or (4, 5), for a three-player position on any
    street (int64) or a four-player one that :func:`rank_profile_supported` accepts (Python
    integers: the first round's counts pass 2**63), computed on
    ``threads`` threads (default: one for small positions, else
    :func:`exactodds.threaded.thread_count`)."""
    if not rank_profile_supported(position):
        raise ValueError("the rank-profile method handles three players with at most four cards to come, "
                         "or four players with groups of fewer than 2**62 deals")
    four = len(position.players) == 4
    work = fourway_work(position) * RANK_PROFILE_RATE / FOURWAY_RATE if four else rank_profile_work(position)
    if threads is None:
        threads = 1 if work < SERIAL_WORK else thread_count()
    if four:
        return fourway_counts(position, tick=tick, threads=threads)
    profiles, avail = position_profiles(position)
    return _counts(profiles, avail, key_table(), threads, tick)


def _seated(counts: np.ndarray, order: list[int]) -> np.ndarray:
    """Kernel counts (rows in the order the players were passed) put back in seat order."""
    seated = np.zeros_like(counts)
    seated[order] = counts
    return seated


def _counts(profiles: list[Profiles], avail: np.ndarray, keys: KeyTable, threads: int,
            tick: Callable[[int, int], None] | None) -> np.ndarray:
    # Fewest classes outermost: the outer loop is the one paid per class.
    outer = min(range(3), key=lambda p: (len(profiles[p].strength), p))
    p, q = [s for s in range(3) if s != outer]
    total = np.zeros((3, 4), dtype=np.int64)
    steps = 2 + sum(profiles[s].suit >= 0 for s in range(3))

    kernel = _kernel()

    def run(counts: Callable[..., np.ndarray], order: list[int], *flags: bool) -> np.ndarray:
        players = [profiles[s] for s in order]
        outer_classes = len(players[0].strength)
        return _seated(stoppable(threaded_sum, counts, outer_classes, avail, *flags, *players, keys.start,
                                 keys.mult, threads=threads), order)

    # Outer classes against (q's classes and flush entries) x (p's classes), then q's flush
    # entries outermost against (outer's classes and flush entries) x (p's classes).
    total += run(kernel.outer_counts, [outer, p, q], False)
    if profiles[q].suit >= 0:
        total += run(kernel.outer_counts, [q, outer, p], True)
    if tick is not None:
        tick(1, steps)
    # Left: flush entries for both inner players (the outer player's card sets as classes),
    # and for all three.
    if profiles[p].suit >= 0 and profiles[q].suit >= 0:
        total += run(kernel.two_flush_counts, [p, outer, q])
    if all(profiles[s].suit >= 0 for s in range(3)):
        total += run(kernel.three_flush_counts, [0, 1, 2])
    if tick is not None:
        tick(steps, steps)
    return total
