"""Running embarrassingly parallel chunks of work in this process or on Dask.

A job is a list of chunks: calls ``fn(*args)`` of one top-level function, each fixed by its
arguments alone (a sampled chunk carries its seed and chunk index, so it draws the same
samples wherever it runs). A runner maps the function over the chunks and returns the
results in chunk order; the caller combines them exactly (integer or ``Fraction`` sums), so
the answer is identical whether the chunks ran here, on two local processes or on a cluster.

* :class:`SerialRunner` - every chunk in this process, in order (no Dask needed).
* :func:`open_runner` - the runner a command asked for: a Dask cluster when given a
  scheduler address (``--scheduler`` or ``$EXACTODDS_SCHEDULER``) or a number of local
  worker processes, else serial. Dask is imported only when a Dask runner is opened
  (:mod:`exactodds.scale.dask_runner`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from exactodds.errors import ScaleError
from exactodds.threaded import usable_cores

SCHEDULER_ENV = "EXACTODDS_SCHEDULER"


class ChunkRunner(Protocol):
    """Maps a function over chunk arguments; results in chunk order."""

    where: str

    def map(self, fn: Callable[..., Any], chunks: Sequence[tuple[Any, ...]], *,
            on_done: Callable[[int], None] | None = None) -> list[Any]:
        """``[fn(*args) for args in chunks]``; ``on_done(i)`` after chunk i finished (any order)."""
        ...


class SerialRunner:
    """Every chunk in this process, one after the other."""

    where = "this process"

    def map(self, fn: Callable[..., Any], chunks: Sequence[tuple[Any, ...]], *,
            on_done: Callable[[int], None] | None = None) -> list[Any]:
        results = []
        for i, args in enumerate(chunks):
            results.append(fn(*args))
            if on_done is not None:
                on_done(i)
        return results


def scheduler_address(scheduler: str | None) -> str | None:
    """The scheduler to use: ``scheduler`` if given, else ``$EXACTODDS_SCHEDULER``, else None."""
    address = scheduler if scheduler else os.environ.get(SCHEDULER_ENV, "").strip() or None
    if address is not None and not address.startswith(("tcp://", "tls://", "inproc://", "ucx://")):
        raise ScaleError(f"scheduler address {address!r} must look like tcp://HOST:PORT")
    return address


def check_workers(workers: int | None) -> None:
    """Raise ScaleError unless ``workers`` is None or 0..256 (0: run in this process)."""
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)
                                or not 0 <= workers <= 256):
        raise ScaleError(f"workers must be a whole number from 0 to 256, got {workers!r}")


@contextmanager
def open_runner(*, scheduler: str | None = None, workers: int | None = None,
                default_workers: int = 0) -> Iterator[ChunkRunner]:
    """The runner for a command's ``--scheduler`` / ``--workers`` options.

    A scheduler address (argument or ``$EXACTODDS_SCHEDULER``) connects to that Dask
    cluster (``workers`` is then ignored). Otherwise ``workers`` (or ``default_workers``
    when None) local Dask worker processes are started for the job and stopped after it;
    0 runs every chunk in this process without Dask.
    """
    check_workers(workers)
    address = scheduler_address(scheduler)
    count = default_workers if workers is None else workers
    if address is None and count == 0:
        yield SerialRunner()
        return
    from exactodds.scale.dask_runner import dask_runner

    with dask_runner(scheduler=address, workers=count) as runner:
        yield runner


def local_workers() -> int:
    """The default number of local worker processes: the CPUs this process may use."""
    return usable_cores()
