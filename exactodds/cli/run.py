"""A counting command's run: its chunks here or on a Dask cluster, its progress on the terminal, then
its result printed, as one JSON object (``--json``) or as text."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from typing import Any, Protocol, TypeVar

import click

from exactodds.cli.options import echo_json
from exactodds.cli.progress import terminal_progress
from exactodds.progress import Progress
from exactodds.scale import ChunkRunner, open_runner


class Reported(Protocol):
    """A result the command line prints: its JSON object is ``to_dict()``."""

    def to_dict(self) -> dict[str, Any]: ...


R = TypeVar("R", bound=Reported)


def run_and_show(compute: Callable[[Progress, ChunkRunner | None], R], text: Callable[[R], str], *,
                 as_json: bool, scheduler: str | None, workers: int | None, chunked: bool = True) -> R:
    """Run ``compute(progress, runner)`` and print its result; returns the result.

    ``runner`` runs chunks in this process or on Dask (``--scheduler``, ``--workers``), or is None when
    the work is not ``chunked``; the progress is drawn on a terminal and silent with ``--json``. Both
    end before the result is printed: ``to_dict()`` as JSON with ``--json``, else ``text(result)``."""
    runs = open_runner(scheduler=scheduler, workers=workers) if chunked else nullcontext(None)
    with runs as runner, terminal_progress(as_json=as_json) as progress:
        result = compute(progress, runner)
    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(text(result))
    return result
