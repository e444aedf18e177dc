"""The home fixed-limit five-card stud profile: every rule constant of the stud engine lives here,
with who acts first in each round (:func:`round_opener`, by :func:`visible_key`) and when the
open-pair big bet is allowed (:func:`shows_open_pair`).

>>> HOME_RULES.unit(round_index=0), HOME_RULES.unit(round_index=2)
(2, 4)
>>> HOME_RULES.half_unit_reopens(2, unit=4), HOME_RULES.half_unit_reopens(1, unit=4)
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from exactodds.cards import rank_of, suit_of
from exactodds.errors import ExactOddsError


class ProfileValueError(ExactOddsError):
    """A stud profile with impossible values (e.g. a bring-in not below the small bet)."""


@dataclass(frozen=True, kw_only=True)
class StudProfile:
    """Five-card stud limits and table rules.

    Rounds are numbered 0..3 (the rules' rounds 1..4). ``small_bet`` is the unit of
    rounds 0 and 1, ``big_bet`` of rounds 2 and 3; with ``open_pair_big_bet`` any
    visible pair on round 1 (the rules' round 2) lets every player bet or raise by
    ``big_bet``, and once used it stays for that round.
    """

    ante: int = 1
    bring_in: int = 1
    small_bet: int = 2
    big_bet: int = 4
    open_pair_big_bet: bool = True
    # A bet plus this many raises when a round starts with more than ``cap_above_players``
    # players able to bet; completing the bring-in counts as the bet, not as a raise.
    max_raises: int = 3
    cap_above_players: int = 2
    min_players: int = 2
    max_players: int = 8
    # The rules list only "check or bet" with nothing to call, so folding then is refused.
    fold_without_bet: bool = False
    rounds: int = 4
    small_bet_rounds: int = 2

    def __post_init__(self) -> None:
        for name in ("bring_in", "small_bet", "big_bet", "max_raises", "cap_above_players"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ProfileValueError(f"{name} must be a non-negative integer, got {value!r}")
        if not isinstance(self.ante, int) or self.ante < 0:
            raise ProfileValueError(f"ante must be a non-negative integer, got {self.ante!r}")
        if not 0 < self.bring_in < self.small_bet:
            raise ProfileValueError(
                f"bring-in must be positive and below the small bet, got {self.bring_in} / {self.small_bet}"
            )
        if self.big_bet < self.small_bet:
            raise ProfileValueError(f"big bet {self.big_bet} is below the small bet {self.small_bet}")
        if not 2 <= self.min_players <= self.max_players <= 10:
            raise ProfileValueError("player limits must satisfy 2 <= min <= max <= 10")

    def unit(self, *, round_index: int, big_bet_used: bool = False) -> int:
        """The fixed betting unit of a round (0-based); ``big_bet_used`` for the open-pair round."""
        if round_index >= self.small_bet_rounds or big_bet_used:
            return self.big_bet
        return self.small_bet

    def units(self, *, round_index: int, open_pair: bool, big_bet_used: bool) -> tuple[int, ...]:
        """The bet or raise sizes a player may choose from in a round."""
        if round_index == 1 and self.open_pair_big_bet and open_pair and not big_bet_used:
            return (self.small_bet, self.big_bet)
        return (self.unit(round_index=round_index, big_bet_used=big_bet_used),)

    def capped(self, able_players_at_start: int) -> bool:
        """Whether a round that started with this many players able to bet has a raise cap."""
        return able_players_at_start > self.cap_above_players

    @staticmethod
    def half_unit_reopens(increase: int, *, unit: int) -> bool:
        """Whether a (possibly all-in) increase counts as a full raise: at least half the unit."""
        return 2 * increase >= unit


HOME_RULES = StudProfile()
"""The home fixed-limit five-card stud profile: ante 1, bring-in 1, units 2 and 4, open-pair rule,
bet + 3 raises."""


def visible_key(up: Sequence[int]) -> tuple[int, tuple[int, ...], int]:
    """Order of the up cards for who acts first: quads > trips > two pair > pair > high cards.

    Straights and flushes do not count; a tie is broken by the suit of the highest card.

    >>> from exactodds.cards import parse_cards
    >>> visible_key(parse_cards("Kh 9c 4d")) > visible_key(parse_cards("Qh Js 7d"))
    True
    >>> visible_key(parse_cards("8s 8d")) > visible_key(parse_cards("8h 8c"))
    True
    >>> visible_key(parse_cards("3c 3d As")) > visible_key(parse_cards("3h 3s Ah"))
    True
    """
    counts = Counter(rank_of(c) for c in up)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    category = {4: 4, 3: 3}.get(shape[0], 0)
    if shape[0] == 2:
        category = 2 if shape.count(2) == 2 else 1
    top_rank = max(counts)  # the highest card itself, not the leading group
    top_suit = max(suit_of(c) for c in up if rank_of(c) == top_rank)
    return category, tuple(r for r, _ in groups), top_suit


def round_opener(up: Sequence[Sequence[int]], live: Sequence[int], *, round_index: int) -> int:
    """Who opens a betting round: on the first round the lowest up card (suit breaking ties) brings
    in; later the strongest up cards by :func:`visible_key` act first."""
    if round_index == 0:
        return min(live, key=lambda i: (rank_of(up[i][0]), suit_of(up[i][0])))
    return max(live, key=lambda i: visible_key(up[i]))


def shows_open_pair(up: Sequence[Sequence[int]], live: Sequence[int], *, round_index: int) -> bool:
    """Whether a visible pair of a player still in allows the big bet this round (second round only)."""
    return round_index == 1 and any(len({rank_of(c) for c in up[i]}) < len(up[i]) for i in live)
