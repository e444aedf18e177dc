"""``exactodds caribbean strategy`` and ``chart``: the optimal strategy as files and a picture."""

from __future__ import annotations

import click

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.strategy.chart import ak_region_chart
from exactodds.caribbean.strategy.table import (
    FORMATS,
    format_for,
    strategy_arrow_table,
    strategy_summary,
    write_strategy,
)
from exactodds.cli.options import check_output_path, paytable_option
from exactodds.cli.progress import terminal_progress
from exactodds.errors import ExactOddsError
from exactodds.progress import staged


@click.command(name="strategy")
@paytable_option
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="File for the full table (one row per hand class and up card).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Output format (default: from the file's extension).")
@click.option("--only", "only", type=click.Choice(["ak"]), default=None,
              help="'ak': only the A-K-high situations, the only ones the category does not settle.")
def strategy_command(paytable: str, out: str, fmt: str | None, only: str | None) -> None:
    """Write the optimal strategy table and print its compact summary.

    The full table has 6,319,573 rows (134,459 suit classes x 47 up cards); each row
    gives the hand, its class weight, the up card, EV(raise) exact and decimal, and the
    decision. CSV and Parquet open directly in pandas and DuckDB; JSON is an array of records.

    Example: exactodds caribbean strategy --out optimal.parquet
    """
    check_output_path(out)
    fmt = format_for(out, fmt)
    profile = load_profile(paytable)
    with terminal_progress() as progress:
        outcomes = situation_outcomes(profile, progress=progress)
        with staged(progress, f"building and writing the table to {out}"):
            table = strategy_arrow_table(outcomes, only_ak=only == "ak")
            write_strategy(table, out, fmt)
    click.echo(strategy_summary(outcomes).text(), nl=False)
    click.echo(f"\nwrote {table.num_rows:,} rows to {out} ({fmt})")


@click.command(name="chart")
@paytable_option
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="Picture file, .png or .svg.")
def chart_command(paytable: str, out: str) -> None:
    """Draw the A-K-high decision region of the optimal strategy (PNG or SVG).

    Example: exactodds caribbean chart --out ak-region.svg
    """
    check_output_path(out)
    if not out.lower().endswith((".png", ".svg")):
        raise ExactOddsError(f'--out file must end in .png or .svg, got "{out}"')
    profile = load_profile(paytable)
    with terminal_progress() as progress:
        outcomes = situation_outcomes(profile, progress=progress)
    ak_region_chart(strategy_summary(outcomes), out)
    click.echo(f"wrote {out}")
