"""Draws the library's progress (:mod:`exactodds.progress`) on a terminal.

Each stage is a click progress bar on stderr with the elapsed time, or a spinner with the elapsed
time when its length is unknown. A stage is drawn once it has lasted ``DELAY`` seconds (quick work
shows nothing), whether or not a step has been reported yet (a bar over a few long chunks shows
from the start), and nothing is ever drawn when stderr is not a terminal or with ``--json``.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from exactodds.progress import NO_PROGRESS, Progress

DELAY = 0.3  # seconds a stage runs before it is drawn
SPIN_FRAMES = "|/-\\"


class TerminalProgress:
    """A :class:`~exactodds.progress.Progress` drawn on stderr."""

    def __init__(self, *, delay: float = DELAY) -> None:
        self._delay = delay
        self._label = ""
        self._steps: int | None = None
        self._done = 0
        self._started = 0.0
        self._bar: Any = None
        self._drawer: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()

    def stage(self, label: str, *, steps: int | None = None) -> None:
        self.end()
        self._label, self._steps, self._done = label, steps, 0
        self._started = time.monotonic()
        self._stop.clear()
        self._drawer = threading.Thread(target=self._spin if steps is None else self._redraw, daemon=True)
        self._drawer.start()

    def step(self, count: int = 1) -> None:
        with self._lock:
            self._done += count
            if self._steps is None:
                return
            if self._bar is None and time.monotonic() - self._started >= self._delay:
                self._open_bar()
            elif self._bar is not None:
                self._bar.update(count)

    def _open_bar(self) -> None:
        """Draw the stage's bar, at the steps done so far (called with the lock held)."""
        self._bar = click.progressbar(length=self._steps, label=self._label, file=sys.stderr,
                                      item_show_func=self._elapsed)
        self._bar.__enter__()
        self._bar.update(self._done)

    def _elapsed(self, _item: object) -> str:
        return f"{time.monotonic() - self._started:.0f} s"

    def _redraw(self) -> None:
        """Draw the bar after the delay even before its first step, then refresh the elapsed time."""
        wait = self._delay
        while not self._stop.wait(wait):
            wait = 1.0
            with self._lock:
                if self._bar is None:
                    self._open_bar()
                else:
                    self._bar.render_progress()

    def end(self) -> None:
        if self._drawer is not None:
            self._stop.set()
            self._drawer.join()
            self._drawer = None
        with self._lock:
            if self._bar is not None:
                self._bar.__exit__(None, None, None)  # shows where the work ended: 100 % when all done
                self._bar = None

    def _spin(self) -> None:
        frame, drawn = 0, False
        while not self._stop.wait(0.1):
            elapsed = time.monotonic() - self._started
            if elapsed < self._delay:
                continue
            click.echo(f"\r{self._label} {SPIN_FRAMES[frame % len(SPIN_FRAMES)]} {elapsed:.0f} s ",
                       file=sys.stderr, nl=False)
            frame, drawn = frame + 1, True
        if drawn:
            click.echo(f"\r{self._label}: done in {time.monotonic() - self._started:.1f} s", file=sys.stderr)


def progress_enabled(as_json: bool = False) -> bool:
    """Whether to draw progress: only on a terminal, never with --json."""
    return not as_json and sys.stderr.isatty()


@contextmanager
def terminal_progress(*, as_json: bool = False) -> Iterator[Progress]:
    """A progress to hand to the library: drawn on a terminal, silent when piped or with --json."""
    if not progress_enabled(as_json):
        yield NO_PROGRESS
        return
    progress = TerminalProgress()
    try:
        yield progress
    finally:
        progress.end()
