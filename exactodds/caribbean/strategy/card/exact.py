"""Branch and bound: the cheapest list of at most n rules within one category, proven, or the best found
within a budget of nodes.

Rule lists are enumerated by their first rules (a prefix), each node adding one rule at the end. A
prefix's rules have decided their cells for good, so their regret so far (``wrong``: what they lose
on the cells they decided) only grows: a node whose regret reaches the best list known is cut. Three
more bounds keep the tree small, each exact:

* **Every rule must earn its place.** Removing a rule from a list of exactly n rules leaves a list of
  n - 1 rules, which costs at least the proven optimum of n - 1 rules. So in a list that beats the
  best known, each rule decides right cells worth more than (that optimum - the best known): a rule
  deciding less is never tried. One rule before the end the bound is sharper: the optimum of the
  prefix with one rule more (computed exactly) replaces the optimum of n - 1 rules.
* **Consecutive rules with one action commute**, so they are tried in one order only; and when the
  last two rules both take the other action, the one deciding more right cells must hold at least
  half of the gain the pair needs (it can be taken first).
* **The last pair "a rule taking the default, then one taking the other action" is found from its
  last rule**: that rule alone must decide right cells worth the gain needed (the first rule only
  shields some of its wrong cells), few rules do, and each gets its best shield exactly.
* **The last rule is found, not enumerated**: the exact best conjunction for the cells still open
  (:func:`~exactodds.caribbean.strategy.card.kernels.conjunctions.top_conjunctions`), and only among the
  conditions holding on every open cell that would alone cost the rest of the budget if left to the
  default.

Only lists whose last rule takes the action other than the default are tried (a last rule taking the
default changes nothing). When the search ends within its budget, no list of at most n rules is
cheaper than the one returned: ``proven``. The budget counts nodes (and last pairs valued), not seconds,
so the outcome is the same on every machine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.strategy.card.grammar import MAX_CONDITIONS
from exactodds.caribbean.strategy.card.kernels.conjunctions import (
    must_flip_atoms,
    rule_children,
    top_conjunctions,
)
from exactodds.caribbean.strategy.card.problem import CategoryProblem, Conjunction, Draft, conjunction_of

_CHILDREN_ROOM = 65_536
_NO_BOUND = 2**62


@dataclass(frozen=True, kw_only=True)
class ExactOutcome:
    """The result of one branch and bound: the cheapest list found and whether it is proven cheapest."""

    draft: Draft
    regret: int          # the list's exact regret (lower is better; add the problem's floor for its cost)
    lower: int           # no list of at most ``rules`` rules has a smaller regret (0 when stopped early)
    finished: bool       # the whole tree was searched within the budget
    rules: int
    nodes: int
    seconds: float


    @property
    def proven(self) -> bool:
        """True: ``draft`` is a cheapest list of at most ``rules`` rules."""
        return self.lower >= self.regret


class _OutOfBudget(Exception):
    pass


class _Search:
    def __init__(self, problem: CategoryProblem, rules: int, bound: int, previous_optimum: int,
                 budget: int, max_conditions: int) -> None:
        self.problem, self.rules, self.budget = problem, rules, budget
        self.max_conditions = max_conditions
        self.data = problem.data
        self.best_draft: Draft | None = None
        self._all = np.ones(len(problem.atoms), dtype=np.bool_)
        self.best = bound
        self.previous = previous_optimum
        self.nodes = 0

    def _record(self, regret: int, draft: Draft) -> None:
        if regret < self.best:
            self.best, self.best_draft = regret, draft

    def _best_last(self, open_weights: np.ndarray, above: int, threshold: int) -> tuple[int, Conjunction]:
        """The best rule taking the other action on the open cells, valued above ``above`` (or (0, ()))."""
        eligible = (must_flip_atoms(self.data, open_weights, threshold) if threshold > 0
                    else np.ones(len(self.problem.atoms), dtype=np.bool_))
        values, ids, count = top_conjunctions(self.data, open_weights, eligible, 1, self.max_conditions,
                                              above)
        return (int(values[0]), conjunction_of(ids[0])) if count else (0, ())

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget

    def visit(self, open_weights: np.ndarray, regret: int, prefix: Draft, last: np.ndarray) -> None:
        self._count()
        wrong_if_stopped = int(np.maximum(open_weights, 0).sum())
        self._record(regret + wrong_if_stopped, prefix)
        left = self.rules - len(prefix)
        if left == 0:
            return
        if left == 1:
            # cells with weight >= best - regret must all be flipped by the last rule
            value, conjunction = self._best_last(open_weights, max(regret + wrong_if_stopped - self.best, 0),
                                                 self.best - regret)
            if conjunction:
                self._record(regret + wrong_if_stopped - value, (*prefix, (conjunction, True)))
            return
        essential = max(self.previous - self.best, 0)
        if left == 2:
            value, _ = self._best_last(open_weights, 0, 0)
            essential = max(essential, regret + wrong_if_stopped - value - self.best)
            self._shielded_pairs(open_weights, regret, wrong_if_stopped, prefix)
        want = 3
        if left == 2:
            # before the last rule, default rules come only as _shielded_pairs; of two flipping rules,
            # the one with more right cells (it can go first) holds at least half of the gain needed
            want = 2
            essential = max(essential, (regret + wrong_if_stopped - self.best) // 2)
        children = self._children(open_weights, regret, essential, last, want)
        for i, j, k, flip, wrong, _right, _name in children:
            if regret + wrong >= self.best:
                continue
            conjunction = conjunction_of(np.array((i, j, k)))
            cells = self.problem.mask(conjunction)
            child = np.where(cells, 0, open_weights)
            self.visit(child, regret + int(wrong), (*prefix, (conjunction, bool(flip))),
                       np.array((flip, i, j, k), dtype=np.int64))

    def _shielded_pairs(self, open_weights: np.ndarray, regret: int, wrong_if_stopped: int,
                        prefix: Draft) -> None:
        """Every last pair (a rule taking the default, then one taking the other action), exactly: the
        last rule must hold the gain needed in right cells alone (a shield only removes its wrong
        cells), so the few such rules are enumerated and each gets its best shield."""
        needed = regret + wrong_if_stopped - self.best
        rows, _ = self._rule_rows(open_weights, max(needed, 0), 0, _NO_BOUND, np.array((-1, -1, -1, -1)), 2)
        seen: set[tuple[int, int, int]] = set()
        for i, j, k, flip, wrong, right, name in rows:
            if not flip or (name, wrong, right) in seen:
                continue
            self._count()
            seen.add((int(name), int(wrong), int(right)))
            last_rule = conjunction_of(np.array((i, j, k)))
            inside = np.where(self.problem.mask(last_rule), open_weights, 0)
            values, ids, count = top_conjunctions(self.data, -inside, self._all, 1, self.max_conditions, 0)
            if count:
                self._record(regret + wrong_if_stopped - int(inside.sum()) - int(values[0]),
                             (*prefix, (conjunction_of(ids[0]), False), (last_rule, True)))

    def _rule_rows(self, open_weights: np.ndarray, essential: int, regret: int, bound: int, last: np.ndarray,
                   want: int) -> tuple[np.ndarray, int]:
        room = _CHILDREN_ROOM
        while True:
            rows, found = rule_children(self.data, open_weights, essential, regret, bound, last, room,
                                        self.max_conditions, want)
            if found <= room:
                return rows, int(found)
            room = int(found)

    def _children(self, open_weights: np.ndarray, regret: int, essential: int, last: np.ndarray, want: int
                  ) -> list[tuple[int, ...]]:
        rows, _ = self._rule_rows(open_weights, essential, regret, self.best, last, want)
        seen: set[tuple[int, int, int, int]] = set()
        out: list[tuple[int, ...]] = []
        # the most promising first (right - wrong), so that good lists lower the bound early; one rule per
        # set of cells and action (same name and sums)
        for row in rows[np.argsort(-(rows[:, 5] - rows[:, 4]), kind="stable")]:
            key = (int(row[6]), int(row[3]), int(row[4]), int(row[5]))  # set name, flip, wrong, right
            if key not in seen:
                seen.add(key)
                out.append(tuple(int(x) for x in row))
        return out


def branch_and_bound(problem: CategoryProblem, default: Choice, rules: int, *, incumbent: Draft = (),
                     cutoff: int | None = None, previous_optimum: int = 0, nodes: int = 20_000,
                     max_conditions: int = MAX_CONDITIONS) -> ExactOutcome:
    """The cheapest list of at most ``rules`` rules within the problem's category against ``default``.

    ``incumbent`` is a list known (the result is never worse); ``cutoff``, when given, a regret not
    worth beating by less (e.g. what another default already achieves): lists are searched below
    the smaller of the two, and if none is found there the outcome keeps the incumbent with
    ``lower`` = that bound. ``previous_optimum`` is a proven lower bound on the regret of every list of
    ``rules`` - 1 rules (0 if none is known: weaker but still exact). ``nodes`` bounds the work (nodes
    visited plus last pairs valued): past it the search stops and ``lower`` is 0. Lower regret is better.
    """
    known = problem.regret(incumbent, default)
    bound = known if cutoff is None else min(known, cutoff)
    search = _Search(problem, rules, bound, previous_optimum, nodes, max_conditions)
    start = time.monotonic()
    root = problem.flip_weights(default).astype(np.int64)
    done = True
    try:
        search.visit(root, 0, (), np.array((-1, -1, -1, -1), dtype=np.int64))
    except _OutOfBudget:
        done = False
    draft, regret = (incumbent, known) if search.best_draft is None else (search.best_draft, search.best)
    return ExactOutcome(draft=draft, regret=regret, lower=search.best if done else 0, finished=done,
                        rules=rules, nodes=search.nodes, seconds=time.monotonic() - start)
