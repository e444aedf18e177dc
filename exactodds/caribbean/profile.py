"""Caribbean Stud paytable profiles: one frozen dataclass, loaded from TOML and validated here.

Shipped profiles live in the package's ``data/paytables/<name>.toml`` (or
``$EXACTODDS_TABLES/paytables`` when that is set; see :mod:`exactodds.resources`).
``--paytable`` takes a profile name or a path to a TOML file of the same form.

>>> from exactodds.handrank import evaluate
>>> p = load_profile("standard")
>>> p.pays["royal_flush"], p.call, p.qualifier
(Fraction(100, 1), Fraction(2, 1), 'ak')
>>> p.pay_category(evaluate("As Ks Qs Js Ts")), p.pay_category(evaluate("Ah Kd 7c 4s 2h"))
('royal_flush', 'ak_high')
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

from exactodds.errors import ProfileError
from exactodds.handrank import CATEGORY_FLOOR, ROYAL_FLUSH_STRENGTH, Category
from exactodds.money import AmountError, parse_amount
from exactodds.resources import data_files

# Paid categories, weakest first. "ak_high" is a no-pair hand holding an ace and a king.
PAY_CATEGORIES = (
    "ak_high", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
    "full_house", "four_of_a_kind", "straight_flush", "royal_flush",
)
PAY_LABELS = {
    "ak_high": "A-K high", "pair": "pair", "two_pair": "two pair",
    "three_of_a_kind": "three of a kind", "straight": "straight", "flush": "flush",
    "full_house": "full house", "four_of_a_kind": "four of a kind",
    "straight_flush": "straight flush", "royal_flush": "royal flush",
}
# Weakest hand of each paid category (higher strength = stronger).
AK_HIGH_FLOOR = 1113  # evaluate("Ac Kd 4h 3s 2c"), a constant so that importing builds nothing (tested)
PAY_FLOORS = (AK_HIGH_FLOOR,) + tuple(CATEGORY_FLOOR[c] for c in Category if c > 0) + (
    ROYAL_FLUSH_STRENGTH,
)
# Dealer qualifiers: the weakest qualifying strength.
QUALIFIERS = {"ak": AK_HIGH_FLOOR, "pair": CATEGORY_FLOOR[Category.PAIR]}

# A profile's hashable identity (see Profile.key).
ProfileKey = tuple[str, str, str, tuple[tuple[str, Fraction], ...], Fraction, str, Fraction | None]

_ALLOWED_KEYS = {"name", "description", "source", "call", "qualifier", "cap", "pays"}


@dataclass(frozen=True, kw_only=True)
class Profile:
    """A Caribbean Stud paytable and house rules. Amounts are in antes (ante = 1).

    Hashable (by :attr:`key`), so a profile is the key of the caches of its results.
    """

    name: str
    description: str = ""
    source: str = ""
    pays: MappingProxyType[str, Fraction] = field(repr=False)
    call: Fraction = Fraction(2)
    qualifier: str = "ak"
    cap: Fraction | None = None

    @property
    def key(self) -> ProfileKey:
        """Every field, the pays sorted by category: equal profiles have equal keys (and hashes)."""
        return (self.name, self.description, self.source, tuple(sorted(self.pays.items())), self.call,
                self.qualifier, self.cap)

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def qualify_strength(self) -> int:
        """The dealer qualifies with this strength or higher."""
        return QUALIFIERS[self.qualifier]

    def pay_category(self, strength: int) -> str | None:
        """The paid category of a player's hand, or None below A-K high (it never wins a call)."""
        for name, floor in zip(reversed(PAY_CATEGORIES), reversed(PAY_FLOORS), strict=True):
            if strength >= floor:
                return name
        return None

    def win_net(self, strength: int) -> Fraction:
        """Net result when the player's hand of this strength beats a qualifying dealer."""
        category = self.pay_category(strength)
        if category is None:
            raise ValueError(f"strength {strength} is below A-K high and cannot win a call")
        return self.category_win_net(category)

    def category_win_net(self, category: str) -> Fraction:
        """Net result of a win with a paid category: ante 1:1 plus the call at its odds, capped."""
        call_win = self.call * self.pays[category]
        if self.cap is not None:
            call_win = min(call_win, self.cap)
        return 1 + call_win

    @property
    def lose_net(self) -> Fraction:
        """Net result when a qualifying dealer beats a called hand: ante and call lost."""
        return -(1 + self.call)


def available_profiles() -> list[str]:
    """Names of the shipped profiles."""
    return sorted(data_files("paytables"))


def load_profile(name_or_path: str | os.PathLike[str] | Profile = "standard") -> Profile:
    """A shipped profile by name, or a profile read from a TOML file path.

    Returns a :class:`Profile` (pays "to 1" on the call bet, the call size, the dealer's
    qualifier, an optional cap). Raises ProfileError naming the profile or the file and
    field at fault.

    >>> p = load_profile("betmgm")
    >>> p.pays["four_of_a_kind"], p.call, p.qualifier
    (Fraction(25, 1), Fraction(2, 1), 'ak')
    """
    if isinstance(name_or_path, Profile):
        return name_or_path
    text = str(name_or_path)
    if not text.strip():
        raise ProfileError(f'the paytable name is empty, got "{text}"; give a name such as standard '
                           "or betmgm, or the path of a .toml file")
    path = Path(text)
    try:
        exists = path.exists()
    except OSError as exc:  # e.g. a name too long for the file system
        raise ProfileError(f"paytable {text[:80]!r}: {exc.strerror}") from None
    if not (text.endswith(".toml") or exists):
        shipped = data_files("paytables")
        if text not in shipped:
            raise ProfileError(
                f'unknown paytable "{text}" (known: {", ".join(available_profiles())}; '
                "or give a path to a .toml file)"
            )
        path = shipped[text]
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a byte-order mark is allowed
    except FileNotFoundError:
        raise ProfileError(f"paytable file {path} does not exist") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ProfileError(f"paytable file {path} is not valid TOML: {exc}") from None
    except OSError as exc:  # a directory, no permission, ...
        raise ProfileError(f"paytable file {path} cannot be read: {exc.strerror or exc}") from None
    return profile_from_dict(data, origin=str(path))


def profile_from_dict(data: dict[str, Any], *, origin: str = "<dict>") -> Profile:
    """Validate a parsed profile; every error names ``origin`` and the field."""

    def fail(field_name: str, problem: str) -> ProfileError:
        return ProfileError(f"paytable {origin}: field {field_name!r} {problem}")

    def failing(field_name: str) -> Callable[[str], ProfileError]:
        return lambda problem: fail(field_name, problem)

    unknown = set(data) - _ALLOWED_KEYS
    if unknown:
        allowed = ", ".join(sorted(_ALLOWED_KEYS))
        raise fail(sorted(unknown)[0], f"is not a profile field (allowed: {allowed})")
    for key in ("name", "description", "source"):
        if key in data and not isinstance(data[key], str):
            raise fail(key, "must be a string")
    if "name" not in data:
        raise fail("name", "is missing")
    if not data["name"].strip():
        raise fail("name", 'must not be empty, got ""')
    pays_raw = data.get("pays")
    if not isinstance(pays_raw, dict):
        raise fail("pays", "is missing or not a table")
    for key in pays_raw:
        if key not in PAY_CATEGORIES:
            raise fail(f"pays.{key}", f"is not a category (known: {', '.join(PAY_CATEGORIES)})")
    pays = {}
    for key in PAY_CATEGORIES:
        if key not in pays_raw:
            raise fail(f"pays.{key}", "is missing")
        pays[key] = _amount(pays_raw[key], f"pays.{key}", origin)
    call = _amount(data.get("call", 2), "call", origin)
    if call <= 0:
        raise fail("call", "must be positive")
    qualifier = data.get("qualifier", "ak")
    if not isinstance(qualifier, str) or qualifier not in QUALIFIERS:
        raise fail("qualifier", f"must be one of {', '.join(QUALIFIERS)}, got {qualifier!r}")
    cap = None
    if "cap" in data:
        cap = _amount(data["cap"], "cap", origin)
    return Profile(
        name=data["name"], description=data.get("description", ""), source=data.get("source", ""),
        pays=MappingProxyType(pays), call=call, qualifier=qualifier, cap=cap,
    )


def _amount(value: Any, field_name: str, origin: str) -> Fraction:
    """A paytable amount in antes, read by the one money parser (:func:`exactodds.money.parse_amount`)."""
    try:
        return parse_amount(value, name=f"field {field_name!r}")
    except AmountError as exc:
        raise ProfileError(f"paytable {origin}: {exc}") from None
