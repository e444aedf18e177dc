"""The heads-up solver from the second round: what a solve holds and costs as the stacks grow, the
compiled sections against the numpy reference walk (the peer) in the same run, and whole solves to
0.1 % of the pot.

For each position and stack depth: the game's classes, its regrets and averages (bytes, float32),
the cells one walk visits, the time to lay the game out, and the CPU and wall seconds of two CFR+
iterations (the first loads the kernels and is left out); the iterations to the target come from the
whole solves. CPU seconds are printed beside wall seconds and the load average on each line: the
2-core machine is shared, so wall time varies with the other work.

``--solve STACKS`` (e.g. ``--solve 4,8``) runs whole solves to 0.1 % of the pot at those stacks
(default 4; 8 takes some 400 s of CPU); ``--stacks 4,8,12,20`` picks the stacks of the cost table;
``--allocate-up-to GB`` (default 7) the largest game whose iterations are run.
"""

from __future__ import annotations

import os
import resource
import sys
import time

import numpy as np
from common import ratio, report

from exactodds.cards import parse_cards
from exactodds.stud.solve.api import DEFAULT_TARGET
from exactodds.stud.solve.best_response import exploitability
from exactodds.stud.solve.card_classes import card_classes, unseen_cards
from exactodds.stud.solve.cfr import CfrState, iterate_to_target
from exactodds.stud.solve.game import Game, build_game
from exactodds.stud.solve.reference import ReferenceCfrState
from exactodds.stud.solve.start import RootSpec
from exactodds.stud.solve.third_round import solve_cost

POSITIONS = {
    "no flush possible": ("Kh 9c", "Qc Js"),
    "an open pair": ("8h 8c", "Qc Js"),
    "a flush draw": ("Kh 9h", "Qc Js"),
    "a flush draw each": ("Ah 9h", "Qs 7s"),
}
POT = 6  # two antes and the bring-in completed to 2, called


def _option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def _game(up: tuple[str, str], stacks: int, keep: str | None = None) -> tuple[Game, float]:
    cards = (tuple(parse_cards(up[0])), tuple(parse_cards(up[1])))
    dead: tuple[int, ...] = ()
    if keep is not None:
        kept = set(parse_cards(keep)) | set(cards[0]) | set(cards[1])
        dead = tuple(c for c in range(52) if c not in kept)
    n = len(unseen_cards(cards, dead))
    start = time.perf_counter()
    game = build_game(RootSpec(up=cards, pot=POT, stacks=(stacks, stacks)), dead=dead,
                      weights=(np.full(n, 1 / n), np.full(n, 1 / n)))
    return game, time.perf_counter() - start


def cost_table(stacks_list: list[int], *, allocate_up_to: float) -> None:
    """Classes, memory, cells and the time of an iteration, by position and stack depth; a game whose
    regrets and averages would take more than ``allocate_up_to`` bytes is laid out but not run (its
    iteration is estimated from the CPU time per cell measured on the others); two flush draws are
    only counted (their deals of the fourth up cards alone take gigabytes to lay out)."""
    per_cell: list[float] = []
    for name, up in POSITIONS.items():
        if name == "a flush draw each":
            cards = (tuple(parse_cards(up[0])), tuple(parse_cards(up[1])))
            m = card_classes(up=cards, dead=(), weights=None).count
            print(f"second round, {name}: {m} classes, so about {m ** 4:,} deals of the third and fourth up "
                  f"cards against 14^4 = {14 ** 4:,} with no flush possible: (m / 14)^3 = "
                  f"{(m / 14) ** 3:.0f} times the work and memory of the no-flush position at the same "
                  "stacks (not laid out)")
            continue
        for stacks in stacks_list:
            game, built = _game(up, stacks)
            cost = solve_cost(game)
            what = (f"second round, {name}, stacks {stacks}: {game.classes.count} classes, "
                    f"{cost.bytes / 1e9:.2f} GB of regrets and averages, {cost.cells:,} cells a walk, "
                    f"laid out in {built:.1f} s")
            if cost.bytes > allocate_up_to:
                estimate = 2 * cost.cells * (sum(per_cell) / len(per_cell)) if per_cell else float("nan")
                print(f"{what}; not run (over {allocate_up_to / 1e9:.0f} GB here): one iteration about "
                      f"{estimate:.0f} s of cpu at the cost per cell measured above ({_load()})")
                del game
                continue
            state = CfrState(game)
            state.iterate(1.0)  # loads the kernels
            wall, cpu = time.perf_counter(), time.process_time()
            for k in range(2):
                state.iterate(float(k + 2) ** 2)
            wall, cpu = (time.perf_counter() - wall) / 2, (time.process_time() - cpu) / 2
            per_cell.append(cpu / (2 * cost.cells))
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
            report(f"{what}; one iteration cpu {cpu:.1f} s ({1e9 * per_cell[-1]:.0f} ns a cell), peak rss "
                   f"{rss:.1f} GB, {_load()}", wall)
            del state, game


def against_the_reference() -> None:
    """One iteration of the compiled sections against the numpy reference walk, on a small game."""
    game, _ = _game(POSITIONS["no flush possible"], 6, keep="Ah Ad 2c 9h 5s 6s 7c Tc")
    timed = {}
    states = (("compiled sections", CfrState(game)), ("numpy reference", ReferenceCfrState(game)))
    for name, state in states:
        state.iterate(1.0)
        start = time.perf_counter()
        for k in range(3):
            state.iterate(float(k + 2) ** 2)
        timed[name] = (time.perf_counter() - start) / 3
        report(f"second round, 10 unseen cards, stacks 6: one iteration, {name} ({_load()})", timed[name])
    ratio("second round, one iteration, compiled sections", timed["compiled sections"],
          timed["numpy reference"], "numpy reference")


def whole_solve(stacks: int) -> None:
    """CFR+ to 0.1 % of the pot on the full deck, no flush possible, with each check's figure."""
    game, built = _game(POSITIONS["no flush possible"], stacks)
    state = CfrState(game)
    wall, cpu = time.perf_counter(), time.process_time()
    checks = []

    def check(profile):  # type: ignore[no-untyped-def]
        found = exploitability(game, profile)
        checks.append(f"{state.done + 1}: {found.fraction:.1e}")
        return found

    run = iterate_to_target(state, max_iterations=5000, target=DEFAULT_TARGET, check=check)
    print(f"  checks (iterations: exploitability, fraction of the pot): {', '.join(checks)}")
    report(f"second round, no flush possible, stacks {stacks}: {run.iterations} iterations to "
           f"{run.exploitability.fraction:.1e} of the pot, cpu {time.process_time() - cpu:.0f} s, laid out "
           f"in {built:.1f} s ({_load()})", time.perf_counter() - wall)


def main() -> None:
    stacks_list = [int(s) for s in _option("--stacks", "4,8,20").split(",")]
    against_the_reference()
    cost_table(stacks_list, allocate_up_to=float(_option("--allocate-up-to", "7")) * 1e9)
    for stacks in (int(s) for s in _option("--solve", "4").split(",") if s):
        whole_solve(stacks)


if __name__ == "__main__":
    main()
