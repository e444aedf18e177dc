"""The first time a command needs a kernel family that numba has not compiled yet: say so, and compile
the family's parts in parallel processes with a bar that counts them, before the command goes on.

The trigger is the import of one of the family's kernel modules (:data:`exactodds.warmup.FAMILIES`):
on a terminal one line ``compiling the counting kernels, first run only: about N s (exactodds warm-up
compiles them all)`` and a bar; piped, the same compile without a word. The command then loads the
kernels from numba's cache. Should a compile process fail, the command compiles what it needs
itself, as without this hook.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

import click

from exactodds.cli.progress import terminal_progress
from exactodds.compiling import CompileError
from exactodds.warmup import compile_families, default_jobs, family_of


class _CompileNotice(importlib.abc.MetaPathFinder):
    """Watches imports (finds nothing itself); compiles a cold family when one of its modules is loaded."""

    def __init__(self, *, show: bool) -> None:
        self.show = show
        self.seen: set[str] = set()

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        family = family_of(fullname) if fullname not in sys.modules else None
        if family is None or family.name in self.seen:
            return None
        self.seen.add(family.name)  # before anything else: the compile imports modules too
        if family.compiled():
            return None
        jobs = default_jobs()
        seconds = _wall_seconds([part.seconds for part in family.parts], jobs)
        if self.show:
            click.echo(f"compiling the counting kernels, first run only: about {seconds} s "
                       "(exactodds warm-up compiles them all)", err=True)
        try:
            with terminal_progress(as_json=not self.show) as progress:
                compile_families([family], progress=progress, jobs=jobs,
                                 label=f"compiling the {family.name} kernels")
        except CompileError:
            pass  # the command compiles what it needs in this process
        return None


def _wall_seconds(parts: list[int], jobs: int) -> int:
    """Seconds to run parts of these lengths on ``jobs`` cores, longest first onto the least busy."""
    cores = [0] * max(1, jobs)
    for seconds in sorted(parts, reverse=True):
        cores[cores.index(min(cores))] += seconds
    return max(cores)


def install() -> None:
    """Compile cold families ahead from now on (the command line, when it is the program run: not
    inside a test runner's captured streams), with the notice and a bar on a terminal."""
    stderr = sys.__stderr__
    watching = any(isinstance(f, _CompileNotice) for f in sys.meta_path)
    if stderr is None or sys.stderr is not stderr or watching:
        return
    sys.meta_path.insert(0, _CompileNotice(show=stderr.isatty()))


def uninstall() -> None:
    """Stop watching imports (the command line, as it returns)."""
    sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _CompileNotice)]

