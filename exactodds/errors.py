"""Exceptions for bad input. Every user error raised by the library is an ExactOddsError.

The command line turns any ExactOddsError into one readable line and a non-zero exit.
"""


class ExactOddsError(ValueError):
    """Base class of every error caused by what the user asked for."""


class CardError(ExactOddsError):
    """A card that cannot be read, e.g. "1x"."""


class DuplicateCardError(ExactOddsError):
    """The same card appears twice among cards that must be distinct."""


class HandSizeError(ExactOddsError):
    """A hand with the wrong number of cards."""


class ProfileError(ExactOddsError):
    """An unknown paytable or a malformed profile file."""


class IllegalActionError(ExactOddsError):
    """An action that the rules do not allow in the current state."""


class StrategyError(ExactOddsError):
    """An unknown strategy or a malformed strategy file."""


class NotEnoughCardsError(ExactOddsError):
    """Too few unseen cards are left to deal what a hand still needs."""


class ScaleError(ExactOddsError):
    """A cluster that cannot be reached or used, or a chunk that failed on every try."""
