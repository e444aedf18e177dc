"""The report's charts as PNG data URIs (embedded in the page: nothing to fetch to view it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from exactodds.caribbean.strategy.table import StrategySummary
    from exactodds.caribbean.studies.session import SessionResult

import base64
import io
import tempfile
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.caribbean.sidebets.odds import SideBetOdds, return_at

if TYPE_CHECKING:  # the chart module (matplotlib) is imported only when a chart is drawn
    from exactodds.caribbean.strategy.table import StrategySummary
    from exactodds.caribbean.studies.session import SessionResult


def data_uri(png: bytes) -> str:
    """A PNG as a ``data:`` URI."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _via_file(draw: Callable[[Path], None]) -> bytes:
    """PNG bytes of a chart function that writes to a path (the strategy and session charts)."""
    with tempfile.TemporaryDirectory(prefix="exactodds-report-") as folder:
        path = Path(folder) / "chart.png"
        draw(path)
        return path.read_bytes()


def session_chart_png(session: SessionResult) -> bytes:
    """The exact distribution of a session's net, drawn by the session command's chart."""
    from exactodds.caribbean.strategy.chart import session_chart

    return _via_file(lambda path: session_chart(session, path))


def ak_chart_png(summary: StrategySummary) -> bytes:
    """The A-K-high decision region of the optimal strategy."""
    from exactodds.caribbean.strategy.chart import ak_region_chart

    return _via_file(lambda path: ak_region_chart(summary, path))


def meter_chart_png(odds: SideBetOdds) -> bytes:
    """Return per unit staked (percent) against the meter (dollars), with the break-even meter marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    profile = odds.profile
    top = max(float(odds.break_even_meter or 0) * 1.6, float(odds.meter) * 1.3, 100_000.0)
    meters = [top * i / 200 for i in range(201)]
    returns = [100 * float(return_at(profile, Fraction(m))) for m in meters]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.plot(meters, returns, color="tab:blue", linewidth=1.8, label="return (exact, per $1 staked)")
    ax.axhline(0, color="black", linewidth=0.8)
    if odds.break_even_meter is not None:
        be = float(odds.break_even_meter)
        ax.axvline(be, color="tab:green", linestyle="--", linewidth=1, label=f"break-even ${be:,.0f}")
    if profile.meter_reset is not None:
        ax.axvline(float(profile.meter_reset), color="tab:gray", linestyle=":", linewidth=1,
                   label=f"reset ${float(profile.meter_reset):,.0f}")
    ax.set_xlabel("meter (dollars)")
    ax.set_ylabel("expected return (% of the stake)")
    ax.set_title(f"{profile.name}: return against the meter", fontsize=9)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"${x:,.0f}"))
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=130)
    plt.close(fig)
    return buffer.getvalue()
