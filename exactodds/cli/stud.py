"""``exactodds stud ...``: the five-card stud command family."""

from __future__ import annotations

import click

from exactodds.cli import stud_equity


@click.group()
def stud() -> None:
    """Five-card stud (seed 004): referee, hand histories and equity."""


stud.add_command(stud_equity.equity)
