"""SQLite persistence of table sessions: one transaction per action, schema migrations from version 1
(the conventions of :class:`~exactodds.web.store.SqliteStore`).

Tables: ``sessions`` (the state of each session, hole cards of the hand in play included:
this file never leaves the server), ``hands`` (one row per settled or void hand, append-only)
and ``deposits`` (append-only). The schema version is SQLite's ``user_version``; each
migration runs in its own transaction, so a database of any earlier version opens and is
brought up to date.

:meth:`Store.save` writes the session's new state, its new hands and its new deposits in
one ``BEGIN IMMEDIATE`` transaction, guarded by the session's version number (an update
from a stale copy is refused, never lost). A crash before the commit leaves the previous
state: the hand in play is then either still in play (it resumes) or fully recorded; it is
never half-settled.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from exactodds.caribbean.table.forms import session_from_state, session_state
from exactodds.caribbean.table.game import TableSession
from exactodds.caribbean.table.hand import Phase
from exactodds.caribbean.table.records import HandRecord, record_from_dict, record_to_stored
from exactodds.errors import ExactOddsError
from exactodds.web.idempotency import Idempotency
from exactodds.web.store import IDEMPOTENCY_TABLE, SqliteStore, StoreError, data_file, database_error

DB_ENV = "EXACTODDS_TABLE_DB"
DB_NAME = "table.sqlite3"

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # version 1: sessions, their hands and deposits
    (
        """CREATE TABLE sessions (
               id TEXT PRIMARY KEY,
               created REAL NOT NULL,
               updated REAL NOT NULL,
               state TEXT NOT NULL)""",
        """CREATE TABLE hands (
               session_id TEXT NOT NULL REFERENCES sessions(id),
               position INTEGER NOT NULL,
               record TEXT NOT NULL,
               PRIMARY KEY (session_id, position))""",
        """CREATE TABLE deposits (
               session_id TEXT NOT NULL REFERENCES sessions(id),
               position INTEGER NOT NULL,
               amount INTEGER NOT NULL,
               at REAL NOT NULL,
               PRIMARY KEY (session_id, position))""",
    ),
    # version 2: a version counter per session (refuses stale updates) and the paytable for listings
    (
        "ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE sessions ADD COLUMN paytable TEXT NOT NULL DEFAULT ''",
        "UPDATE sessions SET paytable = json_extract(state, '$.profile.name')",
    ),
    # version 3: the answers to requests sent with an idempotency key (a retry gets the first answer)
    IDEMPOTENCY_TABLE,
)
SCHEMA_VERSION = len(MIGRATIONS)


class UnknownSessionError(ExactOddsError):
    """No session has this id."""


def default_db_path() -> Path:
    """``$EXACTODDS_TABLE_DB``, else ``table.sqlite3`` in the user data folder (platformdirs)."""
    return data_file(DB_ENV, DB_NAME)


class Store(SqliteStore):
    """The sessions database at ``path`` (default :func:`default_db_path`; created, or migrated to the
    current schema, on open)."""

    migrations = MIGRATIONS
    what = "table database"
    db_env, db_name = DB_ENV, DB_NAME

    def create(self, session: TableSession, *, idempotency: Idempotency | None = None,
               response: str | None = None) -> int:
        """Store a new session (and the answer to its idempotency key, if any); returns its version (1)."""
        now = time.time()
        with self._lock, self._errors(), self._transaction():
            self._conn.execute(
                "INSERT INTO sessions (id, created, updated, state, version, paytable) "
                "VALUES (?, ?, ?, ?, 1, ?)",
                (session.id, now, now, json.dumps(session_state(session)), session.profile.name))
            self._append(session, hands_from=0, deposits_from=0, now=now)
            self._remember(idempotency, response, now)
        return 1

    def save(self, session: TableSession, *, version: int, hands_from: int, deposits_from: int,
             crash: Callable[[str], None] | None = None, idempotency: Idempotency | None = None,
             response: str | None = None) -> int:
        """Write the session after one action, atomically; returns the new version.

        ``version``: the version the action started from (a different stored version is refused).
        ``hands_from`` / ``deposits_from``: how many hands / deposits were already stored.
        ``crash(step)`` is called between the statements (tests use it to stop a save half-way).
        """
        now = time.time()
        with self._lock, self._errors(), self._transaction():
            cursor = self._conn.execute(
                "UPDATE sessions SET state = ?, updated = ?, version = version + 1 "
                "WHERE id = ? AND version = ?",
                (json.dumps(session_state(session)), now, session.id, version))
            if cursor.rowcount != 1:
                raise StoreError(f"session {session.id} changed since version {version}; reload it")
            if crash is not None:
                crash("state written")
            self._append(session, hands_from=hands_from, deposits_from=deposits_from, now=now, crash=crash)
            self._remember(idempotency, response, now)
            if crash is not None:
                crash("rows written")
        return version + 1

    def _append(self, session: TableSession, *, hands_from: int, deposits_from: int, now: float,
                crash: Callable[[str], None] | None = None) -> None:
        for position in range(hands_from, len(session.history)):
            self._conn.execute("INSERT INTO hands (session_id, position, record) VALUES (?, ?, ?)",
                               (session.id, position,
                                json.dumps(record_to_stored(session.history[position]))))
            if crash is not None:
                crash("hand written")
        for position in range(deposits_from, len(session.deposits)):
            self._conn.execute("INSERT INTO deposits (session_id, position, amount, at) VALUES (?, ?, ?, ?)",
                               (session.id, position, session.deposits[position], now))

    def load(self, session_id: str, **session_options: Any) -> tuple[TableSession, int]:
        """The stored session and its version. Raises UnknownSessionError.

        A hand in play whose stored deal is incomplete or wrong (not 10 distinct cards) is void:
        its ante returns, it is recorded as void and the session goes back to betting.
        """
        if not isinstance(session_id, str) or not session_id:
            raise UnknownSessionError(f"unknown session {session_id!r}")
        with self._lock, self._errors():
            row = self._conn.execute("SELECT state, version FROM sessions WHERE id = ?",
                                     (session_id,)).fetchone()
            if row is None:
                raise UnknownSessionError(f"unknown session {session_id[:64]!r}")
            rows = [r[0] for r in self._conn.execute(
                "SELECT record FROM hands WHERE session_id = ? ORDER BY position", (session_id,))]
        try:
            records = [record_from_dict(json.loads(r)) for r in rows]
            state, version = json.loads(row[0]), int(row[1])
            if state.get("history_length") != len(records):
                raise ValueError(f"session {session_id}: {len(records)} hands stored, the state expects "
                                 f"{state.get('history_length')}")
            if state["phase"] == Phase.DECISION and not _deal_is_sound(state["hand"]):
                state["hand"] = _salvage(state["hand"])
            session = session_from_state(state, records, **session_options)
        except (ValueError, KeyError, TypeError, AttributeError, ExactOddsError) as exc:
            raise database_error(ValueError(f"session {session_id[:64]!r} cannot be read: {exc}"),
                                 self.path) from None
        if session.phase == Phase.DECISION and not _deal_is_sound(state["hand"]):
            before = (len(session.history), len(session.deposits))
            session.void_hand()
            version = self.save(session, version=version, hands_from=before[0], deposits_from=before[1])
        return session, version

    def session_ids(self) -> list[str]:
        with self._lock, self._errors():
            return [r[0] for r in self._conn.execute("SELECT id FROM sessions ORDER BY created")]

    def deposit_rows(self, session_id: str) -> list[tuple[int, float]]:
        """(amount, unix time) of each deposit of a session, in order."""
        with self._lock, self._errors():
            return [(int(a), float(t)) for a, t in self._conn.execute(
                "SELECT amount, at FROM deposits WHERE session_id = ? ORDER BY position", (session_id,))]

    def hand_records(self, session_id: str) -> list[HandRecord]:
        with self._lock, self._errors():
            return [record_from_dict(json.loads(r[0])) for r in self._conn.execute(
                "SELECT record FROM hands WHERE session_id = ? ORDER BY position", (session_id,))]


def _deal_is_sound(hand: dict[str, Any] | None) -> bool:
    """A stored deal is sound when it holds 5 + 5 distinct cards of the deck and both EVs."""
    try:
        cards = list(hand["player"]) + list(hand["dealer"])  # type: ignore[index]
        return (len(hand["player"]) == 5 and len(hand["dealer"]) == 5  # type: ignore[index]
                and len(set(cards)) == 10 and all(isinstance(c, int) and 0 <= c < 52 for c in cards)
                and bool(hand["ev_raise"]) and bool(hand["ev_fold"]))  # type: ignore[index]
    except (KeyError, TypeError):
        return False


def _salvage(hand: Any) -> dict[str, Any]:
    """What can be kept of an unsound stored deal to record it as void: its ante and valid cards."""
    hand = hand if isinstance(hand, dict) else {}

    def cards(key: str) -> list[int]:
        value = hand.get(key)
        items = value if isinstance(value, list) else []
        return [c for c in items if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 52]

    ante = hand.get("ante")
    return {"deal": hand.get("deal") if isinstance(hand.get("deal"), int) else 0,
            "ante": ante if isinstance(ante, int) and ante > 0 else 0,
            "player": cards("player"), "dealer": cards("dealer"), "ev_raise": "0", "ev_fold": "-1"}
