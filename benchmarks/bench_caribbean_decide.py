"""Caribbean Stud single decision: in-process time, the plain enumeration's time, the whole CLI process."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from itertools import combinations

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402

HAND, UP = "Qh Qs 9d 6c 2h", "Jh"  # the home rules' worked example, only the up card known


def plain_enumeration(profile) -> Fraction:
    """The obviously correct way: evaluate and settle each of the 163,185 completions."""
    from exactodds.cards import parse_cards
    from exactodds.caribbean.decision.settle import settle
    from exactodds.handrank import evaluate

    hand, up = parse_cards(HAND), parse_cards(UP)
    unseen = [c for c in range(52) if c not in hand + up]
    player = evaluate(hand)
    total = Fraction(0)
    for extra in combinations(unseen, 4):
        total += settle(player, evaluate(up + extra), raised=True, profile=profile).net
    return total / len(list(combinations(unseen, 4)))


def main() -> None:
    from exactodds.caribbean.decision.decide import decide
    from exactodds.caribbean.profile import load_profile
    from exactodds.handrank import rank_table

    rank_table()  # warm: the table is loaded once per process
    decide(HAND, up=UP)  # warm the subset table
    fast = best_time(lambda: decide(HAND, up=UP), 20)
    report("decide(), up card only (163,185 completions)", fast, 163_185, "completions")
    hole = best_time(lambda: decide(HAND, up=UP, hole="Jc"), 20)
    report("decide(), up card + 1 hole card (14,190)", hole, 14_190, "completions")

    profile = load_profile("standard")
    slow = best_time(lambda: plain_enumeration(profile), 1)
    assert plain_enumeration(profile) == decide(HAND, up=UP).ev_raise
    report("plain enumeration (evaluate + settle each)", slow, 163_185, "completions")
    ratio("decide()", fast, slow, "plain enumeration")

    exe = os.path.join(os.path.dirname(sys.executable), "exactodds")
    command = [exe, "caribbean", "decide", HAND, "--up", UP, "--json"]
    subprocess.run(command, check=True, capture_output=True)  # warm table cache and OS file cache
    process = best_time(lambda: subprocess.run(command, check=True, capture_output=True), 5)
    report("whole `exactodds caribbean decide` process", process)
    startup = best_time(lambda: subprocess.run([exe, "--version"], check=True, capture_output=True), 5)
    report("  of which `exactodds --version` (start-up)", startup)


if __name__ == "__main__":
    main()
