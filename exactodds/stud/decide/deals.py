"""How a walk deals the up cards still to come: every deal (exact) or pre-drawn runs of cards (sampled),
and the grouping of the new rows by what they change in the betting (who opens the round and whether
an open pair allows the big bet).

A deal turns the cells of a batch into the cells of the next street (:class:`Spread`): each new row is
a parent row with one more up card for every player owed one, each new cell a parent cell in a new
row. :class:`EveryDeal` spreads each row into every ordered run of the unseen cards (in chunks of
bounded size) and drops the cells whose hole cards clash with the run; given a state, every run that
does not clash is equally likely (:meth:`EveryDeal.ways` of them). :class:`PreDrawn` gives each cell
the cards of its run, drawn in advance.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import perm
from typing import Protocol

import numpy as np

from exactodds.stud.decide.reading import open_pairs, openers
from exactodds.stud.engine.state import StudHand

CHUNK_CELLS = 1_500_000  # new cells made at once by one spread of every deal


@dataclass(frozen=True, kw_only=True)
class Spread:
    """The new rows and cells of one chunk of a deal."""

    parent_row: np.ndarray  # (R',) the parent row of each new row
    ups: dict[int, np.ndarray]  # (R', m) every player's up cards in each new row
    row: np.ndarray  # (C',) the new row of each new cell
    state: np.ndarray  # (C',) its hole-card state
    run: np.ndarray  # (C',) its pre-drawn run of cards (sampled dealing)
    w: np.ndarray  # (C',) its weight
    parent_cell: np.ndarray  # (C',) the cell it comes from

    def contexts(self, node: StudHand) -> dict[tuple[int, bool], np.ndarray]:
        """The new rows grouped by who opens the next round and whether an open pair shows."""
        live = node.in_hand
        who = openers(self.ups, live, round_index=node.round_index)
        pair = open_pairs(self.ups, live, round_index=node.round_index)
        code = who * 2 + pair
        keys, of = np.unique(code, return_inverse=True)
        return {(int(k) // 2, bool(k % 2)): np.flatnonzero(of == i) for i, k in enumerate(keys.tolist())}


class Dealing(Protocol):
    """A way of dealing the next street to the rows of a batch."""

    def spread(self, *, ups: Mapping[int, np.ndarray], row: np.ndarray, state: np.ndarray, run: np.ndarray,
               w: np.ndarray, due: Sequence[int], round_index: int) -> Iterator[Spread]:
        """The new rows and cells, in chunks."""
        ...

    def ways(self, *, due: int, dealt: int) -> int:
        """How many runs of cards a cell spreads into (the chance of each is one over this)."""
        ...


def card_masks(cards: np.ndarray) -> np.ndarray:
    """One 52-bit mask per row of an (n, k) card array (int64)."""
    masks = np.zeros(cards.shape[:-1], dtype=np.int64)
    for j in range(cards.shape[-1]):
        masks |= np.left_shift(np.int64(1), cards[..., j].astype(np.int64))
    return masks


@cache
def _orders(size: int, count: int) -> np.ndarray:
    """Every ordered choice of ``count`` of ``size`` positions, (perm(size, count), count)."""
    return np.array(list(itertools.permutations(range(size), count)), dtype=np.int64).reshape(-1, count)


class EveryDeal:
    """Every run of the unseen cards (exact): ``unseen`` the cards the player has not seen nor knows
    dead, ``dealt_before[q]`` the up cards q had at the decision, ``states`` the hole-card states."""

    def __init__(self, *, unseen: Sequence[int], dealt_before: Mapping[int, int], states: np.ndarray) -> None:
        self.unseen = np.array(sorted(unseen), dtype=np.int64)
        self.dealt_before = dict(dealt_before)
        self.held = states.shape[1]
        self.masks = card_masks(states)

    def ways(self, *, due: int, dealt: int) -> int:
        return perm(len(self.unseen) - dealt - self.held, due)

    def _avail(self, ups: Mapping[int, np.ndarray]) -> np.ndarray:
        """(R, L) the unseen cards not dealt since the decision, per row."""
        path = [ups[q][:, self.dealt_before[q]:] for q in ups]
        dealt = np.concatenate(path, axis=1) if path else np.zeros((len(ups[0]), 0), dtype=np.int64)
        keep = ~(self.unseen[None, :, None] == dealt[:, None, :]).any(axis=2)
        avail: np.ndarray = self.unseen[None, :].repeat(len(dealt), axis=0)[keep].reshape(len(dealt), -1)
        return avail

    def spread(self, *, ups: Mapping[int, np.ndarray], row: np.ndarray, state: np.ndarray, run: np.ndarray,
               w: np.ndarray, due: Sequence[int], round_index: int) -> Iterator[Spread]:
        avail = self._avail(ups)
        orders = _orders(avail.shape[1], len(due))
        per_row = np.bincount(row, minlength=len(avail))
        step = max(1, CHUNK_CELLS // max(1, len(orders) * max(1, int(per_row.max()))))
        for start in range(0, len(avail), step):
            rows = np.arange(start, min(start + step, len(avail)))
            deals = avail[rows][:, orders]  # (g, D, due)
            masks = card_masks(deals)  # (g, D)
            cells = np.flatnonzero((row >= rows[0]) & (row <= rows[-1]))
            if not len(cells):
                continue
            pos = row[cells] - rows[0]
            ok = (self.masks[state[cells]][:, None] & masks[pos]) == 0
            ci, d = np.nonzero(ok)
            n_orders = len(orders)
            parent_row = np.repeat(rows, n_orders)
            new_ups = {}
            for q, cards in ups.items():
                base = cards[parent_row]
                if q in due:
                    base = np.concatenate([base, deals[:, :, list(due).index(q)].reshape(-1, 1)], axis=1)
                new_ups[q] = base
            yield Spread(parent_row=parent_row, ups=new_ups, row=pos[ci] * n_orders + d,
                         state=state[cells[ci]], run=run[cells[ci]], w=w[cells[ci]], parent_cell=cells[ci])


class PreDrawn:
    """Pre-drawn runs of cards (sampled): ``cards[r, street, q]`` is the card player q gets on the
    ``street``-th deal after the decision in run r (every player drawn, whoever is still in). Each cell
    carries its run; the cells of one row and one run make one new row.

    Drawn for one state each (``masks`` None), the runs avoid that state's hole cards. Drawn from all
    ``unseen`` cards and shared by many states (``masks``: each state's hole cards as a mask), a state
    is dropped at the deal of a card it holds, and its weight multiplied by how much likelier the
    dealt cards are given its hole cards than as drawn: each step stays unbiased, and a state is never
    judged by a card that is not dealt (the cards of players no longer in stay unseen). ``unseen``:
    how many cards the runs were drawn from; ``dealt_before``: each player's up cards at the decision;
    ``states``: the hole-card states."""

    def __init__(self, *, cards: np.ndarray, first_round: int, unseen: int = 0,
                 dealt_before: Mapping[int, int] | None = None, states: np.ndarray | None = None) -> None:
        self.cards = cards
        self.first_round = first_round
        self.unseen = unseen
        self.dealt_before = dict(dealt_before or {})
        self.held = 0 if states is None else states.shape[1]
        self.masks = None if states is None else card_masks(states)

    def ways(self, *, due: int, dealt: int) -> int:
        return 1

    def spread(self, *, ups: Mapping[int, np.ndarray], row: np.ndarray, state: np.ndarray, run: np.ndarray,
               w: np.ndarray, due: Sequence[int], round_index: int) -> Iterator[Spread]:
        street = round_index - self.first_round
        cells = np.arange(len(row), dtype=np.int64)
        if self.masks is not None:
            new = self.cards[run][:, street, list(due)]
            keep = (self.masks[state] & card_masks(new)) == 0
            cells = np.flatnonzero(keep)
            avail = self.unseen - sum(cards.shape[1] - self.dealt_before[q] for q, cards in ups.items())
            factor = perm(avail, len(due)) / perm(avail - self.held, len(due))
            row, state, run, w = row[cells], state[cells], run[cells], w[cells] * factor
        pairs, new_row = np.unique(row * len(self.cards) + run, return_inverse=True)
        new_row = np.ravel(new_row)
        parent_row, new_run = pairs // len(self.cards), pairs % len(self.cards)
        new_ups = {}
        for q, cards in ups.items():
            base = cards[parent_row]
            if q in due:
                base = np.concatenate([base, self.cards[new_run, street, q][:, None]], axis=1)
            new_ups[q] = base
        yield Spread(parent_row=parent_row, ups=new_ups, row=new_row, state=state, run=run, w=w,
                     parent_cell=cells)
