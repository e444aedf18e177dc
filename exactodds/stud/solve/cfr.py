"""CFR+ over the public tree with range vectors (numpy, vectorised over hole cards and chance outcomes).

Each iteration walks the tree once for both players (simultaneous updates): the reach of each player
goes down as a K x N array, the counterfactual values come back up, and at each decision node the
acting player's cumulative regrets are updated and floored at zero (CFR+). The average strategy is
weighted by the iteration number (linear averaging); it is what converges to an equilibrium. Work runs
in chunks of iterations; between chunks the caller's ``stop`` is checked and, every ``check_every``
iterations, the exact exploitability of the average, which ends the run once it reaches ``target``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from exactodds.progress import Progress, or_none
from exactodds.stud.solve.best_response import Exploitability, exploitability, root_reach
from exactodds.stud.solve.game import Game
from exactodds.stud.solve.profile import Profile, normalised
from exactodds.stud.solve.terminal import leaf_values
from exactodds.stud.solve.tree import NodeKind


class Interrupted(Exception):
    """The caller's stop flag was raised between two chunks of iterations."""


@dataclass(frozen=True, kw_only=True)
class CfrRun:
    """The average profile after ``iterations`` iterations and its exact exploitability."""

    profile: Profile
    iterations: int
    exploitability: Exploitability
    seconds: float


class _State:
    def __init__(self, game: Game) -> None:
        self.game = game
        self.updating = 0
        self.regret: dict[int, np.ndarray] = {}
        self.average: dict[int, np.ndarray] = {}
        n = len(game.unseen)
        for i in game.tree.decisions():
            node = game.tree.nodes[i]
            shape = (game.contexts[node.ctx].size, n, len(node.actions))
            self.regret[i] = np.zeros(shape)
            self.average[i] = np.zeros(shape)

    def iterate(self, weight: float) -> None:
        """One iteration: each player's regrets updated in turn (alternating updates)."""
        first = self.game.tree.actor  # the player to act first: mirrored seats give mirrored runs
        for player in (first, 1 - first):
            self.updating = player
            r0, r1 = root_reach(self.game)
            self._walk(0, r0, r1, weight)

    def _walk(self, node_id: int, r0: np.ndarray, r1: np.ndarray, weight: float) -> np.ndarray:
        """The updating player's counterfactual values (K x N) below ``node_id``."""
        game = self.game
        me = self.updating
        node = game.tree.nodes[node_id]
        if node.kind in (NodeKind.FOLD, NodeKind.SHOWDOWN):
            return leaf_values(node, me, r1 if me == 0 else r0, game.showdown.get((node.ctx, me)))
        if node.kind is NodeKind.CHANCE:
            total = np.zeros_like(r0)
            for child in node.children:
                if child < 0:
                    continue
                mask = game.contexts[game.tree.nodes[child].ctx].mask
                below = self._walk(child, r0 * mask, r1 * mask, weight)
                total += (below * mask).sum(axis=0, keepdims=True) * game.chance
            return total
        p = node.player
        regret = self.regret[node_id]
        sigma = normalised(np.maximum(regret, 0.0))
        values = []
        for a, child in enumerate(node.children):
            child_reach = (r0 if p == 0 else r1) * sigma[:, :, a]
            if p == 0:
                values.append(self._walk(child, child_reach, r1, weight))
            else:
                values.append(self._walk(child, r0, child_reach, weight))
        if p != me:
            out: np.ndarray = sum(values[1:], values[0])
            return out
        own = np.stack(values, axis=-1)
        value: np.ndarray = (own * sigma).sum(axis=-1)
        regret += own - value[:, :, None]
        np.maximum(regret, 0.0, out=regret)
        reach = r0 if p == 0 else r1
        self.average[node_id] += weight * reach[:, :, None] * sigma
        return value

    def profile(self) -> Profile:
        return Profile(strategy={i: normalised(s) for i, s in self.average.items()})


def solve_cfr(game: Game, *, max_iterations: int, target: float, check_every: int = 25,
              stop: Callable[[], bool] | None = None, progress: Progress | None = None) -> CfrRun:
    """Run CFR+ until the average's exploitability is at most ``target`` (a fraction of the pot) or
    ``max_iterations``; raise :class:`Interrupted` when ``stop()`` turns true (checked every few
    iterations, well within a second)."""
    started = time.perf_counter()
    state = _State(game)
    report = or_none(progress)
    report.stage("solving (CFR+)", steps=max_iterations)
    done = 0
    result = exploitability(game, state.profile())
    try:
        while done < max_iterations:
            chunk = min(check_every, max_iterations - done)
            for _ in range(chunk):
                if stop is not None and stop():
                    raise Interrupted(f"stopped after {done} iterations")
                done += 1
                state.iterate(float(done))
                report.step(1)
            result = exploitability(game, state.profile())
            if result.fraction <= target:
                break
    finally:
        report.end()
    return CfrRun(profile=state.profile(), iterations=done, exploitability=result,
                  seconds=time.perf_counter() - started)
