"""How a finished hand settles: side pots by contribution layers, the odd-chip rule, payoffs, and
:func:`settle` (the pots, their winners and the finishing stacks, as an :class:`Outcome`).

Players are indexed from the dealer's left (index 0 is the first player to the
dealer's left), so "the first tied player to the dealer's left" is the lowest index.

>>> pots, returned = build_pots(contributions=(7, 7), folded=(False, False))
>>> [(p.amount, p.players) for p in pots], returned
([(14, (0, 1))], (0, 0))
>>> split_evenly(7, (2, 0, 1))
{0: 3, 1: 2, 2: 2}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Pot:
    """One main or side pot: its chips and the players (0-based) who may win it."""

    amount: int
    players: tuple[int, ...]


def build_pots(
    *, contributions: Sequence[int], folded: Sequence[bool]
) -> tuple[tuple[Pot, ...], tuple[int, ...]]:
    """Split contributions into layers; return (pots, uncalled excess returned per player).

    Each layer between two distinct contribution levels holds the chips of everyone
    who reached it; the players still in the hand who reached it may win it. A top
    layer that only one player reached is that player's uncalled excess: it is
    returned, not won. Adjacent layers with the same eligible players are merged.
    """
    n = len(contributions)
    returned = [0] * n
    pots: list[Pot] = []
    levels = sorted({c for c in contributions if c > 0})
    previous = 0
    for level in levels:
        reached = [i for i in range(n) if contributions[i] >= level]
        amount = (level - previous) * len(reached)
        eligible = tuple(i for i in reached if not folded[i])
        previous = level
        if len(reached) == 1:
            returned[reached[0]] += amount
            continue
        if not eligible:  # cannot happen: the top contributor is always still in
            raise AssertionError("a pot with no eligible player")
        if pots and pots[-1].players == eligible:
            pots[-1] = Pot(amount=pots[-1].amount + amount, players=eligible)
        else:
            pots.append(Pot(amount=amount, players=eligible))
    return tuple(pots), tuple(returned)


def split_evenly(amount: int, winners: Sequence[int]) -> dict[int, int]:
    """Split chips evenly; the odd chips go one each to the first winners from the dealer's left."""
    order = sorted(winners)
    share, odd = divmod(amount, len(order))
    return {w: share + (1 if k < odd else 0) for k, w in enumerate(order)}


def award(pots: Sequence[Pot], strengths: Mapping[int, int]) -> dict[int, dict[int, int]]:
    """For each pot index, the chips each winner takes (best strength among the pot's players)."""
    result: dict[int, dict[int, int]] = {}
    for k, pot in enumerate(pots):
        live = [p for p in pot.players if p in strengths]
        if len(pot.players) == 1 or not live:
            result[k] = {pot.players[0]: pot.amount}
            continue
        best = max(strengths[p] for p in live)
        result[k] = split_evenly(pot.amount, [p for p in live if strengths[p] == best])
    return result


def payoffs(*, starting_stacks: Sequence[int], finishing_stacks: Sequence[int]) -> tuple[int, ...]:
    """Net chips per player (they sum to 0 because chips are conserved)."""
    return tuple(f - s for s, f in zip(starting_stacks, finishing_stacks, strict=True))


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
