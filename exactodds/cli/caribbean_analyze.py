"""``exactodds caribbean analyze`` and ``verify``: the exact whole game and the published figures."""

from __future__ import annotations

import click

from exactodds.caribbean.analysis import ANALYSIS_STAGES, GameResult, analyze
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.published import check_figures, load_figures, profiles_needed
from exactodds.cli.options import echo_json, json_option, paytable_option, render_table, stage_progress


def result_json(result: GameResult) -> dict:
    """The JSON object of a whole-game result (exact values as "p/q", floats beside them)."""
    return {
        "profile": result.profile.name,
        "strategy": result.strategy,
        "total_combinations": result.total_combinations,
        "rows": [
            {"event": r.event, "label": r.label, "net_units": r.net_units, "combinations": r.combinations}
            for r in result.rows
        ],
        "total_units": result.total_units,
        "total_return": result.total_return,
        "total_return_float": float(result.total_return),
        "house_edge": result.house_edge,
        "house_edge_float": float(result.house_edge),
        "element_of_risk": result.element_of_risk,
        "element_of_risk_float": float(result.element_of_risk),
        "raise_frequency": result.raise_frequency,
        "raise_frequency_float": float(result.raise_frequency),
        "dealer_qualifies_frequency": result.dealer_qualifies_frequency,
    }


def result_text(result: GameResult) -> str:
    """The return table and summary figures for a terminal."""
    rows = [
        (r.label, _units(r.net_units), f"{r.combinations:,}", f"{float(r.probability):.9f}",
         f"{float(r.return_contribution):+.9f}")
        for r in result.rows
    ]
    rows.append(("total", "", f"{result.total_combinations:,}", f"{1:.9f}",
                 f"{float(result.total_return):+.9f}"))
    table = render_table(["event", "units", "combinations", "probability", "return"], rows)
    p = result.profile
    return "\n".join([
        f"Caribbean Stud, paytable {p.name} ({p.description}); strategy: {result.strategy}",
        "",
        table,
        "",
        f"total return     {result.total_units} / {result.total_combinations:,} per ante",
        f"house edge       {float(result.house_edge):.4%}  (expected loss per ante)",
        f"element of risk  {float(result.element_of_risk):.4%}  (expected loss per unit wagered)",
        f"raise frequency  {float(result.raise_frequency):.4%}",
        f"dealer qualifies {float(result.dealer_qualifies_frequency):.4%}",
    ])


def _units(value) -> str:
    return f"{int(value):+d}" if value.denominator == 1 else f"{float(value):+.4g}"


@click.command(name="analyze")
@paytable_option
@json_option
def analyze_command(paytable: str, as_json: bool) -> None:
    """Exact return table of the whole game under the optimal strategy.

    Every one of the 19,933,230,517,200 deals is counted: player hand x up card x
    dealer's other four cards.
    """
    profile = load_profile(paytable)
    with stage_progress("counting all deals", ANALYSIS_STAGES, enabled=not as_json) as on_stage:
        result = analyze(profile, on_stage=on_stage)
    if as_json:
        echo_json(result_json(result))
    else:
        click.echo(result_text(result))


@click.command(name="verify")
@json_option
def verify_command(as_json: bool) -> None:
    """Reproduce every published figure in tables/published/ from a fresh analysis.

    Exits with status 1 if any figure does not match.
    """
    figures = load_figures()
    stages = len(profiles_needed(figures)) * ANALYSIS_STAGES
    with stage_progress("verifying published figures", stages, enabled=not as_json) as on_stage:
        checks = check_figures(figures, on_stage=on_stage)
    failed = [c for c in checks if not c.match]
    if as_json:
        echo_json({
            "figures": [
                {"quantity": c.figure.quantity, "profile": c.figure.profile, "kind": c.figure.kind,
                 "published": c.figure.published_text(), "computed": c.computed, "match": c.match,
                 "source": c.figure.source}
                for c in checks
            ],
            "matched": len(checks) - len(failed),
            "failed": len(failed),
        })
    else:
        rows = [(c.figure.label, c.figure.published_text(), c.computed_text(), "yes" if c.match else "NO")
                for c in checks]
        click.echo(render_table(["figure", "published", "computed", "match"], rows, align="lrrl"))
        click.echo("")
        click.echo("sources:")
        for source in dict.fromkeys(c.figure.source for c in checks):
            click.echo(f"  - {source}")
        click.echo("")
        click.echo(f"{len(checks) - len(failed)} of {len(checks)} published figures reproduced")
    if failed:
        raise SystemExit(1)
