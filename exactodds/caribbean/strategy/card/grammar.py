"""The rule grammar of a pocket strategy card: conditions a person can check at the table.

A card is an ordered list of rules and a category line. Each rule has a scope (a range of
hand categories: "A-K high", "a pair or better", ...), up to three conditions that must all
hold, and an action (raise or fold). The first rule whose scope and conditions hold decides;
when none does, the category line decides: raise with ``raise_from`` (a category) or better,
fold the rest.

The conditions (:class:`Atom`) read only what a player sees:

* the rank of the player's card by position, highest first ("your third-highest card is J or
  higher", "your fourth-highest card is 7 or lower"), or whether the player holds a rank;
* whether the dealer's up card matches one of the player's ranks;
* the up card's rank against a threshold ("the up card is Q or lower") or against one of the
  player's cards ("the up card is lower than your fourth-highest card");
* how many of the player's cards share the up card's suit.

Example, the published rules of thumb (three rules; the category line raises a pair or better)::

    1. With A-K high, raise if the up card is Q or lower and matches one of your ranks.
    2. With A-K high, raise if the up card is K or higher and your third-highest card is J or higher.
    3. With A-K high, raise if the up card matches none of your ranks, you hold a Q and the up
       card is lower than your fourth-highest card.
    Otherwise raise with a pair or better; fold the rest.

Situations are read as :class:`Features` (arrays), so a rule's mask is a few numpy comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

import numpy as np

from exactodds.cards import RANK_CHARS
from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_FLOORS, PAY_LABELS
from exactodds.errors import StrategyError
from exactodds.jsonable import JSONDict

BELOW_AK = -1                       # the category index of a hand below A-K high
TOP = len(PAY_CATEGORIES) - 1       # royal flush
NEVER = len(PAY_CATEGORIES)         # a category line raising nothing
ORDINALS = ("highest", "second-highest", "third-highest", "fourth-highest", "lowest")
MAX_CONDITIONS = 3


class Features(NamedTuple):
    """What a player sees in each situation (arrays of one length n)."""

    category: np.ndarray   # (n,) pay category index, -1 below A-K high
    ranks: np.ndarray      # (n, 5) the player's ranks (0 = deuce .. 12 = ace), highest first
    up: np.ndarray         # (n,) the up card's rank
    suited: np.ndarray     # (n,) how many of the player's cards share the up card's suit


def features_of_cards(hands: np.ndarray, ups: np.ndarray, strength: np.ndarray) -> Features:
    """The features of (hand, up card) pairs given as card integers and the hands' strengths."""
    hands = np.asarray(hands, dtype=np.int64)
    ups = np.asarray(ups, dtype=np.int64)
    category = np.searchsorted(np.array(PAY_FLOORS), np.asarray(strength), side="right") - 1
    ranks = -np.sort(-(hands >> 2), axis=1)
    suited = ((hands & 3) == (ups & 3)[:, None]).sum(axis=1)
    return Features(category=category.astype(np.int64), ranks=ranks, up=ups >> 2, suited=suited)


class Kind(StrEnum):
    """The kinds of condition; the value is the JSON name."""

    RANK_AT_LEAST = "rank_at_least"     # the card at ``position`` has rank >= value
    RANK_AT_MOST = "rank_at_most"
    HOLDS = "holds"                     # the player holds a card of rank ``value``
    LACKS = "lacks"
    UP_MATCHES = "up_matches"           # the up card's rank is one of the player's ranks
    UP_UNMATCHED = "up_unmatched"
    UP_AT_LEAST = "up_at_least"         # the up card's rank >= value
    UP_AT_MOST = "up_at_most"
    UP_BELOW_CARD = "up_below_card"     # the up card is lower than the card at ``position``
    UP_ABOVE_CARD = "up_above_card"
    SUITED_AT_LEAST = "suited_at_least"  # at least ``value`` of the player's cards in the up card's suit
    SUITED_AT_MOST = "suited_at_most"


_USES_POSITION = {Kind.RANK_AT_LEAST, Kind.RANK_AT_MOST, Kind.UP_BELOW_CARD, Kind.UP_ABOVE_CARD}
_USES_RANK = {Kind.RANK_AT_LEAST, Kind.RANK_AT_MOST, Kind.HOLDS, Kind.LACKS, Kind.UP_AT_LEAST,
              Kind.UP_AT_MOST}
_USES_COUNT = {Kind.SUITED_AT_LEAST, Kind.SUITED_AT_MOST}


def _rank(value: int) -> str:
    return RANK_CHARS[value]


@dataclass(frozen=True, kw_only=True, order=True)
class Atom:
    """One condition on a situation (see the module docstring); ``position`` 0 = highest card."""

    kind: Kind
    value: int = 0
    position: int = 0

    def __post_init__(self) -> None:
        if self.kind in _USES_RANK and not 0 <= self.value <= 12:
            raise StrategyError(
                f"condition {self.kind}: rank must be 0 (deuce) to 12 (ace), got {self.value}")
        if self.kind in _USES_COUNT and not 0 <= self.value <= 5:
            raise StrategyError(f"condition {self.kind}: count must be 0 to 5, got {self.value}")
        if self.kind in _USES_POSITION and not 0 <= self.position <= 4:
            raise StrategyError(f"condition {self.kind}: position must be 0 (highest) to 4 (lowest), "
                                f"got {self.position}")

    def mask(self, f: Features) -> np.ndarray:
        """Where the condition holds (bool, one entry per situation)."""
        k, v, p = self.kind, self.value, self.position
        if k in (Kind.UP_MATCHES, Kind.UP_UNMATCHED):
            matches: np.ndarray = (f.ranks == f.up[:, None]).any(axis=1)
            return matches if k == Kind.UP_MATCHES else ~matches
        if k in (Kind.HOLDS, Kind.LACKS):
            holds: np.ndarray = (f.ranks == v).any(axis=1)
            return holds if k == Kind.HOLDS else ~holds
        compare = {
            Kind.RANK_AT_LEAST: lambda: f.ranks[:, p] >= v, Kind.RANK_AT_MOST: lambda: f.ranks[:, p] <= v,
            Kind.UP_AT_LEAST: lambda: f.up >= v, Kind.UP_AT_MOST: lambda: f.up <= v,
            Kind.UP_BELOW_CARD: lambda: f.up < f.ranks[:, p],
            Kind.UP_ABOVE_CARD: lambda: f.up > f.ranks[:, p],
            Kind.SUITED_AT_LEAST: lambda: f.suited >= v, Kind.SUITED_AT_MOST: lambda: f.suited <= v,
        }
        result: np.ndarray = compare[k]()
        return result

    def text(self) -> str:
        """The condition in words ("the up card is Q or lower")."""
        k, v, card = self.kind, self.value, f"your {ORDINALS[self.position]} card"
        words = {
            Kind.RANK_AT_LEAST: f"{card} is {_rank(v)} or higher",
            Kind.RANK_AT_MOST: f"{card} is {_rank(v)} or lower",
            Kind.HOLDS: f"you hold a {_rank(v)}", Kind.LACKS: f"you hold no {_rank(v)}",
            Kind.UP_MATCHES: "the up card matches one of your ranks",
            Kind.UP_UNMATCHED: "the up card matches none of your ranks",
            Kind.UP_AT_LEAST: f"the up card is {_rank(v)} or higher",
            Kind.UP_AT_MOST: f"the up card is {_rank(v)} or lower",
            Kind.UP_BELOW_CARD: f"the up card is lower than {card}",
            Kind.UP_ABOVE_CARD: f"the up card is higher than {card}",
            Kind.SUITED_AT_LEAST: (f"{v} or more of your cards are of the up card's suit" if v > 1
                                   else "one of your cards or more is of the up card's suit"),
            Kind.SUITED_AT_MOST: (f"at most {v} of your cards are of the up card's suit" if v > 1
                                  else "none of your cards is of the up card's suit" if v == 0
                                  else "at most one of your cards is of the up card's suit"),
        }
        return words[k]

    def to_dict(self) -> JSONDict:
        out: JSONDict = {"kind": str(self.kind)}
        if self.kind in _USES_POSITION:
            out["position"] = self.position
        if self.kind in _USES_RANK:
            out["rank"] = RANK_CHARS[self.value]
        if self.kind in _USES_COUNT:
            out["count"] = self.value
        return out

    @classmethod
    def from_dict(cls, data: JSONDict) -> Atom:
        try:
            kind = Kind(data["kind"])
            value = RANK_CHARS.index(data["rank"]) if kind in _USES_RANK else int(data.get("count", 0))
            return cls(kind=kind, value=value, position=int(data.get("position", 0)))
        except (KeyError, ValueError, TypeError) as exc:
            raise StrategyError(f"card condition {data!r} cannot be read: {exc}") from None


_ARTICLE = {PAY_CATEGORIES.index(c) for c in ("pair", "straight", "flush", "full_house", "straight_flush",
                                               "royal_flush")}


def category_text(lowest: int, highest: int) -> str:
    """A range of categories in words: "A-K high", "a pair or better", "below A-K"."""
    def name(c: int) -> str:
        if c == BELOW_AK:
            return "below A-K"
        label = PAY_LABELS[PAY_CATEGORIES[c]]
        return f"a {label}" if c in _ARTICLE else label
    if lowest == highest:
        return name(lowest)
    if highest == TOP:
        return "any hand" if lowest == BELOW_AK else f"{name(lowest)} or better"
    return f"{name(lowest)} to {name(highest)}"


@dataclass(frozen=True, kw_only=True)
class Rule:
    """Within categories ``lowest..highest``, when every condition holds: ``action``."""

    lowest: int
    highest: int
    conditions: tuple[Atom, ...]
    action: Choice

    def __post_init__(self) -> None:
        if not BELOW_AK <= self.lowest <= self.highest <= TOP:
            raise StrategyError(f"rule scope {self.lowest}..{self.highest}: expected categories "
                                f"{BELOW_AK} (below A-K) <= lowest <= highest <= {TOP} (royal flush)")
        if len(self.conditions) > MAX_CONDITIONS:
            raise StrategyError(f"a rule has at most {MAX_CONDITIONS} conditions, got {len(self.conditions)}")

    def mask(self, f: Features) -> np.ndarray:
        """Where the rule applies."""
        m: np.ndarray = (f.category >= self.lowest) & (f.category <= self.highest)
        for atom in self.conditions:
            m = m & atom.mask(f)
        return m

    def text(self) -> str:
        """The rule in words ("With A-K high, raise if the up card is Q or lower.")."""
        scope = category_text(self.lowest, self.highest)
        if not self.conditions:
            return f"{self.action.capitalize()} with {scope}."
        words = [a.text() for a in self.conditions]
        joined = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        return f"With {scope}, {self.action} if {joined}."

    def to_dict(self) -> JSONDict:
        return {"categories": [_category_name(self.lowest), _category_name(self.highest)],
                "conditions": [a.to_dict() for a in self.conditions], "action": str(self.action)}

    @classmethod
    def from_dict(cls, data: JSONDict) -> Rule:
        try:
            lowest, highest = (_category_index(c) for c in data["categories"])
            return cls(lowest=lowest, highest=highest, action=Choice(data["action"]),
                       conditions=tuple(Atom.from_dict(a) for a in data["conditions"]))
        except (KeyError, ValueError, TypeError) as exc:
            raise StrategyError(f"card rule {data!r} cannot be read: {exc}") from None


def _category_name(c: int) -> str:
    return "below_ak" if c == BELOW_AK else "never" if c == NEVER else PAY_CATEGORIES[c]


def _category_index(name: str) -> int:
    names = ["below_ak", *PAY_CATEGORIES, "never"]
    if name not in names:
        raise StrategyError(f'unknown hand category "{name}" (known: {", ".join(names)})')
    return names.index(name) - 1


@dataclass(frozen=True, kw_only=True)
class Card:
    """An ordered list of rules, then the category line: raise ``raise_from`` or better, fold the rest."""

    rules: tuple[Rule, ...]
    raise_from: int = PAY_CATEGORIES.index("pair")

    def decide(self, f: Features) -> np.ndarray:
        """The raise mask of the situations ``f`` (True = raise)."""
        decided = np.zeros(len(f.up), dtype=bool)
        raised = f.category >= self.raise_from
        for rule in self.rules:
            m = rule.mask(f) & ~decided
            raised = np.where(m, rule.action == Choice.RAISE, raised)
            decided |= m
        return raised

    def lines(self) -> list[str]:
        """The card in words, one line per rule, the category line last."""
        out = [f"{i}. {r.text()}" for i, r in enumerate(self.rules, 1)]
        if self.raise_from == NEVER:
            last = "fold every hand."
        elif self.raise_from == BELOW_AK:
            last = "raise every hand."
        else:
            last = f"raise with {category_text(self.raise_from, TOP)}; fold the rest."
        out.append(f"Otherwise {last}" if self.rules else last.capitalize())
        return out

    def to_dict(self) -> JSONDict:
        return {"rules": [r.to_dict() for r in self.rules], "raise_from": _category_name(self.raise_from),
                "text": self.lines()}

    @classmethod
    def from_dict(cls, data: JSONDict) -> Card:
        try:
            return cls(rules=tuple(Rule.from_dict(r) for r in data["rules"]),
                       raise_from=_category_index(data["raise_from"]))
        except (KeyError, TypeError) as exc:
            raise StrategyError(f"strategy card cannot be read: missing or bad {exc}") from None


def all_atoms() -> tuple[Atom, ...]:
    """Every condition of the grammar, simplest wording first (the search keeps the first wording of
    conditions that select the same cells)."""
    out: list[Atom] = [Atom(kind=Kind.UP_MATCHES), Atom(kind=Kind.UP_UNMATCHED)]
    out += [Atom(kind=k, value=r) for k in (Kind.UP_AT_MOST, Kind.UP_AT_LEAST) for r in range(13)]
    out += [Atom(kind=k, value=r) for k in (Kind.HOLDS, Kind.LACKS) for r in range(13)]
    out += [Atom(kind=k, position=p) for k in (Kind.UP_BELOW_CARD, Kind.UP_ABOVE_CARD) for p in range(5)]
    out += [Atom(kind=k, value=r, position=p) for k in (Kind.RANK_AT_LEAST, Kind.RANK_AT_MOST)
            for p in range(5) for r in range(13)]
    out += [Atom(kind=Kind.SUITED_AT_LEAST, value=n) for n in range(1, 5)]
    out += [Atom(kind=Kind.SUITED_AT_MOST, value=n) for n in range(4)]
    return tuple(out)


def _rules_of_thumb() -> Card:
    ak = PAY_CATEGORIES.index("ak_high")
    q, k, j = (RANK_CHARS.index(c) for c in "QKJ")
    return Card(rules=(
        Rule(lowest=ak, highest=ak, action=Choice.RAISE,
             conditions=(Atom(kind=Kind.UP_AT_MOST, value=q), Atom(kind=Kind.UP_MATCHES))),
        Rule(lowest=ak, highest=ak, action=Choice.RAISE,
             conditions=(Atom(kind=Kind.UP_AT_LEAST, value=k),
                         Atom(kind=Kind.RANK_AT_LEAST, value=j, position=2))),
        Rule(lowest=ak, highest=ak, action=Choice.RAISE,
             conditions=(Atom(kind=Kind.UP_UNMATCHED), Atom(kind=Kind.HOLDS, value=q),
                         Atom(kind=Kind.UP_BELOW_CARD, position=3))),
    ))


RULES_OF_THUMB = _rules_of_thumb()
"""The published rules of thumb written in the grammar (the built-in strategy ``rules-of-thumb``)."""
