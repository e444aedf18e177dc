"""The state of a five-card stud betting round: the level, the wagers, who must still act and who
may still raise (the hand keeps the round in progress in ``StudHand.round`` and applies the rules)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(kw_only=True)
class BettingRound:
    """The state of the betting round in progress (the hand keeps it in ``round``)."""

    index: int
    opener: int
    capped: bool
    open_pair: bool
    level: int = 0
    full_level: int = 0
    wagers: int = 0
    big_used: bool = False
    bring_in_due: bool = False
    last_aggressor: int | None = None
    pending: set[int] = field(default_factory=set)
    may_raise: set[int] = field(default_factory=set)
