"""The phases of a table session and the hand in play (its cards, ante and coach figures)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from exactodds.caribbean.profile import Profile
from exactodds.caribbean.table.coach import Coach


class Phase(StrEnum):
    """The phase of a table session (its JSON is the lower-case name)."""

    BETTING = "betting"    # chips go on the Ante spot, then deal
    DECISION = "decision"  # the player holds 5 cards: raise or fold
    SETTLED = "settled"    # the hand is paid: rebet or new game
    COMPLETE = "complete"  # the session's hands are all played


@dataclass(kw_only=True)
class Hand:
    """The hand in play (decision phase). ``dealer[1:]`` are the hole cards: never shown before reveal."""

    deal: int
    ante: int
    player: tuple[int, ...]
    dealer: tuple[int, ...]
    coach: Coach


CoachFn = Callable[[tuple[int, ...], int, Profile], Coach]
