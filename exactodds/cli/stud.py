"""The ``exactodds stud`` command group; each command family registers itself here."""

from __future__ import annotations

import click

from exactodds.cli import stud_hands


@click.group()
def stud() -> None:
    """Five-card stud (seed 004): referee, hand histories and equity."""


stud.add_command(stud_hands.replay)
stud.add_command(stud_hands.deal)
stud.add_command(stud_hands.play)
