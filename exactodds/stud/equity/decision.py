"""The call/fold decision from a showdown equity: EV of calling against folding (worth 0)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import numpy as np

from exactodds.errors import ExactOddsError
from exactodds.stud.equity.methods import EquityResult
from exactodds.stud.equity.position import UP_CARDS, StudPosition

MAX_AMOUNT = 10**12  # chips in a pot or a call: more is a typo, and would only slow exact arithmetic
SHOWDOWN_EV = "showdown EV (last street)"
POT_ODDS_EV = "immediate pot-odds EV (future betting not modelled)"


class DecisionError(ExactOddsError):
    """A pot, amount to call or seat that the call/fold decision cannot use."""



@dataclass(frozen=True, kw_only=True)
class CallDecision:
    """EV of calling ``to_call`` into ``pot`` against folding (folding is worth 0).

    ``ev_call = equity * (pot + to_call) - to_call``. On the last street with exact
    equity this is the exact showdown EV (the call ends the betting) and ``exact`` is
    True; earlier it is the immediate pot-odds EV (``kind`` says so): future betting is
    not modelled, so ``exact`` is False even though the equity may be exact.
    """

    pot: Fraction
    to_call: Fraction
    equity: Fraction
    ev_call: Fraction
    ev_fold: Fraction
    break_even_equity: Fraction
    best: str
    exact: bool
    kind: str


Amount = int | Fraction | float | Decimal | str


def parse_amount(value: Amount, *, name: str = "amount") -> Fraction:
    """A non-negative exact amount of chips, at most MAX_AMOUNT: an int, Fraction, finite float or
    Decimal, or text such as ``"10"``, ``"2.5"``, ``"1e3"`` or ``"5/2"``.

    Text is read without building huge integers (``"1e99999999"`` is refused at once).

    >>> parse_amount("5/2"), parse_amount(" 2.5 ")
    (Fraction(5, 2), Fraction(5, 2))
    """
    wrong = DecisionError(f'{name} must be a number such as 10, 2.5 or 5/2, got "{value}"')
    if isinstance(value, bool) or not isinstance(value, (int, Fraction, float, Decimal, str)):
        raise wrong
    try:
        if isinstance(value, str):
            amount = _amount_from_text(value.strip())
        elif isinstance(value, (float, Decimal)):
            amount = _amount_from_text(str(value))
        else:
            amount = Fraction(value)
    except OverflowError:
        raise DecisionError(f"{name} {value} is out of range (0 to {MAX_AMOUNT:,})") from None
    except (ValueError, ArithmeticError):
        raise wrong from None
    if amount < 0:
        raise DecisionError(f"{name} must not be negative, got {value}")
    if amount > MAX_AMOUNT:
        raise DecisionError(f"{name} {value} is out of range (0 to {MAX_AMOUNT:,})")
    if amount.denominator > MAX_AMOUNT:
        raise DecisionError(f"{name} {value} is too fine a fraction (denominator at most {MAX_AMOUNT:,})")
    return amount


def _amount_from_text(text: str) -> Fraction:
    """Fraction of "p/q" or a decimal: OverflowError when far out of range (before building any
    huge integer), ValueError or another ArithmeticError when not a number."""
    if "/" in text:
        numerator, denominator = text.split("/")
        if len(numerator.strip()) > 20 or len(denominator.strip()) > 20:
            raise OverflowError(text)
        return Fraction(int(numerator), int(denominator))
    number = Decimal(text)  # InvalidOperation (an ArithmeticError) when not a number
    if not number.is_finite():
        raise ValueError(text)
    if number and (len(number.as_tuple().digits) > 30 or not -15 <= number.adjusted() <= 15):
        raise OverflowError(text)
    return Fraction(number) if number else Fraction(0)


def check_call_amounts(pot: Amount, to_call: Amount, *,
                       names: tuple[str, str] = ("pot", "to_call")) -> tuple[Fraction, Fraction]:
    """The pot and amount to call as exact fractions (see :func:`parse_amount`); not both 0."""
    pot_value, call_value = parse_amount(pot, name=names[0]), parse_amount(to_call, name=names[1])
    if pot_value + call_value == 0:
        raise DecisionError(f"{names[0]} and {names[1]} cannot both be 0")
    return pot_value, call_value


def call_decision(result: EquityResult, position: StudPosition, *, pot: Amount, to_call: Amount,
                  seat: int = 0) -> CallDecision:
    """Call/fold EV for the player at index ``seat`` (default: the first player).

    Returns a :class:`CallDecision`; ``ev_call`` is in chips, higher is better, and
    folding is worth 0.

    >>> from exactodds.stud.equity import parse_position, stud_equity
    >>> position = parse_position(["Kh | 9c 4d Ks 2h", "? | Qh Qs 7d 3c"])
    >>> d = call_decision(stud_equity(position), position, pot=10, to_call=2)
    >>> d.best, d.equity, d.ev_call, d.kind
    ('call', Fraction(35, 43), Fraction(334, 43), 'showdown EV (last street)')
    """
    pot, to_call = check_call_amounts(pot, to_call)
    n_players = len(result.players)
    if len(position.players) != n_players:
        raise DecisionError(f"the result has {n_players} players but the position {len(position.players)}")
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n_players:
        raise DecisionError(f"seat must be a player index 0..{n_players - 1}, got {seat!r}")
    equity = result.players[seat].equity
    ev_call = equity * (pot + to_call) - to_call
    last = position.street == UP_CARDS
    kind = SHOWDOWN_EV if last else POT_ODDS_EV
    return CallDecision(
        pot=pot, to_call=to_call, equity=equity, ev_call=ev_call, ev_fold=Fraction(0),
        break_even_equity=to_call / (pot + to_call),
        best="call" if ev_call > 0 else ("fold" if ev_call < 0 else "either"),
        exact=result.exact and last, kind=kind,
    )
