"""The Dask runner: chunks as ``dask.distributed`` tasks on a local or an existing cluster.

Each chunk is one task with its own key. Dask retries a task that raised (``RETRIES``
times) and reschedules the tasks of a worker that died on another worker; only the
returned value of a finished task is ever used, so a chunk cut short leaves no trace in
the result. Results come back in chunk order whatever order they finished in.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psutil  # type: ignore[import-untyped]

from exactodds.errors import ScaleError
from exactodds.stopping import abandon, abandoned

RETRIES = 3
CONNECT_TIMEOUT = "10s"
# Worker processes run one chunk at a time, each with one numba thread: the processes are the parallelism.
WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "OPENBLAS_NUM_THREADS": "1"}


class DaskRunner:
    """Maps chunks over a ``distributed.Client``."""

    def __init__(self, client: Any, where: str) -> None:
        self.client = client
        self.where = where

    def map(self, fn: Callable[..., Any], chunks: Sequence[tuple[Any, ...]], *,
            on_done: Callable[[int], None] | None = None) -> list[Any]:
        from distributed import as_completed

        if not chunks:
            return []
        job = f"{getattr(fn, '__name__', 'chunk')}-{uuid.uuid4().hex[:12]}"
        futures = [self.client.submit(fn, *args, key=f"{job}-{i}", retries=RETRIES, pure=False)
                   for i, args in enumerate(chunks)]
        index = {future.key: i for i, future in enumerate(futures)}
        try:
            for future in as_completed(futures):
                if future.status == "error":
                    exc = future.exception()
                    if isinstance(exc, Exception) and not _is_worker_loss(exc):
                        raise exc
                    raise ScaleError(f"chunk {index[future.key]} of {len(chunks)} failed on every "
                                     f"try: {exc}")
                if on_done is not None:
                    on_done(index[future.key])
            return [future.result() for future in futures]
        finally:
            for future in futures:
                future.release()


def _is_worker_loss(exc: BaseException) -> bool:
    return type(exc).__name__ in ("KilledWorker", "CommClosedError", "CancelledError")


@contextmanager
def dask_runner(*, scheduler: str | None, workers: int) -> Iterator[DaskRunner]:
    """A runner on the cluster at ``scheduler``, or on ``workers`` local worker processes
    started for the job (loopback only) and stopped after it."""
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            raise ScaleError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
        try:
            yield DaskRunner(client, f"the Dask cluster at {scheduler}")
        finally:
            client.close()
        return
    if workers < 1:
        raise ScaleError(f"a local Dask cluster needs at least 1 worker, got {workers}")
    try:
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR,
                               env=dict(WORKER_ENV))
    except (KeyboardInterrupt, SystemExit):
        _stop_local_workers()
        raise
    try:
        client = Client(cluster)
        try:
            yield DaskRunner(client, f"a local Dask cluster of {workers} worker processes")
        finally:
            client.close()
    except (KeyboardInterrupt, SystemExit):  # a signal: the workers' chunks are not waited for
        _stop_local_workers()
        raise
    finally:
        if not abandoned():
            cluster.close()


def _stop_local_workers() -> None:
    """Kill the local workers this process started (a graceful close waits for their chunks, which
    can take minutes) and let the command line end at once (:func:`exactodds.stopping.abandon`)."""
    for child in psutil.Process().children(recursive=True):
        try:
            child.kill()
        except psutil.Error:
            pass
    abandon()
