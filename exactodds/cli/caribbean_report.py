"""``exactodds caribbean report``: the game math report (par sheet) as one HTML or PDF file."""

from __future__ import annotations

import shlex

import click

from exactodds.cli.options import check_output_path, stage_progress


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
    """
    from exactodds.caribbean.report.build import REPORT_STAGES, build_report
    from exactodds.caribbean.report.write import report_format, write_report

    report_format(out)
    check_output_path(out)
    # the command as its options resolved (defaults included), so it reruns the same report
    words = ["exactodds", "caribbean", "report", "--paytable", paytable]
    for sidebet in sidebets:
        words += ["--sidebet", sidebet]
    words += ["--strategy", strategy, "--out", out]
    command_line = " ".join(shlex.quote(w) for w in words)
    with stage_progress("building the report", REPORT_STAGES + 1, enabled=True) as on_stage:
        data = build_report(paytable=paytable, sidebets=sidebets, strategy=strategy,
                            command_line=command_line, on_stage=on_stage)
        fmt = write_report(data, out)
        if on_stage is not None:
            on_stage("written")
    click.echo(f"wrote {out} ({fmt}; paytable {data.profile.name}, strategy {data.strategy}, "
               f"{len(data.sidebets)} side bet(s))")
