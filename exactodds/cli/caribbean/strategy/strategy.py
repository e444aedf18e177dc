"""``exactodds caribbean strategy`` and ``chart``: the optimal strategy as files and a picture."""

from __future__ import annotations

import click

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.profile import Profile, load_profile
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
from exactodds.display import edge_text
from exactodds.errors import ExactOddsError
from exactodds.progress import staged


@click.command(name="strategy")
@paytable_option
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="File for the full table (one row per hand class and up card; with partial information, "
                   "one row per situation).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Output format (default: from the file's extension).")
@click.option("--only", "only", type=click.Choice(["ak"]), default=None,
              help="'ak': only the A-K-high situations, the only ones the category does not settle.")
@click.option("--edge-sort", "edge_sort", default=None, metavar="RANKS",
              help="The optimal strategy given edge sorting by these ranks (as analyze --edge-sort): one row "
                   "per (hand, seen dealer cards, hidden cards in the sorted set).")
@click.option("--dealer-rank-seen", "rank_seen", is_flag=True, default=False,
              help="The optimal strategy given one hidden dealer card's rank without its suit.")
@click.option("--dealer-known", "dealer_known", type=click.IntRange(1, 4), default=1, show_default=True,
              help="With --edge-sort or --dealer-rank-seen: dealer cards seen, the up card included.")
def strategy_command(paytable: str, out: str, fmt: str | None, only: str | None, edge_sort: str | None,
                     rank_seen: bool, dealer_known: int) -> None:
    """Write the optimal strategy table and print its compact summary.

    The full table has 6,319,573 rows (134,459 suit classes x 47 up cards); each row
    gives the hand, its class weight, the up card, EV(raise) exact and decimal, and the
    decision. CSV and Parquet open directly in pandas and DuckDB; JSON is an array of records.

    With --edge-sort RANKS or --dealer-rank-seen, the strategy given that information, as CSV or
    Parquet written while it is counted (about 28 million rows for --edge-sort AK with the up card
    seen; a few minutes), and its summary by signal and hand category.

    \b
    Examples:
      exactodds caribbean strategy --out optimal.parquet
      exactodds caribbean strategy --edge-sort AK --out edge-sort-ak.parquet
    """
    check_output_path(out)
    fmt = format_for(out, fmt)
    profile = load_profile(paytable)
    if edge_sort is not None or rank_seen:
        _partial_strategy(profile, out, fmt, only, edge_sort, rank_seen, dealer_known)
        return
    if dealer_known != 1:
        raise ExactOddsError("--dealer-known goes with --edge-sort or --dealer-rank-seen here "
                             "(the hole-carding strategy is not exported)")
    with terminal_progress() as progress:
        outcomes = situation_outcomes(profile, progress=progress)
        with staged(progress, f"building and writing the table to {out}"):
            table = strategy_arrow_table(outcomes, only_ak=only == "ak")
            write_strategy(table, out, fmt)
    click.echo(strategy_summary(outcomes).text(), nl=False)
    click.echo(f"\nwrote {table.num_rows:,} rows to {out} ({fmt})")


def _partial_strategy(profile: Profile, out: str, fmt: str, only: str | None, edge_sort: str | None,
                      rank_seen: bool, dealer_known: int) -> None:
    """The optimal strategy given partial information, streamed to ``out``, and its summary."""
    from exactodds.caribbean.holecard.partial import PartialInfoError, stored_return
    from exactodds.caribbean.holecard.partial import edge_sort as edge_sort_info
    from exactodds.caribbean.holecard.partial import rank_seen as rank_seen_info
    from exactodds.caribbean.holecard.partial_export import check_export_format, export_partial_strategy

    if edge_sort is not None and rank_seen:
        raise PartialInfoError("--edge-sort and --dealer-rank-seen are two different games: give one")
    if only is not None:
        raise PartialInfoError("--only ak is for the optimal table without partial information")
    check_export_format(fmt)
    info = (edge_sort_info(edge_sort, dealer_known=dealer_known) if edge_sort is not None
            else rank_seen_info(dealer_known=dealer_known))
    with terminal_progress() as progress:
        exported = export_partial_strategy(profile, info, out, fmt, progress=progress,
                                           expected_return=stored_return(profile, info))
    click.echo(exported.summary_text(), nl=False)
    edge = exported.total_return
    click.echo(f"\nwrote {exported.rows:,} rows to {out} ({fmt}); their weighted sum is the exact "
               f"{edge_text(-edge)} ({edge} per ante)")


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
