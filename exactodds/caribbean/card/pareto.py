"""The Pareto table of a strategy card result as rows of text (the CLI, the card and the report share it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: the result module loads the counting engine
    from exactodds.caribbean.card.result import CardResult

PARETO_HEADERS = ["rules", "cost vs optimal (units)", "per ante", "house edge"]


def pareto_rows(result: CardResult) -> list[list[str]]:
    """The Pareto table's rows: rules, cost in units, cost per ante, house edge (lower is better)."""
    return [[str(p.rules),
             f"{int(p.cost_units):,}" if p.cost_units.denominator == 1 else f"{float(p.cost_units):,.3f}",
             f"{float(p.cost_per_ante):.6%}", f"{float(p.house_edge):.5%}"] for p in result.pareto]
