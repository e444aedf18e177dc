"""The counting-engine refactor against the code before it, in one run.

The previous code is the layout commit 1212593 (the tree just before the shared counting
core), checked out as a detached worktree at /tmp/oldtree (created if missing). Each side
runs in its own subprocess with PYTHONPATH pointing at its tree, first once to load or
compile its kernels, then timed (best of N): the whole standard game in process,
hole-carding with K = 2 and K = 5 dealer cards seen, stud heads-up round 1 and stud with 8 players on
the last street. Both sides' results must be identical; the ratios old / new are printed
(above 1: the new code is faster), for wall time and for process CPU time (steadier when
the machine is shared). Sides alternate (old, new, old, new, ...; ``rounds`` times, default
3) so that a busy machine hurts both alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

OLD_COMMIT = "1212593"
OLD_TREE = Path("/tmp/oldtree")
NEW_TREE = Path(__file__).resolve().parents[1]
CASES = ("whole game, standard, in process", "hole-carding K=2, standard", "hole-carding K=5, standard",
         "stud heads-up round 1", "stud 8 players, last street")
REPEATS = {CASES[0]: 3, CASES[1]: 2, CASES[2]: 3, CASES[3]: 5, CASES[4]: 5}


def worker(tree: str, rounds: int) -> None:
    """Time every case in this process (the exactodds of ``tree``); print one JSON line."""
    import exactodds

    if not Path(exactodds.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported {exactodds.__file__}, not the tree {tree}")
    from exactodds.caribbean.analysis import game
    from exactodds.caribbean.holecard.exact import analyze_known
    from exactodds.stud.equity import parse_position, stud_equity

    headsup = parse_position(["? | Ks", "? | Qh"])
    eight = parse_position([
        "Kh | 9c 4d Ks 2h", "? | Qh Js 7d 3c", "? | 2c 6c 4c 5c", "? | As Ad 8h 8c",
        "? | Th Tc 6d 6s", "? | 7c 7h 9d 9s", "? | Jc Jd 5d 5s", "? | 3d 3h 4s 2s",
    ])

    def whole_game() -> str:
        game.COUNTS.clear()
        game.OUTCOMES.clear()
        return str(game.analyze("standard").house_edge)

    def stud(position) -> str:
        return json.dumps([str(p.equity) for p in stud_equity(position).players])

    runs = {CASES[0]: whole_game,
            CASES[1]: lambda: str(analyze_known("standard", dealer_known=2).house_edge),
            CASES[2]: lambda: str(analyze_known("standard", dealer_known=5).house_edge),
            CASES[3]: lambda: stud(headsup), CASES[4]: lambda: stud(eight)}
    out = {}
    for name, fn in runs.items():
        result = fn()  # load or compile the kernels, build the tables
        wall = cpu = float("inf")
        for _ in range(REPEATS[name] * rounds):
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            wall = min(wall, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
        out[name] = {"seconds": wall, "cpu": cpu, "result": result}
    print(json.dumps(out))


def run_side(tree: Path, rounds: int = 1) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, __file__, "--worker", str(tree), str(rounds)], env=env,
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
            for name, value in run_side(tree).items():
                for metric in ("seconds", "cpu"):
                    key = f"{side} {metric}"
                    best.setdefault(key, {})
                    best[key][name] = min(best[key].get(name, float("inf")), value[metric])
                results[side][name] = value["result"]
    print("wall: best elapsed time; cpu: best process CPU time (all threads), steadier on a busy machine")
    for name in CASES:
        if results["old"][name] != results["new"][name]:
            old_result, new_result = results["old"][name], results["new"][name]
            raise SystemExit(f"{name}: results differ: old {old_result}, new {new_result}")
        old, new = best["old seconds"][name], best["new seconds"][name]
        old_cpu, new_cpu = best["old cpu"][name], best["new cpu"][name]
        print(f"{name:<34} wall old {old * 1000:9.1f} ms new {new * 1000:9.1f} ms ratio {old / new:5.2f}x | "
              f"cpu old {old_cpu * 1000:9.1f} ms new {new_cpu * 1000:9.1f} ms "
              f"ratio {old_cpu / new_cpu:5.2f}x")
    print("ratios are old / new: above 1 the new code is faster; both sides gave the same results")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]))
    else:
        main()
