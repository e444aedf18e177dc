"""The hand as one player sees it: the cards that player has seen, and the hand replayed with every
other hole card replaced by a placeholder that no one can see (so a view never carries a hidden card).

>>> from exactodds.cards import format_cards, parse_cards
>>> from exactodds.stud.engine.actions import Action
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> view = player_view(hand, 0)
>>> format_cards(view.cards_of(0)), view.down[1] != hand.down[1]
('Kh 9c', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from exactodds.cards import DECK_SIZE
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand


@dataclass(frozen=True, kw_only=True)
class Deal:
    """One card dealt face up to a player (a step of a walk beyond the hand's history)."""

    player: int
    card: int


Step = Action | Deal


def seen_cards(hand: StudHand, player: int) -> frozenset[int]:
    """The cards ``player`` has seen: its own hole card and every up card (folded hands' included)."""
    down = hand.down[player]
    ups = frozenset(c for q in range(hand.n) for c in hand.up[q])
    return ups | frozenset(() if down is None else (down,))


def replay(hand: StudHand, player: int, view: StudHand, stand_in: Mapping[int, int]) -> Iterator[Action]:
    """Replay ``hand`` onto the fresh ``view`` with the other hole cards replaced by ``stand_in``;
    yields each action just before the view takes it."""
    for event in hand.events:
        if event.kind == "deal":
            cards = event.cards
            if event.round_index == 0 and event.player != player:
                cards = (stand_in[event.player], cards[1])
            view.deal(event.player, cards)
            continue
        amount = event.amount if event.kind == "cbr" else None
        action = Action(player=event.player, kind=event.kind, amount=amount)
        yield action
        view.act(action)


def stand_ins(hand: StudHand, player: int, taken: Iterable[int]) -> dict[int, int]:
    """A placeholder hole card for every other player: cards ``player`` has not seen, nor ``taken``."""
    busy = set(seen_cards(hand, player)) | set(taken)
    free = iter(c for c in range(DECK_SIZE) if c not in busy)
    return {q: next(free) for q in range(hand.n) if q != player}


def player_view(hand: StudHand, player: int, *, steps: Sequence[Step] = (),
                avoid: Iterable[int] = (), holes: Mapping[int, int] | None = None) -> StudHand:
    """The hand replayed as ``player`` sees it, then ``steps`` applied; the other players' hole cards
    are placeholders avoiding every card seen, the cards of ``steps`` and ``avoid`` (or, given
    ``holes``, these cards: other player -> hole card)."""
    taken = {s.card for s in steps if isinstance(s, Deal)} | set(avoid)
    view = StudHand(stacks=hand.starting_stacks, profile=hand.profile)
    stand_in = dict(holes) if holes is not None else stand_ins(hand, player, taken)
    for _ in replay(hand, player, view, stand_in):
        pass
    for step in steps:
        if isinstance(step, Deal):
            view.deal(step.player, (step.card,))
        else:
            view.act(step)
    return view


def deal_view(view: StudHand, player: int, ups: Mapping[int, Sequence[int]]) -> StudHand:
    """A copy of ``view`` (the hand as ``player`` sees it, at a deal) holding the up cards ``ups``
    (player -> every up card, the new one last for the players owed one) with the new cards dealt.

    A walk shares one view among many runs of cards that open the round alike; the view's earlier up
    cards are those of whichever run made it, so they are replaced by this run's first. Placeholder
    hole cards that clash with them move to free cards."""
    child = view.copy()
    due = set(child.deal_due)
    for q in range(child.n):
        child.up[q] = list(ups[q][:-1]) if q in due else list(ups[q])
    incoming = {ups[q][-1] for q in due}
    shown = {c for q in range(child.n) for c in child.up[q]}
    hole = view.down[player]
    child.used = shown | ({hole} if hole is not None else set())
    for q in range(child.n):
        down = child.down[q]
        if q == player or down is None:
            continue
        if down in child.used or down in incoming:
            down = next(c for c in range(DECK_SIZE) if c not in child.used and c not in incoming)
            child.down[q] = down
        child.used.add(down)
    for q in sorted(due):
        child.deal(q, (ups[q][-1],))
    return child


def node_hole(hand: StudHand, player: int) -> int:
    """The player's own hole card (dealt: the player is at a decision)."""
    down = hand.down[player]
    assert down is not None
    return down
