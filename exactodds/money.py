"""One bounded parser for every money amount: paytable values, meters, pots, calls, side-bet pays.

Every amount is a non-negative exact :class:`~fractions.Fraction` of at most
:data:`MAX_AMOUNT` (one trillion units: antes, chips or dollars, whatever the caller counts in)
with a denominator of at most :data:`MAX_AMOUNT`. Larger amounts are refused with one line
(:class:`AmountError`): they are typos, and would only slow exact arithmetic down.

Accepted forms: an ``int``, a ``Fraction``, a finite ``float`` or ``Decimal`` (read through its
shortest decimal text, so ``0.1`` is exactly 1/10), or text such as ``"10"``, ``"2.5"``,
``"1e3"``, ``"5/2"``, ``"$250,000"`` or ``"1_000"``. Text is read without building huge
integers: ``"1e99999999"`` is refused at once.

>>> parse_amount("5/2"), parse_amount(" 2.5 "), parse_amount("$250,000.50", name="--meter")
(Fraction(5, 2), Fraction(5, 2), Fraction(500001, 2))
>>> parse_amount("1e400", name="--meter")
Traceback (most recent call last):
...
exactodds.money.AmountError: --meter is too large: 1e400 (at most 1,000,000,000,000)
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

from exactodds.errors import ExactOddsError

MAX_AMOUNT = 10**12
"""The largest amount (and the largest denominator) any money input may have."""

_MAX_DIGITS = len(str(MAX_AMOUNT)) + 8  # digits a text may carry before it is surely out of range
_GROUPED = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$")  # "250,000" or "1,000.50"

Amount = int | Fraction | float | Decimal | str


class AmountError(ExactOddsError):
    """A money amount that is not a number, is negative, or is out of the documented range."""


class _TooFine(Exception):
    """A decimal with more places than any allowed denominator."""


def parse_amount(value: Amount, *, name: str = "amount",
                 error: type[ExactOddsError] = AmountError) -> Fraction:
    """``value`` as an exact non-negative Fraction of at most MAX_AMOUNT.

    Raises ``error`` (AmountError unless the caller names its own ExactOddsError subclass) with a
    message naming ``name``, the value and what is expected.
    """
    shown = str(value).strip() if isinstance(value, str) else str(value)
    wrong = error(f'{name} must be a number such as 10, 2.5 or 5/2, got "{shown}"')
    too_large = error(f"{name} is too large: {shown} (at most {MAX_AMOUNT:,})")
    too_fine = error(f"{name} is too fine a fraction: {shown} (denominator at most {MAX_AMOUNT:,})")
    if isinstance(value, bool) or not isinstance(value, int | Fraction | float | Decimal | str):
        raise error(f"{name} must be a number such as 10, 2.5 or 5/2, got {type(value).__name__}")
    if isinstance(value, float | Decimal) and not _is_finite(value):
        if str(value).lower().startswith("-inf"):
            raise error(f"{name} must not be negative, got {shown}")
        if str(value).lstrip("+").lower() in ("inf", "infinity"):
            raise too_large
        raise wrong
    try:
        if isinstance(value, int | Fraction):
            amount = Fraction(value)
            if abs(amount.numerator) > MAX_AMOUNT * amount.denominator:
                raise OverflowError
        else:
            amount = _from_text(shown)
    except OverflowError:
        if shown.startswith("-"):
            raise error(f"{name} must not be negative, got {shown}") from None
        raise too_large from None
    except _TooFine:
        raise too_fine from None
    except (ValueError, ArithmeticError):
        raise wrong from None
    if amount < 0:
        raise error(f"{name} must not be negative, got {shown}")
    if amount > MAX_AMOUNT:
        raise too_large
    if amount.denominator > MAX_AMOUNT:
        raise too_fine
    return amount


def _is_finite(value: float | Decimal) -> bool:
    return value.is_finite() if isinstance(value, Decimal) else value == value and abs(value) != float("inf")


def _from_text(text: str) -> Fraction:
    """A Fraction from "p/q" or a decimal. OverflowError when far out of range (before building a huge
    integer); ValueError or another ArithmeticError when not a number."""
    text = text.removeprefix("$").replace("_", "")
    if _GROUPED.match(text):
        text = text.replace(",", "")
    if "/" in text:
        numerator, denominator = (part.strip() for part in text.split("/"))
        if len(numerator.lstrip("+-")) > _MAX_DIGITS:
            raise OverflowError(text)
        if len(denominator.lstrip("+-")) > _MAX_DIGITS:
            raise _TooFine(text)
        return Fraction(int(numerator), int(denominator))
    try:
        number = Decimal(text)
    except InvalidOperation:
        raise ValueError(text) from None
    if not number.is_finite():
        if number.is_infinite():
            raise OverflowError(text)
        raise ValueError(text)
    if not number:
        return Fraction(0)
    if number.adjusted() > _MAX_DIGITS:
        raise OverflowError(text)
    if number.adjusted() < -_MAX_DIGITS or len(number.as_tuple().digits) > 3 * _MAX_DIGITS:
        raise _TooFine(text)  # far finer than any denominator allowed; refused before building it
    return Fraction(number)
