"""Five-card stud equity: the exact fast paths against brute-force enumeration.

Brute force 1: plain Python itertools over every complete deal (exactodds.stud.equity.brute),
timed on the first deals and extrapolated to all of them (running it fully would take hours).
Brute force 2: the compiled enumeration (numba nested loops over completions, one of the
exact methods for early multiway streets), timed on a share of the outer loop and
extrapolated where the full run is long.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402

from exactodds.stud.equity.deals import enumeration_size
from exactodds.stud.equity.position import parse_position
from exactodds.stud.equity.sampling import DEFAULT_SAMPLES, sampled_equity

BRUTE_DEALS = 200_000


def python_brute(position) -> float:
    """Seconds for plain itertools over all deals, extrapolated from BRUTE_DEALS deals.

    Timed as (first 2N deals) - (first N deals), so the hand strengths it memoises on
    first sight are mostly warm, which favours the brute force.
    """
    from exactodds.stud.equity.brute import brute_force_counts
    from exactodds.stud.equity.deals import enumeration_size

    start = time.perf_counter()
    brute_force_counts(position, limit=BRUTE_DEALS)
    middle = time.perf_counter()
    brute_force_counts(position, limit=2 * BRUTE_DEALS)
    seconds = (time.perf_counter() - middle) - (middle - start)
    return seconds * enumeration_size(position) / BRUTE_DEALS


def compiled_enumeration(position, share: float) -> float:
    """Seconds for the compiled enumeration, run on ``share`` of the outer loop and scaled."""
    from exactodds.stud.equity import methods as eq

    if share >= 1:
        return best_time(lambda: eq.enumeration_equity(position), 1)
    marks: list[float] = []

    class StopPart:
        """A progress that stops the enumeration after ``share`` of its steps."""

        def stage(self, label: str, *, steps: int | None = None) -> None:
            self.total, self.done = steps or 1, 0

        def step(self, count: int = 1) -> None:
            marks.append(time.perf_counter())
            self.done += count
            if self.done >= share * self.total:
                raise StopIteration

        def end(self) -> None:
            pass

    start = time.perf_counter()
    try:
        eq.enumeration_equity(position, progress=StopPart())
    except StopIteration:
        pass
    return (marks[-1] - start) / share


def main() -> None:
    from exactodds.stud.equity import methods as eq

    headsup = parse_position(["? | Ks", "? | Qh"])
    eq.stud_equity(headsup)  # compile / load the kernels and the rank table
    ours = best_time(lambda: eq.stud_equity(headsup))
    deals = enumeration_size(headsup)
    report(f"heads-up round 1, holes unknown ({deals:,} deals)", ours)
    py = python_brute(headsup)
    report("  brute force, Python itertools (extrapolated)", py)
    compiled = compiled_enumeration(headsup, 0.02)
    report("  brute force, compiled enumeration (extrapolated)", compiled)
    ratio("heads-up round 1", ours, py, "Python brute force")
    ratio("heads-up round 1", ours, compiled, "compiled enumeration")

    eight = parse_position([
        "Kh | 9c 4d Ks 2h", "? | Qh Js 7d 3c", "? | 2c 6c 4c 5c", "? | As Ad 8h 8c",
        "? | Th Tc 6d 6s", "? | 7c 7h 9d 9s", "? | Jc Jd 5d 5s", "? | 3d 3h 4s 2s",
    ])
    eq.stud_equity(eight)
    ours = best_time(lambda: eq.stud_equity(eight))
    deals = enumeration_size(eight)
    report(f"8 players last street, 7 unknown ({deals:,} deals)", ours)
    py = python_brute(eight)
    report("  brute force, Python itertools (extrapolated)", py)
    compiled = compiled_enumeration(eight, 1.0)
    report("  brute force, compiled enumeration (full run)", compiled)
    ratio("8 players last street", ours, py, "Python brute force")
    ratio("8 players last street", ours, compiled, "compiled enumeration")

    three = parse_position(["Kh | 9c 4d", "? | Qh Js", "? | 2c 3c"])
    method = eq.stud_equity(three).method
    ours = best_time(lambda: eq.stud_equity(three), 1)
    deals = enumeration_size(three)
    report(f"3 players street 2, {method} ({deals:,} deals)", ours)
    py = python_brute(three)
    report("  brute force, Python itertools (extrapolated)", py)
    compiled = compiled_enumeration(three, 0.02)
    report("  brute force, compiled enumeration (extrapolated)", compiled)
    ratio("3 players street 2", ours, py, "Python brute force")
    ratio("3 players street 2", ours, compiled, "compiled enumeration")

    from exactodds.stud.equity.controls import control_variate_equity

    sampled = parse_position(["Kh | 9c", "? | Qh", "? | 2c", "? | 7d", "? | As"])
    methods = (("plain Monte Carlo", sampled_equity), ("control variates", control_variate_equity))
    for name, method in methods:
        t = best_time(lambda method=method: method(sampled), 1)
        spread = max(p.standard_error for p in method(sampled).players)
        report(f"5 players round 1, {name} ({DEFAULT_SAMPLES:,} deals)", t)
        print(f"       largest standard error of an equity: {spread:.4f}")

if __name__ == "__main__":
    main()
