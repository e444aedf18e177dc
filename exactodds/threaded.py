"""Serial compiled kernels run over a range on several threads: :func:`threaded_sum`.

A kernel that takes ``(lo, hi, ...)`` and returns the counts of the items ``lo <= i < hi`` (a
numba kernel compiled with ``nogil=True``, so that threads run it at once) is called on chunks
of ``range(count)`` by :func:`thread_count` threads, each taking the next chunk when it is done
(the items' costs differ widely); the chunks' counts are summed, exactly (integer arrays).

This stands in for numba's ``parallel=True`` loops: the same speed, but a kernel without a
parallel loop compiles in a fraction of the time (the first run of a command pays it).

>>> import numpy as np
>>> threaded_sum(lambda lo, hi: np.array([hi - lo]), 1000, threads=3)
array([1000])
>>> run_spans(lambda lo, hi: (lo, hi), 10, threads=2, chunks=3)
[(0, 3), (3, 6), (6, 10)]
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

R = TypeVar("R")

CHUNKS_PER_THREAD = 8  # enough for the threads to finish together when items' costs differ


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def thread_count() -> int:
    """Threads a kernel may use: ``$NUMBA_NUM_THREADS`` when set (a Dask worker sets 1), else
    :func:`usable_cores`."""
    configured = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    return usable_cores()


def chunk_bounds(count: int, chunks: int, *, start: int = 0) -> list[tuple[int, int]]:
    """``range(start, count)`` cut into at most ``chunks`` consecutive non-empty ``(lo, hi)`` pieces.

    >>> chunk_bounds(10, 4)
    [(0, 2), (2, 5), (5, 7), (7, 10)]
    >>> chunk_bounds(10, 2, start=5)
    [(5, 7), (7, 10)]
    """
    size = max(0, count - start)
    chunks = max(1, min(chunks, size))
    edges = [start + size * k // chunks for k in range(chunks + 1)]
    return [(lo, hi) for lo, hi in zip(edges, edges[1:], strict=False) if hi > lo]


def run_spans(kernel: Callable[..., R], count: int, *args: Any, threads: int | None = None,
              chunks: int | None = None, start: int = 0) -> list[R]:
    """``kernel(lo, hi, *args)`` for chunks ``(lo, hi)`` covering ``range(start, count)`` in order,
    run on ``threads`` threads (default :func:`thread_count`) in ``chunks`` chunks (default
    ``CHUNKS_PER_THREAD`` per thread); returns the calls' results in chunk order. One thread (or
    one chunk) makes the one call ``kernel(start, count, *args)`` on this thread. A kernel that
    writes into an argument must write only the rows of its span. Raises what a call raises."""
    threads = thread_count() if threads is None else max(1, threads)
    bounds = chunk_bounds(count, CHUNKS_PER_THREAD * threads if chunks is None else chunks, start=start)
    if threads == 1 or len(bounds) <= 1:
        return [kernel(start, max(start, count), *args)]
    pending = iter(enumerate(bounds))
    lock = threading.Lock()
    results: dict[int, R] = {}
    failures: list[BaseException] = []

    def work() -> None:
        try:
            while not failures:
                with lock:
                    task = next(pending, None)
                if task is None:
                    return
                index, (lo, hi) = task
                results[index] = kernel(lo, hi, *args)
        except BaseException as exc:  # raised on the calling thread below
            failures.append(exc)

    workers = [threading.Thread(target=work, name=f"exactodds-kernel-{k}", daemon=True)
               for k in range(min(threads, len(bounds)))]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    if failures:
        raise failures[0]
    return [results[index] for index in range(len(bounds))]


def threaded_sum(kernel: Callable[..., np.ndarray], count: int, *args: Any, threads: int | None = None,
                 chunks: int | None = None, start: int = 0) -> np.ndarray:
    """The sum of ``kernel(lo, hi, *args)`` (integer arrays, so exact) over chunks covering
    ``range(start, count)``, run as :func:`run_spans` runs them."""
    parts = run_spans(kernel, count, *args, threads=threads, chunks=chunks, start=start)
    total = parts[0]
    for counts in parts[1:]:
        total = total + counts
    return total
