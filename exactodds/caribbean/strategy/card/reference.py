"""Slow, obviously correct references for the card search (tests and benchmarks check the fast paths on them).

* :func:`best_conjunction` and :func:`qualifying_rules`: every conjunction of the conditions enumerated
  with ``itertools.combinations`` and valued with numpy, for the kernels of
  :mod:`exactodds.caribbean.strategy.card.kernels.conjunctions`.
* :func:`exhaustive`: every card of a small grammar slice (rules within given categories on given
  conditions, every category line), the cheapest of each length: for the search as a whole.
"""

from __future__ import annotations

import itertools

import numpy as np

from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.strategy.card.evaluate import Cells
from exactodds.caribbean.strategy.card.grammar import BELOW_AK, NEVER, Atom, Card, Rule


def conjunctions(n_atoms: int, max_conditions: int) -> list[tuple[int, ...]]:
    """Every set of 1..max_conditions condition indices, ascending."""
    return [c for k in range(1, max_conditions + 1) for c in itertools.combinations(range(n_atoms), k)]


def _cells_of(membership: np.ndarray, conjunction: tuple[int, ...]) -> np.ndarray:
    cells: np.ndarray = np.all(membership[:, list(conjunction)].astype(bool), axis=1)
    return cells


def best_conjunction(membership: np.ndarray, weights: np.ndarray, max_conditions: int) -> int:
    """The largest sum of ``weights`` over the cells of a nonempty conjunction (of cells with a nonzero
    weight), or the smallest int64 when no conjunction selects such a cell."""
    live = weights != 0
    best = np.iinfo(np.int64).min
    for c in conjunctions(membership.shape[1], max_conditions):
        cells = _cells_of(membership, c) & live
        if cells.any():
            best = max(best, int(weights[cells].sum()))
    return best


def qualifying_rules(membership: np.ndarray, weights: np.ndarray, essential: int, regret: int, bound: int,
                     max_conditions: int) -> set[tuple[frozenset[int], int]]:
    """The (set of cells, flip) of every rule a branch-and-bound node may append (see
    :func:`~exactodds.caribbean.strategy.card.kernels.conjunctions.rule_children`, without the order
    constraint)."""
    out: set[tuple[frozenset[int], int]] = set()
    for c in conjunctions(membership.shape[1], max_conditions):
        cells = _cells_of(membership, c) & (weights != 0)
        if not cells.any():
            continue
        p = int(np.maximum(weights[cells], 0).sum())
        q = int(np.maximum(-weights[cells], 0).sum())
        for flip, right, wrong in ((1, p, q), (0, q, p)):
            if right > essential and regret + wrong < bound:
                out.add((frozenset(np.flatnonzero(cells).tolist()), flip))
    return out


def exhaustive(cells: Cells, *, max_rules: int, atoms: tuple[Atom, ...], categories: tuple[int, ...],
               max_conditions: int = 2, raise_from: tuple[int, ...] = tuple(range(BELOW_AK, NEVER + 1))
               ) -> list[tuple[Card, int]]:
    """Every card of a small grammar slice (rules within ``categories`` with 0..max_conditions of
    ``atoms``, every line of ``raise_from``), the cheapest of each length 0..max_rules with its exact
    cost x scale (lower is better)."""
    f = cells.features
    rules = [Rule(lowest=c, highest=c, action=a, conditions=combo)
             for c in categories for a in Choice
             for k in range(max_conditions + 1) for combo in itertools.combinations(atoms, k)]
    masks = [r.mask(f) for r in rules]
    out: list[tuple[Card, int]] = []
    best: tuple[int, Card] | None = None
    for n in range(max_rules + 1):
        for base in raise_from:
            base_raised = f.category >= base
            for chosen in itertools.product(range(len(rules)), repeat=n):
                raised = base_raised.copy()
                for i in reversed(chosen):  # the first rule wins
                    raised[masks[i]] = rules[i].action == Choice.RAISE
                cost = cells.cost_scaled(raised)
                if best is None or cost < best[0]:
                    best = (cost, Card(rules=tuple(rules[i] for i in chosen), raise_from=base))
        assert best is not None
        out.append((best[1], best[0]))
    return out
