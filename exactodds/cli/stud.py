"""``exactodds stud``: the five-card stud command family (one module per family of commands)."""

from __future__ import annotations

import click

from exactodds.cli import stud_equity, stud_hands


@click.group()
def stud() -> None:
    """Five-card stud (seed 004): referee, hand histories and equity."""


stud.add_command(stud_hands.replay)
stud.add_command(stud_hands.deal)
stud.add_command(stud_hands.play)
stud.add_command(stud_equity.equity)
