"""Strategy card search, per paytable: the beam search alone beside the beam search followed by
branch and bound (which proves lengths cheapest), in one run, with the Pareto costs, proofs and lower
bounds; and the search on a grammar slice beside the exhaustive reference (A-K-high cells, 12
conditions, up to 2 rules of 2 conditions). The whole-game count (cached) is not timed.

``--paytable NAME`` (repeatable) chooses the paytables (the standard one by default: every shipped
paytable has the same A-K-high cells, so the same search; ``--paytable all`` runs all six);
``--exact-nodes N`` changes the branch-and-bound budget per category, default action and length (the
product's by default).
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402

PAYTABLES = ("standard", "betmgm", "royal500", "royal200", "royal250", "microgaming")


def _pareto(label: str, outcome: object, scale: int) -> None:
    for f in outcome.cards:  # type: ignore[attr-defined]
        status = "proven" if f.proven else f"lower bound {f.lower_scaled / scale:,.0f}"
        work = "; ".join(f"{x.nodes:,} nodes in {x.seconds:.1f} s{' (budget spent)' if x.stopped else ''}"
                         for x in f.lists if x.nodes)
        work = "; " + work if work else ""
        print(f"  {label} {f.rules} rules: {f.cost_scaled / scale:,.0f} units ({status}){work}")


def main() -> None:
    from exactodds.caribbean.analysis.game import situation_outcomes
    from exactodds.caribbean.strategy.card.beam import BeamSettings
    from exactodds.caribbean.strategy.card.evaluate import build_cells
    from exactodds.caribbean.strategy.card.grammar import all_atoms
    from exactodds.caribbean.strategy.card.reference import exhaustive
    from exactodds.caribbean.strategy.card.search import SearchSettings, search

    parser = argparse.ArgumentParser()
    parser.add_argument("--paytable", action="append")
    parser.add_argument("--exact-nodes", type=int, default=SearchSettings().exact_nodes)
    parser.add_argument("--skip-slice", action="store_true")
    args = parser.parse_args()

    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    chosen = args.paytable or ["standard"]
    for paytable in PAYTABLES if chosen == ["all"] else chosen:
        cells = build_cells(situation_outcomes(paytable))
        beam_only: list = []
        proved: list = []
        beam_settings = SearchSettings(exact_rules=0)
        exact_settings = SearchSettings(exact_nodes=args.exact_nodes)
        beam_s = best_time(lambda c=cells, s=beam_settings, out=beam_only: out.append(
            search(c, max_rules=5, settings=s)), 1)
        exact_s = best_time(lambda c=cells, s=exact_settings, out=proved: out.append(
            search(c, max_rules=5, settings=s)), 1)
        report(f"card search {paytable}: beam only, 0..5 rules", beam_s)
        report(f"card search {paytable}: beam + branch and bound", exact_s)
        ratio(f"beam + branch and bound ({paytable})", exact_s, beam_s, "beam only")
        _pareto("beam", beam_only[0], cells.scale)
        _pareto("exact", proved[0], cells.scale)
        print(f"  load average {os.getloadavg()[0]:.2f}")

    if args.skip_slice:
        return
    cells = build_cells(situation_outcomes("standard"))
    ak = cells.restricted(0, 0)
    atoms = all_atoms()[:12]
    settings = SearchSettings(atoms=atoms, max_conditions=2, beam=BeamSettings(width=4, per_move=2),
                              exact_rules=2)
    ours: list = []
    theirs: list = []
    fast = best_time(lambda: ours.append(search(ak, max_rules=2, settings=settings)), 3)
    slow = best_time(lambda: theirs.append(exhaustive(ak, max_rules=2, atoms=atoms, categories=(0,),
                                                      max_conditions=2, raise_from=(0, 1))), 1)
    assert [f.cost_scaled for f in ours[-1].cards] == [c for _, c in theirs[-1]], "search missed the optimum"
    assert all(f.proven for f in ours[-1].cards)
    report("card search, A-K-high slice, 12 conditions, 2 rules", fast)
    report("exhaustive reference, same slice", slow)
    ratio("card search (slice)", fast, slow, "exhaustive enumeration")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
