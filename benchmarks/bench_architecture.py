"""The architecture refactor (kernels/ folders, rank_profile/ package, one disjoint-prefix loop)
against the code before it, in one run.

The previous code is commit 219cf94, checked out as a detached worktree at /tmp/arch-old (created if
missing). Each side runs in its own subprocess with PYTHONPATH pointing at its tree and its own
numba cache, first once to load or compile its kernels, then timed (best of N): stud heads-up on the
first round, three-way rank profiles on the first and second rounds, four-way rank profiles on the
third card, and five players on the last street by pairwise inclusion-exclusion and by plain
enumeration (the prefix loops of
deal_counts.py). Both sides' results must be
identical; the ratios old / new are printed (above 1: the new code is faster), for wall and process
CPU time. Sides alternate (old, new, old, new, ...; ``rounds`` times, default 3) so a busy machine
hurts both alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

OLD_COMMIT = "219cf94"
OLD_TREE = Path("/tmp/arch-old")
NEW_TREE = Path(__file__).resolve().parents[1]
CACHE_ROOT = Path(os.environ.get("EXACTODDS_CACHE_DIR", "/tmp/exactodds-bench-cache"))
FIVE = ["? | Ks 9c 4d 2h", "? | Qh Js 7d 3c", "? | 2c 6c 5h 8d", "? | As 8h 3d 9h", "? | Th Td 6s 5s"]
POSITIONS = {
    "stud heads-up round 1": (["? | Ks", "? | Qh"], "stud"),
    "three-way round 1 (rank profiles)": (["? | Ks", "? | Qh", "? | 2c"], "rank"),
    "three-way round 2 (rank profiles)": (["Kh | 9c 4d", "? | Qh 4c", "? | 2c 3c"], "rank"),
    "four-way third card (rank profiles)": (["? | Ks 9c", "? | Qh Js", "? | 2c 6c", "? | As 8h"], "rank"),
    "five players last street (pairwise)": (FIVE, "pairwise"),
    "five players last street (enumeration)": (FIVE, "enumeration"),
}
REPEATS = 3


def worker(tree: str) -> None:
    """Time every case in this process (the exactodds of ``tree``); print one JSON line."""
    import exactodds

    if not Path(exactodds.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported {exactodds.__file__}, not the tree {tree}")
    from exactodds.stud.equity import methods, parse_position, stud_equity

    functions = {"stud": stud_equity, "rank": methods.rank_profile_equity,
                 "pairwise": methods.pairwise_equity, "enumeration": methods.enumeration_equity}
    out = {}
    for name, (players, how) in POSITIONS.items():
        position = parse_position(players)

        def run(position=position, fn=functions[how]) -> str:
            result = fn(position)
            return json.dumps([result.method] + [str(p.equity) for p in result.players])

        result = run()  # load or compile the kernels, build the tables
        wall = cpu = float("inf")
        for _ in range(REPEATS):
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall = min(wall, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
        out[name] = {"seconds": wall, "cpu": cpu, "result": result}
    print(json.dumps(out))


def run_side(side: str, tree: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), EXACTODDS_CACHE_DIR=str(CACHE_ROOT / f"bench-{side}"))
    done = subprocess.run([sys.executable, __file__, "--worker", str(tree)], env=env,
                          check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    if not OLD_TREE.exists():
        subprocess.run(["git", "-C", str(NEW_TREE), "worktree", "add", "--detach", str(OLD_TREE), OLD_COMMIT],
                       check=True)
    print(f"(machine: {os.cpu_count()} cores, shared; best wall times; old = {OLD_COMMIT} at {OLD_TREE})")
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    best: dict[str, dict[str, float]] = {}
    results: dict[str, dict[str, str]] = {"old": {}, "new": {}}
    for _ in range(rounds):
        for side, tree in (("old", OLD_TREE), ("new", NEW_TREE)):
            for name, value in run_side(side, tree).items():
                for metric in ("seconds", "cpu"):
                    key = f"{side} {metric}"
                    best.setdefault(key, {})
                    best[key][name] = min(best[key].get(name, float("inf")), value[metric])
                results[side][name] = value["result"]
    print("wall: best elapsed time; cpu: best process CPU time (all threads), steadier on a busy machine")
    for name in POSITIONS:
        if results["old"][name] != results["new"][name]:
            old_result, new_result = results["old"][name], results["new"][name]
            raise SystemExit(f"{name}: results differ: old {old_result}, new {new_result}")
        old, new = best["old seconds"][name], best["new seconds"][name]
        old_cpu, new_cpu = best["old cpu"][name], best["new cpu"][name]
        print(f"{name:<38} wall old {old * 1000:9.1f} ms new {new * 1000:9.1f} ms ratio {old / new:5.2f}x"
              f" | cpu old {old_cpu * 1000:9.1f} ms new {new_cpu * 1000:9.1f} ms"
              f" ratio {old_cpu / new_cpu:5.2f}x")
    print("ratios are old / new: above 1 the new code is faster; both sides gave the same results")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        main()
