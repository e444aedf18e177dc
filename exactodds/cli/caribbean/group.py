"""``exactodds caribbean``: the Caribbean Stud command family (one module per family of commands)."""

from __future__ import annotations

import click

from exactodds.cli.lazy import LazyGroup

_CLI = "exactodds.cli.caribbean."


@click.group(cls=LazyGroup, lazy_commands={
    "decide": _CLI + "decide:decide",
    "analyze": _CLI + "analyze:analyze_command",
    "verify": _CLI + "analyze:verify_command",
    "strategy": _CLI + "strategy.strategy:strategy_command",
    "chart": _CLI + "strategy.strategy:chart_command",
    "strategies": _CLI + "strategy.strategies:strategies_command",
    "card": _CLI + "strategy.card:card_command",
    "session": _CLI + "session:session_command",
    "progressive": _CLI + "sidebet:progressive_command",
    "sidebet": _CLI + "sidebet:sidebet_command",
    "report": _CLI + "report:report_command",
    "simulate": _CLI + "studies:simulate_command",
    "collusion": _CLI + "studies:collusion_command",
    "table": _CLI + "table:table_command",
    "play": _CLI + "table:play_command",
})
def caribbean() -> None:
    """Caribbean Stud Poker: decisions, whole-game analysis, strategies."""
