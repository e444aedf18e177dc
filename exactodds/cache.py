"""Where generated tables live, and writing files so that a reader never sees half of one.

The cache directory is ``$EXACTODDS_CACHE_DIR`` when set, else the user cache
directory that platformdirs gives (``~/.cache/exactodds`` on Linux).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import platformdirs

CACHE_ENV = "EXACTODDS_CACHE_DIR"


def cache_dir() -> Path:
    """The directory for generated tables (created on demand)."""
    override = os.environ.get(CACHE_ENV)
    path = Path(override) if override else Path(platformdirs.user_cache_dir("exactodds"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@contextmanager
def atomic_output(path: str | os.PathLike[str], mode: str = "wb") -> Iterator:
    """Open a temporary file beside ``path``; on success it replaces ``path`` in one step.

    On any error the temporary file is removed and an existing ``path`` is untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    encoding = None if "b" in mode else "utf-8"
    try:
        with os.fdopen(fd, mode, encoding=encoding, newline=None if encoding is None else "") as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp_name, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
        os.replace(tmp_name, target)
    except BaseException:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        raise


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_output(path, "wb") as fh:
        fh.write(data)


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_output(path, "w") as fh:
        fh.write(text)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
