"""One hand category's cells as a search problem: the conditions that matter there and the exact weights.

A card's conditioned rules each decide cells of one category (see
:mod:`exactodds.caribbean.strategy.card.search` for why that loses nothing), so the search runs one
category at a time. A :class:`CategoryProblem` holds that category's cells: their exact gain of
raising over folding (int64, from :class:`~exactodds.caribbean.strategy.card.evaluate.Cells`), the
grammar's conditions that are neither always nor never true there with duplicates (same cells)
removed, simplest wording first, and the 0/1 membership of each cell in each condition.

A rule list is searched against a *default* action (what the category line and the unconditioned
rules after the list do to the category). With ``v`` the benefit of the other action over the default
(:meth:`CategoryProblem.flip_weights`), a list's regret is the sum over cells of ``max(v, 0)`` where
the default stays and ``max(-v, 0)`` where the other action is taken: 0 only when every cell gets
its better action. Its cost against optimal play is that regret plus :attr:`CategoryProblem.floor`
(the loss within cells that look alike, which no card avoids), in units x scale.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.strategy.card.evaluate import Cells
from exactodds.caribbean.strategy.card.grammar import Atom, Features, Rule
from exactodds.caribbean.strategy.card.kernels.conjunctions import ConjunctionData

Conjunction = tuple[int, ...]   # indices into CategoryProblem.atoms (at most MAX_CONDITIONS)
Draft = tuple[tuple[Conjunction, bool], ...]   # a rule list: (conditions, flips the default?) in order


def _cell_keys(n: int) -> np.ndarray:
    """Fixed pseudo-random 64-bit keys (one per cell) whose xor names a set of cells."""
    keys: np.ndarray = np.random.default_rng(20_240_522).integers(1, 2**63 - 1, size=n, dtype=np.int64)
    return keys


@dataclass(frozen=True, kw_only=True)
class CategoryProblem:
    """The cells of one hand category, ready for the card search (see the module docstring)."""

    category: int
    atoms: tuple[Atom, ...]
    membership: np.ndarray      # (cells, atoms) uint8: 1 where the condition holds
    gain: np.ndarray            # (cells,) int64: exact gain of raising over folding x scale
    floor: int                  # the cost no card avoids here (within-cell disagreement) x scale
    features: Features

    @cached_property
    def data(self) -> ConjunctionData:
        """The kernels' bundle."""
        return ConjunctionData(membership=self.membership, columns=np.ascontiguousarray(self.membership.T),
                               cell_keys=_cell_keys(len(self.gain)))

    def flip_weights(self, default: Choice) -> np.ndarray:
        """v: the exact benefit of the action other than ``default`` over ``default``, per cell."""
        weights: np.ndarray = self.gain if default == Choice.FOLD else -self.gain
        return weights

    def mask(self, conjunction: Conjunction) -> np.ndarray:
        """The cells where every condition of the conjunction holds."""
        m = np.ones(len(self.gain), dtype=bool)
        for a in conjunction:
            m &= self.membership[:, a].astype(bool)
        return m

    def flipped(self, draft: Draft) -> np.ndarray:
        """Where the list takes the action other than the default (the first rule that applies wins)."""
        decided = np.zeros(len(self.gain), dtype=bool)
        out = np.zeros(len(self.gain), dtype=bool)
        for conjunction, flip in draft:
            m = self.mask(conjunction) & ~decided
            out |= m & flip
            decided |= m
        return out

    def regret(self, draft: Draft, default: Choice) -> int:
        """The list's exact regret (0 best; add :attr:`floor` for its cost), see the module docstring."""
        return self.regret_of(self.flipped(draft), default)

    def regret_of(self, flipped: np.ndarray, default: Choice) -> int:
        """The exact regret of taking the other action than ``default`` where ``flipped`` (0 best)."""
        v = self.flip_weights(default)
        return int(np.where(flipped, np.maximum(-v, 0), np.maximum(v, 0)).sum())

    def rule(self, conjunction: Conjunction, action: Choice) -> Rule:
        """The grammar's rule: within this category, when the conditions hold, ``action``."""
        return Rule(lowest=self.category, highest=self.category, action=action,
                    conditions=tuple(self.atoms[a] for a in conjunction))

    def rules(self, draft: Draft, default: Choice) -> tuple[Rule, ...]:
        other = Choice.RAISE if default == Choice.FOLD else Choice.FOLD
        return tuple(self.rule(c, other if flip else default) for c, flip in draft)

    def digest(self) -> str:
        """A key naming the problem exactly (cells' features and gains, the conditions)."""
        h = hashlib.sha256()
        for array in (self.gain, self.membership, *self.features):
            h.update(np.ascontiguousarray(array).tobytes())
        h.update(repr((self.category, self.floor, [a.to_dict() for a in self.atoms])).encode())
        return h.hexdigest()[:24]

    @property
    def mixed(self) -> bool:
        """True when some cells gain by raising and others by folding (a list can help)."""
        return bool((self.gain > 0).any() and (self.gain < 0).any())


def category_problem(cells: Cells, category: int, atoms: tuple[Atom, ...]) -> CategoryProblem:
    """The problem of one category's cells over the conditions ``atoms`` (duplicates on these cells and
    conditions that hold everywhere or nowhere here are dropped, the first wording kept)."""
    s = cells.category_slice(category, category)
    f = cells.features
    sub = Features(category=f.category[s], ranks=f.ranks[s], up=f.up[s], suited=f.suited[s])
    seen: set[bytes] = set()
    kept: list[Atom] = []
    columns: list[np.ndarray] = []
    for atom in atoms:
        m = atom.mask(sub)
        if m.all() or not m.any():
            continue
        key = np.packbits(m).tobytes()
        if key not in seen:
            seen.add(key)
            kept.append(atom)
            columns.append(m)
    n = s.stop - s.start
    membership = np.ascontiguousarray(np.array(columns, dtype=np.uint8).reshape(len(columns), n).T)
    gain = cells.gain[s].astype(np.int64)
    floor = int(cells.optimal[s].sum() - np.maximum(gain, 0).sum())
    return CategoryProblem(category=category, atoms=tuple(kept), membership=membership, gain=gain,
                           floor=floor, features=sub)


def conjunction_of(ids: np.ndarray) -> Conjunction:
    """A kernel's atom ids (-1 unused) as a conjunction."""
    return tuple(int(a) for a in ids if a >= 0)

