"""Point numba's on-disk cache at a folder that can be written, wherever exactodds is installed.

numba caches compiled kernels in ``__pycache__`` beside the sources, else in the user-wide
cache under ``$HOME``; when neither can be written (a system install run by a service user,
a read-only container image) it fails with "cannot cache function ...: no locator
available". So when the package folder is not writable, the cache goes under the exactodds
cache directory (``$EXACTODDS_CACHE_DIR`` or the user cache directory), and when that cannot
be written either, under the system temporary folder. An explicit ``$NUMBA_CACHE_DIR`` wins.

This sets an environment variable and writes nothing; it runs when :mod:`exactodds` is
imported, before any kernel module imports numba.
"""

from __future__ import annotations

import os
import sys
import tempfile
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
    """Where numba should cache, or None when its default (beside the sources) is writable."""
    package = package_dir or Path(__file__).resolve().parent
    if _writable(package / "__pycache__") and _writable(package):
        return None
    override = os.environ.get("EXACTODDS_CACHE_DIR")
    root = Path(override) if override else Path(platformdirs.user_cache_dir("exactodds"))
    if _writable(root):
        return root / "numba"
    user = os.getuid() if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"exactodds-{user}" / "numba"


def use_writable_numba_cache() -> None:
    """Set ``$NUMBA_CACHE_DIR`` (and numba's config, if numba is already loaded) when needed."""
    if os.environ.get(NUMBA_ENV):
        return
    target = numba_cache_dir()
    if target is None:
        return
    os.environ[NUMBA_ENV] = str(target)
    numba = sys.modules.get("numba")
    if numba is not None:  # imported before exactodds: its config was read already
        numba.config.CACHE_DIR = str(target)
