"""The phases of a table session and the hand in play (its cards, ante and coach figures)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from exactodds.caribbean.profile import Profile
from exactodds.caribbean.table.coach import Coach

BETTING, DECISION, SETTLED, COMPLETE = "betting", "decision", "settled", "complete"
PHASES = (BETTING, DECISION, SETTLED, COMPLETE)


@dataclass(kw_only=True)
class Hand:
    """The hand in play (decision phase). ``dealer[1:]`` are the hole cards: never shown before reveal."""

    deal: int
    ante: int
    player: tuple[int, ...]
    dealer: tuple[int, ...]
    coach: Coach


CoachFn = Callable[[tuple[int, ...], int, Profile], Coach]
