"""Table sessions kept in a store: every action checked, applied and persisted as one step.

:class:`TableService` is what the HTTP server (and anything else that wants persistence)
drives. One lock per session serialises its actions, so concurrent requests on one session
never lose an update; different sessions proceed in parallel. An action that fails (illegal,
or the database refused the write) leaves both the stored and the in-memory session as they
were: the in-memory copy is dropped and reloaded from the database.

Memory is bounded: at most ``max_cached`` sessions are kept in memory (least recently used
first out); the database is the truth, and an evicted session is read back from it on its
next request, the same as it was.

Retries: an action (or a create) sent with an idempotency key is applied once; the same key
again returns the first answer, whatever happened to the response in between.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from exactodds.caribbean.table.coach import Coach, coach_for
from exactodds.caribbean.table.forms import SessionView, session_view
from exactodds.caribbean.table.game import TableSession
from exactodds.caribbean.table.store import Store
from exactodds.errors import ExactOddsError
from exactodds.web.idempotency import Idempotency, check_replay, idempotency

DEFAULT_MAX_CACHED = 2000  # sessions in memory; a session is a few KB (its hands grow it)


class ActionBodyError(ExactOddsError):
    """An action's JSON body that is not of the form the action takes (a 400, not a state conflict)."""


Body = Mapping[str, Any]


def _short(body: Any) -> str:
    text = repr(dict(body) if isinstance(body, Mapping) else body)
    return text if len(text) <= 80 else text[:77] + "..."


def _chips(s: TableSession, body: Body) -> None:
    keys = set(body)
    if keys == {"add"}:
        s.add_chip(body["add"])
    elif keys == {"undo"} and body["undo"] is True:
        s.undo()
    elif keys == {"clear"} and body["clear"] is True:
        s.clear()
    else:
        raise ActionBodyError('chips: send {"add": n}, {"undo": true} or {"clear": true}, got '
                              f"{_short(body)}")


def _deposit(s: TableSession, body: Body) -> None:
    if set(body) != {"amount"}:
        raise ActionBodyError(f'deposit: send {{"amount": n}}, got {_short(body)}')
    s.deposit(body["amount"])


def _coach(s: TableSession, body: Body) -> None:
    if set(body) != {"hide"} or not isinstance(body["hide"], bool):
        raise ActionBodyError(f'coach: send {{"hide": true}} or {{"hide": false}}, got {_short(body)}')
    s.set_hide_coach(body["hide"])


def _no_fields(name: str, method: Callable[[TableSession], None]) -> Callable[[TableSession, Body], None]:
    def handler(s: TableSession, body: Body) -> None:
        if body:
            raise ActionBodyError(f"{name} takes no fields, got {_short(body)}")
        method(s)
    return handler


HANDLERS: dict[str, Callable[[TableSession, Body], None]] = {
    "chips": _chips,
    "deal": _no_fields("deal", TableSession.deal),
    "raise": _no_fields("raise", TableSession.raise_),
    "fold": _no_fields("fold", TableSession.fold),
    "rebet": _no_fields("rebet", TableSession.rebet),
    "new_game": _no_fields("new_game", TableSession.new_game),
    "deposit": _deposit,
    "coach": _coach,
}
ACTIONS = tuple(HANDLERS)
# Safe to retry without an idempotency key: a repeat is refused (409) by the state, never applied twice.
SAFE_TO_RETRY = ("deal", "raise", "fold", "rebet", "new_game")


@dataclass
class _Entry:
    session: TableSession
    version: int
    lock: threading.Lock


class TableService:
    """Sessions of ``store``; ``defaults`` are the keyword arguments of new sessions.

    ``max_cached``: sessions kept in memory at most (the least recently used is dropped first).
    """

    def __init__(self, store: Store, *, coach_fn: Callable[..., Coach] = coach_for,
                 max_cached: int = DEFAULT_MAX_CACHED, **defaults: Any) -> None:
        if max_cached < 1:
            raise ValueError(f"max_cached must be at least 1, got {max_cached}")
        self.store = store
        self.coach_fn = coach_fn
        self.max_cached = max_cached
        self.defaults = defaults
        self.evicted = 0  # sessions dropped from memory so far
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._entries_lock = threading.Lock()

    @property
    def cached(self) -> int:
        """Sessions in memory now (at most ``max_cached``, plus any in use at the moment)."""
        return len(self._entries)

    def create(self, *, idempotency_key: str | None = None, **options: Any) -> SessionView:
        """A new stored session (``options`` override the service defaults); returns its view."""
        marker = idempotency(idempotency_key, {"create": options})
        replayed = self._replay(marker)
        if replayed is not None:
            return replayed
        session = TableSession(**{**self.defaults, **options}, coach_fn=self.coach_fn)
        view = session_view(session)
        version = self.store.create(session, idempotency=marker, response=json.dumps(view))
        self._keep(session.id, _Entry(session, version, threading.Lock()))
        return view

    def _replay(self, marker: Idempotency | None) -> SessionView | None:
        if marker is None:
            return None
        response = check_replay(marker, self.store.replay(marker.key))
        return None if response is None else cast(SessionView, json.loads(response))

    def _keep(self, session_id: str, entry: _Entry) -> None:
        """Cache ``entry`` as the most recent, evicting the least recently used idle sessions."""
        with self._entries_lock:
            self._entries[session_id] = entry
            self._entries.move_to_end(session_id)
            self._evict()

    def _evict(self) -> None:
        excess = len(self._entries) - self.max_cached
        if excess <= 0:
            return
        for sid in list(self._entries)[:-1]:  # never the one just used
            if excess <= 0:
                break
            if not self._entries[sid].lock.locked():  # a session in use stays until its action ends
                del self._entries[sid]
                self.evicted += 1
                excess -= 1

    def _entry(self, session_id: str) -> _Entry:
        with self._entries_lock:
            entry = self._entries.get(session_id)
            if entry is not None:
                self._entries.move_to_end(session_id)
                return entry
        session, version = self.store.load(session_id, coach_fn=self.coach_fn)
        with self._entries_lock:
            entry = self._entries.get(session_id)  # another request may have loaded it meanwhile
            if entry is None:
                entry = self._entries[session_id] = _Entry(session, version, threading.Lock())
                self._evict()
            return entry

    @contextmanager
    def _locked(self, session_id: str) -> Iterator[_Entry]:
        """The session's cached entry, its lock held; the entry is the current one (not evicted,
        not dropped after a failed action while this request waited for the lock)."""
        while True:
            entry = self._entry(session_id)
            entry.lock.acquire()
            with self._entries_lock:
                current = self._entries.get(session_id) is entry
            if current:
                break
            entry.lock.release()
        try:
            yield entry
        finally:
            entry.lock.release()

    def view(self, session_id: str) -> SessionView:
        """The player's view of a session (see :func:`~exactodds.caribbean.table.forms.session_view`)."""
        with self._locked(session_id) as entry:
            return session_view(entry.session)

    def history(self, session_id: str) -> list[dict[str, Any]]:
        """Every hand of a session, settled or void, as dicts (see :meth:`HandRecord.to_dict`)."""
        with self._locked(session_id) as entry:
            return [h.to_dict() for h in entry.session.history]

    def deposits(self, session_id: str) -> list[dict[str, Any]]:
        """Every deposit of a session: ``{"amount", "at"}`` (unix time), oldest first."""
        self._entry(session_id)  # unknown ids are refused the same way as elsewhere
        return [{"amount": amount, "at": at} for amount, at in self.store.deposit_rows(session_id)]

    def session(self, session_id: str) -> TableSession:
        """The live session object (read it under no assumption that it stays unchanged)."""
        return self._entry(session_id).session

    def act(self, session_id: str, action: str, body: Body | None = None, *,
            idempotency_key: str | None = None) -> SessionView:
        """Apply one action with its JSON body, persist it, and return the new view.

        Raises UnknownSessionError, IllegalActionError, ActionBodyError (or another
        ExactOddsError) and changes nothing in that case.
        """
        body = body or {}
        handler = HANDLERS.get(action)
        if handler is None:
            raise ActionBodyError(f"unknown action {action[:40]!r} (known: {', '.join(ACTIONS)})")
        marker = idempotency(idempotency_key, {"session": session_id, "action": action, "body": dict(body)})
        with self._locked(session_id) as entry:
            replayed = self._replay(marker)
            if replayed is not None:
                return replayed
            s = entry.session
            hands_from, deposits_from = len(s.history), len(s.deposits)
            try:
                handler(s, body)
                view = session_view(s)
                entry.version = self.store.save(s, version=entry.version, hands_from=hands_from,
                                                deposits_from=deposits_from, idempotency=marker,
                                                response=json.dumps(view) if marker else None)
            except BaseException:
                # Back to the stored state (an illegal action changed nothing; a failed write is undone).
                with self._entries_lock:
                    self._entries.pop(session_id, None)
                try:
                    entry.session, entry.version = self.store.load(session_id, coach_fn=self.coach_fn)
                    self._keep(session_id, entry)
                except ExactOddsError:
                    pass  # the database is unreachable: the next request loads the session again
                raise
            return view

    def forget_all(self) -> None:
        """Drop every in-memory copy (the next access reloads from the database)."""
        with self._entries_lock:
            self.evicted += len(self._entries)
            self._entries.clear()


__all__ = ["ACTIONS", "HANDLERS", "SAFE_TO_RETRY", "ActionBodyError", "TableService"]
