"""The search for the cheapest card of each length: beam search over rule lists, exact at every step.

A card is a list of rules and a category line (:mod:`exactodds.caribbean.card.grammar`). The
search starts from every category line (no rule), then grows each card of the beam by one rule
inserted at any position. Inserting a rule with conditions C and action a at position i changes
only the cells that no earlier rule decides and that C selects: the change of the card's gain is
the sum over C's cells of a weight vector h (h = gain where the card folds, for a raise; -gain
where it raises, for a fold; 0 on cells decided before i). For all conditions at once:

* one condition: ``M @ h`` (M: the atoms x cells 0/1 matrix of the scope's distinct conditions);
* two conditions: ``(M * h) @ M.T``, every pair at once;
* three: the best ``shortlist`` pairs, each with every third condition, again a matrix product.

The products run in float64, whose sums are exact while every partial sum is an integer below
2**53 (checked); the chosen candidates are then re-evaluated in int64, so every cost reported is
exact whatever the ranking. The ``beam`` cheapest distinct cards (by their decisions) go on. After
each length, a polishing pass re-optimises each rule in place (remove it, insert the best rule at
its position) until no rule improves. Rules with conditions are searched within one category at a
time, rules without conditions over every range "X or better" and every single category.

The search is a heuristic beyond one rule: :func:`exhaustive` enumerates every card of a small
grammar slice (the tests and the benchmark check that the search finds the same optimum there).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import numpy as np

from exactodds.caribbean.card.evaluate import CardSearchError, Cells
from exactodds.caribbean.card.grammar import BELOW_AK, NEVER, TOP, Action, Atom, Card, Kind, Rule

EXACT_FLOAT = 2**53
_CHUNK = 16_384


def all_atoms() -> tuple[Atom, ...]:
    """Every condition of the grammar, simplest wording first."""
    out: list[Atom] = [Atom(kind=Kind.UP_MATCHES), Atom(kind=Kind.UP_UNMATCHED)]
    out += [Atom(kind=k, value=r) for k in (Kind.UP_AT_MOST, Kind.UP_AT_LEAST) for r in range(13)]
    out += [Atom(kind=k, value=r) for k in (Kind.HOLDS, Kind.LACKS) for r in range(13)]
    out += [Atom(kind=k, position=p) for k in (Kind.UP_BELOW_CARD, Kind.UP_ABOVE_CARD) for p in range(5)]
    out += [Atom(kind=k, value=r, position=p) for k in (Kind.RANK_AT_LEAST, Kind.RANK_AT_MOST)
            for p in range(5) for r in range(13)]
    out += [Atom(kind=Kind.SUITED_AT_LEAST, value=n) for n in range(1, 5)]
    out += [Atom(kind=Kind.SUITED_AT_MOST, value=n) for n in range(4)]
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class SearchSettings:
    """How wide the search looks (wider is slower and never worse at a given length)."""

    atoms: tuple[Atom, ...] = field(default_factory=all_atoms)
    max_conditions: int = 3
    beam: int = 8
    lines: int = 2           # category lines the beam starts from
    per_move: int = 6        # candidates kept per (card, position, action, category)
    shortlist: int = 40      # pairs of conditions extended by a third
    polish: bool = True
    raise_from: tuple[int, ...] = tuple(range(BELOW_AK, NEVER + 1))


@dataclass(frozen=True)
class _State:
    card: Card
    cost: int                # exact cost x scale
    by: np.ndarray           # (cells,) index of the rule deciding each cell (len(rules): the category line)
    raised: np.ndarray       # (cells,) bool


def trace(cells: Cells, card: Card) -> _State:
    """The card's decisions on every cell, which rule takes each, and its exact cost."""
    f = cells.features
    k = len(card.rules)
    by = np.full(len(cells), k, dtype=np.int16)
    raised = f.category >= card.raise_from
    for i in range(k - 1, -1, -1):  # the first matching rule wins: later ones are overwritten
        m = card.rules[i].mask(f)
        by[m] = i
        raised = np.where(m, card.rules[i].action == Action.RAISE, raised)
    return _State(card=card, cost=cells.cost_scaled(raised), by=by, raised=raised)


class _AtomMatrices:
    """Per category slice: the distinct non-constant conditions and their 0/1 matrix."""

    def __init__(self, cells: Cells, atoms: tuple[Atom, ...]) -> None:
        self.cells, self.atoms = cells, atoms
        self._cache: dict[int, tuple[tuple[Atom, ...], np.ndarray]] = {}

    def of(self, category: int) -> tuple[tuple[Atom, ...], np.ndarray]:
        if category not in self._cache:
            s = self.cells.category_slice(category, category)
            f = self.cells.features
            sub = type(f)(*(a[s] for a in f))
            seen: set[bytes] = set()
            kept: list[Atom] = []
            rows: list[np.ndarray] = []
            for atom in self.atoms:
                m = atom.mask(sub)
                if m.all() or not m.any():
                    continue
                key = np.packbits(m).tobytes()
                if key in seen:
                    continue
                seen.add(key)
                kept.append(atom)
                rows.append(m)
            matrix = np.array(rows, dtype=bool).reshape(len(rows), s.stop - s.start)
            self._cache[category] = (tuple(kept), matrix)
        return self._cache[category]


def _chunked(matrix: np.ndarray, h: np.ndarray, product: Callable[[np.ndarray, np.ndarray], np.ndarray]
             ) -> np.ndarray:
    total: np.ndarray | None = None
    for start in range(0, matrix.shape[1], _CHUNK):
        part = product(matrix[:, start:start + _CHUNK].astype(np.float64), h[start:start + _CHUNK])
        total = part if total is None else total + part
    assert total is not None
    return total


def _best_conditions(matrix: np.ndarray, h: np.ndarray, settings: SearchSettings
                     ) -> list[tuple[float, tuple[int, ...]]]:
    """The best condition sets (indices into the slice's atoms) by their float sum of h, > 0 only."""
    hf = h.astype(np.float64)
    if float(np.abs(hf).sum()) >= EXACT_FLOAT:
        raise CardSearchError(f"card search: cell sums reach {float(np.abs(hf).sum()):.3g}, beyond the "
                              "exact float range 2**53; expected a paytable with smaller amounts")
    found: list[tuple[float, tuple[int, ...]]] = [(float(hf.sum()), ())]
    n = matrix.shape[0]
    if n and settings.max_conditions >= 1:
        singles = _chunked(matrix, hf, lambda m, x: m @ x)
        found += [(float(v), (i,)) for i, v in enumerate(singles)]
    if n > 1 and settings.max_conditions >= 2:
        pairs = _chunked(matrix, hf, lambda m, x: (m * x) @ m.T)
        iu, ju = np.triu_indices(n, k=1)
        values = pairs[iu, ju]
        found += [(float(values[t]), (int(iu[t]), int(ju[t])))
                  for t in np.argsort(-values, kind="stable")[:settings.per_move]]
        # the pairs extended by a third condition: those whose positive part (a bound on any triple)
        # is largest
        bound = _chunked(matrix, np.maximum(hf, 0), lambda m, x: (m * x) @ m.T)[iu, ju]
        top = np.argsort(-bound, kind="stable")[:settings.shortlist]
        if settings.max_conditions >= 3 and len(top):
            both = matrix[iu[top]] & matrix[ju[top]]
            triples = np.zeros((len(top), n))
            for start in range(0, matrix.shape[1], _CHUNK):
                sl = slice(start, start + _CHUNK)
                triples += (both[:, sl] * hf[sl]) @ matrix[:, sl].T.astype(np.float64)
            for r, t in enumerate(top):
                i, j = int(iu[t]), int(ju[t])
                for third in np.argsort(-triples[r], kind="stable")[:settings.per_move + 2]:
                    if int(third) not in (i, j):
                        found.append((float(triples[r, third]), tuple(sorted((i, j, int(third))))))
    found = [x for x in found if x[0] > 0]
    found.sort(key=lambda x: (-x[0], len(x[1]), x[1]))
    return found


def _children(cells: Cells, state: _State, matrices: _AtomMatrices, settings: SearchSettings,
              positions: Iterable[int]) -> list[tuple[int, Card]]:
    """Cards with one rule more, inserted at one of ``positions``, each improving on ``state``, with
    their exact cost x scale (the parent's cost less the exact int64 sum of h over the new rule)."""
    g = cells.gain
    f = cells.features
    out: list[tuple[int, Card]] = []
    rules = state.card.rules
    for pos in positions:
        open_cells = state.by >= pos
        for action in (Action.RAISE, Action.FOLD):
            h = np.where(open_cells, np.where(state.raised, 0, g) if action == Action.RAISE
                         else np.where(state.raised, -g, 0), 0)
            moves: list[tuple[float, Rule]] = []
            for c in range(BELOW_AK, TOP + 1):
                s = cells.category_slice(c, c)
                if s.stop == s.start or h[s].max() <= 0:
                    continue
                atoms, matrix = matrices.of(c)
                for value, idx in _best_conditions(matrix, h[s], settings)[:settings.per_move]:
                    moves.append((value, Rule(lowest=c, highest=c, action=action,
                                              conditions=tuple(atoms[i] for i in idx))))
            for lowest in range(BELOW_AK, TOP):  # ranges "X or better" without conditions
                s = cells.category_slice(lowest, TOP)
                value = float(h[s].sum())
                if value > 0:
                    moves.append((value, Rule(lowest=lowest, highest=TOP, action=action, conditions=())))
            moves.sort(key=lambda x: (-x[0], len(x[1].conditions)))
            for _, rule in moves[:settings.per_move]:
                s = cells.category_slice(rule.lowest, rule.highest)
                sub = type(f)(*(a[s] for a in f))
                delta = int(h[s][rule.mask(sub)].sum())
                inserted = rules[:pos] + (rule,) + rules[pos:]
                out.append((state.cost - delta, replace(state.card, rules=inserted)))
    return out


def _expand(cells: Cells, children: list[tuple[int, Card]], width: int) -> list[_State]:
    """The ``width`` cheapest distinct children, traced (a few more are traced to dedupe)."""
    children.sort(key=lambda x: (x[0], _size(x[1])))
    return _best((trace(cells, card) for _, card in children[:3 * width]), width)


def _key(state: _State) -> bytes:
    return np.packbits(state.raised).tobytes()


def _size(card: Card) -> tuple[int, int]:
    return len(card.rules), sum(len(r.conditions) for r in card.rules)


def _best(states: Iterable[_State], width: int) -> list[_State]:
    """The ``width`` cheapest states with distinct decisions (the simpler card of equal ones)."""
    kept: dict[bytes, _State] = {}
    for s in states:
        k = _key(s)
        if k not in kept or (s.cost, _size(s.card)) < (kept[k].cost, _size(kept[k].card)):
            kept[k] = s
    return sorted(kept.values(), key=lambda s: (s.cost, _size(s.card)))[:width]


def _polish(cells: Cells, state: _State, matrices: _AtomMatrices, settings: SearchSettings) -> _State:
    """Re-optimise each rule in place until none improves (the card keeps its length)."""
    improved = True
    while improved:
        improved = False
        for i in range(len(state.card.rules)):
            rules = state.card.rules
            without = trace(cells, replace(state.card, rules=rules[:i] + rules[i + 1:]))
            options = _children(cells, without, matrices, settings, [i])
            better = [o for o in options if (o[0], _size(o[1])) < (state.cost, _size(state.card))]
            if better:
                state, improved = trace(cells, min(better, key=lambda o: (o[0], _size(o[1])))[1]), True
    return state


def search(cells: Cells, *, max_rules: int, settings: SearchSettings | None = None,
           progress: Callable[[int], None] | None = None) -> list[tuple[Card, int]]:
    """For n = 0..max_rules, the cheapest card found with at most n rules and its exact cost x scale.

    ``progress`` is called with each length done. Lower cost is better (0 = optimal play).
    """
    settings = settings or SearchSettings()
    matrices = _AtomMatrices(cells, settings.atoms)
    # the category lines far from optimal (raise every hand, fold pairs) are not grown: the best few are
    beam = _best((trace(cells, Card(rules=(), raise_from=r)) for r in settings.raise_from), settings.lines)
    best = beam[0]
    out = [(best.card, best.cost)]
    if progress:
        progress(0)
    for n in range(1, max_rules + 1):
        children = [c for s in beam
                    for c in _children(cells, s, matrices, settings, range(len(s.card.rules) + 1))]
        beam = _expand(cells, children, settings.beam) or beam
        if settings.polish and beam:
            beam = _best([_polish(cells, beam[0], matrices, settings)] + beam[1:], settings.beam)
        if beam[0].cost < best.cost:
            best = beam[0]
        out.append((best.card, best.cost))
        if progress:
            progress(n)
    return out


def exhaustive(cells: Cells, *, max_rules: int, atoms: tuple[Atom, ...], categories: tuple[int, ...],
               max_conditions: int = 2, raise_from: tuple[int, ...] = tuple(range(BELOW_AK, NEVER + 1))
               ) -> list[tuple[Card, int]]:
    """Every card of a small grammar slice (rules within ``categories`` on ``atoms``), the cheapest
    of each length 0..max_rules with its exact cost x scale: the reference the search is checked on."""
    f = cells.features
    rules = [Rule(lowest=c, highest=c, action=a, conditions=combo)
             for c in categories for a in Action
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
                    raised[masks[i]] = rules[i].action == Action.RAISE
                cost = cells.cost_scaled(raised)
                card = Card(rules=tuple(rules[i] for i in chosen), raise_from=base)
                if best is None or cost < best[0]:
                    best = (cost, card)
        assert best is not None
        out.append((best[1], best[0]))
    return out
