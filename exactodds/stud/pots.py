"""Side pots by contribution layers, the odd-chip rule, and payoffs.

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
