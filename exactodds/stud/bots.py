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
>>> from exactodds.stud.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> bot_action(hand, hand.legal()).kind      # p1 shows the lowest card: forced bring-in
'pb'
>>> hand.act(bot_action(hand, hand.legal()))
>>> bot_action(hand, hand.legal())           # p2 holds a pair of queens: completes to 2
Action(player=1, kind='cbr', amount=2)
"""

from __future__ import annotations

from exactodds.cards import rank_of
from exactodds.stud.actions import Action, ActionKind, Legal
from exactodds.stud.dealing import visible_key
from exactodds.stud.state import StudHand


def bot_action(hand: StudHand, legal: Legal) -> Action:
    """The bot's action for the player to act (``legal.player``); always one of ``legal.actions()``."""
    p = legal.player
    if legal.bring_in is not None:
        return Action(player=p, kind=ActionKind.BRING_IN)
    own = hand.cards_of(p)
    made = visible_key(own)[0] >= 1  # a pair or better among all its own cards
    wagers = hand.round.wagers if hand.round is not None else 0
    if made and legal.raise_to and wagers < 1 + hand.profile.max_raises:
        return Action(player=p, kind=ActionKind.BET_RAISE, amount=min(legal.raise_to))
    if made or legal.check:
        return Action(player=p, kind=ActionKind.CHECK_CALL)
    top = max(rank_of(c) for c in own)
    best_shown = max((max(rank_of(c) for c in hand.up[q]) for q in hand.in_hand if q != p), default=-1)
    if (legal.call or 0) <= hand.profile.bring_in or top >= best_shown:
        return Action(player=p, kind=ActionKind.CHECK_CALL)
    return Action(player=p, kind=ActionKind.FOLD)
