"""The heads-up solver: the current method (classes of interchangeable cards) against the previous one
(the same CFR+ and linear program on every card) in the same run, and how the cost grows with stack
depth (the number of bets the stacks allow).

Each line gives the time, the iterations and the exact exploitability reached (a fraction of the
pot). Targets: last round <= 1 s, third round <= 60 s, exploitability <= 0.1 % of the pot.

``--third-only`` runs the third round only; ``--stacks 4,8,20,40`` picks the stacks; ``--before-max N``
caps the previous method's iterations (default 400, and 30 from stacks 20; a capped run prints the
exploitability it reached and the ratio is then per iteration). CPU seconds and the load average are
printed beside wall seconds because the machine may be shared.
"""

from __future__ import annotations

import os
import sys
import time

from common import ratio, report

from exactodds.stud.solve.api import DEFAULT_TARGET, solve_position
from exactodds.stud.solve.cfr import CfrRun, solve_cfr
from exactodds.stud.solve.game import Game, build_game
from exactodds.stud.solve.lp import solve_lp
from exactodds.stud.solve.results import SolveMethod

LAST = ["? | Kd 9c 4d 2s", "? | Qc Js 7d 7h"]
THIRD = ["? | Kd 9c 4d", "? | Qc Js 7d"]
THIRD_FLUSH_DRAW = ["? | Kd 9d 4d", "? | Qc Js 7d"]  # diamonds stay apart: 22 classes, not 13


def _option(name: str, default: str) -> str:
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def _games(players: list[str], pot: int, stacks: int) -> tuple[Game, Game]:
    """The game on classes (current) and on every card (previous) of one position."""
    game = solve_position(position=players, pot=pot, stacks=(stacks, stacks), max_iterations=1).solution.game
    weights = (game.card_weights(0), game.card_weights(1))
    return game, build_game(game.spec, dead=(), weights=weights, reduce=False)


def _cfr(game: Game, *, cap: int) -> tuple[float, float, CfrRun]:
    wall, cpu = time.perf_counter(), time.process_time()
    run = solve_cfr(game, max_iterations=cap, target=DEFAULT_TARGET)
    return time.perf_counter() - wall, time.process_time() - cpu, run


def third_round(players: list[str], stacks: int, cap: int, *, before: bool = True) -> None:
    """The third round at ``stacks``: CFR+ on classes and (``before``) on every card, the same game."""
    current, previous = _games(players, 10, stacks)
    nodes = len(current.tree.nodes)
    print(f"third round {' vs '.join(players)}, stacks {stacks} ({stacks // 4} bets): {nodes} public nodes, "
          f"{current.classes.count} classes of {len(current.unseen)} cards, load {os.getloadavg()[0]:.1f}")
    solve_cfr(current, max_iterations=1, target=DEFAULT_TARGET)  # loads (or compiles) the kernels untimed
    runs = {}
    slow_cap = cap if stacks <= 8 else min(cap, 30)  # every card at stacks 20: about 1 s an iteration
    methods = (("classes", current, 5000), ("every card", previous, slow_cap))
    for name, game, limit in methods[:2 if before else 1]:
        wall, cpu, run = _cfr(game, cap=limit)
        capped = " (capped)" if run.exploitability.fraction > DEFAULT_TARGET else ""
        report(f"  {name}: {run.iterations} iterations{capped}, exploitability "
               f"{run.exploitability.fraction:.1e}, cpu {cpu:.1f} s", wall)
        runs[name] = (wall, run)
    if not before:
        return
    (ours, fast), (theirs, slow) = runs["classes"], runs["every card"]
    if slow.exploitability.fraction <= DEFAULT_TARGET:
        ratio(f"third round stacks {stacks}, classes", ours, theirs, "every card")
    else:  # the previous method stopped short of the target: compare the time per iteration
        ratio(f"third round stacks {stacks}, classes, per iteration (every card capped)",
              ours / fast.iterations, theirs / slow.iterations, "every card per iteration")


def last_round() -> None:
    """The last round: the LP on classes and on every card, and CFR+ to 0.1 %, in one run."""
    current, previous = _games(LAST, 14, 20)
    solve_lp(current)  # scipy's first call imports HiGHS
    timed = {}
    for name, game in (("classes", current), ("every card", previous)):
        start = time.perf_counter()
        value = solve_lp(game).value
        timed[name] = time.perf_counter() - start
        report(f"last round, stacks 20, linear program on {name}: value {value:.6f}", timed[name])
    ratio("last round, linear program on classes", timed["classes"], timed["every card"], "every card")
    start = time.perf_counter()
    run = solve_cfr(current, max_iterations=5000, target=DEFAULT_TARGET)
    report(f"last round, stacks 20, CFR+ {run.iterations} iterations, exploitability "
           f"{run.exploitability.fraction:.1e}", time.perf_counter() - start)
    for stacks in (4, 8, 20, 40, 80):
        start = time.perf_counter()
        result = solve_position(position=LAST, pot=14, stacks=(stacks, stacks),
                                method=SolveMethod.LINEAR_PROGRAM)
        nodes = len(result.solution.game.tree.nodes)
        report(f"last round, LP, stacks {stacks} ({stacks // 4} bets), {nodes} public nodes",
               time.perf_counter() - start)


def main() -> None:
    quick = "--quick" in sys.argv
    cap = int(_option("--before-max", "400"))
    stacks_list = [int(s) for s in _option("--stacks", "4" if quick else "4,8,20,40").split(",")]
    if "--third-only" not in sys.argv:
        last_round()
    for stacks in stacks_list:
        third_round(THIRD, stacks, cap, before=stacks <= 20)
    if not quick:
        third_round(THIRD_FLUSH_DRAW, 20, cap, before=False)


if __name__ == "__main__":
    main()
