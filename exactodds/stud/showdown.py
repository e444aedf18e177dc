"""Settling a finished five-card stud hand: the pots, the showdown order, the winners of each pot
and the finishing stacks (:class:`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from exactodds.handrank import evaluate
from exactodds.stud.pots import Pot, award, build_pots, payoffs

if TYPE_CHECKING:
    from exactodds.stud.state import StudHand


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """How a finished hand was settled."""

    pots: tuple[Pot, ...]
    returned: tuple[int, ...]
    winners: tuple[dict[int, int], ...]
    strengths: dict[int, int]
    showdown_order: tuple[int, ...]
    finishing_stacks: tuple[int, ...]
    payoffs: tuple[int, ...]


def settle_hand(hand: StudHand, *, showdown: bool) -> Outcome:
    """The outcome of ``hand`` settled now: by showdown of the players still in (in showing order,
    from the last aggressor of the last betting round, or the first opener), or to the one left."""
    live = hand.in_hand
    pots, returned = build_pots(contributions=hand.contributed, folded=hand.folded)
    strengths: dict[int, int] = {}
    order: tuple[int, ...] = ()
    if showdown:
        strengths = {i: evaluate(hand.cards_of(i)) for i in live}
        first = hand.show_first if hand.show_first is not None else hand.openers[0]
        order = tuple(q for k in range(hand.n) if not hand.folded[q := (first + k) % hand.n])
    winners = award(pots, strengths)
    finishing = [s + back for s, back in zip(hand.stacks, returned, strict=True)]
    for share in winners.values():
        for q, chips in share.items():
            finishing[q] += chips
    return Outcome(
        pots=pots, returned=returned, winners=tuple(winners[k] for k in range(len(pots))),
        strengths=strengths, showdown_order=order, finishing_stacks=tuple(finishing),
        payoffs=payoffs(starting_stacks=hand.starting_stacks, finishing_stacks=finishing),
    )
