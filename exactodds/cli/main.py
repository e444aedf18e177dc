"""The top-level ``exactodds`` group. Each command family lives in its own module."""

from __future__ import annotations

import click

from exactodds import __version__
from exactodds.cli import hands, stud
from exactodds.errors import ExactOddsError


class InputError(click.ClickException):
    """A user error: printed as one line "Error: ...", exit status 2."""

    exit_code = 2


class ExactOddsGroup(click.Group):
    """A group that turns any user error from the library into one line and exit status 2."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except ExactOddsError as exc:
            raise InputError(str(exc)) from None


@click.group(cls=ExactOddsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="exactodds")
def cli() -> None:
    """Exact odds of stud poker games, by exhaustive counting.

    Hand strengths run 0..7461; higher is stronger.
    """


cli.add_command(hands.rank)
cli.add_command(hands.compare)
cli.add_command(stud.stud)
