"""Partial information: the edge-sort count time, before and after the kernel's rewrite, in one run.

The baseline is the tree this branch started from (main at BASE_COMMIT, checked out as a detached
worktree at /tmp/partial-base, created if missing): its partial-information kernel (K = 1, 2 only)
and its hole-carding kernel, before the two were made to share their completions and orbit code.
Each side runs in its own subprocess with PYTHONPATH at its tree, first once to load or compile
its kernels, then timed; sides alternate. Both sides' counts must be identical.

Cases (both trees): the hole-carding K = 2 count (``analyze_known``), and the edge-sort count with
aces and kings sorted and the up card seen (every ``share``-th chunk of the count, extrapolated;
``--quick``: every 16th; by default every 4th). New tree only: the edge-sort count with 3 and 4
dealer cards seen (extrapolated from a share of the seen-set classes), beside the hole-carding
count with as many cards seen, which is the floor the signal adds to. The load average is printed
(the machine is shared). ``--count-strategy``: also recount Jacobson's count strategy
(``partial_rules.COUNT_STRATEGY``) over every recorded situation, beside the plain count, and
refuse a difference from the count shipped in ``data/counts/partial.toml``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(__file__))
from common import ratio, report  # noqa: E402

BASE_COMMIT = "cb0810d"
BASE_TREE = Path("/tmp/partial-base")
NEW_TREE = Path(__file__).resolve().parents[1]


def worker(tree: str, case: str, share: int) -> None:
    """Time one case with the exactodds of ``tree``; print one JSON line (seconds, result)."""
    import exactodds

    if not Path(exactodds.__file__).resolve().is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported {exactodds.__file__}, not the tree {tree}")
    from exactodds.caribbean.holecard.exact import analyze_known, seen_set_classes, seen_sets_chunk
    from exactodds.caribbean.holecard.partial import edge_sort, partial_chunk, partial_chunks
    from exactodds.caribbean.profile import load_profile

    profile = load_profile("standard")
    if case == "known2":
        analyze_known(profile, dealer_known=2)
        start = time.perf_counter()
        result = str(analyze_known(profile, dealer_known=2).house_edge)
        seconds = time.perf_counter() - start
    elif case.startswith("sort"):
        k = int(case[4:])
        chunks = partial_chunks(profile, edge_sort("AK", dealer_known=k))
        partial_chunk(*chunks[0])
        chosen = chunks[::share]
        start = time.perf_counter()
        sums = [partial_chunk(*args) for args in chosen]
        seconds = (time.perf_counter() - start) * len(chunks) / len(chosen)
        result = json.dumps([sum(c) for c in zip(*sums, strict=True)])
    else:  # "known3" / "known4": a share of the hole-carding seen-set classes, extrapolated
        k = int(case[5:])
        classes = list(range(len(seen_set_classes(k)[0])))
        seen_sets_chunk(profile, k, classes[:2])
        chosen = classes[::share]
        start = time.perf_counter()
        sums = seen_sets_chunk(profile, k, chosen)
        seconds = (time.perf_counter() - start) * len(classes) / len(chosen)
        result = json.dumps(sums)
    print(json.dumps({"seconds": seconds, "result": result}))


def run_side(tree: Path, case: str, share: int) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, __file__, "--worker", str(tree), case, str(share)], env=env,
                         capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def ensure_base() -> None:
    if not BASE_TREE.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(BASE_TREE), BASE_COMMIT], cwd=NEW_TREE,
                       check=True, capture_output=True)


def main() -> None:
    if "--worker" in sys.argv:
        i = sys.argv.index("--worker")
        worker(sys.argv[i + 1], sys.argv[i + 2], int(sys.argv[i + 3]))
        return
    share = 16 if "--quick" in sys.argv else 4
    ensure_base()
    print(f"(machine: {os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}; wall times; "
          f"edge-sort counts extrapolated from every {share}th chunk)")
    for case, label in (("known2", "--dealer-known 2 exact count"),
                        ("sort1", "--edge-sort AK exact count (up card seen)")):
        base = run_side(BASE_TREE, case, share)
        new = run_side(NEW_TREE, case, share)
        if base["result"] != new["result"]:
            raise SystemExit(f"{label}: the two trees disagree")
        report(f"{label}, before", base["seconds"])
        report(f"{label}, after", new["seconds"])
        ratio(f"{label}, after", new["seconds"], base["seconds"], "before")
    for k in (3, 4):
        known = run_side(NEW_TREE, f"known{k}", share * 8)
        sort = run_side(NEW_TREE, f"sort{k}", share * (1 if k == 3 else 2))
        report(f"--dealer-known {k} exact count (extrapolated)", known["seconds"])
        report(f"--edge-sort AK --dealer-known {k} exact count (extrapolated)", sort["seconds"])
        ratio(f"--edge-sort AK --dealer-known {k}", sort["seconds"], known["seconds"], f"--dealer-known {k}")
    if "--count-strategy" in sys.argv:
        count_strategy()
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


def count_strategy() -> None:
    """Recount the count strategy from every recorded situation (minutes) and check the shipped count."""
    from exactodds.caribbean.holecard.partial import edge_sort
    from exactodds.caribbean.holecard.partial_rules import (
        COUNT_STRATEGY,
        best_coarse_value,
        shipped_coarse_value,
    )

    info = edge_sort("AK")
    start = time.perf_counter()
    counted = best_coarse_value("standard", info, COUNT_STRATEGY)
    report("count strategy, every situation recorded", time.perf_counter() - start)
    shipped = shipped_coarse_value("standard", info, COUNT_STRATEGY)
    print(f"count strategy: {float(counted.total_return):.4%}; shipped count "
          f"{'the same' if shipped == counted else 'DIFFERENT'}")
    if shipped != counted:
        raise SystemExit("the shipped count-strategy count differs from a fresh count")


if __name__ == "__main__":
    main()
