"""A picture of the A-K-high decision region of the optimal strategy (PNG or SVG)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import numpy as np

from exactodds.cache import atomic_write_bytes
from exactodds.cards import RANK_CHARS
from exactodds.caribbean.strategy_table import StrategySummary
from exactodds.errors import ExactOddsError

CHART_FORMATS = ("png", "svg")


def ak_region_chart(summary: StrategySummary, path: str | os.PathLike[str]) -> None:
    """Draw the share of suit arrangements that raise, per A-K rank pattern (rows) and up rank
    (columns), and write it atomically to ``path`` (.png or .svg)."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in CHART_FORMATS:
        raise ExactOddsError(f"chart file must end in .png or .svg, got {Path(path).name!r}")
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
