"""``exactodds caribbean session``: the exact odds of a session of N hands.

Under the optimal strategy (the default) the return table comes from the compact count in the
cache (:func:`exactodds.caribbean.analysis.compact.optimal_result`): no kernel is loaded and the
answer takes a fraction of a second. Another strategy needs the full situation count.
"""

from __future__ import annotations

import click

from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.studies.session import (
    MAX_HANDS,
    SESSION_HANDS,
    SessionError,
    SessionResult,
    check_session_hands,
    session_distribution,
)
from exactodds.cli.options import (
    check_output_path,
    echo_json,
    json_option,
    paytable_option,
    render_table,
    strategy_option,
)
from exactodds.cli.progress import terminal_progress
from exactodds.display import percent, signed_exact

OPTIMAL = "optimal"  # the built-in optimal strategy (a name load_strategy resolves before any file)


def _strategy_result(paytable: str, strategy_name: str, *, as_json: bool) -> GameResult:
    """The exact return table of a strategy under a profile (inputs checked before the long work):
    the optimal strategy's from the cached compact count, another's from the full situation count."""
    profile = load_profile(paytable)
    if strategy_name == OPTIMAL:
        from exactodds.caribbean.analysis.compact import optimal_result

        with terminal_progress(as_json=as_json) as progress:
            return optimal_result(profile, progress=progress)
    from exactodds.caribbean.analysis.game import evaluate_strategy, situation_outcomes
    from exactodds.caribbean.strategy.strategies import load_strategy

    strategy = load_strategy(strategy_name)
    with terminal_progress(as_json=as_json) as progress:
        outcomes = situation_outcomes(profile, progress=progress)
    return evaluate_strategy(outcomes, strategy.raise_mask(outcomes), name=strategy.name)


def _session_text(s: SessionResult) -> str:
    d, h = s.session, s.per_hand
    lines = [
        f"Caribbean Stud session: {s.hands} hands, paytable {s.profile}, strategy {s.strategy}",
        "exact: the per-hand return table convolved with itself over every deal, no sampling",
        "",
        render_table(["session result", "probability"], [
            ("player ahead (net > 0)", percent(d.p_ahead, 6)),
            ("even (net = 0)", percent(d.p_even, 6)),
            ("bank ahead (net < 0)", percent(d.p_behind, 6)),
        ]),
        "",
        f"expected net   {float(d.mean):+.6f} antes  ({s.hands} x per-hand EV {float(h.mean):+.6f})",
        f"variance       {float(d.variance):.6f}",
        f"std deviation  {d.standard_deviation:.6f} antes  (square root of the exact variance)",
        "",
        render_table(["quantile", "net (antes)"],
                     [(f"{float(q):.0%}" if q * 100 == int(q * 100) else f"{float(q):.4%}", signed_exact(v))
                      for q, v in s.quantiles]),
        "(quantile q: the smallest net x with P(net <= x) >= q)",
        "",
        "every figure above is exact, shown rounded; --json gives the exact fractions",
    ]
    return "\n".join(lines)


@click.command(name="session")
@click.option("--hands", "hands", type=click.IntRange(1, MAX_HANDS), default=SESSION_HANDS, show_default=True,
              help="Hands in the session (the 20-hand home session plays 20).")
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

    Example: exactodds caribbean session --hands 20 --strategy rules-of-thumb
    """
    check_session_hands(hands)
    if chart is not None and not chart.lower().endswith((".png", ".svg")):
        raise SessionError(f"--chart file must end in .png or .svg, got {chart!r}")
    if chart is not None:
        check_output_path(chart)
    result = _strategy_result(paytable, strategy, as_json=as_json)
    with terminal_progress(as_json=as_json) as progress:
        session = session_distribution(result, hands=hands, progress=progress)
    if chart is not None:
        from exactodds.caribbean.strategy.chart import session_chart

        session_chart(session, chart)
    if as_json:
        payload = session.to_dict()
        if chart is not None:
            payload["chart"] = chart
        echo_json(payload)
        return
    click.echo(_session_text(session))
    if chart is not None:
        click.echo(f"\nwrote {chart}")


