"""Timing helpers shared by the benchmarks: best-of-N wall time and a ratio line.

Every :func:`report` and :func:`ratio` line is also recorded in :data:`RESULTS`, which
``run_all.py`` turns into the performance table of the documentation.
"""

from __future__ import annotations

import time
from collections.abc import Callable

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
