"""Kernel families and compiling them ahead, in parallel processes: :func:`compile_families`.

numba compiles each kernel on its first call and keeps the machine code in its on-disk cache, so
the first run of each command pays its family's compile wait once. A :class:`KernelFamily` is the
kernels one kind of computation needs, in :class:`WarmPart` s: each part runs small exact
computations that call its kernels, so running it compiles them (or loads them from the cache).
The parts run in separate processes, as many at a time as there are cores (numba compiles on one
core per process), longest first; the cache on disk is shared, so what one process compiles every
later process loads. The registry of the package's families is a service above the games
(:mod:`exactodds.warmup`): this module knows no game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from exactodds.kernels.cache import is_compiled, missing_kernels
from exactodds.kernels.workers import DONE, run_in_workers
from exactodds.progress import Progress, staged
from exactodds.threaded import usable_cores

STAGE = "compiling the counting kernels"


@dataclass(frozen=True)
class WarmPart:
    """Small exact computations whose calls compile some kernels of a family; ``seconds``: their
    cold compile on one core of the 2-core development machine."""

    run: Callable[[], None]
    seconds: int


@dataclass(frozen=True)
class KernelFamily:
    """The kernels of one kind of computation: ``modules`` (dotted kernel module names) and the
    ``parts`` that compile them, independent of each other (they may run in parallel)."""

    name: str
    modules: tuple[str, ...]
    parts: tuple[WarmPart, ...]

    def compiled(self) -> bool:
        """Whether numba's cache holds every kernel of the family's modules."""
        return all(is_compiled(module) for module in self.modules)


def default_jobs() -> int:
    """Processes to compile in at once: the cores this process may use."""
    return usable_cores()


def compile_families(families: Sequence[KernelFamily], *, worker: str, progress: Progress | None = None,
                     jobs: int | None = None, label: str = STAGE) -> None:
    """Run every part of ``families``: in this process when ``jobs`` is 1, else in up to ``jobs``
    child processes ``python -m WORKER`` (a module that calls :func:`serve_parts` with a registry
    holding these families), longest part first (the first part of each family before the others).
    One stage ``label`` on ``progress``, a step per kernel of the families' modules compiled (those
    numba's cache does not hold yet). Raises CompileError when a child fails."""
    expected = {f"{module} {name}" for family in families for module in family.modules
                for name in missing_kernels(module)}
    heard: set[str] = set()
    parts = [(family.name, p, part) for family in families for p, part in enumerate(family.parts)]
    jobs = default_jobs() if jobs is None else jobs
    with staged(progress, label, steps=len(expected)) as stage:
        def compiled(line: str) -> None:
            if line in expected and line not in heard:
                heard.add(line)
                stage.step()

        if jobs <= 1:
            from exactodds.kernels.events import report_compiles  # numba: loaded only to compile

            stop = report_compiles(lambda module, name: compiled(f"{module} {name}"))
            try:
                for _, _, part in parts:
                    part.run()
            finally:
                stop()
        else:
            # longest first, but one part per family in the first wave: parts of one family share
            # callees, and started at once each would compile them (later ones load them from the cache)
            parts.sort(key=lambda item: (item[1] > 0, -item[2].seconds))
            run_in_workers(worker, [f"{p} {name}" for name, p, _ in parts], jobs=jobs, on_line=compiled)
        stage.step(len(expected) - len(heard))  # loaded rather than compiled (an index that looked stale)


def serve_parts(families: Sequence[KernelFamily], tasks: Iterable[str]) -> None:
    """The worker's loop: run the part ``PART FAMILY`` (its index, the family's name) of each line of
    ``tasks``, printing "MODULE FUNCTION" as each kernel compiles and :data:`DONE` after each part."""
    from exactodds.kernels.events import report_compiles  # numba: loaded only to compile

    by_name = {family.name: family for family in families}
    report_compiles(lambda module, name: print(module, name, flush=True))
    for task in tasks:
        part, name = task.rstrip("\n").split(" ", 1)
        by_name[name].parts[int(part)].run()
        print(DONE, flush=True)
