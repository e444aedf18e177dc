"""The cards behind the solve: the deals of the up cards to come (chance outcomes, grouped by who acts
first after them) and each hand's showdown strength, over classes of interchangeable cards
(:mod:`exactodds.stud.solve.card_classes`).

Strengths are the exact integers of the hand-strength table (:mod:`exactodds.handrank`), higher is
stronger. A *context* holds a batch of K chance outcomes (K = 1 at the root): one outcome is a pair of
classes for each deal since the root, the classes of the up cards dealt (seat order), and it stands
for every deal of one card of each. Each outcome has its row in the context one deal up (a deal of
the fourth up cards follows a deal of the third). For each outcome and each class x of m: how many
cards of x the deals leave (``avail``), how many deals of the outcome's last layer avoid one given
card of x (``mult``: the outcome's weight for a player holding it) and, on the last round, each
player's strength with a hole card of x.

Payoffs at the leaves of the public tree (:func:`leaf_values`), vectorised over hole-card classes and
chance outcomes: for player p at a leaf, the counterfactual value of each (outcome k, hole card of
class x) is the sum over the opponent's possible hole cards (every card the outcome leaves, but p's
own) of the opponent's reach times p's chips from the root: the final pot minus p's own chips put in
from the root when p wins, minus those chips when p loses, and p's share of an even split (odd chip to
seat 0, as the engine's :func:`~exactodds.stud.engine.settlement.split_evenly`) on a tie. A reach is
per card: the opponent's class y counts ``avail[k, y]`` cards, less p's own card when it is of class y.
Showdowns compare the exact strengths in O(K m) by sorting the opponent's strengths once per context
(:class:`ShowdownIndex`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.handrank import evaluate_batch
from exactodds.stud.engine.rules import round_opener
from exactodds.stud.engine.settlement import split_evenly
from exactodds.stud.solve.card_classes import CardClasses, visible_codes
from exactodds.stud.solve.tree import Node, NodeKind


@dataclass(frozen=True, kw_only=True)
class Context:
    """K chance outcomes over m card classes, ``layers`` deals of one up card each since the root (0: the
    root context, a single outcome). ``dealt`` (K x 2 layers: one representative card per seat for each
    deal, seat 0 first) and ``dealt_class`` (their classes); ``parent`` (the context one deal up, -1 at
    the root) and ``parent_row`` (K: each outcome's row there); ``opener`` (the seat that opens the round
    after the deal; -1 at the root); ``chance`` (the probability of one deal of two given cards at this
    layer, given both hole cards and the earlier deals); ``avail`` (K x m cards of each class left by
    every deal so far), ``mask`` (K x m, 1.0 where a hole card of the class is still possible), ``mult``
    (K x m: the deals of this layer's outcome that avoid one card of the class; 1.0 at the root) and
    ``strength[p]`` (K x m showdown strengths; None before the last round)."""

    layers: int
    dealt: np.ndarray
    dealt_class: np.ndarray
    parent: int
    parent_row: np.ndarray
    opener: int
    chance: float
    avail: np.ndarray
    mask: np.ndarray
    mult: np.ndarray
    strength: tuple[np.ndarray, np.ndarray] | None

    @property
    def size(self) -> int:
        """K, the number of chance outcomes in the batch."""
        return int(self.mask.shape[0])

    def row_of(self, dealt: Sequence[int], classes: CardClasses) -> int | None:
        """The outcome holding the deal of these up cards (seat 0's and seat 1's card of each deal in
        order: 2 x layers cards), or None."""
        wanted = [classes.class_of(int(c)) for c in dealt]
        if len(wanted) != self.dealt_class.shape[1]:
            return None
        hit = np.nonzero((self.dealt_class == np.array(wanted, dtype=np.int64)[None, :]).all(axis=1))[0]
        return int(hit[0]) if len(hit) else None

    def down(self, reach: np.ndarray) -> np.ndarray:
        """A reach per card of the parent context (parent K x m) carried through the deal: each outcome
        gets its parent row's reach, 0 where the deal leaves no card of the class."""
        out: np.ndarray = reach[self.parent_row] * self.mask
        return out

    def up(self, values: np.ndarray, count: int) -> np.ndarray:
        """Counterfactual values (K x m) of the outcomes summed back to the parent context's ``count`` rows,
        each outcome weighted by its deals avoiding the player's card and the chance of one deal."""
        out = np.zeros((count, values.shape[1]))
        np.add.at(out, self.parent_row, values * self.mult)
        out *= self.chance
        return out

    def parent_rows(self, count: int) -> np.ndarray:
        """For each of the parent context's ``count`` rows, where its outcomes start and end here (2 x count:
        this context's rows are in the order of their parent rows)."""
        lo = np.searchsorted(self.parent_row, np.arange(count), side="left")
        hi = np.searchsorted(self.parent_row, np.arange(count), side="right")
        return np.stack([lo, hi]).astype(np.int64)


def _members(classes: CardClasses) -> np.ndarray:
    """m x S (S >= 2): each class's cards, padded with -1."""
    width = max(2, int(classes.size.max()) if classes.count else 0)
    out = np.full((classes.count, width), -1, dtype=np.int64)
    for k, cards in enumerate(classes.members):
        out[k, :len(cards)] = cards
    return out


def _strengths(holes: np.ndarray, fixed: np.ndarray) -> np.ndarray:
    """K x m strengths of hole card holes[k, x] with the K rows of ``fixed`` four cards (-1: none, 0)."""
    k, m = holes.shape
    hands = np.empty((k, m, 5), dtype=np.int64)
    hands[:, :, 0] = holes
    hands[:, :, 1:] = fixed[:, None, :]
    ok = holes >= 0
    out = np.zeros((k, m), dtype=np.int32)
    if ok.any():
        out[ok] = evaluate_batch(hands[ok]).astype(np.int32)
    return out


def contexts_of(up: Sequence[Sequence[int]], classes: CardClasses) -> tuple[Context, ...]:
    """The contexts of a solve from ``up`` (2, 3 or 4 up cards each): the root, then, for each deal of
    one up card each still to come, one context per (parent context, opener of the round after it), in
    the order of their parents: [root] on the last round, [root, seat 0 opens, seat 1 opens] from the
    third, and from the second [root, two after the third up cards, then two after each of those]."""
    m = classes.count
    size = classes.size.astype(np.float64)[None, :]
    to_come = 4 - len(up[0])
    none = np.zeros((1, 0), dtype=np.int64)
    root = Context(layers=0, dealt=none, dealt_class=none, parent=-1, parent_row=np.zeros(1, dtype=np.int64),
                   opener=-1, chance=1.0, avail=size.copy(), mask=(size > 0).astype(np.float64),
                   mult=np.ones((1, m)), strength=_showdown(up, classes, none) if to_come == 0 else None)
    out = [root]
    frontier = [0]
    for layer in range(to_come):
        grown = []
        for parent in frontier:
            for context in _deal(up, classes, out[parent], parent, final=layer == to_come - 1):
                grown.append(len(out))
                out.append(context)
        frontier = grown
    return tuple(out)


def _deal(up: Sequence[Sequence[int]], classes: CardClasses, parent: Context, index: int, *,
          final: bool) -> tuple[Context, Context]:
    """The two contexts after one more up card each from every outcome of ``parent`` (context ``index``),
    by the seat that opens the next round: every ordered pair of classes the outcome leaves a card of."""
    m = classes.count
    rows, first, second = (g.ravel() for g in np.meshgrid(np.arange(parent.size), np.arange(m), np.arange(m),
                                                          indexing="ij"))
    left = parent.avail
    possible = (left[rows, first] >= 1) & (left[rows, second] >= 1 + (first == second))
    rows, first, second = rows[possible], first[possible], second[possible]
    members = _members(classes)
    card0 = _free_member(members, first, parent.dealt[rows])
    card1 = _free_member(members, second, np.column_stack([parent.dealt[rows], card0]))
    dealt = np.column_stack([parent.dealt[rows], card0, card1])
    classes_dealt = np.column_stack([parent.dealt_class[rows], first, second])
    opener = _openers(up, classes.unseen, dealt)
    n = len(classes.unseen)
    before = 2 * parent.layers  # cards dealt before this layer (both hole cards aside)
    chance = 1.0 / ((n - 2 - before) * (n - 3 - before))
    x = np.arange(m)[None, :]
    out = []
    for seat in range(2):
        pick = opener == seat
        r, i, j = rows[pick], first[pick][:, None], second[pick][:, None]
        avail = (left[r] - (x == i) - (x == j)).astype(np.float64)
        mult = ((left[r, i[:, 0]][:, None] - (x == i)) * (left[r, j[:, 0]][:, None] - (i == j) - (x == j)))
        out.append(Context(layers=parent.layers + 1, dealt=dealt[pick], dealt_class=classes_dealt[pick],
                           parent=index, parent_row=r.astype(np.int64), opener=seat, chance=chance,
                           avail=avail, mask=(avail > 0).astype(np.float64), mult=mult.astype(np.float64),
                           strength=_showdown(up, classes, dealt[pick]) if final else None))
    return out[0], out[1]


def _free_member(members: np.ndarray, cls: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """For each row, the lowest card of class ``cls[row]`` not among ``taken[row]`` (K x t cards)."""
    out = np.full(len(cls), -1, dtype=np.int64)
    for column in range(members.shape[1] - 1, -1, -1):
        card = members[cls, column]
        free = (card >= 0) & ~(taken == card[:, None]).any(axis=1)
        out = np.where(free, card, out)
    return out


def _openers(up: Sequence[Sequence[int]], unseen: np.ndarray, dealt: np.ndarray) -> np.ndarray:
    """The seat that opens the round after the deals of ``dealt`` (K x 2 layers cards), by the visible
    up cards (:func:`~exactodds.stud.engine.rules.round_opener`)."""
    layers = dealt.shape[1] // 2
    index = np.full(52, -1, dtype=np.int64)
    index[unseen] = np.arange(len(unseen))
    if layers == 2:
        codes = visible_codes(up, unseen)
        seat0 = codes[0][index[dealt[:, 0]], index[dealt[:, 2]]]
        ahead = seat0 > codes[1][index[dealt[:, 1]], index[dealt[:, 3]]]
        return np.where(ahead, 0, 1).astype(np.int64)
    round_index = len(up[0])
    return np.array([round_opener(([*up[0], int(a)], [*up[1], int(b)]), (0, 1), round_index=round_index)
                     for a, b in dealt[:, :2]], dtype=np.int64)


def _showdown(up: Sequence[Sequence[int]], classes: CardClasses,
              dealt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each player's showdown strength (K x m) with a hole card of each class, after the deals of
    ``dealt`` (K x 2 layers cards; a hole card of a class the deals leave no card of gets 0)."""
    holes = _hole_cards(_members(classes), dealt)
    k = len(dealt)
    out = []
    for p in range(2):
        mine = np.column_stack([np.tile(np.array(up[p], dtype=np.int64), (k, 1)), dealt[:, p::2]])
        out.append(_strengths(holes, mine))
    return out[0], out[1]


def _hole_cards(members: np.ndarray, dealt: np.ndarray) -> np.ndarray:
    """K x m: for each deal, a card of each class that the deal leaves (-1 when it leaves none)."""
    k = len(dealt)
    out = np.full((k, members.shape[0]), -1, dtype=np.int64)
    for column in range(members.shape[1] - 1, -1, -1):  # the lowest free member wins
        card = members[None, :, column]
        free = (card >= 0) & ~(dealt[:, :, None] == card[:, None, :]).any(axis=1)
        out = np.where(free, card, out)
    return out


def representative(context: Context) -> tuple[int, ...] | None:
    """One deal of the context (every layer's cards, seat order), or None when it holds none."""
    if context.size == 0:
        return None
    return tuple(int(c) for c in context.dealt[0])


@dataclass(frozen=True, kw_only=True)
class ShowdownIndex:
    """Player p's view of one context's showdown: the opponent's strength order over the classes, for
    each of p's classes the number of opponent classes below and at most its strength, and p's
    result against a card of its own class (one such card is p's own, subtracted)."""

    order: np.ndarray
    below: np.ndarray
    at_most: np.ndarray
    self_sign: np.ndarray

    @classmethod
    def build(cls, context: Context, player: int) -> ShowdownIndex:
        assert context.strength is not None, "showdowns happen on the last round only"
        mine, theirs = context.strength[player], context.strength[1 - player]
        k, n = theirs.shape
        order = np.argsort(theirs, axis=1, kind="stable")
        ranked = np.take_along_axis(theirs, order, axis=1).astype(np.int64)
        offset = (np.arange(k, dtype=np.int64) * 10_000)[:, None]
        flat = (ranked + offset).ravel()
        keys = (mine.astype(np.int64) + offset).ravel()
        below = np.searchsorted(flat, keys, side="left").reshape(k, n) - np.arange(k)[:, None] * n
        at_most = np.searchsorted(flat, keys, side="right").reshape(k, n) - np.arange(k)[:, None] * n
        return cls(order=order, below=below, at_most=at_most, self_sign=np.sign(mine - theirs))


def showdown_weights(index: ShowdownIndex, reach: np.ndarray,
                     avail: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(win, tie, lose): the opponent reach player p beats, ties and loses to, per (k, x), given the
    opponent's reach per card (K x m) and the cards of each class left (``avail``, K x m)."""
    ranked = np.take_along_axis(reach * avail, index.order, axis=1)
    cum = np.zeros((reach.shape[0], reach.shape[1] + 1))
    np.cumsum(ranked, axis=1, out=cum[:, 1:])
    below = np.take_along_axis(cum, index.below, axis=1)
    at_most = np.take_along_axis(cum, index.at_most, axis=1)
    win = below - reach * (index.self_sign > 0)
    tie = at_most - below - reach * (index.self_sign == 0)
    lose = cum[:, -1:] - at_most - reach * (index.self_sign < 0)
    return win, tie, lose


def leaf_values(node: Node, player: int, reach: np.ndarray, index: ShowdownIndex | None,
                avail: np.ndarray) -> np.ndarray:
    """Player ``player``'s counterfactual values (K x m) at a leaf, given the opponent's reach per card
    (K x m) and the cards of each class left (``avail``, K x m)."""
    own = node.added[player]
    others = (reach * avail).sum(axis=1, keepdims=True) - reach
    if node.kind is NodeKind.FOLD:
        folded: np.ndarray = (node.final_pot - own if node.winner == player else -own) * others
        return folded
    assert node.kind is NodeKind.SHOWDOWN and index is not None
    win, tie, _ = showdown_weights(index, reach, avail)
    share = split_evenly(node.final_pot, (0, 1))[player]
    out: np.ndarray = win * node.final_pot + tie * share - own * others
    return out
