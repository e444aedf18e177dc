"""The Caribbean Stud progressive side bet: its exact return and break-even meter.

Model (Shackleford, *Contingencies* 2000): a $1 side bet, always collected, paying on the
player's own five cards whatever the dealer holds: a royal flush wins 100% of the meter,
a straight flush 10% of it, and four of a kind, a full house and a flush fixed amounts
(default $100 / $75 / $50). With the hand counts of all C(52,5) = 2,598,960 hands,

    return = sum over categories of P(category) x pay - 1        (dollars per $1 bet)

is linear in the meter, so the break-even meter (return 0) is an exact fraction.

>>> r = progressive_return(meter=263_205)
>>> round(r.break_even_meter), r.expected_return > 0
(263205, False)
>>> progressive_return(meter=0, pays=parse_pays("quads=150,full_house=100")).break_even_meter
Fraction(4688900, 19)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType

import numpy as np

from exactodds.combinatorics import N_HANDS
from exactodds.errors import ExactOddsError
from exactodds.handrank import CATEGORY_FLOOR, ROYAL_FLUSH_STRENGTH, Category, rank_table
from exactodds.jsonable import JSONDict, exact, with_float
from exactodds.money import Amount, parse_amount

ROYAL_SHARE = Fraction(1)        # of the meter
STRAIGHT_FLUSH_SHARE = Fraction(1, 10)
FIXED_CATEGORIES = ("quads", "full_house", "flush")
DEFAULT_PAYS = MappingProxyType({"quads": Fraction(100), "full_house": Fraction(75), "flush": Fraction(50)})
_ALIASES = {"four_of_a_kind": "quads"}
_LABELS = {"royal": "royal flush", "straight_flush": "straight flush", "quads": "four of a kind",
           "full_house": "full house", "flush": "flush"}


class PaysError(ExactOddsError):
    """A malformed ``--pays`` specification."""


@dataclass(frozen=True, kw_only=True)
class PayLine:
    """One paying hand: its number of hands out of C(52,5) and its pay in dollars."""

    category: str
    label: str
    hands: int
    pay: Fraction

    @property
    def probability(self) -> Fraction:
        return Fraction(self.hands, N_HANDS)

    @property
    def contribution(self) -> Fraction:
        return self.probability * self.pay


@dataclass(frozen=True, kw_only=True)
class ProgressiveResult:
    """The side bet's exact return at one meter, and its exact break-even meter."""

    meter: Fraction
    pays: Mapping[str, Fraction] = field(repr=False)
    lines: tuple[PayLine, ...]
    expected_return: Fraction      # dollars per $1 bet; positive favours the player
    break_even_meter: Fraction     # the meter at which the return is exactly 0

    @property
    def hit_frequency(self) -> Fraction:
        return sum((line.probability for line in self.lines), Fraction(0))

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md); categories by their hand-category names."""
        return {
            "exact": True,
            "meter": exact(self.meter),
            "pays": {JSON_CATEGORY[k]: exact(v) for k, v in self.pays.items()},
            "lines": [{"category": JSON_CATEGORY[line.category], "hands": line.hands,
                       "probability": exact(line.probability), "pay": exact(line.pay),
                       "contribution": exact(line.contribution)} for line in self.lines],
            **with_float("expected_return", self.expected_return),
            **with_float("break_even_meter", self.break_even_meter),
            "break_even_meter_dollars": round(self.break_even_meter),
        }


# The side bet's short keys by the hand-category names used in every JSON output.
JSON_CATEGORY = {"royal": "royal_flush", "straight_flush": "straight_flush", "quads": "four_of_a_kind",
                 "full_house": "full_house", "flush": "flush"}


def category_hands() -> dict[str, int]:
    """Hands of each paying category among all 2,598,960 (straight flush excludes the royal)."""
    counts = np.bincount(rank_table(), minlength=ROYAL_FLUSH_STRENGTH + 1)

    def between(lo: int, hi: int) -> int:
        return int(counts[lo:hi].sum())

    return {
        "royal": int(counts[ROYAL_FLUSH_STRENGTH]),
        "straight_flush": between(CATEGORY_FLOOR[Category.STRAIGHT_FLUSH], ROYAL_FLUSH_STRENGTH),
        "quads": between(CATEGORY_FLOOR[Category.FOUR_OF_A_KIND], CATEGORY_FLOOR[Category.STRAIGHT_FLUSH]),
        "full_house": between(CATEGORY_FLOOR[Category.FULL_HOUSE], CATEGORY_FLOOR[Category.FOUR_OF_A_KIND]),
        "flush": between(CATEGORY_FLOOR[Category.FLUSH], CATEGORY_FLOOR[Category.FULL_HOUSE]),
    }


def parse_pays(text: str) -> dict[str, Fraction]:
    """Fixed pays from "quads=150,full_house=100,flush=50" (any subset; the rest keep their defaults).

    Amounts are read by :func:`exactodds.money.parse_amount` (non-negative, at most its bound).
    """
    pays = dict(DEFAULT_PAYS)
    seen: set[str] = set()
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        key, sep, amount = (s.strip() for s in item.partition("="))
        key = _ALIASES.get(key.lower(), key.lower())
        if not sep or key not in FIXED_CATEGORIES:
            raise PaysError(f'--pays: expected NAME=AMOUNT with NAME one of {", ".join(FIXED_CATEGORIES)}, '
                            f'got "{item}"')
        if key in seen:
            raise PaysError(f"--pays: {key} is given twice")
        seen.add(key)
        pays[key] = parse_amount(amount, name=f"--pays: the amount for {key}", error=PaysError)
    return pays


def progressive_return(
    *, meter: Amount, pays: Mapping[str, Fraction] = DEFAULT_PAYS
) -> ProgressiveResult:
    """The side bet's exact expected return per $1 at ``meter`` dollars, and its break-even meter."""
    meter = parse_amount(meter, name="the meter", error=PaysError)
    pays = {k: parse_amount(pays[k], name=f"the pay for {k}", error=PaysError) for k in FIXED_CATEGORIES}
    hands = category_hands()
    amounts = {"royal": ROYAL_SHARE * meter, "straight_flush": STRAIGHT_FLUSH_SHARE * meter,
               **{k: Fraction(pays[k]) for k in FIXED_CATEGORIES}}
    lines = tuple(PayLine(category=k, label=_LABELS[k], hands=hands[k], pay=amounts[k]) for k in _LABELS)
    expected = sum((line.contribution for line in lines), Fraction(0)) - 1
    # return(M) = (royal x M + sf x M/10 + fixed) / C(52,5) - 1 = 0
    per_meter = ROYAL_SHARE * hands["royal"] + STRAIGHT_FLUSH_SHARE * hands["straight_flush"]
    fixed = sum((Fraction(pays[k]) * hands[k] for k in FIXED_CATEGORIES), Fraction(0))
    break_even = (N_HANDS - fixed) / per_meter
    return ProgressiveResult(meter=meter, pays=MappingProxyType(dict(pays)), lines=lines,
                             expected_return=expected, break_even_meter=break_even)
