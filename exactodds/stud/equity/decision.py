"""The call/fold decision from a showdown equity: EV of calling against folding (worth 0)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict, exact, with_float
from exactodds.money import Amount, parse_amount
from exactodds.stud.equity.position import UP_CARDS, StudPosition
from exactodds.stud.equity.results import EquityResult

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

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): exact amounts and EVs as "p/q"."""
        return {"pot": exact(self.pot), "to_call": exact(self.to_call), "equity": exact(self.equity),
                **with_float("ev_call", self.ev_call), "ev_fold": exact(self.ev_fold),
                "break_even_equity": exact(self.break_even_equity), "best": self.best,
                "exact": self.exact, "kind": self.kind}


def check_call_amounts(pot: Amount, to_call: Amount, *,
                       names: tuple[str, str] = ("pot", "to_call")) -> tuple[Fraction, Fraction]:
    """The pot and amount to call as exact fractions (see :func:`parse_amount`); not both 0."""
    pot_value, call_value = (parse_amount(pot, name=names[0], error=DecisionError),
                              parse_amount(to_call, name=names[1], error=DecisionError))
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
