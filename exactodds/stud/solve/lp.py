"""The sequence-form linear program of a solve (scipy's HiGHS), exact up to the solver's tolerance: the
method of the last round, and on small positions of the earlier rounds the independent check of CFR+.

Player p's sequences are the empty sequence and one per (decision node of p, chance outcome of its
context, hole-card class, action: every card of a class plays alike, see
:mod:`exactodds.stud.solve.card_classes`);
realization plans x (seat 0) and y (seat 1) satisfy x[empty] = 1 and, at each information set,
the sum over its actions = the plan of the sequence leading to it. With the payoff matrix A (seat 0's
chips from now, weighted by the probability of the pair of hole cards and of the deals on the way,
summed over the cards of both classes), the value is
max_x min_y x'Ay; the inner minimum's dual turns it into one program in (x, q):

    maximise q[0]  subject to  F'q - A'x <= 0,  E x = e,  x >= 0,

whose constraint duals are seat 1's equilibrium plan y. Behaviour strategies are plan ratios; an
information set the plan never reaches gets the uniform strategy.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix, hstack

from exactodds.stud.solve.cards_to_come import leaf_values
from exactodds.stud.solve.game import Game, Profile
from exactodds.stud.solve.start import SolveError
from exactodds.stud.solve.tree import NodeKind


@dataclass(frozen=True, kw_only=True)
class LpSolution:
    """The equilibrium profile and seat 0's game value (chips from now)."""

    profile: Profile
    value: float


class _Sequences:
    """One player's sequences and information sets: ``seq[(node, action)]`` is a K x m array of sequence
    ids (one per chance outcome of the node's context and hole-card class), ``parent[node]`` the K x m
    array of sequences leading to the node."""

    def __init__(self) -> None:
        self.count = 1  # sequence 0: the empty sequence
        self.seq: dict[tuple[int, int], np.ndarray] = {}
        self.parent: dict[int, np.ndarray] = {}

    def add(self, node: int, actions: int, parent: np.ndarray) -> None:
        self.parent[node] = parent
        for a in range(actions):
            self.seq[(node, a)] = np.arange(self.count, self.count + parent.size).reshape(parent.shape)
            self.count += parent.size


def solve_lp(game: Game) -> LpSolution:
    """The exact equilibrium of a game (the last round, or a small position of an earlier round)."""
    tree, n = game.tree, game.classes.count
    seqs = (_Sequences(), _Sequences())
    leaves: list[tuple[int, np.ndarray, np.ndarray]] = []

    def visit(node_id: int, last: tuple[np.ndarray, np.ndarray]) -> None:
        node = tree.nodes[node_id]
        if node.kind is NodeKind.CHANCE:
            for child in node.children:
                if child >= 0:
                    rows = game.contexts[tree.nodes[child].ctx].parent_row
                    visit(child, (last[0][rows], last[1][rows]))
            return
        if node.kind is not NodeKind.DECISION:
            leaves.append((node_id, last[0], last[1]))
            return
        p = node.player
        seqs[p].add(node_id, len(node.actions), last[p])
        for a, child in enumerate(node.children):
            after = (seqs[0].seq[(node_id, a)], last[1]) if p == 0 else (last[0], seqs[1].seq[(node_id, a)])
            visit(child, after)

    empty = np.zeros((1, n), dtype=np.int64)
    visit(0, (empty, empty))
    w0, w1 = game.weights
    paths = _deal_weights(game)
    rows_, cols, vals = [], [], []
    for node_id, s0, s1 in leaves:
        ctx = tree.nodes[node_id].ctx
        payoff = _pair_payoffs(game, node_id)  # K x m x m
        weight = (w0 * game.classes.size)[None, :, None] * w1[None, None, :] * payoff \
            * paths[ctx][:, :, None] / game.norm
        k, r, c = np.nonzero(weight)
        rows_.append(s0[k, r])
        cols.append(s1[k, c])
        vals.append(weight[k, r, c])
    a_matrix = coo_matrix((np.concatenate(vals), (np.concatenate(rows_), np.concatenate(cols))),
                          shape=(seqs[0].count, seqs[1].count)).tocsr()
    e_matrix = _constraints(seqs[0])
    f_matrix = _constraints(seqs[1])
    nx, nq = seqs[0].count, f_matrix.shape[0]
    # variables [x, q]: minimise -q[0]
    cost = np.zeros(nx + nq)
    cost[nx] = -1.0
    upper = hstack([-a_matrix.T, f_matrix.T]).tocsr()
    equal = hstack([e_matrix, coo_matrix((e_matrix.shape[0], nq))]).tocsr()
    rhs = np.zeros(e_matrix.shape[0])
    rhs[0] = 1.0
    bounds = [(0, None)] * nx + [(None, None)] * nq
    res = linprog(cost, A_ub=upper, b_ub=np.zeros(upper.shape[0]), A_eq=equal, b_eq=rhs, bounds=bounds,
                  method="highs")
    if res.status != 0:  # pragma: no cover - a finite zero-sum game always has a value
        raise SolveError(f"the linear program failed: {res.message}")
    x = res.x[:nx]
    y = -res.ineqlin.marginals
    strategy = {}
    for p, plan in ((0, x), (1, y)):
        for node_id in seqs[p].parent:
            actions = len(tree.nodes[node_id].actions)
            mass = np.stack([np.maximum(plan[seqs[p].seq[(node_id, a)]], 0.0) for a in range(actions)],
                            axis=-1)
            total = mass.sum(axis=-1, keepdims=True)
            probs = np.where(total > 1e-12, mass / np.where(total > 1e-12, total, 1.0), 1.0 / actions)
            strategy[node_id] = probs
    return LpSolution(profile=Profile(strategy=strategy), value=-float(res.fun))


def _deal_weights(game: Game) -> list[np.ndarray]:
    """For each context, K x m: the weight of each outcome's deals for a player holding one card of each
    class (the deals avoiding it at every layer since the root, times each layer's chance of one deal)."""
    out: list[np.ndarray] = []
    for context in game.contexts:
        if context.parent < 0:
            out.append(np.ones_like(context.mult))
        else:
            out.append(out[context.parent][context.parent_row] * context.mult * context.chance)
    return out


def _pair_payoffs(game: Game, node_id: int) -> np.ndarray:
    """Seat 0's chips (K x m x m) at a leaf for a card of class x against all the cards of class y that
    each outcome leaves and that are not x's own card (one less when y is x)."""
    n = game.classes.count
    node = game.tree.nodes[node_id]
    index = game.showdown.get((node.ctx, 0))
    avail = game.contexts[node.ctx].avail
    out = np.empty((len(avail), n, n))
    for m in range(n):
        reach = np.zeros_like(avail)
        reach[:, m] = 1.0
        out[:, :, m] = leaf_values(node, 0, reach, index, avail)
    return out


def _constraints(seqs: _Sequences) -> coo_matrix:
    """The plan constraints: row 0 fixes the empty sequence to 1; then one row per information set."""
    rows, cols, vals = [0], [0], [1.0]
    row = 1
    for node_id, parent in seqs.parent.items():
        actions = [k for (nid, k) in seqs.seq if nid == node_id]
        for index in np.ndindex(parent.shape):
            rows.append(row)
            cols.append(int(parent[index]))
            vals.append(-1.0)
            for a in actions:
                rows.append(row)
                cols.append(int(seqs.seq[(node_id, a)][index]))
                vals.append(1.0)
            row += 1
    return coo_matrix((vals, (rows, cols)), shape=(row, seqs.count))
