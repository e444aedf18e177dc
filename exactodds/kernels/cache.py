"""Where numba caches the compiled kernels, and which kernels its cache holds already.

numba compiles a kernel on its first call and caches the machine code: an index file
``<module>.<function>-<line>.py<version>.nbi`` per kernel, beside the source in ``__pycache__``,
or only under ``$NUMBA_CACHE_DIR`` when it is set (numba then reads no other folder). This module is
the one place that works this out: :func:`use_writable_numba_cache` chooses the folder (run when
:mod:`exactodds` is imported), :func:`cache_folder` says where a kernel module's index files are,
and :func:`missing_kernels` which kernels have no fresh index yet, so that the command line can
compile them ahead, with a bar, rather than look hung. numba judges an index fresh by its own
source file alone, while a kernel inlines its callees and freezes the module constants it reads
from other files: :func:`source_dependencies` names those files, and a cached kernel counts as
fresh only when it is newer than every one of them (numba's check is widened the same way by
:mod:`exactodds.kernels.cache_patch`). It reads sources and the file system only:
it imports neither numba nor a kernel module (numba's own cache is patched by
:mod:`exactodds.kernels.cache_patch`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
import sys
import tempfile
from functools import cache
from pathlib import Path

import platformdirs

NUMBA_ENV = "NUMBA_CACHE_DIR"


def _writable(path: Path) -> bool:
    """Whether ``path``, or the nearest existing folder above it, can be written."""
    for folder in (path, *path.parents):
        if folder.exists():
            return folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)
    return False


def numba_cache_dir(package_dir: Path | None = None) -> Path | None:
    """Where numba should cache, or None when its default (beside the sources) is writable.

    numba caches in ``__pycache__`` beside the sources, else in the user-wide cache under
    ``$HOME``; when neither can be written (a system install run by a service user, a read-only
    container image) it fails with "cannot cache function ...: no locator available". So when the
    package folder is not writable, the cache goes under the exactodds cache directory
    (``$EXACTODDS_CACHE_DIR`` or the user cache directory), and when that cannot be written
    either, under the system temporary folder."""
    package = package_dir or Path(__file__).resolve().parents[1]
    if _writable(package / "__pycache__") and _writable(package):
        return None
    override = os.environ.get("EXACTODDS_CACHE_DIR")
    root = Path(override) if override else Path(platformdirs.user_cache_dir("exactodds"))
    if _writable(root):
        return root / "numba"
    user = os.getuid() if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"exactodds-{user}" / "numba"


def use_writable_numba_cache() -> None:
    """Set ``$NUMBA_CACHE_DIR`` (and numba's config, if numba is already loaded) when the default
    cannot be written; an explicit ``$NUMBA_CACHE_DIR`` wins. Sets an environment variable and
    writes nothing: it runs when :mod:`exactodds` is imported, before any kernel module imports
    numba."""
    if os.environ.get(NUMBA_ENV):
        return
    target = numba_cache_dir()
    if target is None:
        return
    os.environ[NUMBA_ENV] = str(target)
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before exactodds: its config was read already
        numba.config.CACHE_DIR = str(target)


def cache_folder(source: Path) -> Path:
    """Where numba caches the kernels of ``source``: under ``$NUMBA_CACHE_DIR`` when it is set (numba
    then reads no other folder), else in ``__pycache__`` beside the source."""
    override = os.environ.get(NUMBA_ENV)
    if not override:
        return source.parent / "__pycache__"
    parent = os.path.abspath(source.parent)  # numba's layout: <dir>/<folder name>_<sha1 of its path>
    return Path(override) / f"{os.path.basename(parent)}_{hashlib.sha1(parent.encode()).hexdigest()}"


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


PACKAGE = Path(__file__).resolve().parents[1]  # the exactodds package folder


def _module_file(module: str) -> Path | None:
    """The source file of a module or sub-package of :data:`PACKAGE` (None outside it)."""
    if module != PACKAGE.name and not module.startswith(PACKAGE.name + "."):
        return None
    base = PACKAGE.parent.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imported_files(source: Path) -> set[Path]:
    """The exactodds source files that ``source`` imports (any ``import`` or ``from ... import``,
    and the modules such names may be, e.g. ``from exactodds.x import kernels``)."""
    found: set[Path] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        for name in names:
            path = _module_file(name)
            if path is not None:
                found.add(path)
    return found


@cache
def source_dependencies(source: Path) -> tuple[Path, ...]:
    """``source`` and every exactodds source file it imports, directly or through another: what a
    kernel compiled from ``source`` may have inlined or frozen (sorted, ``source`` included)."""
    seen: set[Path] = set()
    todo = [source.resolve()]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        todo.extend(_imported_files(path) - seen)
    return tuple(sorted(seen))


def dependencies_stamp(source: Path) -> tuple[tuple[str, int, int], ...]:
    """(file, modification time in ns, size) of each of :func:`source_dependencies`: it changes when
    any file a kernel of ``source`` depends on changes."""
    return tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size)
                 for path in source_dependencies(source))


def missing_kernels(module: str) -> list[str]:
    """The kernels of ``module`` (a dotted name) that numba's cache does not hold for its current
    source: no index file, or one older than the source or any exactodds file it imports."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return []
    source = Path(spec.origin)
    changed = max(path.stat().st_mtime for path in source_dependencies(source.resolve()))
    version = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
    missing = []
    for name, line in kernel_functions(source):
        index = f"{source.stem}.{name}-{line}.{version}.nbi"
        path = cache_folder(source) / index
        if not (path.is_file() and path.stat().st_mtime >= changed):
            missing.append(name)
    return missing


def is_compiled(module: str) -> bool:
    """Whether numba's cache holds every kernel of ``module`` (a dotted module name)."""
    return not missing_kernels(module)
