"""Which numba kernels are compiled already, and compiling in parallel processes.

numba compiles a kernel on its first call and caches the machine code: an index file
``<module>.<function>-<line>.py<version>.nbi`` per kernel, beside the source in ``__pycache__`` or
under ``$NUMBA_CACHE_DIR``. :func:`missing_kernels` reads a kernel module's source (without
importing it, nor numba) and says which of its kernels have no fresh index yet, so the command line
can compile them ahead, with a bar, rather than look hung.

:func:`run_in_processes` runs commands (each compiling some kernels) in parallel child processes:
numba's on-disk cache is shared, so what one process compiles, every later process loads. Two
processes may compile the same kernel only with the same argument types (one signature per kernel,
tested): numba numbers a kernel's cached overloads without a lock between processes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO

from exactodds.errors import ExactOddsError

POLL_SECONDS = 0.05  # how often the parent looks at its children (and lets a signal handler run)


class CompileError(ExactOddsError):
    """A child process compiling kernels failed (its last lines of stderr are in the message)."""


def _cache_folders(source: Path) -> list[Path]:
    folders = [source.parent / "__pycache__"]
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:  # numba's layout: <dir>/<parent folder name>_<sha1 of the folder path>
        parent = str(source.parent.resolve())
        folders.append(Path(override) / f"{source.parent.name}_{hashlib.sha1(parent.encode()).hexdigest()}")
    return folders


_DECORATOR = re.compile(r"@(?:numba\.)?njit\b")
_DEF = re.compile(r"def (\w+)\(")


def kernel_functions(source: Path) -> list[tuple[str, int]]:
    """(name, first decorator line) of each cached numba kernel defined at the top of ``source``.

    Kernels inlined into their callers (``inline="always"``) have no cache entry of their own. A
    line scan, not a parse: it runs on every command that loads a kernel module (a decorator is
    written on one line in this package, tested)."""
    kernels = []
    first = None  # line of the first decorator of the function being read
    kernel = inlined = False
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("@"):
            if first is None:
                first = number
            if _DECORATOR.match(line):
                inlined = inlined or 'inline="always"' in line
                kernel = True
            continue
        match = _DEF.match(line)
        if match and first is not None and kernel and not inlined:
            kernels.append((match.group(1), first))
        first, kernel, inlined = None, False, False
    return kernels


def missing_kernels(module: str) -> list[str]:
    """The kernels of ``module`` (a dotted name) that numba's cache does not hold for its current
    source: no index file, or one older than the source."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return []
    source = Path(spec.origin)
    changed = source.stat().st_mtime
    version = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    missing = []
    for name, line in kernel_functions(source):
        index = f"{source.stem}.{name}-{line}.{version}.nbi"
        if not any((folder / index).is_file() and (folder / index).stat().st_mtime >= changed
                   for folder in _cache_folders(source)):
            missing.append(name)
    return missing


def is_compiled(module: str) -> bool:
    """Whether numba's cache holds every kernel of ``module`` (a dotted module name)."""
    return not missing_kernels(module)


def run_in_processes(commands: Sequence[Sequence[str]], *, jobs: int,
                     on_line: Callable[[str], None] | None = None,
                     on_done: Callable[[int], None] | None = None) -> None:
    """Run ``python -m ARGS...`` for each command, at most ``jobs`` at a time, in the order given
    (longest first is best); ``on_line(line)`` for each line a child prints, ``on_done(i)`` as
    command i ends well. Raises CompileError when one fails. Any exception in the parent (Ctrl-C,
    SIGTERM's) stops every child before it propagates."""
    pending = list(enumerate(commands))
    running: dict[int, tuple[subprocess.Popen[bytes], IO[bytes], threading.Thread]] = {}
    lines: queue.Queue[str] = queue.Queue()
    try:
        while pending or running:
            while pending and len(running) < max(1, jobs):
                i, args = pending.pop(0)
                log: IO[bytes] = tempfile.TemporaryFile()
                child = subprocess.Popen([sys.executable, "-m", *args], stdin=subprocess.DEVNULL,
                                         stdout=subprocess.PIPE, stderr=log)
                reader = threading.Thread(target=_read_lines, args=(child, lines), daemon=True)
                reader.start()
                running[i] = (child, log, reader)
            time.sleep(POLL_SECONDS)
            _drain(lines, on_line)
            for i, (child, log, reader) in list(running.items()):
                if child.poll() is None:
                    continue
                del running[i]
                reader.join()  # the pipe is at its end: every line the child printed is queued
                if child.stdout is not None:
                    child.stdout.close()
                _drain(lines, on_line)
                if child.returncode != 0:
                    log.seek(0)
                    tail = log.read().decode("utf-8", "replace").strip().splitlines()[-3:]
                    log.close()
                    raise CompileError(f"compiling kernels ({' '.join(commands[i])}) failed with exit status "
                                       f"{child.returncode}: {' / '.join(tail)}")
                log.close()
                if on_done is not None:
                    on_done(i)
    finally:
        _stop(list(running.values()))


def _read_lines(child: subprocess.Popen[bytes], lines: queue.Queue[str]) -> None:
    assert child.stdout is not None
    for raw in child.stdout:
        lines.put(raw.decode("utf-8", "replace").rstrip("\n"))


def _drain(lines: queue.Queue[str], on_line: Callable[[str], None] | None) -> None:
    while True:
        try:
            line = lines.get_nowait()
        except queue.Empty:
            return
        if on_line is not None:
            on_line(line)


def _stop(children: Sequence[tuple[subprocess.Popen[bytes], IO[bytes], threading.Thread]]) -> None:
    """Terminate children still running, kill those that do not end within a second."""
    procs = [child for child, _, _ in children]
    for child in procs:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + 1.0
    for child in procs:
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
    for child, log, _ in children:
        log.close()
        if child.stdout is not None:
            child.stdout.close()
