"""Side-bet profiles as data: one TOML file per side bet, loaded and validated here.

Shipped profiles live in ``exactodds/data/sidebets/<name>.toml`` (read through
:mod:`exactodds.resources`); ``NAME|FILE`` takes a
shipped name or the path of a TOML file of the same form (see ``docs/sidebets.md``):

    name = "progressive-100-75-50"
    description = "..."
    source = "..."
    example = false              # true: an illustrative pay table, not a casino's
    pays_on = "player"           # or "player_and_up_card": best five of the player's five + up card
    stake = 1                    # dollars
    stake_returned = false       # false: the stake is always collected ("for"); true: paid "to 1"
    [meter]                      # progressives only
    reset = 10000                # dollars
    contribution = 0.15          # share of each stake added to the meter
    [pays]
    royal_flush = { meter_share = 1 }
    straight_flush = { meter_share = "1/10", cap = 25000 }
    four_of_a_kind = 100         # a bare number is a fixed pay

Every error names the file and the field.

>>> p = load_sidebet("progressive-100-75-50")
>>> p.pays["royal_flush"].meter_share, p.pays["flush"].fixed, p.is_progressive
(Fraction(1, 1), Fraction(50, 1), True)
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_LABELS
from exactodds.display import money
from exactodds.errors import ExactOddsError
from exactodds.money import parse_amount
from exactodds.resources import data_files

PAYS_ON = {"player": "the player's five cards",
           "player_and_up_card": "best five of the player's five cards and the dealer's up card"}
SIDEBET_CATEGORIES = tuple(reversed(PAY_CATEGORIES))  # royal flush first
_ALLOWED_KEYS = {"name", "description", "source", "example", "pays_on", "stake", "stake_returned", "meter",
                 "pays"}
_PAY_KEYS = {"fixed", "meter_share", "cap"}
_METER_KEYS = {"reset", "contribution"}
DEFAULT_PROGRESSIVE = "progressive-100-75-50"
# ``--pays`` changes the fixed pays of the progressive by these short names (and the categories' own).
PAYS_SHOWN = {"four_of_a_kind": "quads", "full_house": "full_house", "flush": "flush"}
PAYS_NAMES = {short: category for category, short in PAYS_SHOWN.items()} | {c: c for c in PAYS_SHOWN}


class SideBetError(ExactOddsError):
    """An unknown side bet, a malformed side-bet file, or a bad meter."""


@dataclass(frozen=True, kw_only=True)
class Pay:
    """What one category pays, in dollars: ``fixed`` plus ``meter_share`` of the meter, at most ``cap``."""

    fixed: Fraction = Fraction(0)
    meter_share: Fraction = Fraction(0)
    cap: Fraction | None = None

    def amount(self, meter: Fraction) -> Fraction:
        value = self.fixed + self.meter_share * meter
        return value if self.cap is None else min(value, self.cap)

    def text(self) -> str:
        parts = []
        if self.fixed or not self.meter_share:
            parts.append(f"${money(self.fixed)}")
        if self.meter_share:
            parts.append(f"{float(self.meter_share):.4g} x meter" if self.meter_share * 100 % 1
                         else f"{self.meter_share * 100}% of the meter")
        out = " + ".join(parts)
        return out + (f" (at most ${money(self.cap)})" if self.cap is not None else "")


@dataclass(frozen=True, kw_only=True)
class SideBetProfile:
    """A side bet: what it pays on, its stake, its pays by category, and its meter (progressives)."""

    name: str
    description: str = ""
    source: str = ""
    example: bool = False
    pays_on: str = "player"
    stake: Fraction = Fraction(1)
    stake_returned: bool = False
    meter_reset: Fraction | None = None
    meter_contribution: Fraction | None = None
    pays: MappingProxyType[str, Pay] = field(repr=False)

    @property
    def is_progressive(self) -> bool:
        return any(p.meter_share for p in self.pays.values())

    def with_fixed_pays(self, fixed: dict[str, Fraction]) -> SideBetProfile:
        """The same bet with some categories' fixed pays replaced (``--pays``)."""
        pays = dict(self.pays)
        for category, amount in fixed.items():
            old = pays.get(category, Pay())
            pays[category] = Pay(fixed=amount, meter_share=old.meter_share, cap=old.cap)
        ordered = {c: pays[c] for c in SIDEBET_CATEGORIES if c in pays}
        name, description = self.name, self.description
        if any(self.pays.get(c, Pay()).fixed != amount for c, amount in fixed.items()):
            # The shipped name and description quote the old pays: say what the bet pays now.
            now = ", ".join(f"{PAY_LABELS[c]} {p.fixed}" for c, p in ordered.items() if p.fixed)
            name = f"{self.name} with changed pays"
            description = f"{self.name} with its fixed pays changed: {now}"
        return SideBetProfile(name=name, description=description, source=self.source,
                              example=self.example, pays_on=self.pays_on, stake=self.stake,
                              stake_returned=self.stake_returned, meter_reset=self.meter_reset,
                              meter_contribution=self.meter_contribution, pays=MappingProxyType(ordered))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name, "description": self.description, "source": self.source,
            "example": self.example, "pays_on": self.pays_on, "stake": self.stake,
            "stake_returned": self.stake_returned, "meter_reset": self.meter_reset,
            "meter_contribution": self.meter_contribution,
            "pays": {c: {"label": PAY_LABELS[c], "fixed": p.fixed, "meter_share": p.meter_share, "cap": p.cap}
                     for c, p in self.pays.items()},
        }


def available_sidebets() -> list[str]:
    """Names of the shipped side bets."""
    return sorted(data_files("sidebets"))


def sidebet_path(name_or_path: str) -> Path:
    """The file of a shipped side bet or of a path; SideBetError when there is none."""
    text = str(name_or_path)
    path = Path(text)
    try:
        exists = path.is_file()
    except OSError as exc:
        raise SideBetError(f"side bet {text[:80]!r}: {exc.strerror}") from None
    if exists or text.endswith(".toml"):
        if not exists:
            if path.is_dir():
                raise SideBetError(f"side-bet file {path} is a directory")
            raise SideBetError(f"side-bet file {path} does not exist")
        return path
    shipped = data_files("sidebets").get(text)
    if shipped is None:
        raise SideBetError(f'unknown side bet "{text}" (known: {", ".join(available_sidebets())}; '
                           "or give a path to a .toml file)")
    return shipped


def load_sidebet(name_or_path: str | SideBetProfile = DEFAULT_PROGRESSIVE) -> SideBetProfile:
    """A shipped side bet by name, or one read from a TOML file (errors name the file and field)."""
    if isinstance(name_or_path, SideBetProfile):
        return name_or_path
    path = sidebet_path(str(name_or_path))
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a byte-order mark is allowed
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise SideBetError(f"side-bet file {path} is not valid TOML: {exc}") from None
    except OSError as exc:
        raise SideBetError(f"side-bet file {path} cannot be read: {exc.strerror or exc}") from None
    return sidebet_from_dict(data, origin=str(path))


def sidebet_from_dict(data: dict[str, Any], *, origin: str = "<dict>") -> SideBetProfile:
    """Validate a parsed side-bet profile; every error names ``origin`` and the field."""

    def fail(name: str, problem: str) -> SideBetError:
        return SideBetError(f"side bet {origin}: field {name!r} {problem}")

    def amount(value: Any, name: str) -> Fraction:
        return parse_amount(value, name=f"side bet {origin}: field {name!r}", error=SideBetError)

    unknown = set(data) - _ALLOWED_KEYS
    if unknown:
        allowed = ", ".join(sorted(_ALLOWED_KEYS))
        raise fail(sorted(unknown)[0], f"is not a side-bet field (allowed: {allowed})")
    if not isinstance(data.get("name"), str) or not data["name"]:
        raise fail("name", "is missing or not a string")
    for key in ("description", "source"):
        if key in data and not isinstance(data[key], str):
            raise fail(key, "must be a string")
    for key in ("example", "stake_returned"):
        if key in data and not isinstance(data[key], bool):
            raise fail(key, f"must be true or false, got {data[key]!r}")
    pays_on = data.get("pays_on", "player")
    if pays_on not in PAYS_ON:
        raise fail("pays_on", f"must be one of {', '.join(PAYS_ON)}, got {pays_on!r}")
    stake = amount(data.get("stake", 1), "stake")
    if stake <= 0:
        raise fail("stake", "must be positive")
    pays_raw = data.get("pays")
    if not isinstance(pays_raw, dict) or not pays_raw:
        raise fail("pays", "is missing or not a table of categories")
    pays: dict[str, Pay] = {}
    for key, raw in pays_raw.items():
        if key not in SIDEBET_CATEGORIES:
            raise fail(f"pays.{key}", f"is not a category (known: {', '.join(SIDEBET_CATEGORIES)})")
        pays[key] = _pay(raw, f"pays.{key}", fail, amount)
    reset = contribution = None
    meter = data.get("meter")
    progressive = any(p.meter_share for p in pays.values())
    if meter is not None:
        if not isinstance(meter, dict):
            raise fail("meter", "must be a table with reset and contribution")
        extra = set(meter) - _METER_KEYS
        if extra:
            raise fail(f"meter.{sorted(extra)[0]}", "is not a meter field (allowed: contribution, reset)")
        if "reset" in meter:
            reset = amount(meter["reset"], "meter.reset")
        if "contribution" in meter:
            contribution = amount(meter["contribution"], "meter.contribution")
            if contribution >= 1:
                raise fail("meter.contribution", f"is a share of the stake and must be below 1, got "
                                                 f"{meter['contribution']}")
    if meter is not None and not progressive:
        raise fail("meter", "is given but no category pays a share of the meter")
    ordered = {c: pays[c] for c in SIDEBET_CATEGORIES if c in pays}
    return SideBetProfile(
        name=data["name"], description=data.get("description", ""), source=data.get("source", ""),
        example=data.get("example", False), pays_on=pays_on, stake=stake,
        stake_returned=data.get("stake_returned", False), meter_reset=reset, meter_contribution=contribution,
        pays=MappingProxyType(ordered))


def _pay(raw: Any, name: str, fail: Callable[[str, str], SideBetError],
         amount: Callable[[Any, str], Fraction]) -> Pay:
    if not isinstance(raw, dict):
        return Pay(fixed=amount(raw, name))
    extra = set(raw) - _PAY_KEYS
    if extra:
        allowed = ", ".join(sorted(_PAY_KEYS))
        raise fail(f"{name}.{sorted(extra)[0]}", f"is not a pay field (allowed: {allowed})")
    if not raw:
        raise fail(name, "pays nothing: give fixed, meter_share or both")
    fixed = amount(raw.get("fixed", 0), f"{name}.fixed")
    share = amount(raw.get("meter_share", 0), f"{name}.meter_share")
    if share > 1:
        raise fail(f"{name}.meter_share",
                   f"is a share of the meter and must be at most 1, got {raw['meter_share']}")
    cap = amount(raw["cap"], f"{name}.cap") if "cap" in raw else None
    if cap is not None and cap < fixed:
        raise fail(f"{name}.cap", f"({raw['cap']}) is below the fixed pay ({raw.get('fixed', 0)})")
    return Pay(fixed=fixed, meter_share=share, cap=cap)


def parse_pays(text: str) -> dict[str, Fraction]:
    """The fixed pays of ``--pays`` by side-bet category, from "quads=150,full_house=100,flush=50"
    (any subset; ``four_of_a_kind`` is quads' long name), for :meth:`SideBetProfile.with_fixed_pays`.

    Amounts are read by :func:`exactodds.money.parse_amount` (non-negative, at most its bound); a
    malformed item is a SideBetError naming it.

    >>> parse_pays("quads=150, flush=5/2")
    {'four_of_a_kind': Fraction(150, 1), 'flush': Fraction(5, 2)}
    """
    pays: dict[str, Fraction] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, sep, amount = (s.strip() for s in item.partition("="))
        category = PAYS_NAMES.get(name.lower())
        if not sep or category is None:
            names = ", ".join(PAYS_SHOWN.values())
            raise SideBetError(f'--pays: expected NAME=AMOUNT with NAME one of {names}, got "{item}"')
        shown = PAYS_SHOWN[category]
        if category in pays:
            raise SideBetError(f"--pays: {shown} is given twice")
        pays[category] = parse_amount(amount, name=f"--pays: the amount for {shown}", error=SideBetError)
    return pays


def parse_meter(text: str) -> Fraction:
    """A meter in dollars from "250000", "$250,000.50" or "1/3" (read by the one money parser,
    :func:`exactodds.money.parse_amount`); SideBetError if not an amount within its bound."""
    return parse_amount(text, name="--meter", error=SideBetError)
