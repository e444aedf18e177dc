"""Multiway five-card stud equity on early streets: the rank-profile method against the previous ones.

Previous methods, run in the same process: the exact pairwise method (prefix enumeration +
pairwise inclusion-exclusion; timed on a share of its outer loop and extrapolated when the
full run is long) and the Monte Carlo fallback the chooser used for these positions.
Times are wall seconds on whatever share of the machine we get, and CPU seconds of this
process (the machine is shared, so the ratios are the figures to read).
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import report  # noqa: E402

from exactodds.counting.kernels.subset_counters import new_subset_counters, subset_slots
from exactodds.stud.equity.deals import player_cards, player_completions
from exactodds.stud.equity.position import cards_to_come, parse_position
from exactodds.stud.equity.results import EquityMethod
from exactodds.stud.equity.sampling import sampled_equity


def timed(fn) -> tuple[float, float, object]:  # noqa: ANN001
    """(wall seconds, CPU seconds, result) of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def pairwise_extrapolated(position, outer: int) -> float:  # noqa: ANN001
    """Wall seconds of the pairwise method: its kernel run on the first ``outer`` completions
    of its outermost player (setup included once) and scaled to all of them."""

    import numpy as np

    from exactodds.counting.deck import SlottedRows, StackedRows
    from exactodds.stud.equity import methods as eq
    from exactodds.stud.equity.kernels import deal_counts as kernel

    start = time.perf_counter()
    needs = cards_to_come(position)
    pool = position.unseen()
    n = len(pool)
    order, _ = eq._pairwise_plan(position)
    completions = {}
    for p in order:
        subsets, values = player_completions(player_cards(position.players[p]), pool, needs[p])
        completions[p] = (subsets, values, (np.int64(1) << subsets).sum(axis=1, dtype=np.int64))
    prefix = order[:-2]
    masks = [completions[p][2] for p in prefix]
    strengths = [completions[p][1] for p in prefix]
    offsets = np.concatenate([[0], np.cumsum([len(m) for m in masks])]).astype(np.int64)
    ys, sy, my = completions[order[-2]]
    zs, sz, mz = completions[order[-1]]
    c = needs[order[-1]]
    counters = new_subset_counters(n, c)
    b_rows = SlottedRows(slots=subset_slots(ys, counters.offsets), strengths=sy, masks=my)
    c_rows = SlottedRows(slots=subset_slots(zs, counters.offsets), strengths=sz, masks=mz)
    stacked = StackedRows(masks=np.concatenate(masks), strengths=np.concatenate(strengths), offsets=offsets)
    out = np.zeros((len(needs), len(needs) + 1), dtype=np.int64)
    setup = time.perf_counter() - start
    first_count = int(offsets[1])
    begin = time.perf_counter()
    kernel.prefix_pair_counts(stacked, 0, outer, b_rows, c_rows, counters, 1, out)
    return setup + (time.perf_counter() - begin) * first_count / outer


def main() -> None:
    from exactodds.stud.equity import methods as eq

    warm = parse_position(["? | Ks 9d 4c", "? | Qh Js 2d", "? | 2c 3c 5s"])
    eq.rank_profile_equity(warm)  # load the compiled kernels and the rank table

    print("three-way, first round, holes unknown (target: exact <= 10 s)")
    three = parse_position(["? | Ks", "? | Qh", "? | 2c"])
    wall, cpu, exact = timed(lambda: eq.rank_profile_equity(three))
    report(f"  ours: {exact.method} ({exact.combinations:,} deals)", wall)
    estimate = eq.exact_seconds(three)[EquityMethod.RANK_PROFILES]
    print(f"       CPU {cpu:.2f} s; the chooser's estimate {estimate:.1f} s")
    previous = pairwise_extrapolated(three, 20)
    report("  previous exact: pairwise (20 outer completions, extrapolated)", previous)
    mc_wall, _, sampled = timed(lambda: sampled_equity(three))
    report(f"  previous default: monte carlo, {sampled.samples:,} deals", mc_wall)
    spread = max(p.standard_error for p in sampled.players)
    off = max(abs(float(p.equity - e.equity)) for p, e in zip(sampled.players, exact.players, strict=True))
    print(f"       largest standard error {spread * 100:.3f} pp, largest error vs exact {off * 100:.3f} pp")
    print(f"ratio  three-way round 1: {previous / wall:10,.0f}x vs exact pairwise; "
          f"exact now, was sampled (SE {spread * 100:.3f} pp)")

    for label, players in [
        ("three-way, second up card, holes unknown", ["? | Ks 9d", "? | Qh Js", "? | 2c 3c"]),
        ("three-way, third up card, holes unknown", ["? | Ks 9d 4c", "? | Qh Js 2d", "? | 2c 3c 5s"]),
    ]:
        position = parse_position(players)
        wall, _, ours = timed(lambda position=position: eq.rank_profile_equity(position))
        report(f"{label}: ours ({ours.combinations:,} deals)", wall)
        if eq.exact_seconds(position)[EquityMethod.PAIRWISE] < 20:
            prev_wall, _, prev = timed(lambda position=position: eq.pairwise_equity(position))
            assert prev.players == ours.players
            report("  previous: pairwise (full run, identical result)", prev_wall)
        else:
            prev_wall = pairwise_extrapolated(position, 200)
            report("  previous: pairwise (200 outer completions, extrapolated)", prev_wall)
        print(f"ratio  {label}: {prev_wall / wall:10,.1f}x vs pairwise")

    print("four-way, second up card (third card), holes unknown (target: exact <= 30 s)")
    four = parse_position(["? | Ks 9d", "? | Qh Js", "? | 2c 3c", "? | 7h 7s"])
    wall, cpu, exact = timed(lambda: eq.rank_profile_equity(four))
    report(f"  ours: {exact.method} ({exact.combinations:,} deals)", wall)
    estimate = eq.exact_seconds(four)[EquityMethod.RANK_PROFILES]
    print(f"       CPU {cpu:.2f} s; the chooser's estimate {estimate:.1f} s")
    previous = eq.exact_seconds(four)[EquityMethod.PAIRWISE]
    print(f"  previous exact: pairwise, estimated from its work and measured rate: {previous:,.0f} s"
          " (one outer completion alone is ~10^10 steps, too long to time here)")
    mc_wall, _, sampled = timed(lambda: sampled_equity(four))
    report(f"  previous default: monte carlo, {sampled.samples:,} deals", mc_wall)
    spread = max(p.standard_error for p in sampled.players)
    off = max(abs(float(p.equity - e.equity)) for p, e in zip(sampled.players, exact.players, strict=True))
    print(f"       largest standard error {spread * 100:.3f} pp, largest error vs exact {off * 100:.3f} pp")
    print(f"ratio  four-way third card: {previous / wall:10,.0f}x vs exact pairwise (estimated); "
          f"exact now, was sampled (SE {spread * 100:.3f} pp)")

    for label, players in (
        ("four-way, third card, three flush draws", ["? | Ks 9s", "? | Qh Jh", "? | 2c 3c", "? | 7d 8h"]),
        ("four-way, third card, four flush draws in four suits",
         ["? | Ks 9s", "? | Qh Jh", "? | 2c 3c", "? | 7d 4d"]),
        ("four-way, third card, four flush draws to one suit",
         ["? | Ks 9s", "? | Qs Js", "? | 2s 3s", "? | 7s 4s"]),
    ):
        position = parse_position(players)
        wall, cpu, ours = timed(lambda position=position: eq.rank_profile_equity(position))
        report(f"{label}: ours ({ours.combinations:,} deals)", wall)
        estimate = eq.exact_seconds(position)[EquityMethod.RANK_PROFILES]
        print(f"       CPU {cpu:.2f} s; the chooser's estimate {estimate:.1f} s"
              f" (picks {eq.choose_method(position)} at the default budget)")

    label = "four-way, third up card, hero's hole known"
    position = parse_position(["Ah | Ks 9d 4c", "? | Qh Js 2d", "? | 2c 3c 5h", "? | 7h 7s Td"])
    wall, _, ours = timed(lambda: eq.rank_profile_equity(position))
    report(f"{label}: ours ({ours.combinations:,} deals)", wall)
    prev_wall, _, prev = timed(lambda: eq.pairwise_equity(position))
    assert prev.players == ours.players
    report("  previous: pairwise (full run, identical result)", prev_wall)
    print(f"ratio  {label}: {prev_wall / wall:10,.1f}x vs pairwise")

    print("eight-way, first round, holes unknown (target: SE <= 0.05 pp within 5 s)")
    from exactodds.stud.equity.controls import control_variate_equity

    eight = parse_position([f"? | {c}" for c in ("As", "Kd", "Qh", "Jc", "9s", "7d", "5h", "2c")])
    control_variate_equity(eight, samples=1_000)  # load the compiled kernel
    largest = {}
    for name, method in (("previous: plain monte carlo", sampled_equity),
                         ("ours: monte carlo with control variates", control_variate_equity)):
        setup, _, _ = timed(lambda method=method: method(eight, samples=2))
        wall, _, small = timed(lambda method=method: method(eight, samples=200_000))
        count = int(200_000 * (5 - setup) / (wall - setup))  # 5 s in all, set-up included
        big_wall, _, big = timed(lambda method=method, count=count: method(eight, samples=count))
        largest[name] = max(p.standard_error for p in big.players)
        report(f"  {name}, 200,000 deals (largest SE "
               f"{max(p.standard_error for p in small.players) * 100:.3f} pp)", wall)
        report(f"  {name}, sized to 5 s here: {count:,} deals (largest SE {largest[name] * 100:.3f} pp)",
               big_wall)
    plain, ours = largest.values()
    print(f"ratio  eight-way round 1 at equal time: SE {ours / plain:.2f}x of plain monte carlo "
          f"(variance {ours ** 2 / plain ** 2:.2f}x: plain needs {plain ** 2 / ours ** 2:.1f}x the time)")

if __name__ == "__main__":
    main()
