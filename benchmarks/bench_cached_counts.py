"""Memory and time of answers whose only input is the cached optimal return table (issue 34), this tree
beside the tree before the change (``--baseline-ref``, a ``git archive`` of that commit), in one run.

* ``caribbean session --hands 20``, warm (kernels compiled, the compact count and hand tables in the
  cache): wall and CPU seconds and peak resident memory of a fresh process, best of ``--repeat``,
  alternating the trees; ``caribbean analyze`` from its cache beside them for reference. Targets:
  <= 0.5 s and <= 150 MB.
* The Caribbean table server (``caribbean table``, default options): resident memory after its first
  page, then after its first session (20 hands played through the API with the coach's choice, until
  the view has the session's exact odds), and its peak; the median deal through the API. Target:
  <= 200 MB after the first session.

Each line gives the load average (the 2-core machine is shared).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import shutil
import statistics
import sys
import tempfile
import time

import httpx

here = pathlib.Path(__file__).parent
sys.path.insert(0, str(here))
import common  # noqa: E402

REPO = here.parent
BASELINE_REF = "33f7c89"  # main before the session command and the table read the compact count
URL_LINE = re.compile(r"Caribbean Stud table: (http://\S+/)")
JSON = {"Content-Type": "application/json"}


def _load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def _env(cache: pathlib.Path, tree: pathlib.Path | None) -> dict[str, str]:
    env = {**os.environ, "EXACTODDS_CACHE_DIR": str(cache)}
    env.pop("NUMBA_CACHE_DIR", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def _run(argv: list[str], cache: pathlib.Path, tree: pathlib.Path | None) -> common.Run:
    """One fresh process ``python -m exactodds ARGV``: wall and CPU seconds, peak resident MB."""
    return common.fresh_process(["-m", "exactodds", *argv], env=_env(cache, tree), cwd=cache.parent)


def _line(label: str, run: common.Run) -> None:
    common.report(f"{label} ({run.cpu:.2f} s CPU, {run.mb:,.0f} MB peak; {_load()})", run.seconds)


def session_command(cache: pathlib.Path, trees: dict[str, pathlib.Path | None], repeat: int) -> None:
    argv = ["caribbean", "session", "--hands", "20"]
    for tree in trees.values():  # each tree's kernels compiled (the table's coach too), the count cached
        _run(argv, cache, tree)
        _run(["caribbean", "analyze"], cache, tree)
        _run(["caribbean", "decide", "Qh Qs 9d 6c 2h", "--up", "Jh"], cache, tree)
    best: dict[str, common.Run] = {}
    for _ in range(repeat):
        for who, tree in trees.items():
            run = _run(argv, cache, tree)
            if who not in best or run.seconds < best[who].seconds:
                best[who] = run
    analyses = [_run(["caribbean", "analyze"], cache, None) for _ in range(repeat)]
    reference = min(analyses, key=lambda r: r.seconds)
    print(f"caribbean session --hands 20, warm, best of {repeat}:")
    for who, run in best.items():
        _line(f"  session, {who}", run)
    _line("  reference: caribbean analyze from its cache", reference)
    common.ratio("session (this tree)", best["this tree"].seconds, best["baseline"].seconds,
                 "session (baseline)")
    print(f"memory baseline / this tree: {best['baseline'].mb / best['this tree'].mb:.1f}x   "
          "(targets: <= 0.5 s, <= 150 MB)")


def _status_mb(pid: int, field: str) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field)) / 1024


def _play_session(url: str, hands: int) -> tuple[list[float], float]:
    """One session of ``hands`` hands, each decided as the coach says; returns the deals' times and the
    seconds from the last hand until the view holds the session's exact odds."""
    deals = []
    with httpx.Client(base_url=url, timeout=120, headers=JSON) as client:
        sid = client.post("/api/sessions", json={"hands": hands}).json()["id"]
        client.post(f"/api/sessions/{sid}/chips", json={"add": 5}).raise_for_status()
        for i in range(hands):
            start = time.perf_counter()
            r = client.post(f"/api/sessions/{sid}/{'deal' if i == 0 else 'rebet'}")
            deals.append(time.perf_counter() - start)
            r.raise_for_status()
            choice = r.json()["hand"]["coach"]["optimal"]
            client.post(f"/api/sessions/{sid}/{choice}").raise_for_status()
        start = time.perf_counter()
        while client.get(f"/api/sessions/{sid}").json()["odds"] is None:
            if time.perf_counter() - start > 600:
                raise RuntimeError("the session's odds never came")
            time.sleep(0.2)
    return deals, time.perf_counter() - start


def server(cache: pathlib.Path, trees: dict[str, pathlib.Path | None], root: pathlib.Path) -> None:
    print("the table server: resident memory (MB) after the first page and after the first session")
    for who, tree in trees.items():
        shutil.rmtree(cache / "table-odds", ignore_errors=True)  # each server counts its own odds
        proc, url, _ = common.start_table_server(root / f"{who}.sqlite3", env=_env(cache, tree), cwd=root)
        try:
            first_page = _status_mb(proc.pid, "VmRSS")
            deals, waited = _play_session(url, 20)
            after = _status_mb(proc.pid, "VmRSS")
            peak = _status_mb(proc.pid, "VmHWM")
            print(f"  {who:<10} first page {first_page:6.0f}   after the first session {after:6.0f}   "
                  f"peak {peak:6.0f}   odds {waited:.1f} s after the last hand; deal median "
                  f"{statistics.median(deals) * 1000:.1f} ms  ({_load()})")
            common.RESULTS.append({"benchmark": common.CURRENT["benchmark"],
                                   "what": f"table server after its first session, {who}", "seconds": 0.0,
                                   "rate": f"{after:,.0f} MB resident (peak {peak:,.0f} MB)"})
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print("target: <= 200 MB after the first session")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-ref", default=BASELINE_REF)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", choices=["session", "server"], default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="exactodds-bench-") as folder:
        root = pathlib.Path(folder)
        cache = root / "cache"
        cache.mkdir()
        trees: dict[str, pathlib.Path | None] = {"this tree": None,
                                                 "baseline": common.baseline_tree(root, args.baseline_ref)}
        print(f"baseline: {args.baseline_ref}; {_load()}")
        _run(["caribbean", "analyze"], cache, None)  # hand tables and the compact count into the cache
        if args.only in (None, "session"):
            session_command(cache, trees, args.repeat)
        if args.only in (None, "server"):
            server(cache, trees, root)


if __name__ == "__main__":
    main()
