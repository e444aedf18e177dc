"""Hole-carding whole game (K dealer cards seen): exact counting vs direct enumeration, extrapolated.

The baseline decides a sample of situations (one player hand class x K seen dealer cards)
with decide(), which enumerates every completion of the dealer's hand, and extrapolates
to all 134,459 x C(47, K) situations of the game. K = 2 and 5 run in full; K = 3 and 4
(minutes) are timed on a spread of their seen-set classes and extrapolated, unless
``--full`` is given.
"""

from __future__ import annotations

import os
import sys
import time
from math import comb

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402

PLAYER_CLASSES = 134_459


def baseline_per_situation(k: int, samples: int) -> float:
    """Mean seconds of decide() on random situations with k dealer cards seen."""
    from exactodds.caribbean.decision.decide import decide

    rng = np.random.default_rng(k)
    deals = [rng.choice(52, 5 + k, replace=False).tolist() for _ in range(samples)]
    decide(deals[0][:5], up=deals[0][5], hole=deals[0][6:])  # warm
    start = time.perf_counter()
    for cards in deals:
        decide(cards[:5], up=cards[5], hole=cards[6:])
    return (time.perf_counter() - start) / samples


def exact_sampled(k: int, sets: int) -> float:
    """Seconds of the exact kernel on ``sets`` seen-set classes, extrapolated to all of them."""
    from exactodds.caribbean.holecard import exact as hc
    from exactodds.caribbean.holecard.kernels import seen_cards as hk
    from exactodds.caribbean.profile import load_profile
    from exactodds.combinatorics import all_subsets_colex
    from exactodds.counting.deck import strength_deck
    from exactodds.counting.layout import ACC_COLUMNS
    from exactodds.threaded import run_spans

    profile = load_profile("standard")
    players = hc.strength_ordered_hands()
    table = strength_deck().table
    reps, _ = hc.seen_set_classes(k)
    payout = hc.payout_bundle(profile)
    tsubs = all_subsets_colex(52 - k, 5 - k).astype(np.int64)

    def run(chosen: np.ndarray) -> None:
        acc = np.zeros((len(chosen), ACC_COLUMNS), dtype=np.int64)
        run_spans(hk.seen_sets, len(chosen), reps[chosen], table, tsubs, players, payout, acc,
                  chunks=len(chosen))

    run(np.arange(2))  # compile / load the cache
    chosen = np.linspace(0, len(reps) - 1, sets).astype(np.int64)
    start = time.perf_counter()
    run(chosen)
    return (time.perf_counter() - start) * len(reps) / sets


def main() -> None:
    from exactodds.caribbean.holecard.exact import analyze_known

    full = "--full" in sys.argv
    analyze_known("standard", dealer_known=5)  # compile or load every kernel, load the tables
    print(f"(machine: {os.cpu_count()} cores; wall times, best of runs; the machine may be shared)")
    for k in (2, 5, 3, 4):
        if k in (2, 5) or full:
            seconds = best_time(lambda k=k: analyze_known("standard", dealer_known=k), 1)
            what = "full run"
        else:
            seconds = exact_sampled(k, 2 * os.cpu_count() * 4)
            what = "extrapolated from a spread of seen-set classes"
        situations = PLAYER_CLASSES * comb(47, k)
        per = baseline_per_situation(k, 200 if k < 4 else 1000)
        baseline = per * situations
        report(f"K={k} exact counting ({what})", seconds)
        report(f"K={k} baseline: decide() x {situations:,} situations", baseline)
        ratio(f"K={k} exact counting", seconds, baseline, "decide() per situation")


if __name__ == "__main__":
    main()
