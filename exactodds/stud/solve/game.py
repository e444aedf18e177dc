"""Everything the solvers read: the public tree, the classes of interchangeable cards, the contexts of
chance outcomes with their showdown indexes, both ranges and the normalisers of the chance and range
weights; and what they write, a strategy profile over that game (:class:`Profile`).

Every array indexed by hole card is indexed by card *class* (m classes of
:mod:`exactodds.stud.solve.card_classes`, each card of a class playing alike); a range weight or a
reach is per card, and the class sizes count the cards.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from exactodds.cards import format_card
from exactodds.stud.solve.card_classes import CardClasses, card_classes, singletons, unseen_cards
from exactodds.stud.solve.cards_to_come import Context, ShowdownIndex, contexts_of, representative
from exactodds.stud.solve.ranges import RangeError
from exactodds.stud.solve.start import RootSpec, SolveError, check_spec
from exactodds.stud.solve.tree import NodeKind, PublicTree, build_tree


@dataclass(frozen=True, kw_only=True)
class Game:
    """A heads-up solve: ``classes`` (the N unseen cards a hole card can be, in m classes),
    ``weights`` (each player's range weight of one card of each class; over all N cards they sum
    to 1), ``contexts`` (0 = before any deal, then one per deal so far and opener: see
    :func:`~exactodds.stud.solve.cards_to_come.contexts_of`) and ``norm`` (the probability that two
    independent draws from the ranges are distinct cards)."""

    spec: RootSpec
    tree: PublicTree
    classes: CardClasses
    weights: tuple[np.ndarray, np.ndarray]
    contexts: tuple[Context, ...]
    showdown: dict[tuple[int, int], ShowdownIndex]
    norm: float
    memo: dict[tuple[str, int], Any] = field(default_factory=dict, compare=False, repr=False)
    """Layouts worked out once per game (the compiled walks' flat arrays), by (kind, root node)."""

    def trunk_deals(self) -> list[int]:
        """The deals of up cards reached from the root without passing another deal (tree order)."""
        out, todo = [], [0]
        while todo:
            node = self.tree.nodes[todo.pop()]
            for child in node.children:
                if child < 0:
                    continue
                if self.tree.nodes[child].kind is NodeKind.CHANCE:
                    out.append(child)
                else:
                    todo.append(child)
        return sorted(out)

    @property
    def unseen(self) -> np.ndarray:
        """The N unseen cards (sorted)."""
        return self.classes.unseen

    def value(self, player: int, values: np.ndarray) -> float:
        """Player ``player``'s expected chips from counterfactual values (1 x m) at the root."""
        return float((self.weights[player] * self.classes.size) @ values[0]) / self.norm

    def card_weights(self, player: int) -> np.ndarray:
        """Player ``player``'s range weight of each of the N unseen cards."""
        out: np.ndarray = self.weights[player][self.classes.of]
        return out


def check_a_deal_exists(w0: np.ndarray, w1: np.ndarray, *, unseen: np.ndarray) -> float:
    """The probability that two independent draws from the ranges ``w0``, ``w1`` (weights over
    ``unseen``, each summing to 1) are distinct cards; RangeError when it is 0: no deal exists."""
    norm = float(w0.sum() * w1.sum() - w0 @ w1)
    if norm <= 0:
        only = format_card(int(unseen[int(np.argmax(w0))]))
        raise RangeError(f"the ranges leave no deal: both players' hole card can only be {only} (a single "
                         "card, the same for both); give a range another card with a positive weight")
    return norm


def build_game(spec: RootSpec, *, dead: Sequence[int], weights: tuple[np.ndarray, np.ndarray],
               reduce: bool = True, keep_apart: np.ndarray | None = None) -> Game:
    """The game of ``spec`` with ranges ``weights`` over :func:`unseen_cards` (in that order), on classes
    of interchangeable cards (``reduce=False``: one class per card, the card-level game); cards with
    different labels in ``keep_apart`` (one per unseen card) are never put in one class."""
    check_spec(spec)
    unseen = unseen_cards(spec.up, dead)
    needed = 2 + 2 * (4 - len(spec.up[0]))  # both hole cards and every up card to come
    if len(unseen) < needed:
        raise SolveError(f"only {len(unseen)} cards are unseen: both hole cards and the up cards to come "
                         f"need {needed} (fewer dead cards, please)")
    w0, w1 = (np.asarray(w, dtype=np.float64) for w in weights)
    norm = check_a_deal_exists(w0, w1, unseen=unseen)
    signals = (w0, w1) if keep_apart is None else (w0, w1, np.asarray(keep_apart, dtype=np.float64))
    classes = card_classes(up=spec.up, dead=dead, weights=signals) if reduce else singletons(unseen)
    first = np.array([int(np.nonzero(classes.of == k)[0][0]) for k in range(classes.count)], dtype=np.int64)
    contexts = contexts_of(spec.up, classes)
    deals: dict[int, list[tuple[int, tuple[int, ...] | None]]] = {}
    for index, context in enumerate(contexts[1:], 1):
        deals.setdefault(context.parent, []).append((index, representative(context)))
    tree = build_tree(spec, deals=deals)
    used = {node.ctx for node in tree.nodes if node.kind is NodeKind.SHOWDOWN}
    showdown = {(ctx, p): ShowdownIndex.build(contexts[ctx], p) for ctx in used for p in range(2)}
    return Game(spec=spec, tree=tree, classes=classes, weights=(w0[first], w1[first]), contexts=contexts,
                showdown=showdown, norm=norm)


@dataclass(frozen=True, kw_only=True)
class Profile:
    """A strategy profile over the public tree: ``strategy[node]`` is, at each decision node, for each
    chance outcome of its context and each class of hole cards, a probability for each legal action
    (a K x m x A array whose last axis sums to 1). ``laid_out``: the same strategies (or average-strategy
    sums) as the compiled walks of a second-round solve's sections read them, by the section's root
    (:class:`~exactodds.stud.solve.third_round.SectionStrategy`), when the profile has them so."""

    strategy: Mapping[int, np.ndarray]
    laid_out: Mapping[int, Any] = field(default_factory=dict)


class Normalised(Mapping[int, np.ndarray]):
    """Average-strategy sums by node, read as probabilities (each row normalised when it is read: a
    second-round solve's profile is too large to copy whole)."""

    def __init__(self, sums: Mapping[int, np.ndarray]) -> None:
        self._sums = sums

    def __getitem__(self, node: int) -> np.ndarray:
        return normalised(np.asarray(self._sums[node], dtype=np.float64))

    def __iter__(self) -> Iterator[int]:
        return iter(self._sums)

    def __len__(self) -> int:
        return len(self._sums)


def uniform_profile(game: Game) -> Profile:
    """Every legal action equally likely everywhere."""
    out = {}
    for i in game.tree.decisions():
        node = game.tree.nodes[i]
        k = game.contexts[node.ctx].size
        out[i] = np.full((k, game.classes.count, len(node.actions)), 1.0 / len(node.actions))
    return Profile(strategy=out)


def normalised(sums: np.ndarray) -> np.ndarray:
    """Rows of non-negative sums as probabilities (uniform where a row sums to 0)."""
    total = sums.sum(axis=-1, keepdims=True)
    out: np.ndarray = np.where(total > 0, sums / np.where(total > 0, total, 1.0), 1.0 / sums.shape[-1])
    return out
