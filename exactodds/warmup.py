"""The registry of the package's kernel families, and :func:`warm_up` (``exactodds warm-up``).

Above the games (it imports them): :data:`FAMILIES` names, for each kind of computation, the kernel modules
it calls and the small exact computations (:class:`~exactodds.kernels.families.WarmPart` s) whose
runs compile them; every kernel module of the package belongs to one family (tested). How a family
is compiled, in parallel processes with a bar, is :mod:`exactodds.kernels.families`; the command line
compiles a family that way the first time a command imports one of its modules
(:mod:`exactodds.cli.warm_up`).

``python -m exactodds.warmup`` is the compiling worker: it runs the part ``PART FAMILY`` of each line
of its input (:func:`~exactodds.kernels.families.serve_parts`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from exactodds.kernels.families import KernelFamily, WarmPart, compile_families, serve_parts
from exactodds.progress import Progress

if TYPE_CHECKING:
    from exactodds.caribbean.strategy.card.problem import CategoryProblem

WORKER = __name__  # the module the compiling processes run (``python -m exactodds.warmup``)


def _tables() -> None:
    from exactodds.handrank import rank_table
    from exactodds.stud.decide.strength import strength_table
    from exactodds.symmetry import hand_classes

    rank_table()
    hand_classes()
    strength_table()


def _stud_two_and_last() -> None:
    from exactodds.stud.equity.methods import stud_equity

    stud_equity(["Kh | 9c 4d", "? | Qh 4c"])
    stud_equity(["Kh | 9c 4d 5s 6h", "? | Qh 4c 7d 8d", "? | 2c 3c Jh Td"])


def _stud_enumeration() -> None:
    from exactodds.stud.equity.methods import enumeration_equity, pairwise_equity
    from exactodds.stud.equity.position import parse_position

    # The last street (one unknown hole card each): the same kernels as any street, in milliseconds.
    position = parse_position(["Kh | 9c 4d Ks 2d", "? | Qh Js 7d 3s", "? | 2c 3c 4h 5h", "? | 5d 6s 8h 9h"])
    enumeration_equity(position)
    pairwise_equity(position)


def _stud_sampling() -> None:
    from exactodds.stud.equity.controls import control_variate_equity
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.equity.sampling import sampled_equity

    position = parse_position(["Kh | 9c 4d", "? | Qh 4c", "? | 2c 7d", "? | 3c 8h", "? | Js 5s"])
    sampled_equity(position, samples=2_000, seed=1)
    control_variate_equity(position, samples=2_000, seed=1)


def _stud_three_way() -> None:
    from exactodds.stud.equity.methods import rank_profile_equity
    from exactodds.stud.equity.position import parse_position

    # One card to come and no flush possible: the outer classes' terms only.
    rank_profile_equity(parse_position(["Kh | 9c 4d 2s", "? | Qh 4c 3c", "? | 2d 7d 8s"]))


def _stud_three_way_flushes() -> None:
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.equity.rank_profile.kernels.threeway import three_flush_counts, two_flush_counts
    from exactodds.stud.equity.rank_profile.multiway import position_profiles
    from exactodds.stud.equity.rank_profile.profiles import key_table
    from exactodds.threaded import threaded_sum

    # The flush terms called directly (through the driver they come after the outer terms): every
    # player's known cards in one suit.
    profiles, avail = position_profiles(parse_position(["Kh | 9h 4h 2h", "? | Qc Jc 3c", "? | 2d 7d 8d"]))
    keys = key_table()
    for kernel in (two_flush_counts, three_flush_counts):
        threaded_sum(kernel, len(profiles[0].strength), avail, *profiles, keys.start, keys.mult, threads=1)


def _stud_four_way() -> None:
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.equity.rank_profile.fourway import fourway_counts

    fourway_counts(parse_position(["Kh | 9h 4h 2h", "? | Qc Jc 3c", "? | 2d 7d 8d", "? | 5s 6s 9s"]))


def _caribbean_whole_game() -> None:
    from exactodds.caribbean.analysis.game import analyze

    analyze("standard")


def _caribbean_seen_cards() -> None:
    from exactodds.caribbean.holecard.exact import seen_set_situations, seen_sets_chunk
    from exactodds.caribbean.profile import load_profile

    seen_set_situations([0, 5])
    seen_sets_chunk(load_profile("standard"), 2, [0])


def _caribbean_all_known() -> None:
    from exactodds.caribbean.holecard.exact import analyze_known

    analyze_known("standard", dealer_known=5)


def _caribbean_partial() -> None:
    from exactodds.caribbean.holecard.partial import edge_sort, partial_chunk
    from exactodds.caribbean.profile import load_profile

    partial_chunk(load_profile("standard"), edge_sort("AK", dealer_known=2), -1, [(0, 7400, 7462)])


def _caribbean_side_bets() -> None:
    from exactodds.caribbean.sidebets.odds import sidebet_odds

    sidebet_odds("bonus-5plus1-example")


def _card_problem() -> CategoryProblem:
    """A tiny problem (8 cells, 4 conditions) with the arrays' types of the card search's problems."""
    import numpy as np

    from exactodds.caribbean.strategy.card.grammar import Atom, Features, Kind
    from exactodds.caribbean.strategy.card.problem import CategoryProblem

    membership = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 1], [1, 0, 0, 1], [0, 0, 1, 1],
                           [1, 1, 1, 0], [0, 1, 0, 1], [1, 0, 1, 1]], dtype=np.uint8)
    gain = np.array([50, -3, 8, -2, 4, -6, 7, -1], dtype=np.int64)
    n, k = membership.shape
    zeros = np.zeros(n, dtype=np.int64)
    features = Features(category=zeros, ranks=np.zeros((n, 5), dtype=np.int64), up=zeros, suited=zeros)
    return CategoryProblem(category=0, atoms=tuple(Atom(kind=Kind.HOLDS, value=a) for a in range(k)),
                           membership=membership, gain=gain, floor=0, features=features)


def _caribbean_card_conjunctions() -> None:
    from exactodds.caribbean.decision.decide import Choice
    from exactodds.caribbean.strategy.card.beam import Beam, BeamSettings

    # the beam's best conjunctions (the branch and bound calls the same kernel with the same types)
    Beam(_card_problem(), Choice.FOLD, BeamSettings(width=2, per_move=2), max_conditions=3).grow()


def _caribbean_card_nodes() -> None:
    import numpy as np

    from exactodds.caribbean.strategy.card.kernels.conjunctions import must_flip_atoms, rule_children

    # the branch and bound's own kernels, called as it calls them: a node's rules, the conditions the
    # last rule must hold
    problem = _card_problem()
    rule_children(problem.data, problem.gain, 0, 0, 2**62, np.array((-1, -1, -1, -1)), 64, 3, 3)
    must_flip_atoms(problem.data, problem.gain, 5)


def _stud_solver() -> None:
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.solve.api import solve_position
    from exactodds.stud.solve.results import SolveMethod

    # The third round with most of the deck dead: a tiny game through the compiled walks.
    live = {"Kh", "9c", "4d", "Qc", "Js", "7d", "Ah", "Ad", "2c", "9h", "5s", "6s", "7c"}
    dead = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs" if f"{r}{s}" not in live]
    position = parse_position(["? | Kh 9c 4d", "? | Qc Js 7d"], " ".join(dead))
    solve_position(position=position, pot=10, stacks=(12, 12), method=SolveMethod.CFR_PLUS, max_iterations=2)


def _stud_decisions() -> None:
    from exactodds.stud.decide.api import decide_hand
    from exactodds.stud.decide.result import DecideMethod
    from exactodds.stud.engine.dealing import shuffled_deck
    from exactodds.stud.engine.state import StudHand

    # three players on the first round, a few sampled hands played out by the compiled kernel
    hand = StudHand(stacks=(20, 20, 20))
    hand.deal_from(shuffled_deck(1))
    decide_hand(hand, method=DecideMethod.SAMPLED_HANDS, samples=8, opponents="bots")


def _stud_solver_second_round() -> None:
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.solve.api import solve_position

    # The second round with most of the deck dead: a tiny game through the sections' compiled walks.
    live = {"Kh", "9c", "Qc", "Js", "Ah", "Ad", "2c", "9h", "5s", "6s"}
    dead = [f"{r}{s}" for r in "23456789TJQKA" for s in "cdhs" if f"{r}{s}" not in live]
    position = parse_position(["? | Kh 9c", "? | Qc Js"], " ".join(dead))
    solve_position(position=position, pot=4, stacks=(4, 4), max_iterations=2)


STUD = "exactodds.stud.equity.kernels."
RANK_PROFILE = "exactodds.stud.equity.rank_profile.kernels."
CARIBBEAN = "exactodds.caribbean."
# A family's modules are those a plain module imports and whose every kernel its parts compile; the
# helper modules the kernels import (counting.kernels.bits, subset_counters, hand_counters,
# rank_profile.kernels.primitives) are compiled along, by every family that calls them.
FAMILIES: tuple[KernelFamily, ...] = (
    KernelFamily("hand-rank and suit-class tables", ("exactodds.counting.kernels.suits",),
                 (WarmPart(_tables, 2),)),
    KernelFamily("stud equity by deals", (STUD + "deal_counts", STUD + "sampling"),
                 (WarmPart(_stud_two_and_last, 3), WarmPart(_stud_enumeration, 5),
                  WarmPart(_stud_sampling, 3))),
    KernelFamily("three-way stud equity", (RANK_PROFILE + "threeway", RANK_PROFILE + "threeway_inner"),
                 (WarmPart(_stud_three_way, 9), WarmPart(_stud_three_way_flushes, 9))),
    KernelFamily("four-way stud equity", (RANK_PROFILE + "fourway",),
                 (WarmPart(_stud_four_way, 8),)),
    KernelFamily("Caribbean whole-game count", (CARIBBEAN + "analysis.kernels.whole_game",),
                 (WarmPart(_caribbean_whole_game, 5),)),
    KernelFamily("Caribbean hole-carding", (CARIBBEAN + "holecard.kernels.seen_cards",),
                 (WarmPart(_caribbean_seen_cards, 9), WarmPart(_caribbean_all_known, 5))),
    KernelFamily("Caribbean partial hole-card signals", (CARIBBEAN + "holecard.kernels.partial_signals",),
                 (WarmPart(_caribbean_partial, 8),)),
    KernelFamily("Caribbean side bets", (CARIBBEAN + "sidebets.kernels.best_of_six",),
                 (WarmPart(_caribbean_side_bets, 2),)),
    KernelFamily("Caribbean strategy card search", (CARIBBEAN + "strategy.card.kernels.conjunctions",),
                 (WarmPart(_caribbean_card_conjunctions, 4), WarmPart(_caribbean_card_nodes, 3))),
    KernelFamily("stud decisions by sampled hands", ("exactodds.stud.decide.kernels.hands",),
                 (WarmPart(_stud_decisions, 10),)),
    KernelFamily("heads-up stud solver", ("exactodds.stud.solve.kernels.cfr_walk",
                                          "exactodds.stud.solve.kernels.best_response_walk",
                                          "exactodds.stud.solve.kernels.section_walk"),
                 (WarmPart(_stud_solver, 5), WarmPart(_stud_solver_second_round, 12))),
)


def family_of(module: str) -> KernelFamily | None:
    """The family that compiles the kernel module ``module`` (a dotted name), if any."""
    return next((family for family in FAMILIES if module in family.modules), None)


def warm_up(*, progress: Progress | None = None, jobs: int | None = None) -> list[str]:
    """Compile every kernel family not in numba's cache yet; returns the families' names.

    The tables every family reads (the hand-rank and suit-class tables) come first, in this
    process; then every part of the families to compile, in ``jobs`` processes (default: one per
    core); last, the standard qualifier's whole-game count is kept in the cache (so the first
    ``caribbean analyze`` answers at once)."""
    from exactodds.caribbean.analysis.compact import is_cached, prepare_compact

    tables, rest = FAMILIES[0], FAMILIES[1:]
    for part in tables.parts:
        part.run()
    compile_families([family for family in rest if not family.compiled()], worker=WORKER, progress=progress,
                     jobs=jobs)
    if not is_cached("ak"):
        prepare_compact("ak")
    return [family.name for family in FAMILIES]


if __name__ == "__main__":
    serve_parts(FAMILIES, sys.stdin)
