"""``exactodds caribbean sidebet`` and ``progressive``: a side bet's exact odds from its profile."""

from __future__ import annotations

import click

from exactodds.caribbean.sidebets.odds import SideBetOdds, sidebet_odds
from exactodds.caribbean.sidebets.profile import (
    DEFAULT_PROGRESSIVE,
    PAYS_ON,
    load_sidebet,
    parse_meter,
    parse_pays,
)
from exactodds.cli.options import echo_json, json_option, render_table
from exactodds.display import dollars
from exactodds.jsonable import exact


def sidebet_text(odds: SideBetOdds) -> str:
    """The pay table with exact probabilities, the return, the break-even meter, hit frequency, variance."""
    p = odds.profile
    of = "hands of 2,598,960" if p.pays_on == "player" else "(hand, up card) pairs of 122,151,120"
    rows = [(line.label, f"{line.outcomes:,}", f"{float(line.probability):.8f}", dollars(line.pay),
             f"{float(line.contribution / p.stake):.6f}") for line in odds.lines]
    kept = "paid to 1, a winning stake returned" if p.stake_returned else "the stake is always collected"
    lines = [
        f"Caribbean Stud side bet {p.name}: {p.description}",
        *(["EXAMPLE pay table (illustrative, not a casino's published table)"] if p.example else []),
        f"{dollars(p.stake)} stake, {kept}; pays on {PAYS_ON[p.pays_on]}",
    ]
    if p.is_progressive:
        lines.append(f"meter {dollars(odds.meter)}" + (
            f" (reset {dollars(p.meter_reset)}" + (
                f", {float(p.meter_contribution):.2%} of each stake feeds it)" if p.meter_contribution
                else ")") if p.meter_reset is not None else ""))
    lines += [
        "",
        render_table(["hand", of, "probability", "pays", "return share"], rows),
        "",
        f"expected return per $1: {float(odds.expected_return):+.6f} "
        f"= {exact(odds.expected_return)} (exact)",
        f"player edge: {float(odds.expected_return):+.4%}" if odds.expected_return >= 0
        else f"house edge: {float(-odds.expected_return):.4%}",
        f"hit frequency: {float(odds.hit_frequency):.6%} = {exact(odds.hit_frequency)}",
        f"variance per unit staked: {float(odds.variance):,.4f} (standard deviation "
        f"{odds.standard_deviation:,.4f})",
    ]
    if p.is_progressive:
        lines.append(f"return vs meter (this linear piece): {exact(odds.return_intercept)} + "
                     f"{exact(odds.return_slope)} x meter")
        be = odds.break_even_meter
        if be is not None:
            lines.append(f"break-even meter: ${round(be):,} "
                         f"(exactly {exact(be)} = ${float(be):,.4f})")
        else:
            lines.append(f"break-even meter: {odds.break_even_note}")
    return "\n".join(lines)


def _emit(odds: SideBetOdds, as_json: bool) -> None:
    if as_json:
        echo_json(odds.to_dict())
    else:
        click.echo(sidebet_text(odds))


@click.command(name="sidebet")
@click.argument("sidebet", default=DEFAULT_PROGRESSIVE, metavar="[NAME|FILE]")
@click.option("--meter", "meter", default=None, metavar="DOLLARS",
              help="The jackpot meter in dollars (default: the profile's reset value, else 0).")
@json_option
def sidebet_command(sidebet: str, meter: str | None, as_json: bool) -> None:
    """Exact odds of a side bet from its profile (a shipped name or a .toml file).

    The probability of each paid category (out of C(52,5) hands, or of all (hand, up card)
    pairs for a best-five-of-six bet), the return at a meter, the return as a function of
    the meter, the break-even meter, the hit frequency and the variance.

    Example: exactodds caribbean sidebet progressive-100-75-50 --meter 250000
    """
    profile = load_sidebet(sidebet)
    _emit(sidebet_odds(profile, meter=None if meter is None else parse_meter(meter)), as_json)


@click.command(name="progressive")
@click.option("--meter", "meter", default="0", show_default=True, metavar="DOLLARS",
              help="The jackpot meter in dollars (e.g. 250000 or 250000.50).")
@click.option("--pays", "pays", default="", metavar="SPEC",
              help='Fixed pays in dollars, e.g. "quads=150,full_house=100,flush=50" (defaults 100/75/50).')
@json_option
def progressive_command(meter: str, pays: str, as_json: bool) -> None:
    """The progressive side bet: `sidebet progressive-100-75-50`, with --pays to change its fixed pays.

    Royal flush pays 100% of the meter, straight flush 10%; four of a kind, full house and
    flush pay fixed amounts. Probabilities are exact hand counts out of C(52,5).

    Example: exactodds caribbean progressive --meter 250000 --pays "quads=150,full_house=100"
    """
    meter_value = parse_meter(meter)
    profile = load_sidebet(DEFAULT_PROGRESSIVE).with_fixed_pays(parse_pays(pays))
    _emit(sidebet_odds(profile, meter=meter_value), as_json)
