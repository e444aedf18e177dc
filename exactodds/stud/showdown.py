"""Settling a finished five-card stud hand from its chips: the pots, the winners of each pot and
the finishing stacks (:class:`Outcome`); the hand supplies the strengths and the showing order."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from exactodds.stud.pots import Pot, award, build_pots, payoffs


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


def settle(*, contributed: Sequence[int], folded: Sequence[bool], stacks: Sequence[int],
           starting_stacks: Sequence[int], strengths: dict[int, int],
           showdown_order: tuple[int, ...]) -> Outcome:
    """The outcome of a hand settled now from its chips: the pots of ``contributed`` (the folded
    players' chips dead), each won by the strongest of ``strengths`` among its players (the one
    left in when there was no showdown), added to the ``stacks`` behind with the uncalled excess."""
    pots, returned = build_pots(contributions=contributed, folded=folded)
    winners = award(pots, strengths)
    finishing = [s + back for s, back in zip(stacks, returned, strict=True)]
    for share in winners.values():
        for q, chips in share.items():
            finishing[q] += chips
    return Outcome(
        pots=pots, returned=returned, winners=tuple(winners[k] for k in range(len(pots))),
        strengths=strengths, showdown_order=showdown_order, finishing_stacks=tuple(finishing),
        payoffs=payoffs(starting_stacks=starting_stacks, finishing_stacks=finishing),
    )
