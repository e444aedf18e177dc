"""The top-level ``exactodds`` group. Each command family lives in its own module."""

from __future__ import annotations

import sys

import click

from exactodds import __version__
from exactodds.cli import caribbean, hands, stud
from exactodds.errors import ExactOddsError


class InputError(click.ClickException):
    """A user error: printed as one line "Error: ...", exit status 2."""

    exit_code = 2


class ExactOddsGroup(click.Group):
    """A group that reports every user error as one line ``Error: ...`` and exit status 2.

    Library errors (ExactOddsError) and click's own usage errors alike: no usage dump,
    no traceback.
    """

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except ExactOddsError as exc:
            raise InputError(str(exc)) from None
        except OSError as exc:  # a path the user gave cannot be read or written
            where = f": {exc.filename}" if exc.filename else ""
            raise InputError(f"{exc.strerror or exc}{where}") from None

    def main(self, *args, standalone_mode: bool = True, **kwargs):  # type: ignore[override]
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)
        except click.ClickException as exc:
            click.echo(f"Error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=ExactOddsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="exactodds")
def cli() -> None:
    """Exact odds of stud poker games, by exhaustive counting.

    Hand strengths run 0..7461; higher is stronger.
    """


cli.add_command(hands.rank)
cli.add_command(hands.compare)
cli.add_command(caribbean.caribbean)
cli.add_command(stud.stud)
