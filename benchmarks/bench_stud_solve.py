"""The heads-up solver: the last round by the linear program and by CFR+ in the same run, the third
round by CFR+, and how the cost grows with stack depth (the number of bets the stacks allow).

Each line gives the time, the iterations and the exact exploitability reached (a fraction of the
pot). Targets: last round <= 1 s, third round <= 60 s, exploitability <= 0.1 % of the pot.
"""

from __future__ import annotations

import sys
import time

from common import ratio, report

from exactodds.stud.solve.api import solve_position
from exactodds.stud.solve.results import SolveMethod

LAST = ["? | Kd 9c 4d 2s", "? | Qc Js 7d 7h"]
THIRD = ["? | Kd 9c 4d", "? | Qc Js 7d"]


def _run(players: list[str], stacks: int, method: SolveMethod | None, pot: int = 14) -> tuple[float, object]:
    start = time.perf_counter()
    result = solve_position(position=players, pot=pot, stacks=(stacks, stacks), method=method)
    return time.perf_counter() - start, result


def main() -> None:
    quick = "--quick" in sys.argv
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
    for stacks in ((4,) if quick else (4, 8)):
        t, r = _run(THIRD, stacks, None, pot=10)
        nodes = len(r.solution.game.tree.nodes)  # type: ignore[attr-defined]
        report(f"third round, CFR+, stacks {stacks} ({stacks // 4} bets), {nodes} public nodes, "
               f"{r.iterations} iterations, exploitability {r.exploitability.fraction:.1e}", t)  # type: ignore[attr-defined]


if __name__ == "__main__":
    main()
