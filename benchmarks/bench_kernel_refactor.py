"""The counting-engine refactor against the code before it, in one run (:mod:`tree_comparison`).

The previous code is the layout commit 1212593 (the tree just before the shared counting
core), checked out as a detached worktree at /tmp/oldtree. Cases: the whole standard game in
process, hole-carding with K = 2 and K = 5 dealer cards seen, stud heads-up round 1 and stud
with 8 players on the last street. ``python bench_kernel_refactor.py [rounds]`` (default 3).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tree_comparison import check_tree, compare, time_cases

OLD_COMMIT = "1212593"
OLD_TREE = Path("/tmp/oldtree")
CASES = ("whole game, standard, in process", "hole-carding K=2, standard", "hole-carding K=5, standard",
         "stud heads-up round 1", "stud 8 players, last street")
REPEATS = {CASES[0]: 3, CASES[1]: 2, CASES[2]: 3, CASES[3]: 5, CASES[4]: 5}


def worker(tree: str) -> None:
    """Time every case in this process (the exactodds of ``tree``); print one JSON line."""
    check_tree(tree)
    from exactodds.caribbean.analysis import game
    from exactodds.caribbean.holecard.exact import analyze_known
    from exactodds.stud.equity import parse_position, stud_equity

    headsup = parse_position(["? | Ks", "? | Qh"])
    eight = parse_position([
        "Kh | 9c 4d Ks 2h", "? | Qh Js 7d 3c", "? | 2c 6c 4c 5c", "? | As Ad 8h 8c",
        "? | Th Tc 6d 6s", "? | 7c 7h 9d 9s", "? | Jc Jd 5d 5s", "? | 3d 3h 4s 2s",
    ])

    def whole_game() -> str:
        game.COUNTS.clear()
        game.OUTCOMES.clear()
        return str(game.analyze("standard").house_edge)

    def stud(position) -> str:
        return json.dumps([str(p.equity) for p in stud_equity(position).players])

    time_cases({CASES[0]: whole_game,
                CASES[1]: lambda: str(analyze_known("standard", dealer_known=2).house_edge),
                CASES[2]: lambda: str(analyze_known("standard", dealer_known=5).house_edge),
                CASES[3]: lambda: stud(headsup), CASES[4]: lambda: stud(eight)}, REPEATS)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        compare(__file__, old_commit=OLD_COMMIT, old_tree=OLD_TREE, names=list(CASES),
                rounds=int(sys.argv[1]) if len(sys.argv) > 1 else 3)
