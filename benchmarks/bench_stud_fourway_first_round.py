"""Four-way five-card stud equity on the first round, exact (issue 34): the rank-profile method with its
group sums kept in two int64 words, beside the sampled estimate the chooser used before and still uses
under the budget; and the two-word sums' cost on a position both trees count (this tree beside the tree
before, ``--baseline-ref``, in fresh processes).

The first round without dead cards has 142,197,537,041,320,761,000 deals (about 1.4e20, past 2**63):
the exact count takes many minutes (``--only first-round`` or ``--only both-trees`` runs one part). Each
line gives the wall and CPU seconds, the chooser's estimate and the load average (the 2-core
machine is shared: CPU seconds are steadier).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))
import common  # noqa: E402

BASELINE_REF = "33f7c89"  # main before the two-word sums
FIRST_ROUND = ["? | Ks", "? | Qh", "? | 2c", "? | 7d"]
BOTH_TREES = ["? | Ks 9s", "? | Qh Jh", "? | 2c 3c", "? | 7d 4d"]  # third card, four flush draws
TIMED = """
import json, sys, time
from exactodds.stud.equity import methods as eq
from exactodds.stud.equity.position import parse_position
position = parse_position(json.loads(sys.argv[1]))
eq.rank_profile_equity(parse_position(["? | Ks 9s 4c", "? | Qh Jh 2d", "? | 2c 3c 5s", "? | 7d 4d 6h"]))
wall, cpu = time.perf_counter(), time.process_time()
result = eq.rank_profile_equity(position)
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu,
                  "equity": [str(p.equity) for p in result.players]}))
"""


def _load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def both_trees(ref: str, repeat: int) -> None:
    """The third-card position with four flush draws, this tree and the tree at ``ref`` alternating."""
    with tempfile.TemporaryDirectory(prefix="exactodds-bench-") as folder:
        trees = {"this tree": None, "baseline": common.baseline_tree(pathlib.Path(folder), ref)}
        runs: dict[str, list[dict]] = {who: [] for who in trees}
        for k in range(repeat + 1):  # the first round of runs compiles each tree's kernels
            for who, tree in trees.items():
                env = {**os.environ} | ({"PYTHONPATH": str(tree)} if tree else {})
                done = subprocess.run([sys.executable, "-c", TIMED, json.dumps(BOTH_TREES)], env=env,
                                      cwd=folder, capture_output=True, text=True, check=True)
                if k:
                    runs[who].append(json.loads(done.stdout))
        best = {who: min(r, key=lambda x: x["cpu"]) for who, r in runs.items()}
        assert best["this tree"]["equity"] == best["baseline"]["equity"]
        print(f"four-way, third card, four flush draws in four suits (best of {repeat}, same result):")
        for who, run in best.items():
            common.report(f"  {who} ({run['cpu']:.1f} s CPU; {_load()})", run["wall"])
        print(f"CPU baseline / this tree: {best['baseline']['cpu'] / best['this tree']['cpu']:.2f}x "
              f"(the two-word sums add 20 additions per group of outer pairs)")


def first_round() -> None:
    from exactodds.stud.equity import methods as eq
    from exactodds.stud.equity.controls import control_variate_equity
    from exactodds.stud.equity.deals import enumeration_size
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.equity.results import EquityMethod
    from exactodds.stud.equity.sampling import DEFAULT_SAMPLES

    position = parse_position(FIRST_ROUND)
    estimate = eq.exact_seconds(position)[EquityMethod.RANK_PROFILES]
    print(f"four-way, first round, holes unknown ({enumeration_size(position):,} deals); the chooser's "
          f"estimate {estimate:,.0f} s ({_load()})")
    wall, cpu = time.perf_counter(), time.process_time()
    exact = eq.rank_profile_equity(position)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert exact.combinations == enumeration_size(position) > 2**66
    assert sum(p.equity for p in exact.players) == 1
    assert all(p.win + p.tie + p.lose == 1 for p in exact.players)
    common.report(f"  exact: {exact.method} ({cpu:,.0f} s CPU; estimate {estimate:,.0f} s; {_load()})", wall)
    print("  equity " + ", ".join(f"{float(p.equity):.6%}" for p in exact.players))
    control_variate_equity(position, samples=1_000)  # load the compiled kernel
    sampled_wall, sampled_cpu = time.perf_counter(), time.process_time()
    sampled = control_variate_equity(position, samples=DEFAULT_SAMPLES)
    sampled_wall, sampled_cpu = time.perf_counter() - sampled_wall, time.process_time() - sampled_cpu
    errors = [abs(float(s.equity - e.equity)) / s.standard_error
              for s, e in zip(sampled.players, exact.players, strict=True)]
    spread = max(p.standard_error for p in sampled.players)
    common.report(f"  sampled: {sampled.method}, {sampled.samples:,} deals ({sampled_cpu:.1f} s CPU; largest "
                  f"SE {spread * 100:.3f} pp; off the exact by at most {max(errors):.1f} SE; {_load()})",
                  sampled_wall)
    common.ratio("sampled estimate", sampled_wall, wall, "exact first round")
    print(f"the chooser's estimate / measured: {estimate / cpu:.2f} of the CPU time, {estimate / wall:.2f} "
          "of the wall time (the budget compares the estimate; the wall time grows with the machine's load)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-ref", default=BASELINE_REF)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--only", choices=["both-trees", "first-round"], default=None)
    args = parser.parse_args()
    if args.only in (None, "both-trees"):
        both_trees(args.baseline_ref, args.repeat)
    if args.only in (None, "first-round"):
        first_round()


if __name__ == "__main__":
    main()
