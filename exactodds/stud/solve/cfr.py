"""CFR+ over the public tree with range vectors (vectorised over hole-card classes and chance outcomes).

Each iteration walks the tree once per player (alternating updates): the reach of each player goes
down as a K x m array (m classes of interchangeable hole cards), the counterfactual values come back
up, and at each decision node the updating player's cumulative regrets are updated and floored at
zero (CFR+). The average strategy is weighted by the square of the iteration number (quadratic
averaging); it is what converges to an equilibrium. Below each deal of the last up cards the walk runs
compiled, one deal at a time (:mod:`exactodds.stud.solve.kernels.cfr_walk`); the numpy walk it is
tested against is :class:`~exactodds.stud.solve.reference.ReferenceCfrState`, a thin subclass of
:class:`CfrState` driven by the same loop (:func:`iterate_to_target`). The caller's ``stop`` is checked
every iteration and before each subtree below a deal; every ``check_every`` iterations the exact
exploitability of the average ends the run once it reaches ``target``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from types import ModuleType
from typing import NamedTuple

import numpy as np

from exactodds.progress import Progress, or_none
from exactodds.stopping import stoppable
from exactodds.stud.solve.best_response import Exploitability, exploitability, root_reach
from exactodds.stud.solve.cards_to_come import leaf_values
from exactodds.stud.solve.game import Game, Normalised, Profile, normalised
from exactodds.stud.solve.last_round import KIND_CODES, LastRound, Learner, last_round
from exactodds.stud.solve.start import SolveError
from exactodds.stud.solve.third_round import (
    STORAGE,
    SectionLayout,
    SectionLearner,
    SectionStrategy,
    has_deal_below,
    section_of,
)
from exactodds.stud.solve.tree import NodeKind
from exactodds.threaded import run_spans


class Interrupted(Exception):
    """The caller's stop flag was raised between two chunks of iterations."""


class StopReason(StrEnum):
    """Why an equilibrium computation stopped."""

    EXACT = "exact"  # the linear program: an exact equilibrium
    TARGET = "target"  # CFR+ reached the exploitability target
    ITERATIONS = "iterations"  # CFR+ ran its maximum number of iterations
    TIME = "time"  # CFR+ ran out of its time budget


@dataclass(frozen=True, kw_only=True)
class CfrRun:
    """The average profile after ``iterations`` iterations, its exact exploitability and why the run
    stopped."""

    profile: Profile
    iterations: int
    exploitability: Exploitability
    seconds: float
    stopped: StopReason


def _kernel() -> ModuleType:  # the compiled walks, imported on first use (numba costs ~0.2 s to import)
    from exactodds.stud.solve.kernels import cfr_walk

    return cfr_walk


def _sections() -> ModuleType:
    from exactodds.stud.solve.kernels import section_walk

    return section_walk


class _Flat(NamedTuple):
    """One subtree below the deal with its regrets and average strategy laid end to end (K x m x A)."""

    layout: LastRound
    regret: np.ndarray
    average: np.ndarray


class _Section(NamedTuple):
    """A section of a second-round solve (the third round after a deal of the third up cards and the
    last rounds below it) with its float32 regrets and averages."""

    layout: SectionLayout
    regret3: np.ndarray
    average3: np.ndarray
    regret4: np.ndarray
    average4: np.ndarray


class CfrState:
    """The regrets and average strategy of every decision and one CFR+ iteration over them: numpy before
    the first deal, compiled below it (:meth:`below_deal`): the last round of a third-round solve, or
    the sections of a second-round solve (:mod:`exactodds.stud.solve.third_round`)."""

    def __init__(self, game: Game, *, stop: Callable[[], bool] | None = None) -> None:
        self.game = game
        self.stop = stop  # also checked before each subtree below a deal (deep stacks: long iterations)
        self.done = 0
        self.updating = 0
        self.keep = np.array([1.0, 0.0])  # kept of positive and negative regrets: CFR+ floors at zero
        self.regret: dict[int, np.ndarray] = {}
        self.average: dict[int, np.ndarray] = {}
        self.flat: dict[int, _Flat] = {}  # by the global id of the subtree's root (a child of the deal)
        self.sections: dict[int, _Section] = {}  # the same for a second-round solve's sections
        n = game.classes.count
        for deal in game.trunk_deals():
            for child in game.tree.nodes[deal].children:
                if child >= 0:
                    self.lay_out(child)
        for i in game.tree.decisions():
            if i in self.regret:
                continue
            node = game.tree.nodes[i]
            shape = (game.contexts[node.ctx].size, n, len(node.actions))
            self.regret[i] = np.zeros(shape)
            self.average[i] = np.zeros(shape)

    def lay_out(self, root: int) -> None:
        """The regrets and average of the subtree below a deal at ``root``, laid end to end."""
        if has_deal_below(self.game, root):
            section = section_of(self.game, root)
            shape3, size4 = section.storage()
            stored = _Section(layout=section, regret3=np.zeros(shape3, dtype=STORAGE),
                              average3=np.zeros(shape3, dtype=STORAGE),
                              regret4=np.zeros(size4, dtype=STORAGE), average4=np.zeros(size4, dtype=STORAGE))
            self.sections[root] = stored
            self.regret.update(section.views(stored.regret4, stored.regret3))
            self.average.update(section.views(stored.average4, stored.average3))
            return
        layout = last_round(self.game, root)
        k, n = layout.mask.shape
        shape = (k, n, layout.subtree.width)
        flat = _Flat(layout=layout, regret=np.zeros(shape), average=np.zeros(shape))
        self.flat[root] = flat
        tree = layout.subtree
        for local, g in enumerate(layout.nodes):  # the per-node arrays are views into the flat ones
            if tree.kind[local] == KIND_CODES[NodeKind.DECISION]:
                part = slice(int(tree.offset[local]), int(tree.offset[local] + tree.actions[local]))
                self.regret[g] = flat.regret[:, :, part]
                self.average[g] = flat.average[:, :, part]

    def iterate(self, weight: float) -> None:
        """One iteration: each player's regrets updated in turn (alternating updates)."""
        first = self.game.tree.actor  # the player to act first: mirrored seats give mirrored runs
        for player in (first, 1 - first):
            self.updating = player
            r0, r1 = root_reach(self.game)
            self.walk(0, r0, r1, weight)

    def below_deal(self, child: int, r0: np.ndarray, r1: np.ndarray, weight: float) -> np.ndarray:
        """The updating player's values (K x m) of the subtree below a deal at ``child``, one deal at a
        time in the compiled walk, given both reaches arriving at the deal (1 x m each)."""
        stored = self.sections.get(child)
        if stored is not None:
            section = stored.layout
            learns = SectionLearner(r0=np.ascontiguousarray(r0[0]), r1=np.ascontiguousarray(r1[0]),
                                    regret3=stored.regret3, average3=stored.average3, regret4=stored.regret4,
                                    average4=stored.average4, keep=self.keep)
            values = np.zeros(section.walk.third.mask.shape)
            # one deal of the third up cards a chunk; a signal stops the wait at once (stoppable)
            stoppable(run_spans, self._checked(_sections().cfr_section), len(values), section.walk, learns,
                      self.updating, weight, values, chunks=len(values))
            return values
        flat = self.flat[child]
        learner = Learner(r0=np.ascontiguousarray(r0[0]), r1=np.ascontiguousarray(r1[0]),
                          regret=flat.regret, average=flat.average, keep=self.keep)
        out: np.ndarray = _kernel().cfr_last_round(flat.layout.subtree, flat.layout.outcomes, learner,
                                                   self.updating, weight)
        return out

    def _checked(self, kernel: Callable[..., None]) -> Callable[..., None]:
        """``kernel`` over a span of deals, the stop flag read before each span (a section of a deep
        second-round solve takes seconds: its spans keep a stop within a fraction of one)."""
        def run(lo: int, hi: int, *args: object) -> None:
            if self.stop is not None and self.stop():
                raise Interrupted(f"stopped after {self.done} iterations")
            kernel(lo, hi, *args)
        return run

    def loads_kernels(self) -> bool:
        """Whether the next iteration loads the compiled walks from numba's cache or compiles them."""
        return ((bool(self.flat) and not _kernel().cfr_last_round.signatures)
                or (bool(self.sections) and not _sections().cfr_section.signatures))

    def walk(self, node_id: int, r0: np.ndarray, r1: np.ndarray, weight: float) -> np.ndarray:
        """The updating player's counterfactual values (K x m) below ``node_id``."""
        game = self.game
        me = self.updating
        node = game.tree.nodes[node_id]
        if node.kind in (NodeKind.FOLD, NodeKind.SHOWDOWN):
            return leaf_values(node, me, r1 if me == 0 else r0, game.showdown.get((node.ctx, me)),
                               game.contexts[node.ctx].avail)
        if node.kind is NodeKind.CHANCE:
            total = np.zeros_like(r0)
            for child in node.children:
                if child < 0:
                    continue
                context = game.contexts[game.tree.nodes[child].ctx]
                if self.stop is not None and self.stop():
                    raise Interrupted(f"stopped after {self.done} iterations")
                total += context.up(self.below_deal(child, r0, r1, weight), len(r0))
            return total
        p = node.player
        regret = self.regret[node_id]
        sigma = normalised(np.maximum(regret, 0.0))
        values = []
        for a, child in enumerate(node.children):
            child_reach = (r0 if p == 0 else r1) * sigma[:, :, a]
            if p == 0:
                values.append(self.walk(child, child_reach, r1, weight))
            else:
                values.append(self.walk(child, r0, child_reach, weight))
        if p != me:
            out: np.ndarray = sum(values[1:], values[0])
            return out
        own = np.stack(values, axis=-1)
        value: np.ndarray = (own * sigma).sum(axis=-1)
        regret += own - value[:, :, None]
        regret *= np.where(regret > 0.0, self.keep[0], self.keep[1])
        reach = r0 if p == 0 else r1
        self.average[node_id] += weight * reach[:, :, None] * sigma
        return value

    def profile(self) -> Profile:
        """The average strategy (read in place: rows normalised as they are read)."""
        laid_out = {root: SectionStrategy(third=stored.average3, last=stored.average4)
                    for root, stored in self.sections.items()}
        return Profile(strategy=Normalised(self.average), laid_out=laid_out)


def solve_cfr(game: Game, *, max_iterations: int, target: float, check_every: int = 10,
              stop: Callable[[], bool] | None = None, progress: Progress | None = None,
              seconds: float | None = None) -> CfrRun:
    """Run CFR+ until the average's exploitability is at most ``target`` (a fraction of the pot) or
    ``max_iterations``; raise :class:`Interrupted` when ``stop()`` turns true (checked before every
    iteration and before each subtree below a deal, well within a second). ``seconds``: a time budget,
    counted from the end of the first iteration (which loads or compiles the kernels); the first
    iteration past it ends the run with the average found so far (the run says so). Returns the average
    profile (lower exploitability is better)."""
    return iterate_to_target(CfrState(game, stop=stop), max_iterations=max_iterations, target=target,
                             check=lambda profile: exploitability(game, profile), check_every=check_every,
                             stop=stop, progress=progress, seconds=seconds)


PROGRESS_STEPS = 1000  # the solving bar's length: a share of the run, not a count of iterations
LOADING = "loading the solver's kernels (compiled the first time, about 5 s)"
SOLVING = "solving (CFR+)"


class Convergence:
    """How far a CFR+ run is from its end, as a share (0 to 1) for the progress bar: the largest of the
    iterations run over ``max_iterations``, the seconds spent over the ``seconds`` budget, and the
    iterations run over those the target needs. The exploitability of CFR+ falls about as a power of
    the iterations run (exploitability ~ c / t^a); the power is fitted on the last two checks (a = 1
    after the first), so the iterations needed are t (now / target)^(1/a)."""

    def __init__(self, *, target: float, max_iterations: int, seconds: float | None) -> None:
        self.target = target
        self.max_iterations = max_iterations
        self.seconds = seconds
        self.checks: list[tuple[int, float]] = []

    def checked(self, iterations: int, fraction: float) -> None:
        """The exploitability (a fraction of the pot) after ``iterations`` iterations."""
        self.checks.append((iterations, fraction))

    def needed(self) -> float | None:
        """The iterations the target needs by the fit (None before the first check)."""
        if not self.checks:
            return None
        done, now = self.checks[-1]
        if now <= self.target:
            return float(done)
        power = 1.0
        if len(self.checks) >= 2:
            before, then = self.checks[-2]
            if then > now > 0 and done > before:
                power = math.log(then / now) / math.log(done / before)
            power = min(max(power, 0.25), 4.0)  # no progress yet, or a lucky drop: a bounded guess
        return float(done * (now / self.target) ** (1.0 / power))

    def share(self, iterations: int, elapsed: float) -> float:
        """The share of the run done after ``iterations`` iterations and ``elapsed`` seconds."""
        shares = [iterations / self.max_iterations]
        if self.seconds is not None:
            shares.append(elapsed / self.seconds)
        needed = self.needed()
        if needed is not None and needed > 0:
            shares.append(iterations / needed)
        return min(max(shares), 1.0)


def iterate_to_target(state: CfrState, *, max_iterations: int, target: float,
                      check: Callable[[Profile], Exploitability], check_every: int = 10,
                      stop: Callable[[], bool] | None = None, progress: Progress | None = None,
                      averaging: int = 2, seconds: float | None = None) -> CfrRun:
    """The loop of :func:`solve_cfr` over any :class:`CfrState`: iterations in chunks of ``check_every``,
    each chunk's average checked by ``check`` (its exact exploitability); ``averaging``: the power of the
    iteration number that weights the average (2, quadratic; 1, the linear averaging of the first
    version). ``progress`` gets a stage while the first iteration loads (or compiles) the kernels, then
    a bar over the run's estimated share done (:class:`Convergence`)."""
    if max_iterations < 1:
        raise SolveError(f"max_iterations must be a whole number >= 1, got {max_iterations!r}")
    started = time.perf_counter()
    report = or_none(progress)
    convergence = Convergence(target=target, max_iterations=max_iterations, seconds=seconds)
    shown = 0

    def show(share: float) -> None:
        nonlocal shown
        due = int(share * PROGRESS_STEPS)
        if due > shown:
            report.step(due - shown)
            shown = due

    loading = state.loads_kernels()  # a fresh process loads them from numba's cache (or compiles them)
    report.stage(LOADING if loading else SOLVING, steps=None if loading else PROGRESS_STEPS)
    done = 0
    result = None
    stopped = StopReason.ITERATIONS
    clock = started
    try:
        while done < max_iterations:
            chunk = min(check_every, max_iterations - done)
            out_of_time = False
            for _ in range(chunk):
                if stop is not None and stop():
                    raise Interrupted(f"stopped after {done} iterations")
                state.done = done
                done += 1
                state.iterate(float(done) ** averaging)
                if done == 1:
                    clock = time.perf_counter()
                    if loading:
                        report.stage(SOLVING, steps=PROGRESS_STEPS)  # the bar, once the kernels are in
                elif seconds is not None and time.perf_counter() - clock > seconds:
                    out_of_time = done < max_iterations
                    break
                show(convergence.share(done, time.perf_counter() - clock))
            result = check(state.profile())
            convergence.checked(done, result.fraction)
            if result.fraction <= target:
                stopped = StopReason.TARGET
                break
            if out_of_time:
                stopped = StopReason.TIME
                break
            show(convergence.share(done, time.perf_counter() - clock))
        show(1.0)  # the work has ended: the bar is full
    finally:
        report.end()
    assert result is not None  # at least one chunk ran and was checked
    return CfrRun(profile=state.profile(), iterations=done, exploitability=result,
                  seconds=time.perf_counter() - started, stopped=stopped)
