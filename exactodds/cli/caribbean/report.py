"""``exactodds caribbean report``: the game math report (par sheet) as one HTML or PDF file."""

from __future__ import annotations

import shlex

import click

from exactodds.cli.options import check_output_path
from exactodds.cli.progress import terminal_progress
from exactodds.progress import staged


@click.command(name="report")
@click.option("--paytable", "paytable", default="standard", show_default=True, metavar="NAME|FILE",
              help="Paytable profile: a shipped name or the path of a TOML file.")
@click.option("--sidebet", "sidebets", multiple=True, metavar="NAME|FILE",
              help="A side bet to include (a shipped name or a .toml file); repeatable.")
@click.option("--strategy", "strategy", default="optimal", show_default=True, metavar="NAME|FILE",
              help="The strategy of the main wager's figures (a built-in name, a .py rule file or a table).")
@click.option("--out", "out", required=True, type=click.Path(dir_okay=False),
              help="The report file: .html (self-contained) or .pdf.")
def report_command(paytable: str, sidebets: tuple[str, ...], strategy: str, out: str) -> None:
    """Write the game math report of a paytable: return table, figures, strategy, volatility,
    side bets, published figures and reproducibility data, all exact.

    One self-contained file: charts are embedded, nothing is fetched to view it.

    Example: exactodds caribbean report --paytable betmgm --out betmgm.html
    """
    from exactodds.caribbean.report.build import build_report
    from exactodds.caribbean.report.write import report_format, write_report

    report_format(out)
    check_output_path(out)
    # the command as its options resolved (defaults included), so it reruns the same report
    words = ["exactodds", "caribbean", "report", "--paytable", paytable]
    for sidebet in sidebets:
        words += ["--sidebet", sidebet]
    words += ["--strategy", strategy, "--out", out]
    command_line = " ".join(shlex.quote(w) for w in words)
    with terminal_progress() as progress:
        data = build_report(paytable=paytable, sidebets=sidebets, strategy=strategy,
                            command_line=command_line, progress=progress)
        with staged(progress, f"writing {out}"):
            fmt = write_report(data, out)
    click.echo(f"wrote {out} ({fmt}; paytable {data.profile.name}, strategy {data.strategy}, "
               f"{len(data.sidebets)} side bet(s))")
