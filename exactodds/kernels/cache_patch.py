"""A numba cache written by another version of exactodds never stops a kernel.

numba keeps, beside each cached kernel, an index of its compiled signatures, pickled. The index names
the types of the arguments, typed bundles included (``NamedTuple`` classes of exactodds). When an
upgrade renames or moves such a class, unpickling the old index fails with ``AttributeError`` before
numba compares the source's time stamp and would discard it (numba issue 6018), and every call of
that kernel fails, compiling included, until the cache folder is deleted by hand.

Importing this module (every ``kernels`` package does, before its kernels) makes an index that cannot
be read count as absent: numba then compiles the kernel again and writes a fresh index over it.

It also widens numba's freshness check for exactodds' kernels. numba stamps an index with its own
source file only, but a kernel inlines the kernels it calls from other files and freezes the
constants it reads from other modules: after a change to one of those, numba would keep running the
old machine code. An exactodds kernel's stamp is therefore its file's together with
:func:`~exactodds.kernels.cache.dependencies_stamp` (every exactodds file it imports).
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import Any

from numba.core import caching

import exactodds.kernels.cache as kernel_cache

_UNREADABLE = (AttributeError, ImportError, EOFError, IndexError, TypeError, ValueError,
               pickle.UnpicklingError)


def _patch() -> None:
    load: Callable[[Any], dict[Any, Any]] = caching.IndexDataCacheFile._load_index
    if getattr(load, "exactodds_tolerant", False):
        return

    def tolerant(self: Any) -> dict[Any, Any]:
        try:
            overloads: dict[Any, Any] = load(self)
        except _UNREADABLE:  # written by another version: as if there were no cache
            return {}
        return overloads

    tolerant.exactodds_tolerant = True  # type: ignore[attr-defined]
    caching.IndexDataCacheFile._load_index = tolerant  # type: ignore[method-assign]

    stamp: Callable[[Any], Any] = caching._SourceFileBackedLocatorMixin.get_source_stamp

    def with_dependencies(self: Any) -> Any:
        own = stamp(self)
        source = Path(self._py_file).resolve()
        if not source.is_relative_to(kernel_cache.PACKAGE):
            return own
        return own, kernel_cache.dependencies_stamp(source)

    caching._SourceFileBackedLocatorMixin.get_source_stamp = with_dependencies  # type: ignore[method-assign]


_patch()
