"""Pictures (PNG or SVG): the A-K-high decision region of the optimal strategy; a session's distribution."""

from __future__ import annotations

import io
import os
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from exactodds.cache import atomic_write_bytes
from exactodds.cards import RANK_CHARS
from exactodds.caribbean.studies.session import NetDistribution, SessionResult
from exactodds.errors import ExactOddsError

if TYPE_CHECKING:  # matplotlib is imported only when a chart is drawn; the strategy table loads numba
    from matplotlib.figure import Figure

    from exactodds.caribbean.strategy.table import StrategySummary

CHART_FORMATS = ("png", "svg")


def _chart_format(path: str | os.PathLike[str]) -> str:
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in CHART_FORMATS:
        raise ExactOddsError(f"chart file must end in .png or .svg, got {Path(path).name!r}")
    return fmt


def ak_region_chart(summary: StrategySummary, path: str | os.PathLike[str]) -> None:
    """Draw the share of suit arrangements that raise, per A-K rank pattern (rows) and up rank
    (columns), and write it atomically to ``path`` (.png or .svg)."""
    fmt = _chart_format(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    patterns = list(dict.fromkeys(r.player_ranks for r in summary.ak_rows))
    grid = np.zeros((len(patterns), 13))
    row_of = {p: i for i, p in enumerate(patterns)}
    for r in summary.ak_rows:
        grid[row_of[r.player_ranks], RANK_CHARS.index(r.up_rank)] = r.raise_deals / r.deals

    fig, ax = plt.subplots(figsize=(6.5, 0.12 * len(patterns) + 1.6))
    image = ax.imshow(grid, aspect="auto", cmap="RdYlGn", vmin=0, vmax=1, interpolation="nearest")
    ax.set_xticks(range(13), list(RANK_CHARS))
    ax.set_yticks(range(len(patterns)), patterns, fontsize=5)
    ax.set_xlabel("dealer's up card rank")
    ax.set_ylabel("player's A-K-high hand (ranks)")
    title = f"Caribbean Stud, paytable {summary.profile}:\nshare of A-K-high deals where raising is optimal"
    ax.set_title(title, fontsize=9)
    fig.colorbar(image, ax=ax, fraction=0.05, pad=0.02, label="raise share (suit arrangements)")
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=150)
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())


VISIBLE = 1000  # a bar under 1/VISIBLE of the tallest is under half a pixel: the axis leaves it out


@dataclass(frozen=True, kw_only=True)
class DrawnRange:
    """The nets a session chart draws, ``low`` to ``high`` (antes): from the first to the last value
    whose bar is visible (at least 1/VISIBLE of the tallest); ``below`` and ``above`` are the exact
    probabilities of the nets left out on either side (said on the chart)."""

    low: Fraction
    high: Fraction
    below: Fraction
    above: Fraction


def drawn_range(d: NetDistribution) -> DrawnRange:
    """The range of nets the session chart of ``d`` draws (see :class:`DrawnRange`).

    >>> d = NetDistribution.from_counts({Fraction(-1): 5000, Fraction(1): 4999, Fraction(100): 1})
    >>> r = drawn_range(d)
    >>> r.low, r.high, r.above
    (Fraction(-1, 1), Fraction(1, 1), Fraction(1, 10000))
    """
    points = d.pmf()
    peak = max(p for _, p in points)
    seen = [v for v, p in points if p * VISIBLE >= peak]
    low, high = seen[0], seen[-1]
    return DrawnRange(low=low, high=high, below=sum((p for v, p in points if v < low), Fraction(0)),
                      above=sum((p for v, p in points if v > high), Fraction(0)))


def _left_out(r: DrawnRange) -> str:
    """What the axis leaves out, in words (empty when nothing is)."""
    parts = [f"P(net < {float(r.low):+g}) = {float(r.below):.4%}" if r.below else "",
             f"P(net > {float(r.high):+g}) = {float(r.above):.4%}" if r.above else ""]
    shown = [p for p in parts if p]
    return "\n".join(["not drawn (bars too small to see):", *shown]) if shown else ""


def session_figure(result: SessionResult) -> Figure:
    """The exact distribution of a session's net as bars, the axis fitted to the visible bars
    (:func:`drawn_range`; the probability left out on either side is written on the chart)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = result.session
    shown = drawn_range(d)
    points = [(float(v), float(p)) for v, p in d.pmf() if shown.low <= v <= shown.high]
    values = np.array([v for v, _ in points])
    probs = np.array([p for _, p in points])
    colours = np.where(values > 0, "tab:green", np.where(values < 0, "tab:red", "tab:gray"))
    step = float(Fraction(d.step, d.scale))
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(values, probs, width=step * 0.9, color=colours)
    ax.set_xlim(float(shown.low) - step, float(shown.high) + step)
    ax.axvline(float(d.mean), color="black", linestyle="--", linewidth=1,
               label=f"mean {float(d.mean):+.3f}")
    note = _left_out(shown)
    if note:
        ax.plot([], [], " ", label=note)  # a legend line without a mark
    ax.set_xlabel(f"net result after {result.hands} hands (antes)")
    ax.set_ylabel("probability (exact)")
    ax.set_title(f"Caribbean Stud, paytable {result.profile}, strategy {result.strategy}: "
                 f"{result.hands}-hand session\nplayer ahead {float(d.p_ahead):.2%}, "
                 f"even {float(d.p_even):.2%}, bank ahead {float(d.p_behind):.2%}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def session_chart(result: SessionResult, path: str | os.PathLike[str]) -> None:
    """Draw :func:`session_figure` and write it atomically to ``path`` (.png or .svg)."""
    fmt = _chart_format(path)
    fig = session_figure(result)  # selects the Agg backend before pyplot is imported here
    import matplotlib.pyplot as plt

    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=150)
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())
