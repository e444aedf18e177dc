"""Where generated tables live, and writing files so that a reader never sees half of one.

The cache directory is ``$EXACTODDS_CACHE_DIR`` when set, else the user cache
directory that platformdirs gives (``~/.cache/exactodds`` on Linux).
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import platformdirs

from exactodds.errors import ExactOddsError

CACHE_ENV = "EXACTODDS_CACHE_DIR"


def cache_dir() -> Path:
    """The directory for generated tables (created on demand)."""
    override = os.environ.get(CACHE_ENV)
    path = Path(override) if override else Path(platformdirs.user_cache_dir("exactodds"))
    where = f"${CACHE_ENV} ({path})" if override else f"the cache directory {path}"
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CacheDirError(f"{where} is a file, not a folder; point {CACHE_ENV} at a folder") from None
    except OSError as exc:
        raise CacheDirError(f"{where} cannot be created: {exc.strerror or exc}; "
                            f"point {CACHE_ENV} at a writable folder") from None
    return path


class CacheDirError(ExactOddsError):
    """The cache directory cannot be used (a file is in the way, or it cannot be created)."""


@contextmanager
def atomic_output(path: str | os.PathLike[str], mode: str = "wb") -> Iterator[Any]:
    """Open a temporary file beside ``path``; on success it replaces ``path`` in one step.

    On any error (Ctrl-C and, from the command line, SIGTERM included) the temporary file is
    removed and an existing ``path`` is untouched. An OSError without a file name (a full disk,
    a file too large) is raised again naming ``path``.
    """
    target = Path(path)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    encoding = None if "b" in mode else "utf-8"
    try:
        try:
            with os.fdopen(fd, mode, encoding=encoding, newline=None if encoding is None else "") as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
            os.chmod(tmp_name, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
            os.replace(tmp_name, target)
        except OSError as exc:
            if exc.filename is None and exc.errno is not None:
                raise OSError(exc.errno, exc.strerror, str(target)) from None
            raise
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


def keep_in_cache(path: Path, data: bytes, *, what: str) -> None:
    """Write ``data`` to the cache file ``path`` atomically; a read-only or full cache only warns
    (a :class:`CacheWarning`): the result in hand still serves this process."""
    try:
        atomic_write_bytes(path, data)
    except OSError as exc:
        warnings.warn(f"{what} cache {path} cannot be written ({exc.strerror or exc}); "
                      f"it is computed again each run (set ${CACHE_ENV} to a writable folder)",
                      CacheWarning, stacklevel=3)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class CacheWarning(UserWarning):
    """A cached table was unreadable or corrupt and has been rebuilt."""


def array_digest(array: np.ndarray) -> str:
    """SHA-256 hex digest of an array's little-endian, C-ordered bytes."""
    data = np.ascontiguousarray(array)
    return hashlib.sha256(data.astype(data.dtype.newbyteorder("<"), copy=False).tobytes()).hexdigest()


def cached_array(file_name: str, *, build: Callable[[], np.ndarray], sha256: str, what: str) -> np.ndarray:
    """A derived table from the cache directory, verified against its pinned digest.

    A missing file is built and stored atomically; an unreadable or corrupt one is rebuilt
    with a CacheWarning, never used. A build that does not match the digest is a bug and
    raises RuntimeError. The returned array is read-only.
    """
    path = cache_dir() / file_name
    array = None
    if path.exists():
        try:
            array = np.load(path, allow_pickle=False)
        except Exception as exc:  # any unreadable file is treated as corrupt
            warnings.warn(f"{what} cache {path} is unreadable ({exc}); rebuilding", CacheWarning,
                          stacklevel=3)
        else:
            if array_digest(array) != sha256:
                warnings.warn(f"{what} cache {path} is corrupt; rebuilding", CacheWarning, stacklevel=3)
                array = None
    if array is None:
        array = build()
        digest = array_digest(array)
        if digest != sha256:
            raise RuntimeError(f"built {what} has digest {digest}, expected {sha256}")
        buffer = io.BytesIO()
        np.save(buffer, array, allow_pickle=False)
        keep_in_cache(path, buffer.getvalue(), what=what)
    array.setflags(write=False)
    return array
