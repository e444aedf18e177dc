"""Compiling kernels in parallel worker processes: :func:`run_in_workers`.

Each task (a line of text) compiles some kernels in a worker process ``python -m MODULE``; numba's
on-disk cache is shared, so what one process compiles, every later process loads. Two processes may
compile the same kernel only with the same argument types (one signature per kernel, tested): numba
numbers a kernel's cached overloads without a lock between processes. :func:`stop_workers` ends the
workers still running when the command line ends.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO

from exactodds.errors import ExactOddsError


class CompileError(ExactOddsError):
    """A child process compiling kernels failed (the last line of its stderr is in the message)."""


DONE = "exactodds-task-done"  # what a worker prints when it has finished a task
WAIT_STEP = 0.05  # seconds the parent waits for a line at a time (a signal handler runs between)


def run_in_workers(module: str, tasks: Sequence[str], *, jobs: int,
                   on_line: Callable[[str], None] | None = None,
                   on_done: Callable[[int], None] | None = None) -> None:
    """Run ``tasks`` (one line of text each) in up to ``jobs`` worker processes ``python -m MODULE``,
    in the order given (longest first is best): a worker reads tasks from its stdin, one per line,
    prints :data:`DONE` after each and ends at the end of its input. A worker runs task after task,
    so numba is imported, and its own helpers compiled, once per worker. ``on_line(line)`` for each
    other line a worker prints, ``on_done(i)`` as task i ends. Raises CompileError when a worker
    fails. Any exception in the parent (Ctrl-C, SIGTERM's) stops every worker before it propagates.
    """
    pending = list(enumerate(tasks))
    lines: queue.Queue[tuple[int, str | None]] = queue.Queue()  # (worker, line), None at its end
    workers: list[_Worker] = []
    try:
        for w in range(min(max(1, jobs), len(pending))):
            workers.append(_Worker(module, w, lines))
            workers[-1].give(pending.pop(0))
        while any(worker.task is not None for worker in workers):
            try:
                w, line = lines.get(timeout=WAIT_STEP)  # short waits: a signal handler runs between
            except queue.Empty:
                continue
            worker = workers[w]
            if line is None:  # its output ended: it has exited
                worker.child.wait()
                if worker.task is not None:
                    raise CompileError(f"compiling kernels (task {tasks[worker.task]!r}) failed with exit "
                                       f"status {worker.child.returncode}: {worker.error_tail()}")
            elif line == DONE:
                done, worker.task = worker.task, None
                if on_done is not None and done is not None:
                    on_done(done)
                worker.give(pending.pop(0) if pending else None)
            elif on_line is not None:
                on_line(line)
        for worker in workers:  # their input is closed: they end on their own
            try:
                worker.child.wait(timeout=60)
            except subprocess.TimeoutExpired:
                raise CompileError("a compiling process did not end within 60 s of its last kernel") from None
    finally:
        _stop(workers)


_LIVE: set[subprocess.Popen[bytes]] = set()  # every worker running, whatever thread started it


def stop_workers() -> None:
    """Kill every worker still running (the command line, as it ends: a helper thread may still be
    waiting on them, after a signal or when a server stops)."""
    for child in list(_LIVE):
        child.kill()


class _Worker:
    """One worker process, its stderr kept in a temporary file, its stdout read by a thread."""

    def __init__(self, module: str, index: int, lines: queue.Queue[tuple[int, str | None]]) -> None:
        self.task: int | None = None
        self.log: IO[bytes] = tempfile.TemporaryFile()
        self.child = subprocess.Popen([sys.executable, "-m", module], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=self.log)
        _LIVE.add(self.child)
        threading.Thread(target=self._read, args=(index, lines), daemon=True).start()

    def give(self, task: tuple[int, str] | None) -> None:
        """Send a task, or end the worker's input when there is none left."""
        assert self.child.stdin is not None
        if task is None:
            try:
                self.child.stdin.close()
            except BrokenPipeError:
                pass
            return
        self.task = task[0]
        try:
            self.child.stdin.write(task[1].encode() + b"\n")
            self.child.stdin.flush()
        except BrokenPipeError:
            pass  # it has died: the end of its output reports the task as failed

    def _read(self, index: int, lines: queue.Queue[tuple[int, str | None]]) -> None:
        assert self.child.stdout is not None
        for raw in self.child.stdout:
            lines.put((index, raw.decode("utf-8", "replace").rstrip("\n")))
        lines.put((index, None))

    def error_tail(self) -> str:
        self.log.seek(0)
        lines = self.log.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else "no message"  # the exception's line, not the traceback above it


def _stop(workers: Sequence[_Worker]) -> None:
    """Terminate workers still running, kill those that do not end within a second."""
    for worker in workers:
        if worker.child.poll() is None:
            worker.child.terminate()
    deadline = time.monotonic() + 1.0
    for worker in workers:
        try:
            worker.child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.child.kill()
            worker.child.wait()
        _LIVE.discard(worker.child)
        for stream in (worker.child.stdin, worker.child.stdout):
            if stream is not None:
                stream.close()
        worker.log.close()
