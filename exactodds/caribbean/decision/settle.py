"""How one Caribbean Stud deal settles: the single home of the game's payout rule.

Ante 1; the player folds (net -1) or calls ``profile.call`` antes. After a call:

* dealer below the qualifier: ante paid 1:1, call returned: +1 (even if the player is weaker);
* dealer qualifies and is stronger: both bets lost: -(1 + call);
* exact tie: both bets returned: 0;
* player beats a qualifying dealer: +1 + call x pay(player's category), capped by the profile.

>>> from exactodds.caribbean.profile import load_profile
>>> from exactodds.handrank import evaluate
>>> standard = load_profile("standard")
>>> settle(evaluate("Qh Qs 9d 6c 2h"), evaluate("Jh Jc As 8d 3c"), raised=True, profile=standard)
Settlement(event='win_pair', net=Fraction(3, 1))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_LABELS, Profile
from exactodds.errors import ProfileError

FOLD = "fold"
DEALER_NOT_QUALIFY = "dealer_not_qualify"
PUSH = "push"
DEALER_WINS = "dealer_wins"
WIN_EVENTS = tuple(f"win_{c}" for c in reversed(PAY_CATEGORIES))  # royal flush first
# Every event of a deal, in the order of the published return table.
EVENTS = WIN_EVENTS + (DEALER_NOT_QUALIFY, PUSH, FOLD, DEALER_WINS)
EVENT_LABELS = {f"win_{c}": f"player wins with {PAY_LABELS[c]}" for c in PAY_CATEGORIES} | {
    DEALER_NOT_QUALIFY: "dealer does not qualify",
    PUSH: "push",
    FOLD: "fold",
    DEALER_WINS: "dealer wins",
}


@dataclass(frozen=True)
class Settlement:
    """The event of a deal and the player's net result in antes."""

    event: str
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
    return Settlement(f"win_{profile.pay_category(player_strength)}", profile.win_net(player_strength))


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
