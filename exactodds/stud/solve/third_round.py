"""The third round of a second-round solve laid out for the compiled walks, one *section* below each
deal of the third up cards.

A section is the third round's betting after that deal (its decisions, folds and the deals of the
fourth up cards, which are nodes of kind 3 here) as flat arrays in tree order, and every last-round
subtree below those deals, concatenated into one more set of flat arrays. Its chance outcomes are the
rows of its context (every deal of the third up cards after which the same seat opens: K3 rows) and
the rows of the two contexts below (every deal of the fourth up cards after one of those, by who opens
the last round), end to end. The compiled walks (:mod:`exactodds.stud.solve.kernels.section_walk`) go
one deal of the third up cards at a time and, at each deal of the fourth, through its rows.

Storage: the third round's regrets and average strategy are K3 x m x A3 arrays (the actions of all its
decisions end to end); each last-round subtree holds its actions x its rows x m (action by action, so
that the compiled walk runs over rows and classes end to end), all of them end to end in one flat
array. They are float32: a second-round solve holds some 10^8 information sets.
:func:`solve_cost` says what a solve's layouts hold and how much work a walk is, before anything is
allocated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from exactodds.stud.solve.game import Game
from exactodds.stud.solve.last_round import (
    KIND_CODES,
    Outcomes,
    Subtree,
    flat_subtree,
    last_round,
    outcomes_of,
    subtree_nodes,
)
from exactodds.stud.solve.tree import NodeKind

STORAGE = np.float32  # regrets and average strategies of a section


class Section(NamedTuple):
    """``third``: the third round's M3 nodes (a deal of the fourth up cards has kind 3); ``deals`` (M3 x 2):
    at such a deal, the last-round subtree below it for each opener of the last round (-1: none);
    ``last``: every last-round subtree, concatenated (``first`` and ``children`` index the concatenation;
    ``offset`` is each decision's action offset within its own subtree); for subtree s, ``start[s]`` and
    ``stop[s]`` its nodes in ``last``, ``width[s]`` its actions end to end, ``store[s]`` where its
    storage starts in the flat array and ``group[s]`` the context of its rows (0 or 1)."""

    third: Subtree
    deals: np.ndarray
    last: Subtree
    start: np.ndarray
    stop: np.ndarray
    width: np.ndarray
    store: np.ndarray
    group: np.ndarray


class DealWeights(NamedTuple):
    """The deals of the fourth up cards in a section: ``mult`` (K4 x m, the rows of both contexts end to
    end: deals of the row that avoid one card of the class), ``span`` (2 x K3 x 2: for each context and
    each deal of the third up cards, its first and past-last row), ``base`` (2: each context's first row)
    and ``chance`` (1: the probability of one deal of two given cards)."""

    mult: np.ndarray
    span: np.ndarray
    base: np.ndarray
    chance: np.ndarray


class SectionWalk(NamedTuple):
    """What the compiled walks of a section read: its flat arrays, the outcomes of its own context (the
    deals of the third up cards), those of the two contexts below (end to end) and their deal weights."""

    section: Section
    third: Outcomes
    last: Outcomes
    deals: DealWeights


class SectionLearner(NamedTuple):
    """What one CFR walk of a section reads and updates: both players' reach per card arriving at the
    deal of the third up cards (m each), the third round's regrets and average (K3 x m x A3) and the last
    rounds' (flat), updated in place, and ``keep`` (kept of a positive and of a negative regret)."""

    r0: np.ndarray
    r1: np.ndarray
    regret3: np.ndarray
    average3: np.ndarray
    regret4: np.ndarray
    average4: np.ndarray
    keep: np.ndarray


class SectionStrategy(NamedTuple):
    """A profile over a section as the compiled best response reads it: the third round's (K3 x m x A3)
    and the last rounds' (flat, as the storage), each row of probabilities or of average-strategy sums
    (normalised as read)."""

    third: np.ndarray
    last: np.ndarray


class SectionLayout(NamedTuple):
    """One section: the context of its rows, the global ids of its third-round nodes and of each last-round
    subtree's nodes (tree order), what the compiled walks read, and the size of the last rounds' storage."""

    ctx: int
    third_nodes: tuple[int, ...]
    last_nodes: tuple[tuple[int, ...], ...]
    walk: SectionWalk
    last_size: int

    @property
    def section(self) -> Section:
        """The section's flat arrays."""
        return self.walk.section

    def storage(self) -> tuple[tuple[int, int, int], int]:
        """The third round's storage shape (K3, m, A3) and the size of the last rounds' flat storage."""
        rows, m = self.walk.third.mask.shape
        return (int(rows), int(m), max(self.section.third.width, 1)), self.last_size

    def _rows_of(self, s: int) -> int:
        group = int(self.section.group[s])
        base = self.walk.deals.base
        total = int(self.walk.last.mask.shape[0])
        return int((base[1] if group == 0 else total) - base[group])

    def views(self, flat: np.ndarray, third: np.ndarray) -> dict[int, np.ndarray]:
        """Each decision's K x m x A view into a section's storage (``third``: K3 x m x A3, ``flat``: the
        last rounds'), by global node id."""
        out = {}
        tree3 = self.section.third
        for local, g in enumerate(self.third_nodes):
            if tree3.kind[local] == KIND_CODES[NodeKind.DECISION]:
                part = slice(int(tree3.offset[local]), int(tree3.offset[local] + tree3.actions[local]))
                out[g] = third[:, :, part]
        m = third.shape[1]
        last, section = self.section.last, self.section
        for s, ids in enumerate(self.last_nodes):
            rows, width, store = self._rows_of(s), int(section.width[s]), int(section.store[s])
            block = flat[store:store + rows * m * width].reshape(width, rows, m)  # action by action
            for i, g in enumerate(ids):
                j = int(section.start[s]) + i
                if last.kind[j] == KIND_CODES[NodeKind.DECISION]:
                    actions = block[int(last.offset[j]):int(last.offset[j] + last.actions[j])]
                    out[g] = actions.transpose(1, 2, 0)
        return out


def has_deal_below(game: Game, root: int) -> bool:
    """Whether a deal of up cards happens below node ``root`` (a section's root) or at it."""
    return any(game.tree.nodes[i].kind is NodeKind.CHANCE for i in subtree_nodes(game, root))


def section_layout(game: Game, root: int) -> SectionLayout:
    """The section below the deal of the third up cards at global node ``root`` (its first node)."""
    ctx = game.tree.nodes[root].ctx
    third_ids = subtree_nodes(game, root, through_deals=False)
    third = flat_subtree(game, third_ids)
    below = [i for i, c in enumerate(game.contexts) if c.parent == ctx]
    deals = np.full((len(third_ids), 2), -1, dtype=np.int64)
    subtrees: list[tuple[int, ...]] = []
    for local, g in enumerate(third_ids):
        node = game.tree.nodes[g]
        if node.kind is not NodeKind.CHANCE:
            continue
        for child in node.children:
            if child >= 0:
                deals[local, below.index(game.tree.nodes[child].ctx)] = len(subtrees)
                subtrees.append(tuple(subtree_nodes(game, child)))
    last, start, stop, width, group = _concatenated(game, subtrees, below)
    parts = [outcomes_of(game, c) for c in below]
    last_outcomes = Outcomes(*(np.ascontiguousarray(np.concatenate([getattr(o, f) for o in parts], axis=axis))
                               for f, axis in zip(Outcomes._fields, (1, 1, 1, 1, 0, 0), strict=True)))
    sizes = [game.contexts[c].size for c in below]
    base = np.array([0, sizes[0]], dtype=np.int64)
    rows = game.contexts[ctx].size
    span = np.stack([game.contexts[c].parent_rows(rows).T + base[g] for g, c in enumerate(below)])
    weights = DealWeights(mult=np.ascontiguousarray(np.concatenate([game.contexts[c].mult for c in below])),
                          span=np.ascontiguousarray(span.astype(np.int64)), base=base,
                          chance=np.array([game.contexts[below[0]].chance]))
    m = game.classes.count
    store = np.zeros(len(subtrees), dtype=np.int64)
    total = 0
    for s in range(len(subtrees)):
        store[s] = total
        total += sizes[int(group[s])] * m * int(width[s])
    section = Section(third=third, deals=deals, last=last, start=start, stop=stop, width=width, store=store,
                      group=group)
    walk = SectionWalk(section=section, third=outcomes_of(game, ctx), last=last_outcomes, deals=weights)
    return SectionLayout(ctx=ctx, third_nodes=tuple(third_ids), last_nodes=tuple(subtrees), walk=walk,
                         last_size=total)


def section_of(game: Game, root: int) -> SectionLayout:
    """:func:`section_layout`, worked out once per game."""
    key = ("section", root)
    if key not in game.memo:
        game.memo[key] = section_layout(game, root)
    out: SectionLayout = game.memo[key]
    return out


def _concatenated(game: Game, subtrees: list[tuple[int, ...]],
                  below: list[int]) -> tuple[Subtree, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every last-round subtree's flat arrays end to end (child indices moved to the concatenation), and
    each one's start, stop, width and context group."""
    assert subtrees, "a third round ends in a deal of the fourth up cards on some line"
    parts = [flat_subtree(game, list(ids)) for ids in subtrees]
    sizes = np.array([len(ids) for ids in subtrees], dtype=np.int64)
    start = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(np.int64)
    links = np.array([len(part.children) for part in parts], dtype=np.int64)
    children_before = np.concatenate([[0], np.cumsum(links)[:-1]]).astype(np.int64)
    width = np.array([part.width for part in parts], dtype=np.int64)
    group = np.array([below.index(game.tree.nodes[ids[0]].ctx) for ids in subtrees], dtype=np.int64)

    def joined(field: str) -> np.ndarray:
        return np.concatenate([getattr(part, field) for part in parts])

    last = Subtree(kind=joined("kind"), player=joined("player"),
                   first=np.concatenate([part.first + children_before[s] for s, part in enumerate(parts)]),
                   actions=joined("actions"), offset=joined("offset"),
                   children=np.concatenate([part.children + start[s] for s, part in enumerate(parts)]),
                   added=joined("added"), final_pot=joined("final_pot"), winner=joined("winner"),
                   share=joined("share"), width=int(width.max()))
    return last, start, start + sizes, width, group


NS_PER_CELL = 5.0  # CPU nanoseconds per (node, deal, class) of one walk, measured on the 2-core machine


@dataclass(frozen=True, kw_only=True)
class SolveCost:
    """What one CFR+ solve of a game holds and does: ``bytes`` of regrets and averages, ``cells`` (public
    node, deal and class triples) one walk visits. :meth:`seconds_per_iteration` is an estimate."""

    bytes: int
    cells: int

    def seconds_per_iteration(self) -> float:
        """About how many CPU seconds one iteration takes (two walks; a check costs about as much)."""
        return 2 * self.cells * NS_PER_CELL * 1e-9


def solve_cost(game: Game) -> SolveCost:
    """The storage and the work per walk of a CFR+ solve of ``game``, from its layouts (nothing is
    allocated): a second-round solve's sections store float32, the rest float64."""
    size, cells = 0, 0
    tree, m = game.tree, game.classes.count
    laid: set[int] = set()
    for deal in game.trunk_deals():
        for child in tree.nodes[deal].children:
            if child < 0:
                continue
            if has_deal_below(game, child):
                section = section_of(game, child)
                shape3, size4 = section.storage()
                size += 2 * np.dtype(STORAGE).itemsize * (int(np.prod(shape3)) + size4)
                ids = [*section.third_nodes, *(i for nodes in section.last_nodes for i in nodes)]
            else:
                layout = last_round(game, child)
                size += 2 * 8 * layout.mask.shape[0] * m * layout.subtree.width
                ids = list(layout.nodes)
            laid.update(ids)
            cells += sum(game.contexts[tree.nodes[i].ctx].size for i in ids) * m
    for i, node in enumerate(tree.nodes):
        if i not in laid:
            rows = game.contexts[node.ctx].size
            cells += rows * m
            size += 2 * 8 * rows * m * len(node.actions)
    return SolveCost(bytes=size, cells=cells)
