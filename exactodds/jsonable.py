"""The one JSON vocabulary of every result's ``to_dict()`` (documented in docs/json.md).

Exact numbers are ``"p/q"`` strings (always with a denominator), with a float beside as
``<key>_float`` where a reader wants one; counts are JSON integers; cards are lists of card
strings (a single card is a string); the paytable's name is ``paytable``; sampled figures carry
``exact`` (false), ``method``, ``samples``, ``seed``, ``standard_error`` and ``interval_95``.

>>> exact(Fraction(-1, 19)), exact(3), with_float("house_edge", Fraction(1, 4))
('-1/19', '3/1', {'house_edge': '1/4', 'house_edge_float': 0.25})
>>> card_list([51, 0])
['As', '2c']
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from exactodds.cards import format_card

JSONDict = dict[str, Any]


def exact(value: Fraction | int) -> str:
    """An exact number as "p/q" (e.g. "-1/19", "3/1")."""
    value = Fraction(value)
    return f"{value.numerator}/{value.denominator}"


def with_float(key: str, value: Fraction | int) -> JSONDict:
    """``{key: "p/q", key_float: float}``."""
    return {key: exact(value), f"{key}_float": float(value)}


def card_list(cards: Iterable[int]) -> list[str]:
    """Cards as a list of card strings, in the given order."""
    return [format_card(int(c)) for c in cards]
