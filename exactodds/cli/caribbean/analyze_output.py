"""Text of ``caribbean analyze``: the return table of a whole game, hole-carding results beside the
published figures, the main wager's figures (dealer qualifying by up card, hold intervals), and
partial-information results (``--edge-sort`` / ``--dealer-rank-seen``)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from exactodds.caribbean.analysis.figures import (
    FIGURE_LABELS,
    UP_COMPLETIONS,
    DealerQualifying,
    HoldInterval,
    MainWagerFigures,
)
from exactodds.caribbean.analysis.normal import NormalGame
from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.published.holecard import PublishedFigure
from exactodds.cli.options import render_table
from exactodds.display import edge_text, grouped
from exactodds.jsonable import exact
from exactodds.wording import counted

if TYPE_CHECKING:  # the hole-carding modules load numba; the normal game's output does not need it
    from exactodds.caribbean.holecard.exact import HoleCardResult
    from exactodds.caribbean.holecard.partial import PartialResult


def result_text(result: GameResult) -> str:
    """The return table and summary figures for a terminal."""
    rows = [
        (r.label, _units(r.net_units), f"{r.combinations:,}", f"{float(r.probability):.9f}",
         f"{float(r.return_contribution):+.9f}")
        for r in result.rows
    ]
    rows.append(("total", "", f"{result.total_combinations:,}", f"{1:.9f}",
                 f"{float(result.total_return):+.9f}"))
    table = render_table(["event", "units", "combinations", "probability", "return"], rows)
    p = result.profile
    return "\n".join([
        f"Caribbean Stud, paytable {p.name} ({p.description}); strategy: {result.strategy}",
        "",
        table,
        "",
        f"total return     {grouped(result.total_units)} / {result.total_combinations:,} per ante",
        f"house edge       {float(result.house_edge):.4%}  (expected loss per ante)",
        f"element of risk  {float(result.element_of_risk):.4%}  (expected loss per unit wagered)",
        f"raise frequency  {float(result.raise_frequency):.4%}",
        f"dealer qualifies {float(result.dealer_qualifies_frequency):.4%}",
    ])


def _units(value: Fraction) -> str:
    return f"{int(value):+d}" if value.denominator == 1 else f"{float(value):+.4g}"


def normal_game_text(normal: NormalGame) -> str:
    """The normal game for a terminal, as ``holecard_text`` gives it."""
    game, published = normal.game, normal.published
    lines = [result_text(game), ""]
    if published is not None:
        lines.append(_published_line(published, game.house_edge))
    lines.append(f"method           {normal.method}; {normal.seconds:.1f} s")
    return "\n".join(lines)


def _published_line(published: PublishedFigure, house_edge: Fraction) -> str:
    difference = float(published.difference(house_edge))
    note = f"; {published.note}" if published.note else ""
    return (f"published        {published.text}; ours minus published {difference:+.4f} points "
            f"({published.source}){note}")


def _interval_text(low: float, high: float) -> str:
    """An interval of the house edge, in the terms of its sign (a player edge when both < 0)."""
    if high < 0:
        return f"player edge {-high:.4%} .. {-low:.4%}"
    if low >= 0:
        return f"house edge {low:.4%} .. {high:.4%}"
    return f"house edge {low:+.4%} .. {high:+.4%} (negative: a player edge)"


def holecard_text(result: HoleCardResult) -> str:
    """A hole-carding result for a terminal: the return table (exact) or the estimate (sampled)."""
    from exactodds.caribbean.holecard.exact import DEAL_CONVENTION, ExactHoleCardResult

    k = result.dealer_known
    lines = []
    if isinstance(result, ExactHoleCardResult):
        lines += [result_text(result.game), ""]
        if k > 1:  # the normal game's summary above already says it all
            edge = result.house_edge
            lines.append(f"deal count       {DEAL_CONVENTION}")
            lines.append(f"result           {edge_text(edge)}  (exact: {edge} per ante, house edge)")
    else:
        sample = result.sample
        low, high = (-sample.interval_95[1], -sample.interval_95[0])
        lines += [
            f"Caribbean Stud, paytable {result.profile.name}; {counted(k, 'dealer card')} seen; "
            "SAMPLED ESTIMATE (not exact)",
            "",
            f"samples          {sample.samples:,} situations (seed {sample.seed}), each decided by full "
            "enumeration of the dealer's unseen cards",
            f"result           {edge_text(result.house_edge)}  (estimate)",
            f"standard error   {sample.standard_error:.4%}",
            f"95% interval     {_interval_text(low, high)}",
            f"raise frequency  {float(sample.raise_frequency):.4%}",
        ]
    published = result.published
    if published is not None:
        lines.append(_published_line(published, result.house_edge))
    lines.append(f"method           {result.method}; {result.seconds:.1f} s")
    return "\n".join(lines)


_PERCENT = {"house_edge_per_ante", "element_of_risk_per_unit_wagered", "rtp_per_unit_wagered",
            "hit_frequency", "push_frequency", "loss_frequency", "raise_frequency"}


def _range(bounds: tuple[float, float] | None) -> str:
    return "" if bounds is None else f"{bounds[0]:+.4%} .. {bounds[1]:+.4%}"


def figures_text(figures: MainWagerFigures, qualifying: DealerQualifying,
                 holds: tuple[HoldInterval, ...]) -> str:
    """The figures, each with its basis and its exact value; qualifying by up rank; hold intervals."""
    rows = []
    for key, label in FIGURE_LABELS.items():
        value = getattr(figures, key)
        shown = f"{float(value):.4%}" if key in _PERCENT else f"{float(value):.6f}"
        rows.append((label, shown, exact(value)))
    rows.append(("standard deviation of a hand's net, per ante", f"{figures.standard_deviation_per_ante:.6f}",
                 "sqrt of the variance"))
    rows.append(("standard deviation per unit wagered", f"{figures.standard_deviation_per_unit_wagered:.6f}",
                 "sqrt of the variance"))
    up = [(rank, f"{n:,}", f"{n / UP_COMPLETIONS:.4%}") for rank, n in reversed(qualifying.by_up_rank)]
    hold = [(f"{h.hands:,}", h.method, _range(h.per_ante), _range(h.per_unit_wagered)) for h in holds]
    return "\n".join([
        f"main wager figures (exact; strategy {figures.strategy})",
        render_table(["figure", "value", "exact"], rows, align="lrl"),
        "",
        f"dealer qualifies: {float(qualifying.over_all_deals):.4%} of all deals; from the up card alone "
        f"(of {UP_COMPLETIONS:,} completions):",
        render_table(["up card", "qualifying", "probability"], up),
        "",
        "house hold, 95% range after N hands (normal approximation from the exact variance)",
        render_table(["hands", "method", "per ante", "per unit wagered"], hold),
    ])


def partial_text(result: PartialResult) -> str:
    """The return table, the information, the strategy's size and the published figures."""
    from exactodds.caribbean.holecard.partial import DEAL_CONVENTIONS  # loads numba: only when shown

    edge = result.house_edge
    lines = [result_text(result.game), "",
             f"information      {result.info.describe()}",
             f"deal count       {DEAL_CONVENTIONS[result.info.kind]}",
             f"result           {edge_text(edge)}  (exact: {edge} per ante, house edge)",
             f"strategy size    {result.situations:,} situations (player hand, seen cards, signal), "
             f"{result.raised_situations:,} raised"]
    for figure in result.published:
        note = f"; {figure.note}" if figure.note else ""
        lines.append(f"published        player edge {float(figure.percent):.{figure.decimals}f}%; ours minus "
                     f"published {float(figure.difference(result.player_edge)):+.4f} points "
                     f"({figure.source}){note}")
    lines.append(f"method           {result.method}; {result.seconds:.1f} s")
    return "\n".join(lines)
