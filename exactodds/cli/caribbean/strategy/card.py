"""``exactodds caribbean card``: the pocket strategy card of a paytable, with its exact cost."""

from __future__ import annotations

import click

from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.strategy.card.pareto import (
    PARETO_HEADERS,
    pareto_rows,
    per_ante,
    proof_note,
    units_note,
)
from exactodds.caribbean.strategy.card.render import card_format, card_text, write_card
from exactodds.caribbean.strategy.card.result import DEFAULT_RULES, MAX_RULES, strategy_card
from exactodds.cli.options import check_output_path, echo_json, json_option, paytable_option, render_table
from exactodds.cli.progress import terminal_progress
from exactodds.cli.warm_up import compile_ahead


@click.command(name="card")
@paytable_option
@click.option("--rules", "rules", type=click.IntRange(0, MAX_RULES), default=DEFAULT_RULES, show_default=True,
              help="The card has at most this many rules (besides the category line).")
@click.option("--out", "outs", multiple=True, type=click.Path(dir_okay=False),
              help="Write the card: .txt, .html or .pdf (a 9 x 6 cm card), .json, or .py (a strategy "
              "file for `caribbean strategies --strategy`); repeatable.")
@json_option
def card_command(paytable: str, rules: int, outs: tuple[str, ...], as_json: bool) -> None:
    """The cheapest strategy card of at most N rules for a paytable, and the Pareto table of
    every length (exact cost against optimal play over all 19,933,230,517,200 deals).

    A length is "proven" when no card of the rule grammar with that many rules costs less (an
    exhaustive branch and bound); otherwise it is the cheapest a beam search found. The first run
    for a paytable searches for about 5 s; the search is cached, later runs take a few seconds.

    Example: exactodds caribbean card --paytable betmgm --rules 3 --out card.pdf
    """
    profile = load_profile(paytable)
    for out in outs:
        card_format(out)
        check_output_path(out)
    # the whole-game count's kernels are called first, the search's next: compile both at once
    compile_ahead("exactodds.caribbean.analysis.kernels.whole_game",
                  "exactodds.caribbean.strategy.card.kernels.conjunctions")
    with terminal_progress(as_json=as_json) as progress:
        result = strategy_card(profile, rules, progress=progress)
    written = [f"wrote {out} ({write_card(result, out)})" for out in outs]
    if as_json:
        echo_json(result.to_dict())
        return
    click.echo(card_text(result))
    click.echo(render_table(PARETO_HEADERS, pareto_rows(result)))
    click.echo(units_note(result))
    click.echo(proof_note(result))
    rot = result.rules_of_thumb_cost_units
    click.echo(f"The published rules of thumb (3 rules) cost {int(rot):,} units "
               f"({per_ante(rot / result.total_deals)} per ante) on this paytable.")
    for line in written:
        click.echo(line)
