"""The walk behind a decision: the rest of the hand from one player's decision, every other player
acting by its model, over the deals of the up cards still to come and the other players' hole cards.

The state of the walk is a *batch*: one public betting state (a :class:`StudHand` whose hidden hole
cards are placeholders) shared by many *rows*, each row one run of up cards dealt since the decision
(what the deciding player sees), and many *cells*, each a row with one assignment of the other
players' hole cards (a *state*) and its weight. A model acts on each cell by what its own cards read
there, which splits the cells among the actions (a mixed choice splits a cell's weight). The walk
returns each root cell's weighted chips.

How the cards to come are dealt is the caller's (:mod:`exactodds.stud.decide.deals`): every run of
cards (exact: each row spreads into every run, a state's cells into the runs that do not clash with
its hole cards) or pre-drawn runs (sampled: each cell carries its run).

The deciding player's later decisions are the best response over its information sets from round
``best_from_round`` (0-based) on: the row is what it sees, so at each of its decisions the walk takes,
row by row, the action of highest total value over the row's cells. Before that round they follow
the ``later`` model, read from its own cards like an opponent's. The root's actions are valued each
on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from exactodds.stud.decide.deals import Dealing, Spread
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.policy import Situation, action_weights
from exactodds.stud.decide.reading import top_rank
from exactodds.stud.decide.showdown import payoffs
from exactodds.stud.decide.values import Values, common, divided, row_sums, scatter_add, zeros
from exactodds.stud.engine.actions import Action, ActionKind
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.engine.view import deal_view, node_hole, player_view


def _tops(ups: Mapping[int, np.ndarray]) -> dict[int, np.ndarray]:
    return {q: top_rank(cards) for q, cards in ups.items()}


class WalkStopped(Exception):
    """The caller's ``stop`` asked the walk to end (its partial result is never used)."""


@dataclass(kw_only=True)
class Batch:
    node: StudHand
    ups: dict[int, np.ndarray]  # every player's up cards, one row per run of cards (R, m)
    row: np.ndarray  # (C,) the row of each cell
    state: np.ndarray  # (C,) the hole-card state of each cell
    run: np.ndarray  # (C,) the pre-drawn run of cards of each cell (sampled dealing; 0 otherwise)
    w: np.ndarray  # (C,) weights: whole numbers (exact) or floats (sampled)
    tops: dict[int, np.ndarray]  # every player's highest up-card rank, one per row
    memo: dict[Any, Any] = field(default_factory=dict)

    @property
    def rows(self) -> int:
        return len(next(iter(self.ups.values())))


@dataclass(frozen=True, kw_only=True)
class RootCells:
    """The cells at the decision: each one's hole-card state, run of cards and weight."""

    state: np.ndarray
    run: np.ndarray
    w: np.ndarray

    @classmethod
    def of_states(cls, weights: np.ndarray) -> RootCells:
        """One cell per state (every deal enumerated, or one run per state)."""
        index = np.arange(len(weights), dtype=np.int64)
        return cls(state=index, run=index, w=weights)


class Walk:
    """The walk from ``hand``'s decision for ``player`` (see the module docstring).

    ``states`` (S, k): the other players' hole cards (``others`` order) of each state; ``cells``: the
    root cells; ``models``: each other player's model; ``dealing``: how the cards to come are dealt;
    ``later`` and ``best_from_round``: the player's own later play (the model before that round, the
    best response from it); ``dead_money``: chips in the pot that belong to no seat (they join the
    main pot)."""

    def __init__(self, hand: StudHand, player: int, *, others: Sequence[int], states: np.ndarray,
                 models: Mapping[int, OpponentModel], dealing: Dealing, cells: RootCells,
                 later: OpponentModel | None = None, best_from_round: int = 0, dead_money: int = 0,
                 stop: Callable[[], bool] | None = None) -> None:
        if later is None and best_from_round > hand.round_index:
            raise ValueError("the player's play before best_from_round needs a later model")
        self.hand, self.player = hand, player
        self.column = {q: j for j, q in enumerate(others)}
        self.states, self.cells, self.models = states, cells, models
        self.dealing, self.later, self.best_from_round = dealing, later, best_from_round
        self.dead_money, self.stop = dead_money, stop
        self.exact = cells.w.dtype != np.float64
        self.root = player_view(hand, player)
        self.dealt_before = {q: len(hand.up[q]) for q in range(hand.n)}
        self.hole = node_hole(hand, player)
        self.stack = hand.stacks[player]
        self.children: dict[tuple[int, Any], StudHand] = {}

    # ------------------------------------------------------------------ entry
    def action_values(self) -> dict[Action, Values]:
        """Each legal action's value per root cell (chips from now times the cell's weight)."""
        ups = {q: np.array([self.hand.up[q]], dtype=np.int64) for q in range(self.hand.n)}
        c = self.cells
        batch = Batch(node=self.root, ups=ups, row=np.zeros(len(c.w), dtype=np.int64),
                      state=c.state, run=c.run, w=c.w, tops=_tops(ups))
        return {a: self._after_mine(batch, a) for a in self.root.legal().actions()}

    def _value(self, b: Batch) -> Values:
        if b.node.phase is Phase.DONE:
            return self._terminal(b)
        if b.node.phase is Phase.DEAL:
            return self._chance(b)
        if b.node.actor == self.player:
            return self._mine(b)
        q = b.node.actor
        assert q is not None
        return self._act(b, q, self.models[q])

    # ------------------------------------------------------------------ betting
    def _child(self, node: StudHand, key: Any, make: Callable[[], StudHand]) -> StudHand:
        k = (id(node), key)
        if k not in self.children:
            self.children[k] = make()
        return self.children[k]

    def _after(self, node: StudHand, action: Action) -> StudHand:
        def make() -> StudHand:
            child = node.copy()
            child.act(action)
            return child
        return self._child(node, action, make)

    def _after_mine(self, b: Batch, action: Action) -> Values:
        if action.kind == ActionKind.FOLD:  # the player's stack stays as it is: nothing more to win or lose
            payoff = b.node.stacks[self.player] - self.stack
            return Values(num=b.w * payoff)
        return self._value(replace(b, node=self._after(b.node, action), memo={}))

    def _mine(self, b: Batch) -> Values:
        if self.later is not None and b.node.round_index < self.best_from_round:
            return self._act(b, self.player, self.later)
        if self.stop is not None and self.stop():
            raise WalkStopped
        values = {a: self._after_mine(b, a) for a in b.node.legal().actions()}
        den = common(*values.values())
        sums = {a: row_sums(v, b.row, b.rows, den) for a, v in values.items()}
        actions = list(values)
        best = np.zeros(b.rows, dtype=np.int64)
        top = sums[actions[0]]
        for i, a in enumerate(actions[1:], 1):
            better = sums[a] > top
            best[better] = i
            top = np.where(better, sums[a], top)
        choice = best[b.row]
        out = zeros(len(b.w), exact=self.exact)
        for i, a in enumerate(actions):
            cells = np.flatnonzero(choice == i)
            if len(cells):
                v = values[a]
                out = scatter_add(out, cells, Values(num=v.num[cells], den=v.den))
        return out

    def _own_cards(self, b: Batch, q: int) -> np.ndarray:
        key = ("own", q)
        if key not in b.memo:
            hole = (np.full(len(b.row), self.hole, dtype=np.int64) if q == self.player
                    else self.states[b.state, self.column[q]])
            b.memo[key] = np.concatenate([hole[:, None], b.ups[q][b.row]], axis=1)
        own: np.ndarray = b.memo[key]
        return own

    def _shown(self, b: Batch, q: int) -> np.ndarray:
        others = [p for p in b.node.in_hand if p != q]
        if not others:
            return np.full(len(b.row), -1, dtype=np.int64)
        shown: np.ndarray = np.max([b.tops[p] for p in others], axis=0)[b.row]
        return shown

    def _act(self, b: Batch, q: int, model: OpponentModel) -> Values:
        """A player acting by ``model``: the cells split among the actions it takes."""
        node = b.node
        situation = Situation.of(node, node.legal())
        own, shown = self._own_cards(b, q), self._shown(b, q)
        actions, numerators = action_weights(model, situation, own=own, shown=shown)
        total = zeros(len(b.w), exact=self.exact)
        for j, a in enumerate(actions):
            share = numerators[:, j]
            cells = np.flatnonzero(share)
            if not len(cells):
                continue
            if self.exact:
                w = b.w[cells] if model.deterministic else b.w[cells] * share[cells]
            else:
                w = b.w[cells] * (share[cells] / model.denominator)
            sub = Batch(node=node, ups=b.ups, row=b.row[cells], state=b.state[cells],
                        run=b.run[cells], w=w, tops=b.tops)
            if q == self.player:
                value = self._after_mine(sub, a)
            else:
                value = self._value(replace(sub, node=self._after(node, a)))
            total = scatter_add(total, cells, value)
        return divided(total, model.denominator) if self.exact else total

    # ------------------------------------------------------------------ showdown
    def _terminal(self, b: Batch) -> Values:
        node = b.node
        holes = {p: self.states[b.state, j] for p, j in self.column.items() if p in node.in_hand}
        ups = {p: b.ups[p][b.row] for p in node.in_hand}
        own = np.full(len(b.row), self.hole, dtype=np.int64)
        pay = payoffs(node, me=self.player, stack=self.stack, own=own, holes=holes, ups=ups,
                      dead_money=self.dead_money)
        return Values(num=b.w * pay)

    # ------------------------------------------------------------------ dealing
    def _chance(self, b: Batch) -> Values:
        if self.stop is not None and self.stop():
            raise WalkStopped
        node = b.node
        due = list(node.deal_due)
        total = zeros(len(b.w), exact=self.exact)
        for spread in self.dealing.spread(ups=b.ups, row=b.row, state=b.state, run=b.run, w=b.w, due=due,
                                          round_index=node.round_index):
            for key, rows in spread.contexts(node).items():
                cells = np.flatnonzero(np.isin(spread.row, rows))
                if not len(cells):
                    continue
                renumber = np.full(len(spread.parent_row), -1, dtype=np.int64)
                renumber[rows] = np.arange(len(rows))
                ups = {q: spread.ups[q][rows] for q in spread.ups}
                first = int(rows[0])
                child = self._child(node, key, partial(self._dealt, node, spread, first))
                sub = Batch(node=child, ups=ups, row=renumber[spread.row[cells]],
                            state=spread.state[cells], run=spread.run[cells], w=spread.w[cells],
                            tops=_tops(ups))
                total = scatter_add(total, spread.parent_cell[cells], self._value(sub))
        if not self.exact:
            return total
        dealt = sum(b.ups[q].shape[1] - self.dealt_before[q] for q in b.ups)
        return divided(total, self.dealing.ways(due=len(due), dealt=dealt))

    def _dealt(self, node: StudHand, spread: Spread, row: int) -> StudHand:
        """The betting state after the deal of new row ``row``: ``node`` with that row's cards dealt."""
        return deal_view(node, self.player, {q: spread.ups[q][row].tolist() for q in spread.ups})
