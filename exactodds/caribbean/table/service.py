"""Table sessions kept in a store: every action checked, applied and persisted as one step.

:class:`TableService` is what the HTTP server (and anything else that wants persistence)
drives. One lock per session serialises its actions, so concurrent requests on one session
never lose an update; different sessions proceed in parallel. An action that fails (illegal,
or the database refused the write) leaves both the stored and the in-memory session as they
were: the in-memory copy is dropped and reloaded from the database.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from exactodds.caribbean.table.coach import Coach, coach_for
from exactodds.caribbean.table.game import TableSession
from exactodds.caribbean.table.store import Store, UnknownSessionError
from exactodds.errors import IllegalActionError

ACTIONS = ("chips", "deal", "raise", "fold", "rebet", "new_game", "deposit", "coach")


@dataclass
class _Entry:
    session: TableSession
    version: int
    lock: threading.Lock


class TableService:
    """Sessions of ``store``; ``defaults`` are the keyword arguments of new sessions."""

    def __init__(self, store: Store, *, coach_fn: Callable[..., Coach] = coach_for,
                 **defaults: Any) -> None:
        self.store = store
        self.coach_fn = coach_fn
        self.defaults = defaults
        self._entries: dict[str, _Entry] = {}
        self._entries_lock = threading.Lock()

    def create(self, **options: Any) -> TableSession:
        """A new stored session (``options`` override the service defaults)."""
        session = TableSession(**{**self.defaults, **options}, coach_fn=self.coach_fn)
        version = self.store.create(session)
        with self._entries_lock:
            self._entries[session.id] = _Entry(session, version, threading.Lock())
        return session

    def _entry(self, session_id: str) -> _Entry:
        with self._entries_lock:
            entry = self._entries.get(session_id)
            if entry is None:
                session, version = self.store.load(session_id, coach_fn=self.coach_fn)
                entry = self._entries[session_id] = _Entry(session, version, threading.Lock())
            return entry

    def view(self, session_id: str) -> dict[str, Any]:
        """The player's view of a session (see :meth:`TableSession.view`)."""
        entry = self._entry(session_id)
        with entry.lock:
            return entry.session.view()

    def history(self, session_id: str) -> list[dict[str, Any]]:
        """Every hand of a session, settled or void, as dicts (see :meth:`HandRecord.to_dict`)."""
        entry = self._entry(session_id)
        with entry.lock:
            return [h.to_dict() for h in entry.session.history]

    def session(self, session_id: str) -> TableSession:
        """The live session object (read it under no assumption that it stays unchanged)."""
        return self._entry(session_id).session

    def act(self, session_id: str, action: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """Apply one action with its JSON body, persist it, and return the new view.

        Raises UnknownSessionError, IllegalActionError (or another ExactOddsError) and changes
        nothing in that case.
        """
        body = body or {}
        entry = self._entry(session_id)
        with entry.lock:
            s = entry.session
            hands_from, deposits_from = len(s.history), len(s.deposits)
            try:
                _apply(s, action, body)
                entry.version = self.store.save(s, version=entry.version, hands_from=hands_from,
                                                deposits_from=deposits_from)
            except BaseException:
                # Back to the stored state (an illegal action changed nothing; a failed write is undone).
                entry.session, entry.version = self.store.load(session_id, coach_fn=self.coach_fn)
                raise
            return s.view()

    def forget_all(self) -> None:
        """Drop every in-memory copy (the next access reloads from the database)."""
        with self._entries_lock:
            self._entries.clear()


def _apply(s: TableSession, action: str, body: dict[str, Any]) -> None:
    """Call the session method for ``action`` with the fields of ``body``."""
    if action == "chips":
        keys = set(body)
        if keys == {"add"}:
            s.add_chip(body["add"])
        elif keys == {"undo"} and body["undo"] is True:
            s.undo()
        elif keys == {"clear"} and body["clear"] is True:
            s.clear()
        else:
            raise IllegalActionError('chips: send {"add": n}, {"undo": true} or {"clear": true}, got '
                                     f"{_short(body)}")
        return
    if action == "deposit":
        if set(body) != {"amount"}:
            raise IllegalActionError(f'deposit: send {{"amount": n}}, got {_short(body)}')
        s.deposit(body["amount"])
        return
    if action == "coach":
        if set(body) != {"hide"}:
            raise IllegalActionError(f'coach: send {{"hide": true}} or {{"hide": false}}, got {_short(body)}')
        s.set_hide_coach(body["hide"])
        return
    simple = {"deal": s.deal, "raise": s.raise_, "fold": s.fold, "rebet": s.rebet, "new_game": s.new_game}
    if action not in simple:
        raise IllegalActionError(f"unknown action {action!r} (known: {', '.join(ACTIONS)})")
    if body:
        raise IllegalActionError(f"{action} takes no fields, got {_short(body)}")
    simple[action]()


def _short(body: Any) -> str:
    text = repr(body)
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["ACTIONS", "TableService", "UnknownSessionError"]
