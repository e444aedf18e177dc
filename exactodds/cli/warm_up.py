"""``exactodds warm-up``: compile every kernel family now, so no later command waits for it."""

from __future__ import annotations

import time

import click

from exactodds.cli.progress import terminal_progress
from exactodds.warmup import warm_up


@click.command(name="warm-up")
def warm_up_command() -> None:
    """Compile every counting kernel now (first run after installing: about a minute), with a bar.

    Each family of kernels is compiled on its first use and kept in numba's cache; this compiles
    them all at once, so that no later command waits. Run again, it only loads them (seconds).

    Example: exactodds warm-up
    """
    start = time.perf_counter()
    with terminal_progress() as progress:
        families = warm_up(progress=progress)
    click.echo(f"{len(families)} kernel families ready in {time.perf_counter() - start:.1f} s")
