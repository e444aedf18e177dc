"""The bot policy that plays the other seats in ``exactodds stud play``.

The policy is deterministic and uses only what the bot may see: its own cards (hole card
included) and the opponents' up cards. It is a simple, readable opponent, not a strong one:

1. Forced to bring in: post the bring-in (never complete).
2. With a pair or better among its own cards: bet or raise the smallest full amount when
   allowed and the round holds fewer than a bet and three raises (the bot keeps the home cap
   even heads-up, where the rules allow unlimited raises), else check or call.
3. Otherwise: check when it is free; call the bring-in level; call when its highest card is
   at least as high as the highest up card of every opponent still in; else fold.

>>> from exactodds.cards import parse_cards
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> bot_action(hand, hand.legal()).kind      # p1 shows the lowest card: forced bring-in
'pb'
>>> hand.act(bot_action(hand, hand.legal()))
>>> bot_action(hand, hand.legal())           # p2 holds a pair of queens: completes to 2
Action(player=1, kind='cbr', amount=2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from exactodds.cards import rank_of
from exactodds.stud.engine.actions import Action, ActionKind, Legal
from exactodds.stud.engine.rules import StudProfile, visible_key
from exactodds.stud.engine.state import StudHand


@dataclass(frozen=True, kw_only=True)
class OwnCards:
    """All that the policy reads from the bot's own cards (hole card included)."""

    made: bool  # a pair or better among all its own cards
    top: int  # the rank of its highest card (0 = deuce .. 12 = ace)


def read_own(cards: Sequence[int]) -> OwnCards:
    """What the policy reads from a bot's own cards, hole card first."""
    return OwnCards(made=visible_key(cards)[0] >= 1, top=max(rank_of(c) for c in cards))


def best_shown(opponent_ups: Sequence[Sequence[int]]) -> int:
    """The highest up-card rank among the opponents still in (-1 when there are none)."""
    return max((max(rank_of(c) for c in up) for up in opponent_ups), default=-1)


def decide(legal: Legal, *, own: OwnCards, shown: int, wagers: int, profile: StudProfile) -> Action:
    """The policy itself: the action for ``legal.player`` given its own cards, the highest rank the
    opponents still in show and the bets and raises made so far in the round (``wagers``)."""
    p = legal.player
    if legal.bring_in is not None:
        return Action(player=p, kind=ActionKind.BRING_IN)
    if own.made and legal.raise_to and wagers < 1 + profile.max_raises:
        return Action(player=p, kind=ActionKind.BET_RAISE, amount=min(legal.raise_to))
    if own.made or legal.check:
        return Action(player=p, kind=ActionKind.CHECK_CALL)
    if (legal.call or 0) <= profile.bring_in or own.top >= shown:
        return Action(player=p, kind=ActionKind.CHECK_CALL)
    return Action(player=p, kind=ActionKind.FOLD)


def bot_action(hand: StudHand, legal: Legal) -> Action:
    """The bot's action for the player to act (``legal.player``); always one of ``legal.actions()``."""
    p = legal.player
    wagers = hand.round.wagers if hand.round is not None else 0
    shown = best_shown([hand.up[q] for q in hand.in_hand if q != p])
    return decide(legal, own=read_own(hand.cards_of(p)), shown=shown, wagers=wagers, profile=hand.profile)
