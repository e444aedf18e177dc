"""``--scheduler`` and ``--workers``: where a command's chunks run (see :mod:`exactodds.scale`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from exactodds.scale import SCHEDULER_ENV


def scale_options(*, default_workers: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The two options; ``default_workers`` describes the default in the help text."""
    scheduler = click.option(
        "--scheduler", "scheduler", default=None, metavar="tcp://HOST:PORT",
        help=f"Run the chunks on this existing Dask cluster (default: ${SCHEDULER_ENV} if set).")
    workers = click.option(
        "--workers", "workers", type=click.IntRange(0, 256), default=None, metavar="N",
        help=f"Without a scheduler: start N local Dask worker processes for the job; 0 runs it in this "
             f"process without Dask. Default: {default_workers}.")

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        return scheduler(workers(fn))

    return decorate
