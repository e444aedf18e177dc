"""The walk behind the best response to the bots: the rest of the hand from one player's decision,
over every deal of the up cards still to come, with the bots' hole cards as a weight vector.

The state of the walk is a *batch*: one public betting state (a :class:`StudHand` whose hidden
hole cards are placeholders) shared by many rows, each row one run of up cards dealt since the
decision; ``w[r, s]`` is 1 when the bots' hole cards ``states[s]`` are still possible in row ``r``
(consistent with the bots' actions and with the cards dealt), else 0. Every run of cards and every
possible assignment of hole cards is equally likely, so a row's value is a plain sum over its
states. The player's information set is the row (its own cards, the up cards, the betting), so at
its decisions the walk takes, row by row, the action of highest total value: a best response over
information sets. The bots' decisions come from :func:`exactodds.stud.bots.policy.decide` for what each
hole card makes of their cards. Values are exact integers and fractions; ``sample`` replaces the
full enumeration of a deal by that many uniformly drawn deals (an estimate, scaled to the total).
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import perm
from typing import Any

import numpy as np

from exactodds.handrank import evaluate_batch
from exactodds.stud.bots.belief import Deal, Step, player_view
from exactodds.stud.bots.policy import OwnCards, best_shown, decide, read_own
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.rules import round_opener, shows_open_pair
from exactodds.stud.engine.settlement import award
from exactodds.stud.engine.state import Phase, StudHand

_SHOWN = 16  # radix of the highest-shown rank (-1..12) in a decision code


@dataclass(kw_only=True)
class _Batch:
    node: StudHand
    steps: tuple[Action | int, ...]  # actions, and the player of each card dealt since the decision
    ups: dict[int, np.ndarray]  # every player's up cards, one row per run of cards (R, m)
    w: np.ndarray  # (R, states) 0/1 weights
    memo: dict[Any, Any] = field(default_factory=dict)


@dataclass(kw_only=True)
class Sampler:
    """Draws ``deals`` uniformly random deals at every deal of the walk instead of all of them."""

    deals: int
    rng: np.random.Generator


class BotWalk:
    """The best-response walk from ``hand``'s decision for ``player`` (see the module docstring)."""

    def __init__(self, hand: StudHand, player: int, *, others: Sequence[int], states: np.ndarray,
                 dead: frozenset[int] = frozenset(), sampler: Sampler | None = None) -> None:
        self.hand = hand
        self.player = player
        self.column = {q: j for j, q in enumerate(others)}
        self.states = states
        self.sampler = sampler
        self.root = player_view(hand, player)
        self.dealt_before = {q: len(hand.up[q]) for q in range(hand.n)}
        seen = {c for q in range(hand.n) for c in hand.up[q]} | {node_hole(hand, player)} | dead
        self.unseen = [c for c in range(52) if c not in seen]
        self.stack = hand.stacks[player]
        self.children: dict[tuple[int, Any], StudHand] = {}
        self.root_values: dict[Action, np.ndarray] = {}

    # ------------------------------------------------------------------ entry
    def action_values(self) -> dict[Action, Any]:
        """Each legal action's total value over the states (chips won from now, summed over the
        equally likely hole-card assignments and runs of cards; divide by their number)."""
        ups = {q: np.array([self.hand.up[q]], dtype=np.int64) for q in range(self.hand.n)}
        batch = _Batch(node=self.root, steps=(), ups=ups, w=np.ones((1, len(self.states)), dtype=np.int64))
        self._value(batch)
        return {a: v[0] for a, v in self.root_values.items()}

    def _value(self, b: _Batch) -> np.ndarray:
        if b.node.phase is Phase.DONE:
            return self._terminal(b)
        if b.node.phase is Phase.DEAL:
            return self._chance(b)
        if b.node.actor == self.player:
            return self._decide(b)
        return self._bot(b)

    # ------------------------------------------------------------------ betting
    def _child(self, node: StudHand, key: Any, make: Any) -> StudHand:
        k = (id(node), key)
        if k not in self.children:
            self.children[k] = make()
        return self.children[k]

    def _after(self, node: StudHand, action: Action) -> StudHand:
        def make() -> StudHand:
            memo: dict[int, Any] = {id(e): e for e in node.events}
            memo[id(node.profile)] = node.profile
            child = copy.deepcopy(node, memo)
            child.act(action)
            return child
        return self._child(node, action, make)

    def _decide(self, b: _Batch) -> np.ndarray:
        values: dict[Action, np.ndarray] = {}
        for a in b.node.legal().actions():
            if a.kind == "f":  # folding ends the hand for the player: its stack stays as it is
                values[a] = b.w.sum(axis=1) * (b.node.stacks[self.player] - self.stack)
            else:
                after = self._after(b.node, a)
                values[a] = self._value(replace(b, node=after, steps=(*b.steps, a), memo=b.memo))
        if b.node is self.root:
            self.root_values = values
        best: np.ndarray | None = None
        for v in values.values():
            best = v if best is None else np.maximum(best, v)
        assert best is not None
        return best

    def _own(self, b: _Batch, q: int) -> tuple[np.ndarray, list[OwnCards]]:
        """What bot ``q`` reads from its own cards, per row and state: ids into the list returned."""
        key = ("own", q)
        if key not in b.memo:
            rows, row_of = np.unique(b.ups[q], axis=0, return_inverse=True)
            holes, hole_of = np.unique(self.states[:, self.column[q]], return_inverse=True)
            ids: dict[OwnCards, int] = {}
            table = np.empty((len(rows), len(holes)), dtype=np.int64)
            for i, row in enumerate(rows.tolist()):
                for j, h in enumerate(holes.tolist()):
                    table[i, j] = ids.setdefault(read_own((h, *row)), len(ids))
            b.memo[key] = (table[np.ravel(row_of)][:, hole_of], list(ids))
        result: tuple[np.ndarray, list[OwnCards]] = b.memo[key]
        return result

    def _shown(self, b: _Batch, q: int, live: tuple[int, ...]) -> np.ndarray:
        key = ("shown", q, live)
        if key not in b.memo:
            rows = len(b.w)
            b.memo[key] = np.array([best_shown([b.ups[o][r] for o in live if o != q]) for r in range(rows)],
                                   dtype=np.int64)
        shown: np.ndarray = b.memo[key]
        return shown

    def _bot(self, b: _Batch) -> np.ndarray:
        node = b.node
        legal = node.legal()
        q = legal.player
        actions = legal.actions()
        own_ids, owns = self._own(b, q)
        code = own_ids * _SHOWN + (self._shown(b, q, tuple(node.in_hand))[:, None] + 1)
        codes, code_of = np.unique(code, return_inverse=True)
        wagers = node.round.wagers if node.round is not None else 0
        choice = np.array([actions.index(decide(legal, own=owns[int(c) // _SHOWN], shown=int(c) % _SHOWN - 1,
                                                wagers=wagers, profile=node.profile)) for c in codes])
        taken = choice[np.ravel(code_of)].reshape(code.shape)
        total: np.ndarray = np.zeros(len(b.w), dtype=np.int64)
        for i, a in enumerate(actions):
            w = b.w * (taken == i)
            if w.any():
                total = total + self._value(replace(b, node=self._after(node, a), steps=(*b.steps, a), w=w))
        return total

    # ------------------------------------------------------------------ showdown
    def _terminal(self, b: _Batch) -> np.ndarray:
        node, out = b.node, b.node.outcome
        assert out is not None
        me = self.player
        if not out.showdown_order:
            folded: np.ndarray = b.w.sum(axis=1) * (out.finishing_stacks[me] - self.stack)
            return folded
        live = node.in_hand
        rows, n_states = b.w.shape
        strength = {}
        for p in live:
            if p == me:
                cards = np.concatenate([np.full((rows, 1), node_hole(self.hand, me)), b.ups[me]], axis=1)
                strength[p] = np.repeat(evaluate_batch(cards).astype(np.int64)[:, None], n_states, axis=1)
            else:
                holes = np.broadcast_to(self.states[None, :, self.column[p]], (rows, n_states))
                shown = np.broadcast_to(b.ups[p][:, None, :], (rows, n_states, b.ups[p].shape[1]))
                cards = np.concatenate([holes[..., None], shown], axis=2)
                s = np.zeros((rows, n_states), dtype=np.int64)
                live_cells = b.w > 0
                s[live_cells] = evaluate_batch(cards[live_cells])
                strength[p] = s
        beaten = {p: sum((strength[o] > strength[p]).astype(np.int64) for o in live if o != p) for p in live}
        code = sum(beaten[p] * len(live) ** i for i, p in enumerate(live))
        codes, code_of = np.unique(code, return_inverse=True)
        base = node.starting_stacks[me] - node.contributed[me] + out.returned[me] - self.stack
        won = []
        for c in codes.tolist():
            ranks = {p: -((c // len(live) ** i) % len(live)) for i, p in enumerate(live)}
            won.append(sum(share.get(me, 0) for share in award(out.pots, ranks).values()))
        pay = base + np.array(won, dtype=np.int64)[np.ravel(code_of)].reshape(code.shape)
        result: np.ndarray = (b.w * pay).sum(axis=1)
        return result

    # ------------------------------------------------------------------ dealing
    def _chance(self, b: _Batch) -> np.ndarray:
        node = b.node
        due = list(node.deal_due)
        held = self.states.shape[1]
        out = np.empty(len(b.w), dtype=object)
        for r in range(len(b.w)):
            path = {int(c) for q in range(self.hand.n) for c in b.ups[q][r, self.dealt_before[q]:]}
            avail = [c for c in self.unseen if c not in path]
            deals, scale = self._deals(avail, len(due), held)
            total: Any = 0
            for key, rows in self._contexts(b, r, due, deals, node.round_index).items():
                chosen = deals[rows]
                ups = {q: np.repeat(b.ups[q][r:r + 1], len(rows), axis=0) for q in b.ups}
                for j, q in enumerate(due):
                    ups[q] = np.concatenate([ups[q], chosen[:, j:j + 1]], axis=1)
                clash = (self.states[None, :, :, None] == chosen[:, None, None, :]).any(axis=(2, 3))
                w = b.w[r][None, :] * ~clash
                steps = (*b.steps, *due)
                child = self._child(node, key, lambda r=r, first=chosen[0]: self._replayed(b, r, due, first))
                total += sum(self._value(_Batch(node=child, steps=steps, ups=ups, w=w)).tolist())
            out[r] = total * scale
        return out

    def _deals(self, avail: list[int], count: int, held: int) -> tuple[np.ndarray, Fraction]:
        """The deals of ``count`` cards to consider and the weight of each (the probability of a deal
        given the hole cards; sampled deals stand for all of them)."""
        ways_given_holes = perm(len(avail) - held, count)
        if self.sampler is None:
            deals = np.array(list(itertools.permutations(avail, count)), dtype=np.int64).reshape(-1, count)
            return deals, Fraction(1, ways_given_holes)
        picks = np.array([self.sampler.rng.choice(avail, size=count, replace=False)
                          for _ in range(self.sampler.deals)], dtype=np.int64).reshape(-1, count)
        return picks, Fraction(perm(len(avail), count), self.sampler.deals * ways_given_holes)

    def _contexts(self, b: _Batch, r: int, due: list[int], deals: np.ndarray,
                  round_index: int) -> dict[tuple[int, bool], np.ndarray]:
        """The deals grouped by what they change in the betting: who opens and the open-pair bet."""
        live = b.node.in_hand
        base = {q: [int(c) for c in b.ups[q][r]] for q in b.ups}
        groups: dict[tuple[int, bool], list[int]] = {}
        for i, deal in enumerate(deals.tolist()):
            up = [base[q] + ([deal[due.index(q)]] if q in due else []) for q in range(self.hand.n)]
            key = (round_opener(up, live, round_index=round_index),
                   shows_open_pair(up, live, round_index=round_index))
            groups.setdefault(key, []).append(i)
        return {k: np.array(v, dtype=np.int64) for k, v in groups.items()}

    def _replayed(self, b: _Batch, r: int, due: list[int], deal: np.ndarray) -> StudHand:
        """The betting state after ``deal`` in row ``r``: the hand replayed with that row's cards."""
        count = dict.fromkeys(b.ups, 0)
        steps: list[Step] = []
        for s in b.steps:
            if isinstance(s, Action):
                steps.append(s)
            else:
                steps.append(Deal(player=s, card=int(b.ups[s][r, self.dealt_before[s] + count[s]])))
                count[s] += 1
        steps.extend(Deal(player=q, card=int(c)) for q, c in zip(due, deal.tolist(), strict=True))
        return player_view(self.hand, self.player, steps=steps)


def node_hole(hand: StudHand, player: int) -> int:
    """The player's own hole card."""
    down = hand.down[player]
    assert down is not None
    return down
