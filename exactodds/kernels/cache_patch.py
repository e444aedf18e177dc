"""A numba cache written by another version of exactodds never stops a kernel.

numba keeps, beside each cached kernel, an index of its compiled signatures, pickled. The index names
the types of the arguments, typed bundles included (``NamedTuple`` classes of exactodds). When an
upgrade renames or moves such a class, unpickling the old index fails with ``AttributeError`` before
numba compares the source's time stamp and would discard it (numba issue 6018), and every call of
that kernel fails, compiling included, until the cache folder is deleted by hand.

Importing this module (every ``kernels`` package does, before its kernels) makes an index that cannot
be read count as absent: numba then compiles the kernel again and writes a fresh index over it.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import Any

from numba.core import caching

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


_patch()
