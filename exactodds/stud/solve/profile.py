"""A strategy profile over the public tree: at each decision node, for each chance outcome of its
context and each class of hole cards, a probability for each legal action (arrays K x m x A)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from exactodds.stud.solve.game import Game


@dataclass(frozen=True, kw_only=True)
class Profile:
    """``strategy[node]`` is a K x m x A array whose last axis sums to 1."""

    strategy: dict[int, np.ndarray]


def uniform_profile(game: Game) -> Profile:
    """Every legal action equally likely everywhere."""
    out = {}
    for i in game.tree.decisions():
        node = game.tree.nodes[i]
        k = game.contexts[node.ctx].size
        out[i] = np.full((k, game.classes.count, len(node.actions)), 1.0 / len(node.actions))
    return Profile(strategy=out)


def normalised(sums: np.ndarray) -> np.ndarray:
    """Rows of non-negative sums as probabilities (uniform where a row sums to 0)."""
    total = sums.sum(axis=-1, keepdims=True)
    out: np.ndarray = np.where(total > 0, sums / np.where(total > 0, total, 1.0), 1.0 / sums.shape[-1])
    return out
