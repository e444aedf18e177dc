"""Timing helpers shared by the benchmarks: best-of-N wall time and a ratio line."""

from __future__ import annotations

import time
from collections.abc import Callable


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
