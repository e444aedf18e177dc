"""The starting-hand heat map (PNG or SVG): our two cards x the opponent's up-card rank."""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from exactodds.cache import atomic_write_bytes
from exactodds.cards import RANK_CHARS
from exactodds.stud.table.build import TableError
from exactodds.stud.table.summary import StartingHand

CHART_FORMATS = ("png", "svg")
PANELS = 3


def chart_format(path: str | os.PathLike[str]) -> str:
    """"png" or "svg" from the file name; TableError for anything else."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in CHART_FORMATS:
        raise TableError(f"--chart file must end in .png or .svg, got {str(path)!r}")
    return fmt


def starting_hand_chart(hands: Sequence[StartingHand], path: str | os.PathLike[str], *,
                        title: str = "") -> None:
    """Draw every starting hand's equity against each opponent up-card rank, hands in order
    of their overall equity (best at the top left), and write it atomically to ``path``."""
    fmt = chart_format(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    per_panel = -(-len(hands) // PANELS)
    fig, axes = plt.subplots(1, PANELS, figsize=(17, 0.2 * per_panel + 2.2),
                             gridspec_kw={"wspace": 0.42, "left": 0.07, "right": 0.94})
    images = []
    for p, ax in enumerate(np.atleast_1d(axes)):
        chunk = hands[p * per_panel:(p + 1) * per_panel]
        grid = np.array([[float(e) for e in h.by_opp_rank] for h in chunk]) * 100
        images.append(ax.imshow(grid, aspect="auto", cmap="RdYlGn", vmin=25, vmax=95,
                                interpolation="nearest"))
        ax.set_xticks(range(13), list(RANK_CHARS), fontsize=8)
        ax.xaxis.tick_top()
        ax.set_yticks(range(len(chunk)), [f"{h.rank:>3}  {h.name:<3}  {float(h.equity):5.1%}" for h in chunk],
                      fontsize=6.5, family="monospace")
        for i, row in enumerate(grid):
            for j, value in enumerate(row):
                ax.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=5.5, color="black")
        ax.set_xlabel("opponent's up card (rank)", fontsize=8)
        ax.tick_params(length=0)
    fig.suptitle(title or "Five-card stud, heads-up, first round: our equity (%) with hole + up card "
                 "against the opponent's up card (hole unknown)\nrows: rank, hand (s = suited), equity "
                 "against a random up card; exact, every deal counted", fontsize=10)
    fig.colorbar(images[0], ax=list(np.atleast_1d(axes)), fraction=0.015, pad=0.01, label="equity (%)")
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=110)
    plt.close(fig)
    atomic_write_bytes(path, buffer.getvalue())
