"""The heads-up solver: the last round by the linear program and by CFR+ in the same run, the third
round by CFR+, and how the cost grows with stack depth (the number of bets the stacks allow).

Each line gives the time, the iterations and the exact exploitability reached (a fraction of the
pot). Targets: last round <= 1 s, third round <= 60 s, exploitability <= 0.1 % of the pot.

The third round runs the current CFR+ (compiled last-round walks, quadratic averaging, exploitability
checked every 10 iterations) and, in the same run, the previous method (numpy walks, linear averaging,
checked every 25) on the same game: ``--stacks 4,8,20`` picks the stacks, ``--before-max N`` caps the
previous method's iterations (default 400; a capped run prints the exploitability it reached).
CPU seconds are printed beside wall seconds because the machine is shared (the load average too).
"""

from __future__ import annotations

import os
import sys
import time

from common import ratio, report

from exactodds.stud.solve.api import DEFAULT_TARGET, solve_position
from exactodds.stud.solve.cfr import CfrRun, solve_cfr
from exactodds.stud.solve.game import Game
from exactodds.stud.solve.results import SolveMethod

LAST = ["? | Kd 9c 4d 2s", "? | Qc Js 7d 7h"]
THIRD = ["? | Kd 9c 4d", "? | Qc Js 7d"]


def _run(players: list[str], stacks: int, method: SolveMethod | None, pot: int = 14) -> tuple[float, object]:
    start = time.perf_counter()
    result = solve_position(position=players, pot=pot, stacks=(stacks, stacks), method=method)
    return time.perf_counter() - start, result


def _option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _cfr(game: Game, *, before: bool, cap: int) -> tuple[float, float, CfrRun]:
    wall, cpu = time.perf_counter(), time.process_time()
    if before:
        run = solve_cfr(game, max_iterations=cap, target=DEFAULT_TARGET, check_every=25, compiled=False,
                        averaging=1)
    else:
        run = solve_cfr(game, max_iterations=5000, target=DEFAULT_TARGET)
    return time.perf_counter() - wall, time.process_time() - cpu, run


def third_round(stacks: int, cap: int) -> None:
    """The third round at ``stacks``: the current CFR+ and the previous method on the same game."""
    start = time.perf_counter()
    game = solve_position(position=THIRD, pot=10, stacks=(stacks, stacks), max_iterations=1).solution.game
    setup = time.perf_counter() - start
    nodes = len(game.tree.nodes)
    print(f"third round, stacks {stacks} ({stacks // 4} bets): {nodes} public nodes, game built in "
          f"{setup:.1f} s, load average {os.getloadavg()[0]:.1f}")
    solve_cfr(game, max_iterations=1, target=DEFAULT_TARGET)  # compiles the kernels (or loads them) untimed
    runs = {}
    for before in (False, True):
        wall, cpu, run = _cfr(game, before=before, cap=cap)
        name = "previous (numpy, linear)" if before else "current (compiled, quadratic)"
        capped = " (capped)" if before and run.exploitability.fraction > DEFAULT_TARGET else ""
        report(f"  {name}: {run.iterations} iterations{capped}, exploitability "
               f"{run.exploitability.fraction:.1e}, cpu {cpu:.1f} s", wall)
        runs[before] = (wall, run)
    (ours, fast), (theirs, slow) = runs[False], runs[True]
    if slow.exploitability.fraction <= DEFAULT_TARGET:
        ratio(f"third round stacks {stacks}, current", ours, theirs, "previous method")
    else:  # the previous method stopped short of the target: compare the time per iteration
        ratio(f"third round stacks {stacks}, current, per iteration (previous capped)",
              ours / fast.iterations, theirs / slow.iterations, "previous method per iteration")

def main() -> None:
    quick = "--quick" in sys.argv
    if "--third-only" in sys.argv:
        for stacks in (int(s) for s in _option("--stacks", "4,8,20").split(",")):
            third_round(stacks, int(_option("--before-max", "400")))
        return
    t_lp, lp = _run(LAST, 20, SolveMethod.LINEAR_PROGRAM)
    t_cfr, cfr = _run(LAST, 20, SolveMethod.CFR_PLUS)
    report(f"last round, stacks 20 (5 bets), linear program, exploitability "
           f"{lp.exploitability.fraction:.1e} of the pot", t_lp)  # type: ignore[attr-defined]
    report(f"last round, stacks 20, CFR+ {cfr.iterations} iterations, exploitability "  # type: ignore[attr-defined]
           f"{cfr.exploitability.fraction:.1e}", t_cfr)  # type: ignore[attr-defined]
    print(f"game value, player 1: LP {lp.values[0]:.5f}  CFR+ {cfr.values[0]:.5f}")  # type: ignore[attr-defined]
    ratio("linear program (last round)", t_lp, t_cfr, "CFR+ to 0.1 %")
    for stacks in (4, 8, 20, 40, 80):
        t, r = _run(LAST, stacks, SolveMethod.LINEAR_PROGRAM)
        nodes = len(r.solution.game.tree.nodes)  # type: ignore[attr-defined]
        report(f"last round, LP, stacks {stacks} ({stacks // 4} bets), {nodes} public nodes", t)
    cap = int(_option("--before-max", "400"))
    for stacks in (int(s) for s in _option("--stacks", "4" if quick else "4,8,20").split(",")):
        third_round(stacks, cap)


if __name__ == "__main__":
    main()
