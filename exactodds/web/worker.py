"""One background worker for a web table's slow jobs: bounded CPU, never inside a request.

A job that takes seconds (the exact odds of a session, a strategy card, a coach's advice) is
run here: one daemon thread, one job at a time, a queue of at most ``limit`` jobs, each key
queued once however many requests ask for it. A request never waits: it reads
:meth:`KeyedWorker.lookup` (the result, or where the job stands as a :class:`JobStatus`) and
asks again later.

>>> worker = KeyedWorker(lambda n: n * n, name="squares", limit=2, failure_text=lambda n: f"{n}² failed")
>>> worker.lookup(7)
(None, <JobStatus.QUEUED: 'queued'>)
>>> worker.wait_idle(5)
True
>>> worker.lookup(7)
(49, <JobStatus.READY: 'ready'>)
>>> worker.stop()
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Hashable
from enum import StrEnum
from typing import Any, Generic, NamedTuple, TypeVar

from exactodds.errors import ExactOddsError

K = TypeVar("K", bound=Hashable)
R = TypeVar("R")
DEFAULT_LIMIT = 4  # jobs waiting at most; beyond it a request is told "busy" and asks again later
log = logging.getLogger("exactodds.table")


class JobStatus(StrEnum):
    """Where the job of a key stands."""

    READY = "ready"              # the result is there
    QUEUED = "queued"            # waiting for the worker
    RUNNING = "running"          # the worker is on it now
    BUSY = "busy"                # the queue is full: ask again later
    FAILED = "failed"            # the job failed: :meth:`KeyedWorker.failure` says why
    LATER = "later"              # not asked for yet (the caller queues it when it is wanted)
    UNAVAILABLE = "unavailable"  # no job can give it (the caller's rule)


class JobFailure(NamedTuple):
    """Why a job failed (one line) and whether the request is to blame (a library error: a client
    error) rather than the server."""

    message: str
    client_error: bool


class KeyedWorker(Generic[K, R]):
    """One daemon thread running ``compute(key)`` for a bounded, deduplicated queue of keys.

    ``failure_text(key)`` says in one line that the key's job failed, e.g. "the strategy card of
    standard could not be found" (the log and :meth:`failure` use it). ``start_delay``: seconds
    before the first job (a server's first page comes first). ``keep_failures``: a failed job is
    remembered and said to every later request (True), or forgotten so that a later request queues
    it again (False). ``keep``: results kept at most (the oldest dropped first), None for all.
    """

    def __init__(self, compute: Callable[[K], R | None], *, name: str, limit: int = DEFAULT_LIMIT,
                 failure_text: Callable[[K], str], start_delay: float = 0.0,
                 keep_failures: bool = True, keep: int | None = None) -> None:
        self.compute, self.limit, self.failure_text, self.keep = compute, limit, failure_text, keep
        self.start_delay, self.keep_failures = start_delay, keep_failures
        self.started = 0  # jobs begun so far
        self._queue: queue.Queue[K | None] = queue.Queue()
        self._queued: set[K] = set()
        self._running: K | None = None
        self._ready: dict[K, R] = {}
        self._failed: dict[K, JobFailure] = {}
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._thread = threading.Thread(target=self._run, name=f"exactodds-{name}", daemon=True)
        self._thread.start()

    def known(self, key: K) -> tuple[R | None, JobStatus | None]:
        """The result of ``key`` and its status, without queueing it (status None: never asked)."""
        with self._lock:
            return self._known(key)

    def _known(self, key: K) -> tuple[R | None, JobStatus | None]:
        if key in self._ready:
            return self._ready[key], JobStatus.READY
        if key in self._failed:
            return None, JobStatus.FAILED
        if self._running == key:
            return None, JobStatus.RUNNING
        if key in self._queued:
            return None, JobStatus.QUEUED
        return None, None

    def lookup(self, key: K) -> tuple[R | None, JobStatus]:
        """The result of ``key`` if there, and its status; queues it if not (never blocks)."""
        with self._lock:
            result, status = self._known(key)
            if status is not None:
                return result, status
            return None, self._enqueue(key)

    def request(self, key: K) -> JobStatus:
        """Queue ``key`` unless queued, running, done or failed; its status (never blocks)."""
        return self.lookup(key)[1]

    def put(self, key: K, result: R) -> None:
        """Keep a result found elsewhere (e.g. in a cache) as the key's result."""
        with self._lock:
            self._keep(key, result)

    def _keep(self, key: K, result: R) -> None:
        self._ready[key] = result
        while self.keep is not None and len(self._ready) > self.keep:
            del self._ready[next(iter(self._ready))]

    def _enqueue(self, key: K) -> JobStatus:
        if len(self._queued) >= self.limit:
            return JobStatus.BUSY
        self._queued.add(key)
        self._queue.put(key)
        return JobStatus.QUEUED

    def failure(self, key: K) -> JobFailure | None:
        """Why the job of ``key`` failed, or None if it did not (or was forgotten)."""
        with self._lock:
            return self._failed.get(key)

    def snapshot(self) -> dict[str, Any]:
        """The worker's state: jobs queued, whether one runs, the limit, jobs begun, results kept,
        failures kept."""
        with self._lock:
            return {"queued": len(self._queued), "running": self._running is not None, "limit": self.limit,
                    "started": self.started, "ready": len(self._ready), "failed": len(self._failed)}

    def wait_idle(self, timeout: float) -> bool:
        """Wait until nothing is queued or running (at most ``timeout`` seconds); whether it is idle."""
        deadline = time.monotonic() + timeout
        with self._idle:
            while self._queued or self._running is not None:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._idle.wait(left)
            return True

    def stop(self) -> None:
        """Stop after the job in hand, dropping the keys still queued (a daemon thread: a job in
        progress does not delay exit)."""
        self._stopping.set()
        with self._lock:
            self._queued.clear()
            self._idle.notify_all()
        self._queue.put(None)

    def _run(self) -> None:
        if self._stopping.wait(self.start_delay):
            return
        while True:
            key = self._queue.get()
            if key is None or self._stopping.is_set():
                return
            with self._lock:
                self._queued.discard(key)
                self._running = key
                self.started += 1
            result: R | None = None
            failed: JobFailure | None = None
            try:
                result = self.compute(key)
            except ExactOddsError as exc:  # the request cannot be served: said to every later request
                failed = JobFailure(str(exc).splitlines()[0] if str(exc) else type(exc).__name__, True)
                if not self.keep_failures:
                    log.exception("%s", self.failure_text(key))
            except Exception:  # logged; the same job would fail again, so it is kept (unless told not to)
                log.exception("%s", self.failure_text(key))
                failed = JobFailure(f"{self.failure_text(key)} (see the server log)", False)
            with self._lock:
                self._running = None
                if result is not None:
                    self._keep(key, result)
                if failed is not None and self.keep_failures:
                    self._failed[key] = failed
                self._idle.notify_all()
