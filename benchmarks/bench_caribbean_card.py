"""Strategy card search: the beam search on the standard paytable, and beside the exhaustive
reference on the same grammar slice (A-K-high cells, 12 conditions, up to 2 rules of 2 conditions)."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402


def main() -> None:
    from exactodds.caribbean.analysis.game import situation_outcomes
    from exactodds.caribbean.card.evaluate import build_cells
    from exactodds.caribbean.card.search import SearchSettings, all_atoms, exhaustive, search

    cells = build_cells(situation_outcomes("standard"))  # the count itself is not timed here
    found: list = []
    full = best_time(lambda: found.append(search(cells, max_rules=5)), 1)
    report("card search, standard paytable, 0..5 rules", full)
    print(f"  3 rules: {found[0][3][1] / cells.scale:,.0f} units (published rules of thumb: 44,846,352)")

    ak = cells.restricted(0, 0)
    atoms = all_atoms()[:12]
    settings = SearchSettings(atoms=atoms, max_conditions=2, raise_from=(0, 1))
    ours: list = []
    theirs: list = []
    fast = best_time(lambda: ours.append(search(ak, max_rules=2, settings=settings)), 3)
    slow = best_time(lambda: theirs.append(exhaustive(ak, max_rules=2, atoms=atoms, categories=(0,),
                                                      max_conditions=2, raise_from=(0, 1))), 1)
    assert [c for _, c in ours[-1]] == [c for _, c in theirs[-1]], "the search missed the slice's optimum"
    report("card search, A-K-high slice, 12 conditions, 2 rules", fast)
    report("exhaustive reference, same slice", slow)
    ratio("card search (slice)", fast, slow, "exhaustive enumeration")


if __name__ == "__main__":
    main()
