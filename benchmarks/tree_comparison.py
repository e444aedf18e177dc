"""Before/after in one run: the same cases timed on an older tree of the code and on this one.

A refactor benchmark (``bench_kernel_refactor.py``, ``bench_architecture.py``) names an old commit
and its cases; :func:`compare` checks the commit out as a detached worktree (created if missing)
and runs each side in its own subprocess with PYTHONPATH pointing at its tree (and, with
``own_cache``, its own exactodds cache folder). A side first runs each case once, to load or
compile its kernels and build its tables, then times it (best of N, wall and process CPU time).
Sides alternate (old, new, old, new, ...; ``rounds`` times) so that a busy machine hurts both
alike. Both sides' results must be identical; the ratios old / new are printed (above 1: the new
code is faster) with the load average before and after, and recorded for the performance page.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from common import CURRENT, RESULTS

NEW_TREE = Path(__file__).resolve().parents[1]
CACHE_ROOT = Path(os.environ.get("EXACTODDS_CACHE_DIR", "/tmp/exactodds-bench-cache"))


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as printed beside every comparison."""
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def time_cases(cases: Mapping[str, Callable[[], str]], repeats: Mapping[str, int]) -> None:
    """In a side's subprocess: run each case once untimed, then ``repeats[name]`` times; print one
    JSON line ``{name: {"seconds", "cpu", "result"}}`` (best wall and CPU time, the case's result)."""
    out = {}
    for name, run in cases.items():
        result = run()  # load or compile the kernels, build the tables
        wall = cpu = float("inf")
        for _ in range(repeats[name]):
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall = min(wall, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - start_cpu)
        out[name] = {"seconds": wall, "cpu": cpu, "result": result}
    print(json.dumps(out))


def check_tree(tree: str) -> None:
    """In a side's subprocess: refuse to time an exactodds imported from another tree."""
    import exactodds

    if not Path(exactodds.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported {exactodds.__file__}, not the tree {tree}")


def _run_side(script: Path, side: str, tree: Path, own_cache: bool, worker_args: Sequence[str]) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    if own_cache:
        env["EXACTODDS_CACHE_DIR"] = str(CACHE_ROOT / f"bench-{side}")
    done = subprocess.run([sys.executable, str(script), "--worker", str(tree), *worker_args], env=env,
                          check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(done.stdout.strip().splitlines()[-1])


def compare(script: str, *, old_commit: str, old_tree: Path, names: list[str], rounds: int = 3,
            own_cache: bool = False, worker_args: Sequence[str] = ()) -> dict[str, float]:
    """Time ``names`` on the old tree and on this one, alternating sides, and print a line per case.

    ``script`` is the benchmark file: run as ``script --worker TREE *worker_args`` it must time its
    cases in that tree (:func:`check_tree`, :func:`time_cases`). Returns the CPU-time ratio old / new
    by case.
    """
    if not old_tree.exists():
        subprocess.run(["git", "-C", str(NEW_TREE), "worktree", "add", "--detach", str(old_tree), old_commit],
                       check=True)
    load_before = load_average()
    print(f"(machine: {os.cpu_count()} cores, shared; old = {old_commit} at {old_tree}, new = {NEW_TREE}; "
          f"load average {load_before} before)")
    best: dict[str, dict[str, float]] = {}
    results: dict[str, dict[str, str]] = {"old": {}, "new": {}}
    for _ in range(rounds):
        for side, tree in (("old", old_tree), ("new", NEW_TREE)):
            for name, value in _run_side(Path(script), side, tree, own_cache, worker_args).items():
                for metric in ("seconds", "cpu"):
                    key = f"{side} {metric}"
                    best.setdefault(key, {})
                    best[key][name] = min(best[key].get(name, float("inf")), value[metric])
                results[side][name] = value["result"]
    print("wall: best elapsed time; cpu: best process CPU time (all threads), steadier on a busy machine")
    width = max(len(name) for name in names)
    ratios = {}
    for name in names:
        if results["old"][name] != results["new"][name]:
            old_result, new_result = results["old"][name], results["new"][name]
            raise SystemExit(f"{name}: results differ: old {old_result}, new {new_result}")
        old, new = best["old seconds"][name], best["new seconds"][name]
        old_cpu, new_cpu = best["old cpu"][name], best["new cpu"][name]
        ratios[name] = old_cpu / new_cpu
        print(f"{name:<{width}} wall old {old * 1000:9.1f} ms new {new * 1000:9.1f} ms"
              f" ratio {old / new:5.2f}x | cpu old {old_cpu * 1000:9.1f} ms new {new_cpu * 1000:9.1f} ms"
              f" ratio {ratios[name]:5.2f}x")
        RESULTS.append({"benchmark": CURRENT["benchmark"], "what": f"{name} (CPU time, vs {old_commit})",
                        "seconds": new_cpu, "rate": f"{ratios[name]:.2f}x as fast as {old_commit}"})
    print(f"ratios are old / new: above 1 the new code is faster; both sides gave the same results; "
          f"load average {load_before} before, {load_average()} after")
    return ratios
