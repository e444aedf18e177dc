"""``exactodds stud``: the five-card stud command family (one module per family of commands)."""

from __future__ import annotations

import click

from exactodds.cli.lazy import LazyGroup


@click.group(cls=LazyGroup, lazy_commands={
    "replay": "exactodds.cli.stud.hands:replay",
    "deal": "exactodds.cli.stud.hands:deal",
    "play": "exactodds.cli.stud.play:play",
    "equity": "exactodds.cli.stud.equity:equity",
    "table": "exactodds.cli.stud.table:table",
    "solve": "exactodds.cli.stud.solve:solve",
    "host": "exactodds.cli.stud.host:host",
})
def stud() -> None:
    """Five-card stud (the home fixed-limit five-card stud rules): referee, hand histories, equity and
    the heads-up equilibrium."""
