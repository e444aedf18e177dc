"""SQLite persistence of hosted games: every action in one transaction, a game read back by replay.

Tables: ``meta`` (the server's host key), ``games`` (each game's set-up and state: seats, links,
clocks), ``hands`` (each hand as it started: dealer, seats and the whole deck, append-only) and
``actions`` (every action of the evening, append-only), beside the ``requests`` of idempotent
retries. The file holds every deck and every link: it is created private (0600) and never leaves
the server.

:meth:`HostStore.save` writes a game's new state, its new hands and its new actions in one
``BEGIN IMMEDIATE`` transaction guarded by the game's version (an update from a stale copy is
refused, never lost). A server killed at any moment restarts with every game where its last
committed action left it: :meth:`HostStore.load` replays each hand through the engine.
"""

from __future__ import annotations

import json
import time

from exactodds.errors import ExactOddsError
from exactodds.stud.host.config import GameConfig
from exactodds.stud.host.game import ActionRecord, ActionSource, HandStart, HostGame
from exactodds.web.idempotency import Idempotency
from exactodds.web.store import IDEMPOTENCY_TABLE, SqliteStore, StoreError, database_error
from exactodds.web.tokens import new_token

DB_ENV = "EXACTODDS_STUD_HOST_DB"
DB_NAME = "stud-host.sqlite3"
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # version 1: the host key, games, their hands and actions, idempotent retries
    (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE games (
               id TEXT PRIMARY KEY,
               created REAL NOT NULL,
               updated REAL NOT NULL,
               version INTEGER NOT NULL,
               config TEXT NOT NULL,
               state TEXT NOT NULL)""",
        """CREATE TABLE hands (
               game_id TEXT NOT NULL REFERENCES games(id),
               number INTEGER NOT NULL,
               dealer INTEGER NOT NULL,
               seats TEXT NOT NULL,
               deck TEXT NOT NULL,
               at REAL NOT NULL,
               PRIMARY KEY (game_id, number))""",
        """CREATE TABLE actions (
               game_id TEXT NOT NULL REFERENCES games(id),
               position INTEGER NOT NULL,
               hand INTEGER NOT NULL,
               seat INTEGER NOT NULL,
               action TEXT NOT NULL,
               source TEXT NOT NULL,
               at REAL NOT NULL,
               PRIMARY KEY (game_id, position))""",
        *IDEMPOTENCY_TABLE,
    ),
)


class UnknownGameError(ExactOddsError):
    """No game has this id (404)."""


class HostStore(SqliteStore):
    """The games database at ``path`` (default: ``$EXACTODDS_STUD_HOST_DB``, else
    ``stud-host.sqlite3`` in the user data folder)."""

    migrations = MIGRATIONS
    what = "host database"
    db_env, db_name = DB_ENV, DB_NAME

    def host_key(self) -> str:
        """The server's host key (made once, kept in the file: the host's link survives a restart)."""
        with self._lock, self._errors(), self._transaction():
            row = self._conn.execute("SELECT value FROM meta WHERE key = 'host_key'").fetchone()
            if row is not None:
                return str(row[0])
            key = new_token()
            self._conn.execute("INSERT INTO meta (key, value) VALUES ('host_key', ?)", (key,))
            return key

    def create(self, game: HostGame, *, idempotency: Idempotency | None = None,
               response: str | None = None) -> None:
        """Store a new game (and the answer to its idempotency key, if any)."""
        now = time.time()
        with self._lock, self._errors(), self._transaction():
            self._conn.execute("INSERT INTO games (id, created, updated, version, config, state) "
                               "VALUES (?, ?, ?, ?, ?, ?)",
                               (game.id, game.created, now, game.version, json.dumps(game.config.to_dict()),
                                json.dumps(game.state())))
            self._append(game, hands_from=0, actions_from=0)
            self._remember(idempotency, response, now)

    def save(self, game: HostGame, *, version: int, hands_from: int, actions_from: int,
             idempotency: Idempotency | None = None, response: str | None = None) -> None:
        """Write a game after one change, atomically. ``version``: the stored version the change
        started from (another one is refused); ``hands_from`` / ``actions_from``: rows already stored."""
        now = time.time()
        with self._lock, self._errors(), self._transaction():
            cursor = self._conn.execute(
                "UPDATE games SET config = ?, state = ?, updated = ?, version = ? "
                "WHERE id = ? AND version = ?",
                (json.dumps(game.config.to_dict()), json.dumps(game.state()), now, game.version, game.id,
                 version))
            if cursor.rowcount != 1:
                raise StoreError(f"game {game.id} changed since version {version}; reload it")
            self._append(game, hands_from=hands_from, actions_from=actions_from)
            self._remember(idempotency, response, now)

    def _append(self, game: HostGame, *, hands_from: int, actions_from: int) -> None:
        for start in game.hands[hands_from:]:
            self._conn.execute("INSERT INTO hands (game_id, number, dealer, seats, deck, at) "
                               "VALUES (?, ?, ?, ?, ?, ?)",
                               (game.id, start.number, start.dealer, json.dumps(start.seats),
                                json.dumps(start.deck), start.at))
        for position in range(actions_from, len(game.actions)):
            a = game.actions[position]
            self._conn.execute("INSERT INTO actions (game_id, position, hand, seat, action, source, at) "
                               "VALUES (?, ?, ?, ?, ?, ?, ?)",
                               (game.id, position, a.hand, a.seat, a.action, str(a.source), a.at))

    def game_ids(self) -> list[str]:
        """Every stored game, oldest first."""
        with self._lock, self._errors():
            return [r[0] for r in self._conn.execute("SELECT id FROM games ORDER BY created")]

    def load(self, game_id: str, *, now: float) -> HostGame:
        """The stored game, replayed to where its last action left it. Raises UnknownGameError, or
        DatabaseUnavailableError when the rows do not hold together."""
        with self._lock, self._errors():
            row = self._conn.execute("SELECT created, version, config, state FROM games WHERE id = ?",
                                     (game_id,)).fetchone()
            if row is None:
                raise UnknownGameError(f"unknown game {game_id[:64]!r}")
            hands = self._conn.execute("SELECT number, dealer, seats, deck, at FROM hands WHERE game_id = ? "
                                       "ORDER BY number", (game_id,)).fetchall()
            actions = self._conn.execute("SELECT hand, seat, action, source, at FROM actions "
                                         "WHERE game_id = ? ORDER BY position", (game_id,)).fetchall()
        try:
            game = HostGame.restore(
                id=game_id, config=GameConfig.from_dict(json.loads(row[2])), state=json.loads(row[3]),
                hands=[HandStart(number=int(n), dealer=int(d), seats=tuple(json.loads(s)),
                                 deck=tuple(json.loads(k)), at=float(at)) for n, d, s, k, at in hands],
                actions=[ActionRecord(hand=int(h), seat=int(s), action=str(a), source=ActionSource(src),
                                      at=float(at)) for h, s, a, src, at in actions],
                created=float(row[0]), now=now)
            game.version = int(row[1])
        except (ValueError, KeyError, TypeError, AttributeError, ExactOddsError) as exc:
            problem = ValueError(f"game {game_id[:64]!r} cannot be read: {exc}")
            raise database_error(problem, self.path) from None
        return game
