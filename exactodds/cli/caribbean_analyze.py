"""``exactodds caribbean analyze`` and ``verify``: the exact whole game and the published figures."""

from __future__ import annotations

import click

from exactodds.caribbean.holecard.exact import analyze_known
from exactodds.caribbean.holecard.sample import MAX_SAMPLES
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.published.figures import check_figures, load_figures
from exactodds.cli.game_output import holecard_text
from exactodds.cli.options import echo_json, json_option, paytable_option, render_table
from exactodds.cli.progress import terminal_progress


@click.command(name="analyze")
@paytable_option
@click.option("--dealer-known", "dealer_known", type=click.IntRange(1, 5), default=1, show_default=True,
              help="Dealer cards seen, the up card included (2 adds one hole card; 5 shows all).")
@click.option("--samples", type=click.IntRange(0, MAX_SAMPLES), default=0, show_default=True,
              help="Estimate from this many sampled situations instead of counting exactly (0: exact; "
                   "else at least 2).")
@click.option("--seed", type=click.IntRange(min=0), default=2026, show_default=True,
              help="Seed of --samples.")
@json_option
def analyze_command(paytable: str, dealer_known: int, samples: int, seed: int, as_json: bool) -> None:
    """Exact return table of the whole game under the optimal strategy.

    Every one of the 19,933,230,517,200 deals is counted: player hand x up card x
    dealer's other four cards. With --dealer-known K (hole-carding) the player also sees
    K - 1 hole cards and plays the best strategy given them; a deal is then the player's
    hand x the K seen dealer cards (a set) x the dealer's unseen cards.

    \b
    Examples:
      exactodds caribbean analyze --paytable betmgm
      exactodds caribbean analyze --dealer-known 2 --json
    """
    profile = load_profile(paytable)
    with terminal_progress(as_json=as_json) as progress:
        result = analyze_known(profile, dealer_known=dealer_known, samples=samples, seed=seed,
                               progress=progress)
    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(holecard_text(result))


@click.command(name="verify")
@json_option
def verify_command(as_json: bool) -> None:
    """Reproduce every published figure shipped with exactodds from a fresh analysis.

    Exits with status 1 if any figure does not match.

    Example: exactodds caribbean verify
    """
    figures = load_figures()
    with terminal_progress(as_json=as_json) as progress:
        checks = check_figures(figures, progress=progress)
    failed = [c for c in checks if not c.match]
    if as_json:
        echo_json({
            "figures": [c.to_dict() for c in checks],
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
