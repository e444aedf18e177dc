"""The betting round of a five-card stud hand: its state (level, wagers, who must still act, who
may still raise) and the bets and raises the fixed-limit rules allow the player to act."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from exactodds.stud.actions import player_name

if TYPE_CHECKING:
    from exactodds.stud.state import StudHand


@dataclass(kw_only=True)
class _Round:
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


def raise_targets(hand: StudHand, p: int) -> tuple[tuple[int, ...], str]:
    """The round totals player ``p`` may bet or raise to now (sorted; an all-in short of a full
    raise included), or none and the reason why."""
    r = hand.round
    assert r is not None
    name = player_name(p)
    owe = max(0, r.level - hand.round_bets[p])
    if p not in r.may_raise:
        return (), f"{name} already answered the last full bet and a short all-in does not reopen raising"
    if hand.stacks[p] <= owe:
        return (), f"{name} has no chips beyond the call"
    if r.capped and r.wagers >= 1 + hand.profile.max_raises:
        return (), f"the cap of a bet and {hand.profile.max_raises} raises is reached"
    if not any(q != p and hand.round_bets[q] + hand.stacks[q] > r.level for q in hand.in_hand):
        return (), "no opponent can call a raise"
    units = hand.profile.units(round_index=r.index, open_pair=r.open_pair, big_bet_used=r.big_used)
    full = [r.full_level + u for u in units]
    most = hand.round_bets[p] + hand.stacks[p]
    targets = [t for t in full if t <= most]
    floor = hand.profile.bring_in if r.bring_in_due else r.level  # an all-in must top the bring-in
    if floor < most < max(full) and most not in targets:
        targets.append(most)  # an incomplete all-in raise
    return tuple(sorted(targets)), ""
