"""The architecture work (issues 20 and 33) against the code before it, in one run (:mod:`tree_comparison`).

The previous code is commit cb0810d by default (main before the three-way kernels took their
profiles whole and the disjoint-prefix walk was written once; ``--old 219cf94``: before the
whole architecture work), checked out as a detached worktree under /tmp. Each side has its own
exactodds cache folder. Cases: the whole standard game and hole-carding with five dealer cards
seen (Caribbean Stud's counting paths); stud heads-up on the first round (the inclusion-exclusion sweep)
and on the third card by plain enumeration; three-way rank profiles on the first and second
rounds, with every player drawing to a flush on the second (the flush terms); four-way rank
profiles on the third card, and on the fourth street with three flush draws (the flush runs);
and five players on the last street by pairwise inclusion-exclusion and by plain enumeration (the two
users of the disjoint-prefix walk); and the heads-up solver on the third card (40 CFR+ iterations
through the compiled walks). ``python bench_architecture.py [rounds] [--old REV]`` (issue 33's
steps: ``--old 33f7c89``, main before them).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tree_comparison import check_tree, compare, time_cases

OLD_COMMIT = "cb0810d"
FIVE = ["? | Ks 9c 4d 2h", "? | Qh Js 7d 3c", "? | 2c 6c 5h 8d", "? | As 8h 3d 9h", "? | Th Td 6s 5s"]
POSITIONS = {
    "stud heads-up round 1": (["? | Ks", "? | Qh"], "stud"),
    "heads-up third card (enumeration)": (["? | Ks 9c", "? | Qh Js"], "enumeration"),
    "three-way round 1 (rank profiles)": (["? | Ks", "? | Qh", "? | 2c"], "rank"),
    "three-way round 2 (rank profiles)": (["Kh | 9c 4d", "? | Qh 4c", "? | 2c 3c"], "rank"),
    "three-way round 2, three flush draws": (["? | Ks 9s", "? | Qh 4h", "? | 2c 3c"], "rank"),
    "four-way third card (rank profiles)": (["? | Ks 9c", "? | Qh Js", "? | 2c 6c", "? | As 8h"], "rank"),
    "four-way fourth street, flush draws": (["? | Ks 9s 4s", "? | Qh Jh 7h", "? | 2c 6c 5c", "? | As 8h 3d"],
                                            "rank"),
    "five players last street (pairwise)": (FIVE, "pairwise"),
    "five players last street (enumeration)": (FIVE, "enumeration"),
}
# Timed runs per case and round (the best over all rounds counts); the long cases once.
CARIBBEAN = ("whole game, standard, in process", "hole-carding K=5, standard")
SOLVER = "heads-up solver third card (CFR+, 40 iterations)"
LONG = ("three-way round 1 (rank profiles)", "four-way third card (rank profiles)", *CARIBBEAN, SOLVER)
REPEATS = {name: 1 if name in LONG else 3 for name in (*CARIBBEAN, *POSITIONS, SOLVER)}


def worker(tree: str) -> None:
    """Time every case in this process (the exactodds of ``tree``); print one JSON line."""
    check_tree(tree)
    from exactodds.caribbean.analysis import game
    from exactodds.caribbean.holecard.exact import analyze_known
    from exactodds.stud.equity import methods, parse_position, stud_equity

    def whole_game() -> str:
        for name in ("COUNTS", "OUTCOMES", "_COUNTS_CACHE"):  # the caches of this tree and older ones
            cache = getattr(game, name, None)
            if cache is not None:
                cache.clear()
        return str(game.analyze("standard").house_edge)

    functions = {"stud": stud_equity, "rank": methods.rank_profile_equity,
                 "pairwise": methods.pairwise_equity, "enumeration": methods.enumeration_equity}
    def case(players: list[str], how: str):
        position = parse_position(players)

        def run() -> str:
            result = functions[how](position)
            return json.dumps([str(result.method)] + [str(p.equity) for p in result.players])

        return run

    def solver() -> str:
        from exactodds.stud.solve.api import solve_position
        from exactodds.stud.solve.results import SolveMethod

        result = solve_position(position=["? | Kh 9c 4d", "? | Qc Js 7d"], pot=10, stacks=(20, 20),
                                method=SolveMethod.CFR_PLUS, max_iterations=40)
        values = [repr(v) for v in result.values]
        return json.dumps([result.iterations, repr(result.exploitability.chips), values])

    cases = {CARIBBEAN[0]: whole_game,
             CARIBBEAN[1]: lambda: str(analyze_known("standard", dealer_known=5).house_edge)}
    cases.update({name: case(players, how) for name, (players, how) in POSITIONS.items()})
    cases[SOLVER] = solver
    time_cases(cases, REPEATS)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        worker(sys.argv[2])
    else:
        args = sys.argv[1:]
        old = OLD_COMMIT
        if "--old" in args:
            at = args.index("--old")
            old = args[at + 1]
            del args[at:at + 2]
        compare(__file__, old_commit=old, old_tree=Path(f"/tmp/arch-{old}"),
                names=[*CARIBBEAN, *POSITIONS, SOLVER], rounds=int(args[0]) if args else 3, own_cache=True)
