"""Whole-game Caribbean Stud analysis: our counting kernel against direct enumeration.

The baseline enumerates every dealer completion of sampled (player hand, up card)
situations with numpy (the decision engine's method) and extrapolates its rate to all
2,598,960 x 47 situations. Both run in this process, so the ratio is fair on a noisy machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402


def main() -> None:
    from exactodds.caribbean.analysis import game as analysis
    from exactodds.caribbean.decision.decide import decide
    from exactodds.combinatorics import N_HANDS, all_subsets_colex

    # A fresh process: includes interpreter start-up, imports, loading the rank table and
    # the compiled kernels from their caches (as a user would run it).
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from exactodds.caribbean.analysis.game import analyze; "
                    "analyze('standard')"], check=True)
    fresh = time.perf_counter() - start
    report("whole game, fresh process (python -c analyze)", fresh)

    def in_process():
        analysis.COUNTS.clear()
        analysis.OUTCOMES.clear()
        analysis.analyze("standard")

    warm = best_time(in_process, 3)
    report("whole game, in process (kernels loaded)", warm)

    rng = np.random.default_rng(3)
    hands = all_subsets_colex(52, 5)[rng.integers(0, N_HANDS, 40)]
    situations = [(h, int(rng.choice(np.setdiff1d(np.arange(52), h)))) for h in hands]
    start = time.perf_counter()
    for hand, up in situations:
        decide(hand, up=up)
    per_situation = (time.perf_counter() - start) / len(situations)
    baseline = per_situation * N_HANDS * 47
    report("direct enumeration, per situation (163,185 dealer hands)", per_situation)
    print(f"direct enumeration extrapolated to 122,151,120 situations: {baseline / 3600:,.1f} hours")
    ratio("whole game, in process", warm, baseline, "direct enumeration")
    ratio("whole game, fresh process", fresh, baseline, "direct enumeration")


if __name__ == "__main__":
    main()
