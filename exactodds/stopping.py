"""Long kernel calls that a signal can stop within a second: :func:`stoppable`.

A compiled kernel runs without returning to Python, so Python's signal handlers (Ctrl-C's
``KeyboardInterrupt``, the command line's SIGTERM handler) wait until it returns, which can be
hours on a big position. :func:`stoppable` runs such a call on a helper thread (the kernels
release the GIL: ``nogil=True``) while the main thread waits in short, interruptible steps, so a
handler runs at once: its exception leaves the wait, every ``finally`` block and atomic write
unwinds on the main thread as usual, and the kernel left running is abandoned (its result is
never read). The command line turns this on with :func:`enable` and ends the process once it
has unwound (:func:`abandoned` says whether a kernel is still running then).

Library callers get the plain call (the default): a kernel abandoned inside a long-lived process
would go on using the cores. Off the main thread (a server's request thread, a Dask worker) the
call is plain too, since signal handlers run only on the main thread.

>>> stoppable(sum, [1, 2, 3])
6
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

WAIT_STEP = 0.05  # seconds the main thread waits between chances for a signal handler to run

_enabled = False
_abandoned: list[threading.Event] = []  # each set when its kernel has returned


def enable(on: bool = True) -> None:
    """Run :func:`stoppable` calls on a helper thread from now on (the command line does)."""
    global _enabled
    _enabled = on


def abandoned() -> bool:
    """Whether a kernel left behind by a signal is still running (the process should then end
    with ``os._exit`` once it has unwound, rather than wait for it)."""
    return any(not finished.is_set() for finished in _abandoned)


def abandon() -> None:
    """Note work left running by a signal elsewhere (worker processes killed without a graceful
    shutdown): :func:`abandoned` is then True and the command line ends at once."""
    _abandoned.append(threading.Event())


def stoppable(fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> R:
    """``fn(*args, **kwargs)``, during which a signal handler on the main thread runs at once.

    Returns what ``fn`` returns and raises what it raises; an exception raised by a signal
    handler while ``fn`` runs (``KeyboardInterrupt``, SystemExit) propagates at once instead.
    """
    if not _enabled or threading.current_thread() is not threading.main_thread():
        return fn(*args, **kwargs)
    outcome: list[R] = []
    failure: list[BaseException] = []
    finished = threading.Event()

    def run() -> None:
        try:
            outcome.append(fn(*args, **kwargs))
        except BaseException as exc:  # handed to the waiting thread and raised there
            failure.append(exc)
        finally:
            finished.set()

    worker = threading.Thread(target=run, name="exactodds-kernel", daemon=True)
    worker.start()
    try:  # not Thread.join: a signal that interrupts it marks the thread stopped while it runs on
        while not finished.wait(WAIT_STEP):
            pass
    except BaseException:
        _abandoned.append(finished)
        raise
    if failure:
        raise failure[0]
    return outcome[0]
