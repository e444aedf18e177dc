"""The Pareto table of a strategy card result as rows of text (the CLI, the card and the report share it)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the result module loads the counting engine
    from exactodds.caribbean.strategy.card.result import CardLength, CardResult

PARETO_HEADERS = ["rules", "cost vs optimal (units)", "per ante", "house edge", "cheapest?"]


def status(p: CardLength) -> str:
    """"proven (how)" or "best found (how)": whether no card of this many rules is cheaper."""
    return f"{'proven' if p.proven else 'best found'} ({p.method})"


def per_ante(cost: Fraction) -> str:
    """A cost per ante as the table prints it (a hundred-millionth of the ante, 3 significant figures
    of the cheapest cards' costs); the card's footer and the rules of thumb's line use it too.

    >>> per_ante(Fraction(44_846_352, 19_933_230_517_200))
    '0.000225%'
    """
    return f"{float(cost):.6%}"


def house_edge(value: Fraction) -> str:
    """A house edge per ante as the table prints it (lower is better for the player)."""
    return f"{float(value):.5%}"


def units_note(result: CardResult) -> str:
    """What a "unit" of the cost is: one ante, summed over every deal once."""
    return (f"A unit is one ante: a cost in units is the antes lost against optimal play summed over all "
            f"{result.total_deals:,} deals (each dealt once); per ante = units / {result.total_deals:,}.")


def pareto_rows(result: CardResult) -> list[list[str]]:
    """The Pareto table's rows: rules, cost in units, cost per ante, house edge (lower is better), and
    whether the card is proven cheapest."""
    return [[str(p.rules),
             f"{int(p.cost_units):,}" if p.cost_units.denominator == 1 else f"{float(p.cost_units):,.3f}",
             per_ante(p.cost_per_ante), house_edge(p.house_edge), status(p)] for p in result.pareto]


def _span(lengths: list[int]) -> str:
    """Card lengths in words, runs joined: ``[0, 1, 2, 5]`` -> ``"0 to 2 and 5 rules"``.

    >>> _span([0, 1, 2, 5]), _span([1]), _span([3, 4])
    ('0 to 2 and 5 rules', '1 rule', '3 to 4 rules')
    """
    runs: list[list[int]] = []
    for n in sorted(lengths):
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    parts = [f"{r[0]}" if len(r) == 1 else f"{r[0]} to {r[-1]}" for r in runs]
    if not parts:
        return ""
    words = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return f"{words} rule{'' if lengths == [1] else 's'}"


def proof_note(result: CardResult) -> str:
    """Which lengths are proven cheapest and how, and how the others were found (with its budget)."""
    proven = [p.rules for p in result.pareto if p.proven]
    found = [p.rules for p in result.pareto if not p.proven]
    scope = ("every card of the grammar" if result.covers_grammar else
             "every card of the searched shapes (conditioned rules within one category, unconditioned "
             "rules over a range of categories)")
    out = f"Proven cheapest over {scope}: {_span(proven)}."
    if found:
        out += f" {_span(found).capitalize()}: the cheapest found, not proven, by {result.search_summary()}."
    return out
