"""``exactodds caribbean strategies``: every built-in strategy (and the user's) side by side, exactly."""

from __future__ import annotations

import click

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.strategy.strategies import (
    BUILT_IN,
    evaluate_strategies,
    load_strategy,
)
from exactodds.cli.options import echo_json, json_option, paytable_option, render_table
from exactodds.cli.progress import terminal_progress


@click.command(name="strategies")
@paytable_option
@click.option("--strategy", "extra", multiple=True, metavar="NAME|FILE",
              help="Also evaluate this strategy: a .py rule file or a strategy table (repeatable).")
@json_option
def strategies_command(paytable: str, extra: tuple[str, ...], as_json: bool) -> None:
    """Exact return of every built-in strategy, and its cost against optimal play.

    Each strategy is applied to all 19,933,230,517,200 deals; totals are exact integers.

    Example: exactodds caribbean strategies --strategy my_rule.py
    """
    profile = load_profile(paytable)
    strategies = list(BUILT_IN.values()) + [load_strategy(x) for x in extra]
    with terminal_progress(as_json=as_json) as progress:
        outcomes = situation_outcomes(profile, progress=progress)
        results = evaluate_strategies(outcomes, strategies, progress=progress)
    if as_json:
        echo_json({"paytable": profile.name, "strategies": [r.to_dict() for r in results]})
        return
    rows = [
        (r.result.strategy, f"{int(-r.result.total_units):,}", f"{float(r.result.house_edge):.4%}",
         f"{float(r.result.element_of_risk):.4%}", f"{float(r.result.raise_frequency):.2%}",
         f"{int(r.cost_units):,}", f"{float(r.cost_per_ante):.5%}")
        for r in results
    ]
    click.echo(f"Caribbean Stud, paytable {profile.name}: exact totals over "
               f"{results[0].result.total_combinations:,} deals")
    click.echo(render_table(["strategy", "total loss (units)", "house edge", "element of risk",
                             "raises", "cost vs optimal", "per ante"], rows))
