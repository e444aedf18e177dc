"""``exactodds caribbean session``, ``progressive``, ``simulate`` and ``collusion``: studies of the game."""

from __future__ import annotations

from fractions import Fraction

import click

from exactodds.caribbean.analysis import ANALYSIS_STAGES, GameResult, evaluate_strategy, situation_outcomes
from exactodds.caribbean.chart import session_chart
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.progressive import PaysError, ProgressiveResult, parse_pays, progressive_return
from exactodds.caribbean.session import (
    SESSION_HANDS,
    SessionError,
    SessionResult,
    check_session_hands,
    session_distribution,
)
from exactodds.caribbean.strategies import load_strategy
from exactodds.cli.options import (
    echo_json,
    fraction_text,
    json_option,
    paytable_option,
    render_table,
    stage_progress,
)

strategy_option = click.option(
    "--strategy", "strategy", default="optimal", show_default=True, metavar="NAME|FILE",
    help="A built-in strategy (see `exactodds caribbean strategies`), a .py rule file or a strategy table.",
)


def _strategy_result(paytable: str, strategy_name: str, *, as_json: bool) -> GameResult:
    """The exact return table of a strategy under a profile (inputs checked before the long work)."""
    profile = load_profile(paytable)
    strategy = load_strategy(strategy_name)
    with stage_progress("counting all deals", ANALYSIS_STAGES, enabled=not as_json) as on_stage:
        outcomes = situation_outcomes(profile, on_stage=on_stage)
    return evaluate_strategy(outcomes, strategy.raise_mask(outcomes), name=strategy.name)


def _signed(value: Fraction) -> str:
    """An exact amount with its sign: "+6", "-22", "+5/2"."""
    return f"{value.numerator:+d}" if value.denominator == 1 else f"{'+' if value > 0 else ''}{value}"


def _pct(value: Fraction, digits: int = 6) -> str:
    return f"{float(value):.{digits}%}"


# --------------------------------------------------------------------------- session
def _session_json(s: SessionResult) -> dict:
    d, h = s.session, s.per_hand
    return {
        "profile": s.profile, "strategy": s.strategy, "hands": s.hands, "method": "exact convolution",
        "per_hand": {"ev": h.mean, "ev_float": float(h.mean), "variance": h.variance,
                     "distribution": [[v, int(c)] for v, c in zip((h.value(i) for i in range(len(h.counts))),
                                                                 h.counts, strict=True) if c],
                     "total": h.total},
        "p_ahead": d.p_ahead, "p_ahead_float": float(d.p_ahead),
        "p_even": d.p_even, "p_even_float": float(d.p_even),
        "p_behind": d.p_behind, "p_behind_float": float(d.p_behind),
        "mean": d.mean, "mean_float": float(d.mean),
        "variance": d.variance, "variance_float": float(d.variance),
        "standard_deviation_float": d.standard_deviation,
        "quantiles": [{"level": q, "level_float": float(q), "value": v} for q, v in s.quantiles],
    }


def _session_text(s: SessionResult) -> str:
    d, h = s.session, s.per_hand
    lines = [
        f"Caribbean Stud session: {s.hands} hands, paytable {s.profile}, strategy {s.strategy}",
        "exact: the per-hand return table convolved with itself over every deal, no sampling",
        "",
        render_table(["session result", "probability"], [
            ("player ahead (net > 0)", _pct(d.p_ahead)),
            ("even (net = 0)", _pct(d.p_even)),
            ("bank ahead (net < 0)", _pct(d.p_behind)),
        ]),
        "",
        f"expected net   {float(d.mean):+.6f} antes  = {fraction_text(d.mean)}  "
        f"({s.hands} x per-hand EV {float(h.mean):+.6f})",
        f"variance       {float(d.variance):.6f}  = {fraction_text(d.variance)}",
        f"std deviation  {d.standard_deviation:.6f} antes  (square root of the exact variance)",
        "",
        render_table(["quantile", "net (antes)"],
                     [(f"{float(q):.0%}" if q * 100 == int(q * 100) else f"{float(q):.4%}", _signed(v))
                      for q, v in s.quantiles]),
        "(quantile q: the smallest net x with P(net <= x) >= q)",
        "",
        "exact probabilities:",
        f"  P(player ahead) = {fraction_text(d.p_ahead)}",
        f"  P(even)         = {fraction_text(d.p_even)}",
        f"  P(bank ahead)   = {fraction_text(d.p_behind)}",
    ]
    return "\n".join(lines)


@click.command(name="session")
@click.option("--hands", "hands", type=int, default=SESSION_HANDS, show_default=True,
              help="Hands in the session (seed 000 plays 20).")
@strategy_option
@paytable_option
@click.option("--chart", "chart", type=click.Path(dir_okay=False), default=None,
              help="Also draw the distribution to this .png or .svg file.")
@json_option
def session_command(hands: int, strategy: str, paytable: str, chart: str | None, as_json: bool) -> None:
    """Exact odds of a session: P(player ahead / even / bank ahead) after N hands, mean, SD, quantiles.

    The net of one hand takes the values of the strategy's exact return table, with
    integer counts over all 19,933,230,517,200 deals; the session's distribution is
    their N-fold convolution in exact integers.
    """
    check_session_hands(hands)
    if chart is not None and not chart.lower().endswith((".png", ".svg")):
        raise SessionError(f"--chart file must end in .png or .svg, got {chart!r}")
    result = _strategy_result(paytable, strategy, as_json=as_json)
    with stage_progress("convolving hands", hands - 1, enabled=not as_json and hands > 40) as on_stage:
        session = session_distribution(result, hands=hands,
                                       on_step=(lambda _k: on_stage("")) if on_stage else None)
    if chart is not None:
        session_chart(session, chart)
    if as_json:
        payload = _session_json(session)
        if chart is not None:
            payload["chart"] = chart
        echo_json(payload)
        return
    click.echo(_session_text(session))
    if chart is not None:
        click.echo(f"\nwrote {chart}")


# --------------------------------------------------------------------------- progressive
def _progressive_text(r: ProgressiveResult) -> str:
    rows = [(line.label, f"{line.hands:,}", f"{float(line.probability):.8f}", f"${float(line.pay):,.2f}",
             f"{float(line.contribution):.6f}") for line in r.lines]
    be = r.break_even_meter
    lines = [
        "Caribbean Stud progressive side bet ($1, always collected; pays on the player's own hand)",
        f"meter ${float(r.meter):,.2f}: royal flush 100% of the meter, straight flush 10%",
        "",
        render_table(["hand", "hands of 2,598,960", "probability", "pays", "return share"], rows),
        "",
        f"expected return per $1: {float(r.expected_return):+.6f} "
        f"= {fraction_text(r.expected_return)} (exact)",
        f"player edge: {float(r.expected_return):+.4%}" if r.expected_return >= 0
        else f"house edge: {float(-r.expected_return):.4%}",
    ]
    if be > 0:
        lines.append(f"break-even meter: ${round(be):,} (exactly {fraction_text(be)} = ${float(be):,.4f})")
    else:
        lines.append("break-even meter: none; the fixed pays alone return more than the bet")
    return "\n".join(lines)


@click.command(name="progressive")
@click.option("--meter", "meter", default="0", show_default=True, metavar="DOLLARS",
              help="The jackpot meter in dollars (e.g. 250000 or 250000.50).")
@click.option("--pays", "pays", default="", metavar="SPEC",
              help='Fixed pays in dollars, e.g. "quads=150,full_house=100,flush=50" (defaults 100/75/50).')
@json_option
def progressive_command(meter: str, pays: str, as_json: bool) -> None:
    """Exact return of the $1 progressive side bet at a meter, and its exact break-even meter.

    Royal flush pays 100% of the meter, straight flush 10%; four of a kind, full house and
    flush pay fixed amounts. Probabilities are exact hand counts out of C(52,5).
    """
    try:
        meter_value = Fraction(meter.replace(",", "").replace("_", "").lstrip("$"))
    except (ValueError, ZeroDivisionError):
        raise PaysError(f'--meter must be an amount in dollars, got "{meter}"') from None
    result = progressive_return(meter=meter_value, pays=parse_pays(pays))
    if as_json:
        echo_json({
            "meter": result.meter, "pays": dict(result.pays),
            "lines": [{"category": line.category, "hands": line.hands, "probability": line.probability,
                       "pay": line.pay, "contribution": line.contribution} for line in result.lines],
            "expected_return": result.expected_return, "expected_return_float": float(result.expected_return),
            "break_even_meter": result.break_even_meter,
            "break_even_meter_float": float(result.break_even_meter),
            "break_even_meter_dollars": round(result.break_even_meter),
        })
        return
    click.echo(_progressive_text(result))
