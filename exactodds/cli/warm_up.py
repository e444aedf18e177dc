"""Compiling kernels ahead at the command line: ``exactodds warm-up``, and the notice of a first run.

``exactodds warm-up`` compiles every kernel family of :data:`exactodds.warmup.FAMILIES` at once.
Without it, the first time a command calls a kernel of a family that numba has not compiled yet,
it says so and compiles the family's parts in parallel processes with a bar that counts the kernels,
then goes on. The kernel modules of the registry are watched as they are imported: each of their
compiled functions is wrapped so that its first compile from Python (numba's
``_compile_for_args``, called once per process and argument types) first makes sure its family is
in numba's cache. A module imported but never called compiles nothing. On a terminal one line
``compiling the counting kernels, first run only: about N s (exactodds warm-up compiles them all)``
and a bar; piped, the same compile without a word. The kernel then loads from the cache. Should a
compile process fail, the command compiles what it needs itself, as without this hook. A command
that calls several families one after the other names them first (:func:`compile_ahead`), so that
their parts are compiled side by side.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
import threading
import time
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

import click

from exactodds.cli.progress import terminal_progress
from exactodds.kernels.families import KernelFamily, compile_families, default_jobs
from exactodds.kernels.workers import CompileError
from exactodds.warmup import WORKER, family_of, warm_up

CLEAR_LINE = "\r\x1b[K"  # back to the start of the terminal's line and clear it


class _CompileNotice(importlib.abc.MetaPathFinder):
    """Finds a family's kernel modules as Python would, with a loader that watches their kernels."""

    def __init__(self, *, show: bool) -> None:
        self.show = show
        self.seen: set[str] = set()
        self.lock = threading.Lock()  # a kernel may first be called on a helper thread (stoppable)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        family = family_of(fullname) if fullname not in sys.modules else None
        if family is None:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not isinstance(spec.loader, importlib.abc.Loader):
            return None
        spec.loader = _WatchingLoader(spec.loader, lambda: self.before_first_compile(family))
        return spec

    def before_first_compile(self, *families: KernelFamily) -> None:
        """Compile those of ``families`` numba's cache does not hold, together in parallel processes
        (each family once per process)."""
        with self.lock:
            new = [family for family in families if family.name not in self.seen]
            self.seen.update(family.name for family in new)
            cold = [family for family in new if not family.compiled()]
            if not cold:
                return
            jobs = default_jobs()
            if self.show:
                seconds = _wall_seconds([part.seconds for family in cold for part in family.parts], jobs)
                # on a line of its own: the command's own bar may be drawn on the current one
                click.echo(f"{CLEAR_LINE}compiling the counting kernels, first run only: about {seconds} s "
                           "(exactodds warm-up compiles them all)", err=True)
            try:
                with terminal_progress(as_json=not self.show) as progress:
                    compile_families(cold, worker=WORKER, progress=progress, jobs=jobs,
                                     label="compiling kernels: " + ", ".join(family.name for family in cold))
            except CompileError:
                pass  # the command compiles what it needs in this process


class _WatchingLoader(importlib.abc.Loader):
    """Loads a kernel module with its own loader, then wraps each of its compiled functions so that
    ``before()`` runs before numba compiles (or loads) one of them for a call from Python."""

    def __init__(self, loader: importlib.abc.Loader, before: Callable[[], None]) -> None:
        self.loader = loader
        self.before = before

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        for value in vars(module).values():
            if getattr(value, "__module__", None) == module.__name__ and hasattr(value, "_compile_for_args"):
                _watch(value, self.before)


def _watch(dispatcher: Any, before: Callable[[], None]) -> None:
    original = dispatcher._compile_for_args

    def compile_for_args(*args: Any, **kws: Any) -> Any:
        before()
        return original(*args, **kws)

    dispatcher._compile_for_args = compile_for_args


def compile_ahead(*modules: str) -> None:
    """Compile now, side by side, the families of these kernel modules that numba's cache does not hold:
    for a command that will call them one after the other (compiled as each is first called, they
    would each leave cores idle). Does nothing when the hook is not installed."""
    families = [family for module in modules if (family := family_of(module)) is not None]
    for finder in sys.meta_path:
        if isinstance(finder, _CompileNotice):
            finder.before_first_compile(*families)


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


@click.command(name="warm-up")
@click.option("--jobs", type=click.IntRange(1, 64), default=None, metavar="N",
              help="Processes compiling at once (default: one per core).")
def warm_up_command(jobs: int | None) -> None:
    """Compile every counting kernel now (first run after installing: about half a minute), with a bar.

    Each family of kernels is compiled on its first use and kept in numba's cache; this compiles
    them all at once, in parallel processes (one per core), so that no later command waits. The
    bar counts the kernels compiled. Run again, it only loads them (seconds).

    Example: exactodds warm-up
    """
    uninstall()  # the families are compiled here, all of them
    start = time.perf_counter()
    with terminal_progress() as progress:
        families = warm_up(progress=progress, jobs=jobs or default_jobs())
    click.echo(f"{len(families)} kernel families ready in {time.perf_counter() - start:.1f} s")
