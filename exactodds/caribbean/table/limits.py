"""A table session's limits: the chip values the page offers, the bounds on amounts and session
length, the default table limits, and the errors of a bet, table or deposit outside them."""

from __future__ import annotations

from typing import Any

from exactodds.errors import ExactOddsError

CHIP_VALUES = (1, 5, 25, 100)  # the chip choices the page offers; the API takes any whole chip
MAX_AMOUNT = 10**9  # a deposit or a bankroll beyond this is a typo
MAX_HANDS = 1000  # longer play is allowed; the exact session odds exist up to coach.ODDS_MAX_HANDS
DEFAULT_MIN_BET, DEFAULT_MAX_BET = 1, 100


class TableLimitError(ExactOddsError):
    """A bet outside the table's minimum and maximum, or a table set up with impossible limits."""


class DepositError(ExactOddsError):
    """A deposit that is not a positive whole amount within bounds."""


def _whole(value: Any, *, what: str, low: int, high: int, error: type[ExactOddsError]) -> int:
    """``value`` as an int in [low, high], or ``error`` naming it (booleans and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be a whole number, got {value!r}")
    if not low <= value <= high:
        shown = f"{value:,}" if abs(value) < 10**15 else f"a number of {len(str(abs(value)))} digits"
        raise error(f"{what} must be between {low:,} and {high:,}, got {shown}")
    return value
