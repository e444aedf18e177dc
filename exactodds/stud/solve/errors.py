"""The solver's errors: a position, range or request it does not cover."""

from __future__ import annotations

from exactodds.errors import ExactOddsError


class SolveError(ExactOddsError):
    """A position the heads-up solver does not cover (more than two players, an early round, a player
    all-in, impossible stacks or bets)."""


class RangeError(SolveError):
    """A range that cannot be used: an unreadable entry, a seen card, no positive weight."""
