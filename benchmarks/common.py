"""Helpers shared by the benchmarks: best-of-N wall time, a ratio line, the tree before a change (a
``git archive``), and the table server started in a child process.

Every :func:`report` and :func:`ratio` line is also recorded in :data:`RESULTS`, which
``run_all.py`` turns into the performance table of the documentation.
"""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable
from typing import NamedTuple

import httpx

RESULTS: list[dict] = []     # one entry per report()/ratio() line of the current run
CURRENT = {"benchmark": ""}  # set by run_all.py to the script being run


def best_time(fn: Callable[[], object], repeat: int = 3) -> float:
    """Best wall time in seconds over ``repeat`` calls (less noise than the mean)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def report(label: str, seconds: float, unit_count: int | None = None, unit: str = "") -> None:
    rate = f"  {unit_count / seconds:,.0f} {unit}/s" if unit_count else ""
    print(f"{label:<50} {seconds * 1000:10.2f} ms{rate}")
    RESULTS.append({"benchmark": CURRENT["benchmark"], "what": label, "seconds": seconds,
                    "rate": rate.strip()})


def ratio(label: str, ours: float, baseline: float, baseline_label: str) -> None:
    """Print and record how many times faster ours is than a peer or baseline (both in seconds)."""
    print(f"ratio  {baseline_label} / {label}: {baseline / ours:,.1f}x")
    RESULTS.append({"benchmark": CURRENT["benchmark"], "what": f"{label} vs {baseline_label}",
                    "seconds": ours, "rate": f"{baseline / ours:,.1f}x faster than {baseline_label} "
                                             f"({_seconds(baseline)})"})


def _seconds(seconds: float) -> str:
    if seconds >= 3600:
        return f"{seconds / 3600:,.1f} h"
    return f"{seconds:,.2f} s" if seconds >= 1 else f"{seconds * 1000:,.2f} ms"


REPO = pathlib.Path(__file__).resolve().parents[1]


class Run(NamedTuple):
    """One fresh process: wall and CPU seconds (its waited-for children's included), peak resident MB."""

    seconds: float
    cpu: float
    mb: float


def fresh_process(argv: list[str], *, env: dict[str, str], cwd: pathlib.Path) -> Run:
    """``python ARGV`` in a fresh process in ``cwd`` (not the repository: ``python -m`` would import its
    exactodds first) with ``env``, its output discarded; RuntimeError if it fails."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.chdir(cwd)
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
            os.dup2(null.fileno(), 2)
        os.execve(sys.executable, [sys.executable, *argv], env)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{argv} failed")
    return Run(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
TABLE_URL = re.compile(r"Caribbean Stud table: (http://\S+/)")


def baseline_tree(root: pathlib.Path, ref: str) -> pathlib.Path:
    """The package at ``ref`` (``git archive``) in ``root``, outside the repository: run it with
    ``PYTHONPATH`` set to the returned folder."""
    tree = root / f"tree-{ref}"
    archive = root / "tree.tar"
    subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), ref, "exactodds"],
                   check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(tree, filter="data")
    return tree


def start_table_server(db: pathlib.Path, *, env: dict[str, str] | None = None,
                       cwd: pathlib.Path | None = None) -> tuple[subprocess.Popen[str], str, float]:
    """``exactodds caribbean table`` on a free port; returns the process, its URL and the seconds to
    its first page."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "from exactodds.cli.main import cli; cli()", "caribbean",
                             "table", "--port", "0", "--db", str(db)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env, cwd=cwd)
    assert proc.stdout is not None
    url = ""
    while not url:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError("the table server stopped")
        match = TABLE_URL.search(line)
        url = match.group(1) if match else ""
    while True:
        try:
            if httpx.get(url, timeout=10).status_code == 200:
                break
        except httpx.TransportError:
            time.sleep(0.01)
    return proc, url, time.perf_counter() - start
