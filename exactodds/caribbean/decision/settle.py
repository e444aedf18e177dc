"""How one Caribbean Stud deal settles: the single home of the game's payout rule.

Ante 1; the player folds (net -1) or calls ``profile.call`` antes. After a call:

* dealer below the qualifier: ante paid 1:1, call returned: +1 (even if the player is weaker);
* dealer qualifies and is stronger: both bets lost: -(1 + call);
* exact tie: both bets returned: 0;
* player beats a qualifying dealer: +1 + call x pay(player's category), capped by the profile.

>>> from exactodds.caribbean.profile import load_profile
>>> from exactodds.handrank import evaluate
>>> standard = load_profile("standard")
>>> result = settle(evaluate("Qh Qs 9d 6c 2h"), evaluate("Jh Jc As 8d 3c"), raised=True, profile=standard)
>>> result.event, str(result.event), result.net
(<Event.WIN_PAIR: 'win_pair'>, 'win_pair', Fraction(3, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from math import lcm

import numpy as np

from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_LABELS, Profile
from exactodds.counting.layout import NET_COLUMNS, PAID_CATEGORIES, Net
from exactodds.errors import ProfileError

# The dealer's completions of one situation (the player's five cards and the dealer's up card
# known): the dealer's other four cards from the 46 left, C(46, 4).
DEALER_COMPLETIONS = 163_185


class Event(StrEnum):
    """The event of one deal, in the order of the published return table; the value is its JSON name."""

    WIN_ROYAL_FLUSH = "win_royal_flush"
    WIN_STRAIGHT_FLUSH = "win_straight_flush"
    WIN_FOUR_OF_A_KIND = "win_four_of_a_kind"
    WIN_FULL_HOUSE = "win_full_house"
    WIN_FLUSH = "win_flush"
    WIN_STRAIGHT = "win_straight"
    WIN_THREE_OF_A_KIND = "win_three_of_a_kind"
    WIN_TWO_PAIR = "win_two_pair"
    WIN_PAIR = "win_pair"
    WIN_AK_HIGH = "win_ak_high"
    DEALER_NOT_QUALIFY = "dealer_not_qualify"
    PUSH = "push"
    FOLD = "fold"
    DEALER_WINS = "dealer_wins"

    @classmethod
    def win(cls, category: str) -> Event:
        """The win event of a pay category (``"pair"`` -> Event.WIN_PAIR)."""
        return cls(f"win_{category}")


FOLD = Event.FOLD
DEALER_NOT_QUALIFY = Event.DEALER_NOT_QUALIFY
PUSH = Event.PUSH
DEALER_WINS = Event.DEALER_WINS
WIN_EVENTS = tuple(Event.win(c) for c in reversed(PAY_CATEGORIES))  # royal flush first
WIN_EVENTS_BY_PAY = tuple(Event.win(c) for c in PAY_CATEGORIES)  # indexed by pay index (A-K high first)
# Every event of a deal, in the order of the published return table.
EVENTS = tuple(Event)
if set(WIN_EVENTS) | {FOLD, DEALER_NOT_QUALIFY, PUSH, DEALER_WINS} != set(EVENTS) or len(
        PAY_CATEGORIES) != PAID_CATEGORIES:
    raise AssertionError("Event and the pay categories disagree")
# The events of the kernels' nets array, column by column of the Net layout (exactodds.counting.layout).
_NET_EVENT = {Net.NOT_QUALIFY: DEALER_NOT_QUALIFY, Net.PUSH: PUSH, Net.DEALER_WINS: DEALER_WINS,
              Net.FOLD: FOLD}
NET_EVENTS = tuple(_NET_EVENT[Net(i)] if i < Net.WIN else WIN_EVENTS_BY_PAY[i - Net.WIN]
                   for i in range(NET_COLUMNS))
# Keyed by the events' string values: an Event (a StrEnum) or its plain string finds the same label.
EVENT_LABELS: dict[str, str] = {
    str(Event.win(c)): f"player wins with {PAY_LABELS[c]}" for c in PAY_CATEGORIES
} | {
    str(DEALER_NOT_QUALIFY): "dealer does not qualify",
    str(PUSH): "push",
    str(FOLD): "fold",
    str(DEALER_WINS): "dealer wins",
}


@dataclass(frozen=True)
class Settlement:
    """The event of a deal and the player's net result in antes."""

    event: Event
    net: Fraction


def settle(player_strength: int, dealer_strength: int, *, raised: bool, profile: Profile) -> Settlement:
    """Settle one deal from both hands' strengths (higher = stronger)."""
    if not raised:
        return Settlement(FOLD, Fraction(-1))
    if dealer_strength < profile.qualify_strength:
        return Settlement(DEALER_NOT_QUALIFY, Fraction(1))
    if dealer_strength > player_strength:
        return Settlement(DEALER_WINS, profile.lose_net)
    if dealer_strength == player_strength:
        return Settlement(PUSH, Fraction(0))
    category = profile.pay_category(player_strength)
    assert category is not None  # it beats a qualifying dealer, so it is A-K high or better
    return Settlement(Event.win(category), profile.win_net(player_strength))


def event_net(event: str, profile: Profile) -> Fraction:
    """Net result (antes) of an event under a profile."""
    if event == FOLD:
        return Fraction(-1)
    if event == DEALER_NOT_QUALIFY:
        return Fraction(1)
    if event == PUSH:
        return Fraction(0)
    if event == DEALER_WINS:
        return profile.lose_net
    return profile.category_win_net(event.removeprefix("win_"))


# Exact counting multiplies a net (scaled to an integer) by up to C(46,4) = 163,185 completions
# and sums those products in int64; nets beyond this bound could overflow, so they are refused.
MAX_SCALED_NET = 2**62 // 2**18


def scaled_nets(profile: Profile, events: Sequence[str]) -> tuple[list[int], int]:
    """The events' nets as integers over one common ``scale`` (net = value / scale), exactly.

    Raises ProfileError when the profile's amounts are too large or too finely divided for
    exact int64 counting (a scaled net beyond MAX_SCALED_NET).
    """
    nets = [event_net(e, profile) for e in events]
    scale = lcm(*(x.denominator for x in nets))
    values = [int(x * scale) for x in nets]
    if max(abs(v) for v in values) > MAX_SCALED_NET:
        raise ProfileError(f"paytable {profile.name}: amounts too large or too finely divided for exact "
                           f"counting (common denominator {scale})")
    return values, scale


def kernel_nets(profile: Profile) -> tuple[np.ndarray, int]:
    """The profile's nets for the kernels: int64 in the Net layout (NET_EVENTS), over ``scale``."""
    values, scale = scaled_nets(profile, NET_EVENTS)
    return np.array(values, dtype=np.int64), scale
