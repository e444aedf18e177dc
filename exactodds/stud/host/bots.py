"""The models the host's bots may play: ``stud decide``'s opponent models (no second registry).

:class:`BotModels` holds the choices of one server: every shipped preset
(:func:`~exactodds.stud.decide.models.available_models`) and the models of the user's files
(``stud host --opponents FILE.toml``), each by its name. A bot acts by
:func:`~exactodds.stud.decide.policy.model_action` on the hand as the engine holds it (its policy
reads its own cards and the up cards); a mixed choice is drawn from the operating system's
randomness, like the deck.

>>> from exactodds.cards import parse_cards
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> choices = BotModels.of()
>>> choices.names()
['bots', 'calling-station', 'maniac', 'rock']
>>> bot_choice(choices.model("bots"), hand)
Action(player=0, kind='pb', amount=None)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exactodds.errors import ExactOddsError
from exactodds.stud.decide.models import (
    PRESET_ORIGIN,
    ModelError,
    OpponentModel,
    available_models,
    load_model,
)
from exactodds.stud.decide.policy import model_action
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand

DEFAULT_MODEL = "bots"
_RANDOM = random.SystemRandom()  # a mixed policy's draws: the OS's randomness, like the deck


class UnknownModelError(ExactOddsError):
    """A bot model this server does not offer (400 over HTTP)."""


@dataclass(frozen=True)
class BotModels:
    """The models a server's bots may play, by name (the presets first, then the user's files)."""

    models: Mapping[str, OpponentModel]

    @classmethod
    def of(cls, files: Sequence[str | Path] = ()) -> BotModels:
        """The presets and the models of ``files`` (TOML). ModelError names a file that cannot be read,
        is not a valid model, or names its model like a preset or another file."""
        models = {name: load_model(name) for name in available_models()}
        for path in files:
            model = load_model(path)
            if model.origin == PRESET_ORIGIN:
                raise ModelError(f"--opponents {path}: that is a preset, offered already; give a .toml file")
            if model.name in models:
                first = models[model.name].origin
                where = "a preset" if first == PRESET_ORIGIN else f"the model of {first}"
                raise ModelError(f"opponent model file {path} is called {model.name!r}, like {where}: "
                                 "give it another name (its 'name' field)")
            models[model.name] = model
        return cls(models=models)

    def names(self) -> list[str]:
        return list(self.models)

    def model(self, name: Any, *, seat: int | None = None) -> OpponentModel:
        """The model called ``name``; UnknownModelError (naming the seat) if this server has none."""
        if isinstance(name, str) and name in self.models:
            return self.models[name]
        whose = f"seat {seat}'s bot model" if seat is not None else "the bot model"
        raise UnknownModelError(f"{whose} must be one of {', '.join(self.models)}, got {str(name)[:40]!r}")

    def to_list(self) -> list[dict[str, Any]]:
        """Each model's name, description and origin (``preset`` or its file), for the set-up form."""
        return [{**m.to_dict(), "name": name} for name, m in self.models.items()]


def bot_choice(model: OpponentModel, hand: StudHand) -> Action:
    """The action a bot playing ``model`` takes for the hand's player to act."""
    return model_action(model, hand, hand.legal(), _RANDOM)
