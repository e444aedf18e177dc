"""The public tree of the solve: every betting sequence the real engine allows from the root, with each
deal of up cards still to come (the third and fourth from the second round, the fourth from the third)
as a chance node.

The tree is built by driving :class:`~exactodds.stud.engine.state.StudHand` itself (a copy per action:
``legal()``, ``act()``), so bet sizes, unlimited heads-up raises bounded by the stacks, all-in for
less and reopening, who acts first and the uncalled chips returned are the engine's, with no second
copy of the rules. The round after a chance node is built once per opener (seat 0 or seat 1 showing
the stronger up cards), with representative cards of its context: the betting does not depend on
anything else about the cards dealt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.solve.start import RootSpec, copy_hand, free_cards, root_hand

DEAL = "deal"  # the path step of the chance node (the last up cards)


class NodeKind(StrEnum):
    """What a node of the public tree is."""

    DECISION = "decision"
    FOLD = "fold"
    SHOWDOWN = "showdown"
    CHANCE = "chance"


@dataclass(kw_only=True)
class Node:
    """One public state. ``ctx`` is its context (:mod:`exactodds.stud.solve.cards_to_come`): 0 before
    any deal, then one per deal so far and opener of each round since.

    A decision holds ``to_call`` (the chips its player must add to call; 0: nothing to call). Terminals
    hold ``added`` (chips each player put in from the root, uncalled chips returned),
    ``final_pot`` (the pot at the end) and, for a fold, ``winner``."""

    kind: NodeKind
    ctx: int
    path: tuple[str, ...]
    player: int = -1
    to_call: int = 0
    actions: tuple[str, ...] = ()
    children: list[int] = field(default_factory=list)
    winner: int = -1
    added: tuple[int, int] = (0, 0)
    final_pot: int = 0


@dataclass(kw_only=True)
class PublicTree:
    """The nodes (root first), the pot now (at the root), the player to act, and node lookup by
    ``(ctx, path)``."""

    nodes: list[Node]
    pot: int
    actor: int
    round_index: int
    root_added: tuple[int, int]
    index: dict[tuple[int, tuple[str, ...]], int]

    def decisions(self, player: int | None = None) -> list[int]:
        """Ids of the decision nodes (of one player when given), in tree order."""
        return [i for i, n in enumerate(self.nodes)
                if n.kind is NodeKind.DECISION and (player is None or n.player == player)]


Deals = Mapping[int, Sequence[tuple[int, tuple[int, ...] | None]]]


def build_tree(spec: RootSpec, *, deals: Deals | None = None) -> PublicTree:
    """The public tree from ``spec``'s root. ``deals[ctx]`` lists, for a chance node in context ``ctx``,
    its child contexts in order and for each one deal leading there from the root (every layer's up
    cards, seat 0's card then seat 1's; None when the context holds no deal: that child is -1)."""
    deals = deals or {}
    avoid = [c for children in deals.values() for _, rep in children if rep is not None for c in rep]
    holes = free_cards(spec, avoid=avoid)
    hand = root_hand(spec, holes=holes)
    base = tuple(hand.contributed)
    before = (hand.round_bets[0], hand.round_bets[1])  # this round's bets so far
    pot_now = spec.pot + sum(before)
    assert hand.actor is not None
    tree = PublicTree(nodes=[], pot=pot_now, actor=hand.actor, round_index=spec.round_index,
                      root_added=(before[0], before[1]), index={})
    _walk(tree, hand, ctx=0, path=(), base=base, build=_Build(spec=spec, holes=holes, deals=deals))
    return tree


@dataclass(frozen=True)
class _Build:
    spec: RootSpec
    holes: tuple[int, int]
    deals: Deals

    def dealt(self, path: tuple[str, ...], cards: tuple[int, ...]) -> StudHand:
        """The root hand played along ``path`` (actions and deals), each deal from ``cards`` in turn."""
        hand = root_hand(self.spec, holes=self.holes)
        layer = 0
        for step in path + (DEAL,):
            if step == DEAL:
                for seat in list(hand.deal_due):
                    hand.deal(seat, [cards[2 * layer + seat]])
                layer += 1
            else:
                assert hand.actor is not None
                hand.act(Action.parse(hand.actor, step))
        return hand


def _walk(tree: PublicTree, hand: StudHand, *, ctx: int, path: tuple[str, ...], base: tuple[int, ...],
          build: _Build) -> int:
    node_id = len(tree.nodes)
    node = Node(kind=NodeKind.DECISION, ctx=ctx, path=path)
    tree.nodes.append(node)
    tree.index[(ctx, path)] = node_id
    if hand.phase is Phase.DONE:
        assert hand.outcome is not None
        added = [hand.contributed[i] - hand.outcome.returned[i] - base[i] for i in range(2)]
        node.added = (added[0], added[1])
        node.final_pot = tree.pot + added[0] + added[1]
        if any(hand.folded):
            node.kind, node.winner = NodeKind.FOLD, hand.in_hand[0]
        else:
            node.kind = NodeKind.SHOWDOWN
        return node_id
    if hand.phase is Phase.DEAL:
        node.kind = NodeKind.CHANCE
        for child_ctx, rep in build.deals.get(ctx, ()):
            if rep is None:
                node.children.append(-1)
                continue
            dealt = build.dealt(path, rep)  # played again with this context's cards for every deal so far
            node.children.append(_walk(tree, dealt, ctx=child_ctx, path=path + (DEAL,), base=base,
                                       build=build))
        return node_id
    legal = hand.legal()
    node.player = legal.player
    node.to_call = legal.call or 0
    actions = legal.actions()
    node.actions = tuple(a.text() for a in actions)
    for action in actions:
        child = copy_hand(hand)
        child.act(action)
        node.children.append(_walk(tree, child, ctx=ctx, path=path + (action.text(),), base=base,
                                   build=build))
    return node_id
