"""Beam search with exact insertion and polishing: good rule lists of every length within one category.

The beam holds the cheapest lists of n rules found; each grows by one rule inserted anywhere. Where
the rule goes is its *context*: which rules come before it. Consecutive rules with one action commute,
so inside such a run every split of its rules into "before" and "after" is a context of its own (a
rule that takes the default between two raising rules shields only the later one). For each context
and action, the best ``per_move`` conjunctions are found exactly
(:func:`~exactodds.caribbean.strategy.card.kernels.conjunctions.top_conjunctions` over the cells no
earlier rule decides, weighted by what the new action gains there), so each child's regret is exact.
The ``width`` cheapest distinct lists among the 3 x ``width`` cheapest children go on (a child that cannot be
among those is not even looked for: the search for conjunctions starts above the gain it would
need); the best few are then polished: each rule in turn is taken out and the
best rule over every context put back, until nothing improves.

This is a heuristic (a list it misses is not proven absent): :mod:`exactodds.caribbean.strategy.card.exact`
proves or improves its lists where the tree is small enough.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.strategy.card.grammar import MAX_CONDITIONS
from exactodds.caribbean.strategy.card.kernels.conjunctions import top_conjunctions
from exactodds.caribbean.strategy.card.problem import CategoryProblem, Draft, conjunction_of
from exactodds.threaded import run_spans


@dataclass(frozen=True, kw_only=True)
class BeamSettings:
    """How wide the beam looks (wider is slower and never worse at a given length)."""

    width: int = 8
    per_move: int = 3      # conjunctions kept per (list, context, action)
    polished: int = 1      # the cheapest lists of each length that are polished


_POOL = 3   # children considered per place in the beam


@dataclass(frozen=True)
class _State:
    draft: Draft
    regret: int
    flipped: np.ndarray     # (cells,) bool: the list takes the action other than the default


class _Lists:
    """Rule lists of one problem and default: their regrets and the best insertions into them."""

    def __init__(self, problem: CategoryProblem, default: Choice, max_conditions: int) -> None:
        self.problem, self.default, self.max_conditions = problem, default, max_conditions
        self.v = problem.flip_weights(default).astype(np.int64)
        self.all_atoms = np.ones(len(problem.atoms), dtype=np.bool_)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}
        # top_conjunctions' answers by (weights' digest, top, above)
        self._found: dict[tuple[bytes, int, int], tuple[np.ndarray, np.ndarray, int]] = {}

    def mask(self, conjunction: tuple[int, ...]) -> np.ndarray:
        if conjunction not in self._masks:
            self._masks[conjunction] = self.problem.mask(conjunction)
        return self._masks[conjunction]

    def state(self, draft: Draft) -> _State:
        flipped = self.problem.flipped(draft)
        return _State(draft=draft, regret=self.problem.regret_of(flipped, self.default), flipped=flipped)

    def insertions(self, state: _State, top: int, below: int | None = None) -> list[tuple[int, Draft]]:
        """Lists with one rule more (the ``top`` best per context and action), with exact regrets, only
        those with a regret below ``below`` when given."""
        above = 0 if below is None else max(state.regret - below, 0)
        gain_flip = np.where(state.flipped, 0, self.v)
        gain_default = np.where(state.flipped, -self.v, 0)
        places: list[tuple[Draft, Draft, bool, bytes]] = []
        weights: dict[bytes, np.ndarray] = {}
        for before, after in contexts(state.draft):
            decided = np.zeros(len(self.v), dtype=bool)
            for conjunction, _ in before:
                decided |= self.mask(conjunction)
            for flip, gain in ((True, gain_flip), (False, gain_default)):
                h = np.where(decided, 0, gain)
                if h.max() <= 0:
                    continue
                key = hashlib.blake2b(h.tobytes(), digest_size=32).digest()
                places.append((before, after, flip, key))
                if (key, top, above) not in self._found:
                    weights[key] = h
        self._search(weights, top, above)
        out: list[tuple[int, Draft]] = []
        for before, after, flip, key in places:
            values, ids, count = self._found[(key, top, above)]
            for r in range(count):
                rule = (conjunction_of(ids[r]), flip)
                out.append((state.regret - int(values[r]), (*before, rule, *after)))
        return out

    def _search(self, weights: dict[bytes, np.ndarray], top: int, above: int) -> None:
        """The best conjunctions for each weight vector (named by its digest), found on several threads
        (the kernel releases the GIL) and kept: the beam meets one vector again and again."""
        tasks = list(weights.items())

        def run(lo: int, hi: int) -> list[tuple[np.ndarray, np.ndarray, int]]:
            return [top_conjunctions(self.problem.data, h, self.all_atoms, top, self.max_conditions, above)
                    for _, h in tasks[lo:hi]]

        for (key, _), found in zip(tasks, itertools.chain.from_iterable(run_spans(run, len(tasks),
                                                                                   chunks=len(tasks))),
                                   strict=True):
            self._found[(key, top, above)] = found

    def polish(self, state: _State) -> _State:
        """Each rule in turn replaced by the best rule over every context, until none improves."""
        improved = True
        while improved:
            improved = False
            for i in range(len(state.draft)):
                without = self.state(state.draft[:i] + state.draft[i + 1:])
                options = self.insertions(without, 1, below=state.regret + 1)
                if not options:
                    continue
                regret, draft = min(options, key=lambda o: (o[0], size(o[1])))
                if (regret, size(draft)) < (state.regret, size(state.draft)):
                    state, improved = self.state(draft), True
                    break
        return state


def size(draft: Draft) -> tuple[int, int]:
    """(rules, conditions): the smaller card of two equally cheap ones is preferred."""
    return len(draft), sum(len(c) for c, _ in draft)


def contexts(draft: Draft) -> list[tuple[Draft, Draft]]:
    """Every (rules before, rules after) a new rule can sit between, up to reordering within runs of
    rules with one action (which commute): for each run, each subset of it may come after."""
    out: dict[tuple[Draft, Draft], None] = {((), draft): None}
    start = 0
    while start < len(draft):
        end = start
        while end < len(draft) and draft[end][1] == draft[start][1]:
            end += 1
        run = draft[start:end]
        for k in range(len(run) + 1):
            for after in itertools.combinations(range(len(run)), k):
                before = tuple(r for i, r in enumerate(run) if i not in after)
                out[(draft[:start] + before, tuple(run[i] for i in after) + draft[end:])] = None
        start = end
    return list(out)


def _key(state: _State) -> tuple[bytes, frozenset[tuple[tuple[int, ...], bool]]]:
    return np.packbits(state.flipped).tobytes(), frozenset(state.draft)


def _keep(lists: _Lists, candidates: Iterable[tuple[int, Draft]], width: int) -> list[_State]:
    """The ``width`` cheapest distinct lists (at most two with the same decisions), traced lazily."""
    chosen: list[_State] = []
    seen: set[tuple[bytes, frozenset[tuple[tuple[int, ...], bool]]]] = set()
    per_decision: dict[bytes, int] = {}
    for _, draft in sorted(candidates, key=lambda c: (c[0], size(c[1]))):
        s = lists.state(draft)
        key = _key(s)
        if key in seen or per_decision.get(key[0], 0) >= 2:
            continue
        seen.add(key)
        per_decision[key[0]] = per_decision.get(key[0], 0) + 1
        chosen.append(s)
        if len(chosen) == width:
            break
    return sorted(chosen, key=lambda s: (s.regret, size(s.draft)))


class Beam:
    """The beam of one problem and default action, grown one rule at a time (see the module docstring)."""

    def __init__(self, problem: CategoryProblem, default: Choice, settings: BeamSettings, *,
                 max_conditions: int = MAX_CONDITIONS) -> None:
        self.lists = _Lists(problem, default, max_conditions)
        self.settings = settings
        self.states = [self.lists.state(())]

    def grow(self) -> tuple[Draft, int]:
        """Every list of the beam with one rule more; the cheapest (its exact regret; lower is better)."""
        s = self.settings
        pool = _POOL * s.width   # only the cheapest children so far can still matter
        children: list[tuple[int, Draft]] = []
        for state in self.states:
            below = None if len(children) < pool else children[pool - 1][0]
            children += self.lists.insertions(state, s.per_move, below)
            children = sorted(children, key=lambda c: (c[0], size(c[1])))[:pool]
        kept = _keep(self.lists, children, s.width) or self.states
        polished = [self.lists.polish(state) for state in kept[:s.polished]]
        self.states = _keep(self.lists, [(x.regret, x.draft) for x in polished + kept], s.width)
        return self.states[0].draft, self.states[0].regret

    def add(self, draft: Draft) -> None:
        """Put a list found elsewhere (of the beam's current length) into the beam."""
        known = [(x.regret, x.draft) for x in self.states]
        added = (self.lists.state(draft).regret, draft)
        self.states = _keep(self.lists, [added, *known], self.settings.width)
