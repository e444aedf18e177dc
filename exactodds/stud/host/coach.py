"""The coach beside a player's buttons, in plain words, found off the request path.

:func:`coach_words` is the one function the host's page asks: the advice for the player to act,
from that player's view only (their own hole card, every up card, the folded hands' up cards:
:func:`~exactodds.stud.coach.coach_advice`), as sentences. It can take a second or more (an exact
count, or a labelled sample past ``COACH_BUDGET`` seconds), so the server runs it in a
:class:`~exactodds.web.worker.KeyedWorker` on a copy of the hand taken when the turn began.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from exactodds.display import percent, signed
from exactodds.stud.coach import coach_advice
from exactodds.stud.engine.state import StudHand
from exactodds.stud.equity import SampledEquity

COACH_BUDGET = 2.0  # seconds an exact count may take before the coach samples (and says so)


@dataclass(frozen=True)
class CoachJob:
    """The advice for one turn: (game, turn, seat) is the job's identity; ``hand`` a copy of the hand
    at that turn (the live hand moves on), ``player`` the seat's index in it."""

    game: str
    turn: int
    seat: int
    hand: StudHand = field(compare=False, hash=False, repr=False)
    player: int = field(compare=False, hash=False)

    @classmethod
    def at(cls, *, game: str, turn: int, seat: int, hand: StudHand, player: int) -> CoachJob:
        """The job of this turn, on a copy of ``hand``."""
        return cls(game=game, turn=turn, seat=seat, hand=copy.deepcopy(hand), player=player)


@dataclass(frozen=True, kw_only=True)
class CoachNote:
    """The coach's advice in sentences; ``best`` is the action it recommends, or None when it only
    reports the chances (nothing to call)."""

    lines: tuple[str, ...]
    best: str | None
    equity: float
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        return {"lines": list(self.lines), "best": self.best, "equity": self.equity, "exact": self.exact}


def coach_words(job: CoachJob) -> CoachNote:
    """The advice for the job's player to act, in plain words (see the module's docstring)."""
    advice = coach_advice(job.hand, job.player, budget=COACH_BUDGET)
    equity = advice.player_equity
    eq = advice.equity
    if isinstance(eq, SampledEquity):
        chance = (f"Your chance of winning at the showdown, if nobody folds: about {percent(equity, 0)} "
                  f"(estimated from {eq.samples:,} random deals).")
    else:
        chance = f"Your chance of winning at the showdown, if nobody folds: {percent(equity, 1)}."
    lines = [chance]
    d = advice.decision
    best = None
    legal = job.hand.legal()
    if legal.bring_in is not None:
        complete = f" or complete to {legal.raise_to[0]}" if legal.raise_to else ""
        lines.append(f"You show the lowest card: the rules make you bring in {legal.bring_in}{complete}.")
    elif d is not None:
        best = d.best
        lines.append(f"Calling {d.to_call} to win a pot of {d.pot} pays when you win more than "
                     f"{percent(d.break_even_equity, 0)} of the time.")
        lines.append(f"Calling is worth {signed(d.ev_call, 2)} chips on average against folding (the "
                     f"cards to come and later bets aside): {d.best}.")
    else:
        lines.append("Nothing to call: checking costs nothing.")
    return CoachNote(lines=tuple(lines), best=best, equity=float(equity),
                     exact=not isinstance(eq, SampledEquity))
