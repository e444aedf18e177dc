"""The public tree of the solve: every betting sequence the real engine allows from the root, with the
deal of the last up cards as a chance node when the solve starts on the third round.

The tree is built by driving :class:`~exactodds.stud.engine.state.StudHand` itself (a copy per action:
``legal()``, ``act()``), so bet sizes, unlimited heads-up raises bounded by the stacks, all-in for
less and reopening, who acts first and the uncalled chips returned are the engine's, with no second
copy of the rules. The round after the chance node is built once per opener (seat 0 or seat 1
showing the stronger up cards): the betting does not depend on anything else about the cards dealt.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

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
    """One public state. ``ctx`` is 0 before the chance node and 1 + the opener's seat after it.

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


def build_tree(spec: RootSpec, *, representatives: Sequence[tuple[int, int] | None] = ()) -> PublicTree:
    """The public tree from ``spec``'s root; ``representatives[g]`` is one pair of last up cards (seat
    order) after which seat ``g`` acts first (None when no deal makes seat ``g`` the opener)."""
    avoid = [c for rep in representatives if rep is not None for c in rep]
    hand = root_hand(spec, holes=free_cards(spec, avoid=avoid))
    base = tuple(hand.contributed)
    before = (hand.round_bets[0], hand.round_bets[1])  # this round's bets so far
    pot_now = spec.pot + sum(before)
    assert hand.actor is not None
    tree = PublicTree(nodes=[], pot=pot_now, actor=hand.actor, round_index=spec.round_index,
                      root_added=(before[0], before[1]), index={})
    _walk(tree, hand, ctx=0, path=(), base=base, reps=representatives)
    return tree


def _walk(tree: PublicTree, hand: StudHand, *, ctx: int, path: tuple[str, ...], base: tuple[int, ...],
          reps: Sequence[tuple[int, int] | None]) -> int:
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
        for group, rep in enumerate(reps):
            if rep is None:
                node.children.append(-1)
                continue
            dealt = copy_hand(hand)
            for seat in list(dealt.deal_due):
                dealt.deal(seat, [rep[seat]])
            node.children.append(_walk(tree, dealt, ctx=1 + group, path=path + (DEAL,), base=base, reps=reps))
        return node_id
    legal = hand.legal()
    node.player = legal.player
    node.to_call = legal.call or 0
    actions = legal.actions()
    node.actions = tuple(a.text() for a in actions)
    for action in actions:
        child = copy_hand(hand)
        child.act(action)
        node.children.append(_walk(tree, child, ctx=ctx, path=path + (action.text(),), base=base, reps=reps))
    return node_id
