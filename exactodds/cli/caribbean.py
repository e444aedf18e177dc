"""``exactodds caribbean``: the Caribbean Stud command family (one module per command)."""

from __future__ import annotations

import click

from exactodds.cli import (
    caribbean_analyze,
    caribbean_decide,
    caribbean_strategies,
    caribbean_strategy,
    caribbean_studies,
)


@click.group()
def caribbean() -> None:
    """Caribbean Stud Poker: decisions, whole-game analysis, strategies."""


caribbean.add_command(caribbean_decide.decide)
caribbean.add_command(caribbean_analyze.analyze_command)
caribbean.add_command(caribbean_analyze.verify_command)
caribbean.add_command(caribbean_strategy.strategy_command)
caribbean.add_command(caribbean_strategy.chart_command)
caribbean.add_command(caribbean_strategies.strategies_command)
caribbean.add_command(caribbean_studies.session_command)
caribbean.add_command(caribbean_studies.progressive_command)
caribbean.add_command(caribbean_studies.simulate_command)
caribbean.add_command(caribbean_studies.collusion_command)
