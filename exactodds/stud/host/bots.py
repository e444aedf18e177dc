"""A bot seat: a model's name, and the action that model takes for the player to act.

A bot sees what its seat may see (its own cards, every up card) through the hand it is given and
returns one of ``legal.actions()``. The models: ``bots``, the documented bots of ``stud play``
(:func:`~exactodds.stud.bots.policy.bot_action`).

>>> from exactodds.cards import parse_cards
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> bot_choice("bots", hand)
Action(player=0, kind='pb', amount=None)
"""

from __future__ import annotations

from collections.abc import Callable

from exactodds.stud.bots.policy import bot_action
from exactodds.stud.engine.actions import Action, Legal
from exactodds.stud.engine.state import StudHand

BotPolicy = Callable[[StudHand, Legal], Action]
DEFAULT_MODEL = "bots"
BOT_MODELS: dict[str, BotPolicy] = {DEFAULT_MODEL: bot_action}
MODEL_NOTES = {DEFAULT_MODEL: "the documented bots of stud play: bet a pair, call with the best card showing"}


def bot_choice(model: str, hand: StudHand) -> Action:
    """The action the bot ``model`` takes for the hand's player to act."""
    return BOT_MODELS[model](hand, hand.legal())
