"""Opponent models: how a player acts, as data (TOML), validated in one place.

A model is an ordered list of rules. At each of its decisions the player takes the first rule whose
conditions all hold, and acts by that rule's probabilities: ``fold``, ``check``/``call``/``bring_in``
(the passive choice) and ``bet``/``raise``/``complete`` (the aggressive one). A probability may be a
number (``0.25``, read as the exact decimal) or a fraction (``"1/3"``); a rule's probabilities add up
to exactly 1. The last rule has no conditions: it says what the player does in every other case.

Conditions (all optional; a rule with several needs them all):

=========================  ==================================================================
``facing``                 ``"bring-in"`` (forced to bring in), ``"nothing"`` (nothing to call) or
                           ``"bet"`` (a bet, the bring-in included, to call); or a list of them
``rounds``                 the rules' rounds 1 to 4 the rule applies to, e.g. ``[1, 2]``
``paired``                 ``true``: a pair or better among the player's own cards (hole card
                           included; by ranks only, so a straight or flush does not count)
``hand_at_least``          a hand class of its own cards: ``pair``, ``two-pair``,
``hand_below``             ``three-of-a-kind``, ``straight``, ``flush``, ``full-house``,
                           ``four-of-a-kind``, ``straight-flush`` (straights and flushes with five
                           cards only)
``strength_at_least``      0 to 1: its strength, the chance that its cards, completed at random,
``strength_below``         beat a random five-card hand (ties count half; see ``strength.py``)
``top_card_covers_board``  ``true``: its highest card is at least as high as every up card shown by
                           the other players still in
``to_call_at_most``        chips to call (a whole number, or ``"bring-in"``)
``bets_below``             the bets and raises made so far this round are fewer than this (a whole
                           number, or ``"cap"``: a bet and the table's raises)
``opponents_at_most``      the other players still in the hand are at most / at least this many
``opponents_at_least``
=========================  ==================================================================

When the chosen action is not allowed it gives way: a raise or bet that is not allowed (the cap,
no chips) becomes a check or call, and a fold with nothing to call (the rules only allow check or
bet then) becomes a check. ``raise_size`` (``"smallest"``, the default, or ``"largest"``) picks among
the raise amounts allowed (the open-pair round allows two).

>>> rock = load_model("rock")
>>> rock.name, rock.deterministic, len(rock.rules)
('rock', True, 3)
>>> try:
...     model_from_dict({"name": "x", "rule": [{"call": 0.5, "raise": "1/3", "fold": 0.2}]}, origin="x.toml")
... except ModelError as exc:
...     print(exc)
opponent model x.toml: rule 1: the probabilities add up to 31/30, not 1
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.errors import ExactOddsError
from exactodds.handrank import Category
from exactodds.money import parse_amount
from exactodds.resources import data_files


class ModelError(ExactOddsError):
    """An opponent model that cannot be read or is not valid (naming the file, rule and field)."""


class Intent(StrEnum):
    """What a rule asks for; the legal action it becomes depends on the situation."""

    FOLD = "fold"
    PASSIVE = "passive"  # check, call or post the bring-in
    AGGRESSIVE = "aggressive"  # bet, raise or complete


INTENTS = tuple(Intent)
ACTION_KEYS: dict[str, Intent] = {
    "fold": Intent.FOLD, "check": Intent.PASSIVE, "call": Intent.PASSIVE, "bring_in": Intent.PASSIVE,
    "bet": Intent.AGGRESSIVE, "raise": Intent.AGGRESSIVE, "complete": Intent.AGGRESSIVE,
}


class Facing(StrEnum):
    """What the player to act faces."""

    BRING_IN = "bring-in"
    NOTHING = "nothing"
    BET = "bet"


def class_word(category: Category) -> str:
    """A hand category as the model files write it: ``two-pair``, ``three-of-a-kind``."""
    return category.name.lower().replace("_", "-")


HAND_CLASSES = {class_word(c): c for c in Category}


class RaiseSize(StrEnum):
    """Which allowed raise amount an aggressive choice takes."""

    SMALLEST = "smallest"
    LARGEST = "largest"


CAP = "cap"
BRING_IN = "bring-in"


@dataclass(frozen=True, kw_only=True)
class Conditions:
    """A rule's conditions (None: not checked). ``rounds`` are 0-based here (the file says 1..4)."""

    facing: frozenset[Facing] | None = None
    rounds: frozenset[int] | None = None
    paired: bool | None = None
    hand_at_least: Category | None = None
    hand_below: Category | None = None
    strength_at_least: Fraction | None = None
    strength_below: Fraction | None = None
    top_card_covers_board: bool | None = None
    to_call_at_most: int | str | None = None  # chips or "bring-in"
    bets_below: int | str | None = None  # a count or "cap"
    opponents_at_most: int | None = None
    opponents_at_least: int | None = None

    @property
    def empty(self) -> bool:
        return all(getattr(self, name) is None for name in CONDITION_KEYS)

    def needs_strength(self) -> bool:
        return self.strength_at_least is not None or self.strength_below is not None

    def needs_class(self) -> bool:
        return self.hand_at_least is not None or self.hand_below is not None


CONDITION_KEYS = ("facing", "rounds", "paired", "hand_at_least", "hand_below", "strength_at_least",
                  "strength_below", "top_card_covers_board", "to_call_at_most", "bets_below",
                  "opponents_at_most", "opponents_at_least")


@dataclass(frozen=True, kw_only=True)
class Rule:
    """One rule: its conditions and the probability of each intent (summing to 1)."""

    when: Conditions
    probabilities: Mapping[Intent, Fraction]

    def probability(self, intent: Intent) -> Fraction:
        return self.probabilities.get(intent, Fraction(0))


@dataclass(frozen=True, kw_only=True)
class OpponentModel:
    """A player's policy as ordered rules (see the module docstring); ``origin`` is where it was read."""

    name: str
    description: str = ""
    rules: tuple[Rule, ...]
    raise_size: RaiseSize = RaiseSize.SMALLEST
    origin: str = ""
    denominator: int = field(init=False)

    def __post_init__(self) -> None:
        d = 1
        for rule in self.rules:
            for p in rule.probabilities.values():
                d = math.lcm(d, p.denominator)
        object.__setattr__(self, "denominator", d)

    @property
    def deterministic(self) -> bool:
        """Whether every rule picks one intent for sure (then every weight stays a whole number)."""
        return self.denominator == 1

    def needs_strength(self) -> bool:
        return any(r.when.needs_strength() for r in self.rules)

    def needs_class(self) -> bool:
        return any(r.when.needs_class() for r in self.rules)

    def to_dict(self) -> dict[str, Any]:
        """The model's name, description and origin (the file or ``preset``)."""
        return {"name": self.name, "description": self.description, "origin": self.origin,
                "deterministic": self.deterministic}


PRESET_ORIGIN = "preset"
# The weights of a mixed model's actions are whole numbers over this common denominator, counted in
# int64 (times a hole card's other weights in Python ints): 10^12 leaves room.
MAX_COMMON_DENOMINATOR = 10**12


def available_models() -> list[str]:
    """The names of the shipped presets."""
    return sorted(data_files("opponents"))


def load_model(name_or_path: str | Path | OpponentModel) -> OpponentModel:
    """A shipped preset by name (``bots``, ``calling-station``, ``rock``, ``maniac``) or a model read
    from a TOML file. Raises ModelError naming the model or the file and the field at fault."""
    if isinstance(name_or_path, OpponentModel):
        return name_or_path
    text = str(name_or_path).strip()
    if not text:
        raise ModelError("the opponent model's name is empty; give a preset such as bots or rock, "
                         "or the path of a .toml file")
    shipped = data_files("opponents")
    path = Path(text)
    origin = str(path)
    if text in shipped and not text.endswith(".toml"):
        path, origin = shipped[text], PRESET_ORIGIN
    elif not text.endswith(".toml") and not path.exists():
        raise ModelError(f'unknown opponent model "{text}" (presets: {", ".join(available_models())}; '
                         "or give a path to a .toml file)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except FileNotFoundError:
        raise ModelError(f"opponent model file {path} does not exist") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ModelError(f"opponent model file {path} is not valid TOML: {exc}") from None
    except OSError as exc:
        raise ModelError(f"opponent model file {path} cannot be read: {exc.strerror or exc}") from None
    model = model_from_dict(data, origin=origin if origin == PRESET_ORIGIN else str(path))
    if origin != PRESET_ORIGIN and model.name in shipped:
        raise ModelError(f"opponent model file {path} is called {model.name!r}, like a preset: give it "
                         "another name (its 'name' field)")
    return model


def model_from_dict(data: Mapping[str, Any], *, origin: str = "<dict>") -> OpponentModel:
    """Validate a parsed model; every error names ``origin``, the rule and the field."""
    where = f"opponent model {origin}"
    unknown = set(data) - {"name", "description", "raise_size", "rule"}
    if unknown:
        raise ModelError(f"{where}: unknown field {sorted(unknown)[0]!r} "
                         "(fields: name, description, raise_size, and [[rule]] tables)")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise ModelError(f"{where}: field 'name' must be a non-empty string")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise ModelError(f"{where}: field 'description' must be a string")
    size_text = data.get("raise_size", RaiseSize.SMALLEST.value)
    if size_text not in {s.value for s in RaiseSize}:
        raise ModelError(f"{where}: field 'raise_size' must be \"smallest\" or \"largest\", "
                         f"got {size_text!r}")
    raw_rules = data.get("rule")
    if not isinstance(raw_rules, list) or not raw_rules or not all(isinstance(r, dict) for r in raw_rules):
        raise ModelError(f"{where}: it needs at least one [[rule]] table")
    rules = tuple(_rule(raw, where=f"{where}: rule {k}") for k, raw in enumerate(raw_rules, 1))
    if not rules[-1].when.empty:
        raise ModelError(f"{where}: the last rule must have no conditions: it says what the player does "
                         "in every other case")
    model = OpponentModel(name=name.strip(), description=description.strip(), rules=rules,
                          raise_size=RaiseSize(size_text), origin=origin)
    if model.denominator > MAX_COMMON_DENOMINATOR:
        raise ModelError(f"{where}: the rules' probabilities have a common denominator of "
                         f"{model.denominator:,}, over {MAX_COMMON_DENOMINATOR:,}: write them with a shared "
                         "denominator or as decimals of up to 6 digits")
    return model


def _rule(raw: Mapping[str, Any], *, where: str) -> Rule:
    unknown = set(raw) - set(CONDITION_KEYS) - set(ACTION_KEYS)
    if unknown:
        raise ModelError(f"{where}: unknown key {sorted(unknown)[0]!r} (conditions: "
                         f"{', '.join(CONDITION_KEYS)}; actions: {', '.join(ACTION_KEYS)})")
    probabilities: dict[Intent, Fraction] = {}
    for key, intent in ACTION_KEYS.items():
        if key in raw:
            p = _probability(raw[key], where=f"{where}: {key!r}")
            probabilities[intent] = probabilities.get(intent, Fraction(0)) + p
    if not probabilities:
        raise ModelError(f"{where}: it gives no action (fold, check, call, bet, raise, bring_in, complete)")
    total = sum(probabilities.values(), Fraction(0))
    if total != 1:
        raise ModelError(f"{where}: the probabilities add up to {total}, not 1")
    return Rule(when=_conditions(raw, where=where),
                probabilities={i: p for i, p in probabilities.items() if p})


def _probability(value: Any, *, where: str) -> Fraction:
    if isinstance(value, str) and value.strip().startswith("-"):
        raise ModelError(f"{where} must be a probability from 0 to 1, got {value}")
    try:
        p = parse_amount(value, name=where, error=ModelError)
    except ModelError as exc:
        if "negative" in str(exc):
            raise ModelError(f"{where} must be a probability from 0 to 1, got {value}") from None
        raise
    if p > 1:
        raise ModelError(f"{where} must be a probability from 0 to 1, got {value}")
    return p


def _conditions(raw: Mapping[str, Any], *, where: str) -> Conditions:
    values: dict[str, Any] = {}
    if "facing" in raw:
        items = raw["facing"] if isinstance(raw["facing"], list) else [raw["facing"]]
        known = {f.value: f for f in Facing}
        if not items or any(not isinstance(i, str) or i not in known for i in items):
            raise ModelError(f"{where}: 'facing' must be \"bring-in\", \"nothing\" or \"bet\" (or a list of "
                             f"them), got {raw['facing']!r}")
        values["facing"] = frozenset(known[i] for i in items)
    if "rounds" in raw:
        items = raw["rounds"] if isinstance(raw["rounds"], list) else [raw["rounds"]]
        if not items or any(isinstance(i, bool) or not isinstance(i, int) or not 1 <= i <= 4 for i in items):
            raise ModelError(f"{where}: 'rounds' must be round numbers from 1 to 4, got {raw['rounds']!r}")
        values["rounds"] = frozenset(i - 1 for i in items)
    for key in ("paired", "top_card_covers_board"):
        if key in raw:
            if not isinstance(raw[key], bool):
                raise ModelError(f"{where}: {key!r} must be true or false, got {raw[key]!r}")
            values[key] = raw[key]
    for key in ("hand_at_least", "hand_below"):
        if key in raw:
            lowest = key == "hand_at_least" and raw[key] == class_word(Category.HIGH_CARD)
            if raw[key] not in HAND_CLASSES or lowest:
                raise ModelError(f"{where}: {key!r} must be one of {', '.join(list(HAND_CLASSES)[1:])}, "
                                 f"got {raw[key]!r}")
            values[key] = HAND_CLASSES[raw[key]]
    for key in ("strength_at_least", "strength_below"):
        if key in raw:
            values[key] = _threshold(raw[key], where=f"{where}: {key!r}")
    if "to_call_at_most" in raw:
        values["to_call_at_most"] = _count_or(raw["to_call_at_most"], BRING_IN, key="to_call_at_most",
                                              where=where, least=0)
    if "bets_below" in raw:
        values["bets_below"] = _count_or(raw["bets_below"], CAP, key="bets_below", where=where, least=1)
    for key in ("opponents_at_most", "opponents_at_least"):
        if key in raw:
            values[key] = _count_or(raw[key], None, key=key, where=where, least=1)
    return Conditions(**values)


def _threshold(value: Any, *, where: str) -> Fraction:
    try:
        t = parse_amount(value, name=where, error=ModelError)
    except ModelError:
        raise ModelError(f"{where} must be a number from 0 to 1, got {value!r}") from None
    if t > 1:
        raise ModelError(f"{where} must be a number from 0 to 1, got {value!r}")
    return t


def _count_or(value: Any, word: str | None, *, key: str, where: str, least: int) -> int | str:
    if word is not None and value == word:
        return word
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= 10**6:
        also = f' or "{word}"' if word is not None else ""
        raise ModelError(f"{where}: {key!r} must be a whole number from {least}{also}, got {value!r}")
    return value
