"""``exactodds warm-up``: compile every kernel family now, so no later command waits for it."""

from __future__ import annotations

import time

import click

from exactodds.cli import compile_notice
from exactodds.cli.progress import terminal_progress
from exactodds.warmup import default_jobs, warm_up


@click.command(name="warm-up")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, metavar="N",
              help="Processes compiling at once (default: one per core).")
def warm_up_command(jobs: int | None) -> None:
    """Compile every counting kernel now (first run after installing: about half a minute), with a bar.

    Each family of kernels is compiled on its first use and kept in numba's cache; this compiles
    them all at once, in parallel processes (one per core), so that no later command waits. The
    bar counts the kernels compiled. Run again, it only loads them (seconds).

    Example: exactodds warm-up
    """
    compile_notice.uninstall()  # the families are compiled here, all of them
    start = time.perf_counter()
    with terminal_progress() as progress:
        families = warm_up(progress=progress, jobs=jobs or default_jobs())
    click.echo(f"{len(families)} kernel families ready in {time.perf_counter() - start:.1f} s")
