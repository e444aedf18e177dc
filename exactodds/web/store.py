"""The SQLite conventions of the web tables: a private file, migrations as data, one transaction
per change, idempotency keys, and database trouble as one line.

:class:`SqliteStore` opens (creating it 0600, its WAL and SHM files too: it holds hidden cards)
and migrates a database; a subclass gives its ``migrations``, a tuple of versions, each a tuple
of SQL statements, and must create the ``requests`` table of :data:`IDEMPOTENCY_TABLE` in one of
them. The schema version is SQLite's ``user_version``; each migration runs in its own
transaction, so a database of any earlier version opens and is brought up to date, and a newer
one is refused. WAL + ``synchronous=NORMAL``: every transaction is atomic and survives a crash of
the process; only a power cut may lose the last transactions (never half of one).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import ClassVar

import platformdirs

from exactodds.errors import ExactOddsError
from exactodds.web.idempotency import Idempotency

KEY_LIFETIME = 24 * 3600.0  # seconds an idempotency key is remembered
DEFAULT_TIMEOUT = 2.0  # seconds a change waits for a lock held by another process
IDEMPOTENCY_TABLE: tuple[str, ...] = (
    """CREATE TABLE requests (
           key TEXT PRIMARY KEY,
           fingerprint TEXT NOT NULL,
           response TEXT NOT NULL,
           created REAL NOT NULL)""",
    "CREATE INDEX requests_created ON requests (created)",
)


class StoreError(ExactOddsError):
    """A database that cannot be opened or used (wrong file, newer schema, stale update)."""


class DatabaseUnavailableError(StoreError):
    """The database cannot serve the request now: locked by another process, read-only, or damaged."""


def recover_hint(path: Path) -> str:
    """The one-line way to recover a damaged database file."""
    return f'sqlite3 {path} ".recover" | sqlite3 {path.with_suffix(".recovered.sqlite3")}'


def database_error(exc: sqlite3.Error | ValueError | KeyError | TypeError | ExactOddsError,
                   path: Path) -> DatabaseUnavailableError:
    """The one-line cause of a database failure (SQLite's, or a stored row that cannot be read)."""
    text = str(exc).lower()
    if isinstance(exc, sqlite3.Error) and ("locked" in text or "busy" in text):
        return DatabaseUnavailableError(f"database is locked by another process ({path}); try again")
    if isinstance(exc, sqlite3.Error) and "readonly" in text.replace("-", "").replace(" ", ""):
        return DatabaseUnavailableError(f"database file is read-only ({path})")
    if isinstance(exc, sqlite3.OperationalError) and "malformed" not in text:
        return DatabaseUnavailableError(f"database cannot be used ({path}): {str(exc)[:80]}")
    return DatabaseUnavailableError(f"database is damaged ({str(exc)[:60]}): run {recover_hint(path)} to "
                                    "recover")


def create_private(path: Path) -> None:
    """Create the database file (and its WAL and SHM files, which SQLite gives the same mode) 0600:
    it holds the hidden cards of the hands in play. An existing file is made private too."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for file in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        if file.exists() and file.stat().st_mode & 0o077:
            os.chmod(file, 0o600)


def data_file(env: str, name: str) -> Path:
    """``$env`` if set, else ``name`` in the user data folder (platformdirs)."""
    override = os.environ.get(env)
    return Path(override) if override else Path(platformdirs.user_data_dir("exactodds")) / name


class SqliteStore:
    """A database at ``path`` (created, or migrated to the current schema, on open).

    Subclasses set ``migrations``, ``what`` (how errors name the file, e.g. "table database") and
    the default file: ``$db_env`` if set, else ``db_name`` in the user data folder (``path`` None).
    Every method holding ``self._lock`` runs alone: one connection serves every thread.
    """

    migrations: ClassVar[tuple[tuple[str, ...], ...]] = ()
    what: ClassVar[str] = "database"
    db_env: ClassVar[str] = "EXACTODDS_DB"
    db_name: ClassVar[str] = "exactodds.sqlite3"

    def __init__(self, path: str | os.PathLike[str] | None = None, *,
                 timeout: float = DEFAULT_TIMEOUT) -> None:
        self.path = Path(path) if path is not None else data_file(self.db_env, self.db_name)
        if self.path.is_dir():
            raise StoreError(f"{self.what} {self.path} is a folder, not a file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self.path.exists() and not os.access(self.path, os.W_OK):
                raise StoreError(f"{self.what} {self.path}: the database file is read-only")
            if not os.access(self.path.parent, os.W_OK):
                raise StoreError(f"{self.what} {self.path}: its folder is read-only (SQLite writes its "
                                 "journal beside the file)")
            create_private(self.path)
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                         timeout=timeout)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")
            self._conn.execute("PRAGMA foreign_keys=ON")
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"{self.what} {self.path} cannot be opened: {exc}") from None
        self._lock = threading.Lock()
        self.migrate()
        self.check_writable()

    @property
    def schema_version(self) -> int:
        return int(self._conn.execute("PRAGMA user_version").fetchone()[0])

    @property
    def latest_version(self) -> int:
        """The schema version this exactodds writes: one per migration."""
        return len(self.migrations)

    def migrate(self) -> None:
        """Bring the schema to the latest version, one transaction per migration."""
        with self._lock:
            try:
                current = self.schema_version
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.what} {self.path} is not an SQLite database: {exc}") from None
            if current > self.latest_version:
                raise StoreError(f"{self.what} {self.path} has schema version {current}, newer than "
                                 f"this exactodds knows ({self.latest_version}); upgrade exactodds")
            for version in range(current, self.latest_version):
                with self._transaction():
                    for statement in self.migrations[version]:
                        self._conn.execute(statement)
                    self._conn.execute(f"PRAGMA user_version = {version + 1}")

    def check_writable(self) -> None:
        """Raise StoreError unless a write transaction can commit now (run at start-up); forgets
        the idempotency keys past their lifetime."""
        with self._lock:
            try:
                with self._transaction():
                    self._conn.execute("DELETE FROM requests WHERE created < ?",
                                       (time.time() - KEY_LIFETIME,))
                    self._conn.execute(f"PRAGMA user_version = {self.latest_version}")
            except sqlite3.Error as exc:
                raise StoreError(f"{self.what} {self.path}: {database_error(exc, self.path)}") from None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite's failures as a DatabaseUnavailableError with a one-line cause."""
        try:
            yield
        except sqlite3.Error as exc:
            raise database_error(exc, self.path) from None

    def _remember(self, idempotency: Idempotency | None, response: str | None, now: float) -> None:
        """Keep the answer to a request sent with an idempotency key (inside the change's transaction)."""
        if idempotency is not None and response is not None:
            self._conn.execute("INSERT INTO requests (key, fingerprint, response, created) "
                               "VALUES (?, ?, ?, ?)",
                               (idempotency.key, idempotency.fingerprint, response, now))

    def replay(self, key: str) -> tuple[str, str] | None:
        """(fingerprint, response) of the request first sent with ``key``, or None."""
        with self._lock, self._errors():
            row = self._conn.execute("SELECT fingerprint, response FROM requests "
                                     "WHERE key = ? AND created >= ?",
                                     (key, time.time() - KEY_LIFETIME)).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))
