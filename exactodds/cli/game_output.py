"""Text and JSON of whole-game results: the return table, and hole-carding results beside the
published figures."""

from __future__ import annotations

from fractions import Fraction

from exactodds.caribbean.analysis.game import GameResult
from exactodds.caribbean.holecard.exact import DEAL_CONVENTION, HoleCardResult
from exactodds.cli.options import render_table
from exactodds.wording import counted


def result_json(result: GameResult) -> dict:
    """The JSON object of a whole-game result (exact values as "p/q", floats beside them)."""
    return {
        "profile": result.profile.name,
        "strategy": result.strategy,
        "total_combinations": result.total_combinations,
        "rows": [
            {"event": r.event, "label": r.label, "net_units": r.net_units, "combinations": r.combinations}
            for r in result.rows
        ],
        "total_units": result.total_units,
        "total_return": result.total_return,
        "total_return_float": float(result.total_return),
        "house_edge": result.house_edge,
        "house_edge_float": float(result.house_edge),
        "element_of_risk": result.element_of_risk,
        "element_of_risk_float": float(result.element_of_risk),
        "raise_frequency": result.raise_frequency,
        "raise_frequency_float": float(result.raise_frequency),
        "dealer_qualifies_frequency": result.dealer_qualifies_frequency,
    }


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
        f"total return     {_grouped(result.total_units)} / {result.total_combinations:,} per ante",
        f"house edge       {float(result.house_edge):.4%}  (expected loss per ante)",
        f"element of risk  {float(result.element_of_risk):.4%}  (expected loss per unit wagered)",
        f"raise frequency  {float(result.raise_frequency):.4%}",
        f"dealer qualifies {float(result.dealer_qualifies_frequency):.4%}",
    ])


def _grouped(value: Fraction) -> str:
    """An exact amount with thousands separators in numerator and denominator: "-1,234,567/2"."""
    if value.denominator == 1:
        return f"{value.numerator:,}"
    return f"{value.numerator:,}/{value.denominator:,}"


def _units(value) -> str:
    return f"{int(value):+d}" if value.denominator == 1 else f"{float(value):+.4g}"


def holecard_json(result: HoleCardResult) -> dict:
    """The JSON object of a hole-carding result; ``house_edge`` < 0 is a player edge."""
    out = {"dealer_known": result.dealer_known, "exact": result.exact, "method": result.method}
    if result.game is not None:
        out |= result_json(result.game)
        out["deal_count"] = DEAL_CONVENTION
    else:
        sample = result.sample
        out |= {
            "profile": result.profile.name,
            "strategy": f"optimal, {counted(result.dealer_known, 'dealer card')} seen",
            "samples": sample.samples,
            "seed": sample.seed,
            "total_return": sample.total_return,
            "total_return_float": float(sample.total_return),
            "house_edge": -sample.total_return,
            "house_edge_float": float(-sample.total_return),
            "standard_error": sample.standard_error,
            "ci95": [-sample.ci95[1], -sample.ci95[0]],
            "raise_frequency_float": sample.raise_frequency,
        }
    out["player_edge_float"] = float(result.player_edge)
    published = result.published
    if published is not None:
        out["published"] = {
            "quantity": published.quantity,
            "percent": published.percent,
            "difference_percent_points": float(published.difference(result.house_edge)),
            "source": published.source,
        }
    out["seconds"] = round(result.seconds, 3)
    return out


def _edge_text(house_edge: Fraction | float) -> str:
    value = float(house_edge)
    return f"house edge {value:.4%}" if value >= 0 else f"player edge {-value:.4%}"


def _interval_text(low: float, high: float) -> str:
    """An interval of the house edge, in the terms of its sign (a player edge when both < 0)."""
    if high < 0:
        return f"player edge {-high:.4%} .. {-low:.4%}"
    if low >= 0:
        return f"house edge {low:.4%} .. {high:.4%}"
    return f"house edge {low:+.4%} .. {high:+.4%} (negative: a player edge)"


def holecard_text(result: HoleCardResult) -> str:
    """A hole-carding result for a terminal: the return table (exact) or the estimate (sampled)."""
    k = result.dealer_known
    lines = []
    if result.game is not None:
        lines += [result_text(result.game), ""]
        if k > 1:  # the normal game's summary above already says it all
            edge = result.house_edge
            lines.append(f"deal count       {DEAL_CONVENTION}")
            lines.append(f"result           {_edge_text(edge)}  (exact: {edge} per ante, house edge)")
    else:
        sample = result.sample
        low, high = (-sample.ci95[1], -sample.ci95[0])
        lines += [
            f"Caribbean Stud, paytable {result.profile.name}; {counted(k, 'dealer card')} seen; "
            "SAMPLED ESTIMATE (not exact)",
            "",
            f"samples          {sample.samples:,} situations (seed {sample.seed}), each decided by full "
            "enumeration of the dealer's unseen cards",
            f"result           {_edge_text(result.house_edge)}  (estimate)",
            f"standard error   {sample.standard_error:.4%}",
            f"95% interval     {_interval_text(low, high)}",
            f"raise frequency  {sample.raise_frequency:.4%}",
        ]
    published = result.published
    if published is not None:
        difference = float(published.difference(result.house_edge))
        lines.append(f"published        {published.text}; ours minus published {difference:+.4f} points "
                     f"({published.source})")
    lines.append(f"method           {result.method}; {result.seconds:.1f} s")
    return "\n".join(lines)
