"""``exactodds caribbean``: the Caribbean Stud command family (one module per family of commands)."""

from __future__ import annotations

import click

from exactodds.cli.lazy import LazyGroup

_CLI = "exactodds.cli."


@click.group(cls=LazyGroup, lazy_commands={
    "decide": _CLI + "caribbean_decide:decide",
    "analyze": _CLI + "caribbean_analyze:analyze_command",
    "verify": _CLI + "caribbean_analyze:verify_command",
    "strategy": _CLI + "caribbean_strategy:strategy_command",
    "chart": _CLI + "caribbean_strategy:chart_command",
    "strategies": _CLI + "caribbean_strategies:strategies_command",
    "card": _CLI + "caribbean_card:card_command",
    "session": _CLI + "caribbean_studies:session_command",
    "progressive": _CLI + "caribbean_sidebet:progressive_command",
    "sidebet": _CLI + "caribbean_sidebet:sidebet_command",
    "report": _CLI + "caribbean_report:report_command",
    "simulate": _CLI + "caribbean_studies:simulate_command",
    "collusion": _CLI + "caribbean_studies:collusion_command",
    "table": _CLI + "caribbean_table:table_command",
    "play": _CLI + "caribbean_table:play_command",
})
def caribbean() -> None:
    """Caribbean Stud Poker: decisions, whole-game analysis, strategies."""
