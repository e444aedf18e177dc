"""Caribbean Stud studies: session, simulate (1e6 hands), progressive and collusion (default samples).

In-process times come after the situation counts (the whole-game counting that session, simulate
and collusion start with, timed separately) are built once; the CLI lines time whole processes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, report  # noqa: E402

SIMULATED_HANDS = 1_000_000


def main() -> None:
    from exactodds.caribbean.analysis.game import evaluate_strategy, situation_outcomes
    from exactodds.caribbean.sidebets.odds import sidebet_odds
    from exactodds.caribbean.sidebets.profile import DEFAULT_PROGRESSIVE, load_sidebet, parse_pays
    from exactodds.caribbean.strategy.strategies import load_strategy
    from exactodds.caribbean.studies.collusion import DEFAULT_SAMPLES, collusion
    from exactodds.caribbean.studies.session import session_distribution
    from exactodds.caribbean.studies.simulate import simulate
    from exactodds.handrank import rank_table

    rank_table()
    start = time.perf_counter()
    outcomes = situation_outcomes("standard")
    report("situation counts (once per process, every command)", time.perf_counter() - start)
    optimal = load_strategy("optimal")
    result = evaluate_strategy(outcomes, optimal.raise_mask(outcomes), name="optimal")

    report("session: 20 hands, exact convolution", best_time(lambda: session_distribution(result, hands=20)))
    report("session: 100 hands (the maximum)", best_time(lambda: session_distribution(result, hands=100), 1))
    default = load_sidebet(DEFAULT_PROGRESSIVE)
    report("progressive: return and break-even meter",
           best_time(lambda: sidebet_odds(default.with_fixed_pays(parse_pays("quads=150")), meter=250_000)))
    sim = best_time(lambda: simulate(outcomes, optimal, hands=SIMULATED_HANDS, seed=0), 1)
    report(f"simulate: {SIMULATED_HANDS:,} hands, optimal strategy", sim, SIMULATED_HANDS, "hands")
    for players in (1, 7):
        seconds = best_time(
            lambda p=players: collusion(outcomes, players=p, samples=DEFAULT_SAMPLES, seed=0), 1)
        report(f"collusion: {players} player(s), {DEFAULT_SAMPLES:,} samples", seconds,
               DEFAULT_SAMPLES * players, "exact decisions")

    # Whole commands, as a user runs them (a fresh process: imports and the situation counts included).
    for args in (["session"], ["progressive", "--meter", "250000"],
                 ["simulate", "--hands", str(SIMULATED_HANDS)], ["collusion", "--players", "7"]):
        command = [os.path.join(os.path.dirname(sys.executable), "exactodds"), "caribbean", *args]
        seconds = best_time(lambda c=command: subprocess.run(c, check=True, capture_output=True), 1)
        report(f"CLI process: caribbean {' '.join(args)}", seconds)


if __name__ == "__main__":
    main()
