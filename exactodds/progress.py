"""One progress protocol for every long library operation: stages, each of some steps.

A long operation takes ``progress: Progress | None`` (keyword-only) and reports through it:

- ``progress.stage(label, steps=n)`` when a stage of ``n`` steps begins (``steps=None``: its
  length is unknown, e.g. a user's strategy of unknown speed);
- ``progress.step(k)`` when ``k`` more steps of the current stage are done.

A stage ends when the next one begins or when the operation returns; the operation never
reports more steps than it announced. The library only reports; the command line draws it
(a bar per stage that reaches 100 % when its work ends, a spinner for unknown lengths) and
draws nothing when piped or with ``--json``. Work that is already done (a cache hit) reports
nothing.

>>> log = RecordingProgress()
>>> with staged(log, "counting", steps=2) as p:
...     p.step(); p.step()
>>> log.events
[('stage', 'counting', 2), ('step', 1), ('step', 1), ('end',)]
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol, runtime_checkable


@runtime_checkable
class Progress(Protocol):
    """Receives the progress of long work (see the module docstring)."""

    def stage(self, label: str, *, steps: int | None = None) -> None:
        """A stage named ``label`` begins: ``steps`` steps long, or of unknown length (None)."""

    def step(self, count: int = 1) -> None:
        """``count`` more steps of the current stage are done."""

    def end(self) -> None:
        """The current stage is finished (its bar, if any, is full)."""


class NoProgress:
    """Reports nowhere (the default when the caller passes no progress)."""

    def stage(self, label: str, *, steps: int | None = None) -> None:
        pass

    def step(self, count: int = 1) -> None:
        pass

    def end(self) -> None:
        pass


NO_PROGRESS = NoProgress()


def or_none(progress: Progress | None) -> Progress:
    """``progress``, or a progress that reports nowhere when it is None."""
    return NO_PROGRESS if progress is None else progress


class RecordingProgress:
    """Records every call, in order (for tests and for checking that bars reach their end)."""

    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def stage(self, label: str, *, steps: int | None = None) -> None:
        self.events.append(("stage", label, steps))

    def step(self, count: int = 1) -> None:
        self.events.append(("step", count))

    def end(self) -> None:
        self.events.append(("end",))

    def stages(self) -> list[tuple[str, int | None, int]]:
        """Each stage as (label, announced steps, steps reported)."""
        out: list[tuple[str, int | None, int]] = []
        for event in self.events:
            if event[0] == "stage":
                out.append((str(event[1]), event[2], 0))  # type: ignore[arg-type]
            elif event[0] == "step" and out:
                label, steps, done = out[-1]
                out[-1] = (label, steps, done + int(event[1]))  # type: ignore[call-overload]
        return out


@contextmanager
def staged(progress: Progress | None, label: str, *, steps: int | None = None) -> Iterator[Progress]:
    """Begin a stage on ``progress`` (which may be None) and end it when the block is left."""
    target = or_none(progress)
    target.stage(label, steps=steps)
    try:
        yield target
    finally:
        target.end()
