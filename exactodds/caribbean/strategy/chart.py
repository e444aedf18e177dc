"""Pictures (PNG or SVG): the A-K-high decision region of the optimal strategy; a session's distribution."""

from __future__ import annotations

import io
import os
from fractions import Fraction
from pathlib import Path

import numpy as np

from exactodds.cache import atomic_write_bytes
from exactodds.cards import RANK_CHARS
from exactodds.caribbean.strategy.table import StrategySummary
from exactodds.caribbean.studies.session import SessionResult
from exactodds.errors import ExactOddsError

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


def session_chart(result: SessionResult, path: str | os.PathLike[str]) -> None:
    """Draw the exact distribution of a session's net (bars) and write it atomically (.png or .svg).

    The far tails (below the 0.01% and above the 99.99% quantile) are left out of the picture.
    """
    fmt = _chart_format(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = result.session
    lo, hi = d.quantile(Fraction(1, 10_000)), d.quantile(Fraction(9_999, 10_000))
    points = [(float(v), float(p)) for v, p in d.pmf() if lo <= v <= hi]
    values = np.array([v for v, _ in points])
    probs = np.array([p for _, p in points])
    colours = np.where(values > 0, "tab:green", np.where(values < 0, "tab:red", "tab:gray"))
    fig, ax = plt.subplots(figsize=(8, 4))
    ax.bar(values, probs, width=float(d.step) / d.scale * 0.9, color=colours)
    ax.axvline(float(d.mean), color="black", linestyle="--", linewidth=1,
               label=f"mean {float(d.mean):+.3f}")
    ax.set_xlabel(f"net result after {result.hands} hands (antes)")
    ax.set_ylabel("probability (exact)")
    ax.set_title(f"Caribbean Stud, paytable {result.profile}, strategy {result.strategy}: "
                 f"{result.hands}-hand session\nplayer ahead {float(d.p_ahead):.2%}, "
                 f"even {float(d.p_even):.2%}, bank ahead {float(d.p_behind):.2%}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=150)
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())
