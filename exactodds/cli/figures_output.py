"""Text of the main wager's figures, dealer qualifying by up card and the hold intervals."""

from __future__ import annotations

from exactodds.caribbean.analysis.figures import (
    FIGURE_LABELS,
    UP_COMPLETIONS,
    DealerQualifying,
    HoldInterval,
    MainWagerFigures,
)
from exactodds.cli.options import render_table
from exactodds.jsonable import exact

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
