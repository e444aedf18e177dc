"""Hosted games kept in a store: who may do what, every change checked, applied and written as one step.

:class:`HostService` is what the HTTP server drives. A link's token says who holds it
(:class:`Access`): the server's host key, a seat of a game, or a game's spectators. One lock per
game serialises its changes; different games proceed in parallel. A change that fails (refused,
or the database refused the write) leaves the game as it was: a game a failed write may have
changed is read back from the database. A change sent with an idempotency key is applied once.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from exactodds.errors import ExactOddsError
from exactodds.stud.decide.models import ModelError
from exactodds.stud.engine.actions import ACTION_KINDS, Action, ActionKind
from exactodds.stud.history.session_phh import dumps_session
from exactodds.stud.host.bots import BotModels
from exactodds.stud.host.coach import CoachJob, CoachNote, coach_words
from exactodds.stud.host.config import GameConfig, SeatKind
from exactodds.stud.host.game import GameStateError, GameStatus, HostGame
from exactodds.stud.host.store import HostStore, UnknownGameError
from exactodds.stud.host.views import Role, Snapshot, snapshot
from exactodds.web.idempotency import Idempotency, check_replay, idempotency
from exactodds.web.worker import JobStatus, KeyedWorker

DEFAULT_MAX_GAMES = 50  # games not over at once
CONTROLS = ("start", "pause", "resume", "end", "seat_person", "seat_bot")


class NoLinkError(ExactOddsError):
    """A request without a link's token (401)."""


class ForbiddenError(ExactOddsError):
    """A link that may not do this: another seat's action, a spectator acting, a player's link
    used for the host's controls, a link the host replaced (403)."""


class ActionBodyError(ExactOddsError):
    """An action or control whose JSON body is not of the form it takes (400)."""


class GameLimitError(ExactOddsError):
    """Too many games in play at once (409)."""


@dataclass(frozen=True)
class Access:
    """Who a token is: the host (every game), or a seat or the spectators of one game."""

    role: Role
    game: str | None
    seat: int | None = None


@dataclass
class _Entry:
    game: HostGame
    lock: threading.Lock
    views: Snapshot | None = None  # the views at the game's last version (built under the lock)


def _short(body: Any) -> str:
    text = json.dumps(body, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def parse_action(body: Mapping[str, Any]) -> tuple[Action, int]:
    """An action body ``{"action": "cc"|"f"|"pb"|"cbr", "amount": n (cbr), "turn": t}``: the action
    (its player set later) and the turn it answers. ActionBodyError for any other form."""
    keys = set(body)
    kind, turn = body.get("action"), body.get("turn")
    if kind not in ACTION_KINDS or not {"action", "turn"} <= keys or keys - {"action", "turn", "amount"}:
        raise ActionBodyError('send {"action": "pb" | "cc" | "cbr" | "f", "amount": n (with cbr), '
                              f'"turn": t}}, got {_short(body)}')
    if isinstance(turn, bool) or not isinstance(turn, int) or turn < 0:
        raise ActionBodyError(f"turn must be a whole number >= 0 (the view's turn), got {_short(turn)}")
    amount = body.get("amount")
    if kind == ActionKind.BET_RAISE:
        if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= 10**9:
            raise ActionBodyError(f"cbr needs a whole amount (the round total to bet or raise to), got "
                                  f"{_short(amount)}")
        return Action(player=0, kind=kind, amount=amount), turn
    if amount is not None and kind != ActionKind.BRING_IN:
        raise ActionBodyError(f"{kind} takes no amount, got {_short(amount)}")
    if kind == ActionKind.BRING_IN and amount is not None and (
            isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= 10**9):
        raise ActionBodyError(f"pb's amount must be the bring-in, got {_short(amount)}")
    return Action(player=0, kind=kind, amount=amount), turn


class HostService:
    """The games of ``store`` (all read back at start). ``models``: the bot models offered (the presets
    by default); a game in play whose bot plays a model not offered is a ModelError at start.
    ``on_change(game_id)`` is called after every committed change (the server wakes the game's live
    pages); ``clock`` gives unix time."""

    def __init__(self, store: HostStore, *, models: BotModels | None = None,
                 max_games: int = DEFAULT_MAX_GAMES, on_change: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time, coach_queue: int = 8) -> None:
        self.store, self.max_games, self.clock = store, max_games, clock
        self.models = models if models is not None else BotModels.of()
        self.on_change = on_change
        self.host_key = store.host_key()
        self._entries: dict[str, _Entry] = {}
        self._tokens: dict[str, Access] = {self.host_key: Access(Role.HOST, None)}
        self._lock = threading.Lock()
        now = clock()
        for game_id in store.game_ids():
            game = store.load(game_id, now=now)
            if game.status is not GameStatus.OVER:
                self._check_models(game)
            self._add(game)
        self.coach = KeyedWorker(coach_words, name="coach", limit=coach_queue, keep=256,
                                 failure_text=lambda job: f"the coach's advice for seat {job.seat} at turn "
                                 f"{job.turn} could not be found")

    def close(self) -> None:
        self.coach.stop()

    def _check_models(self, game: HostGame) -> None:
        """A stored game in play whose bots play models this server offers (else a ModelError)."""
        for k, seat in enumerate(game.seats, 1):
            model = seat.config.model
            if seat.config.kind is SeatKind.BOT and model not in self.models.models:
                raise ModelError(f"game {game.id[:8]} (in play) has seat {k} ({seat.config.name}) playing "
                                 f"the model {model!r}, which this server does not offer: start it with "
                                 "--opponents giving that model's file")

    # ------------------------------------------------------------------ links
    def _add(self, game: HostGame) -> None:
        with self._lock:
            self._entries[game.id] = _Entry(game, threading.Lock())
            self._index(game)

    def _index(self, game: HostGame) -> None:
        """The tokens of a game's links (a replaced link is dropped)."""
        for token in [t for t, a in self._tokens.items() if a.game == game.id]:
            del self._tokens[token]
        self._tokens[game.spectator] = Access(Role.SPECTATOR, game.id)
        for k, seat in enumerate(game.seats, 1):
            if seat.token is not None:
                self._tokens[seat.token] = Access(Role.SEAT, game.id, k)

    def access(self, token: str | None, game_id: str | None = None) -> Access:
        """Who ``token`` is; NoLinkError without one, ForbiddenError when it is unknown or belongs to
        another game than ``game_id``; UnknownGameError for a game the host asks for that does not exist."""
        if not token:
            raise NoLinkError("this needs a link's token: send Authorization: Bearer <the token after # in "
                              "your link>")
        with self._lock:
            access = self._tokens.get(token)
            known = game_id in self._entries
        if access is None:
            raise ForbiddenError("this link is not valid (the host may have replaced it)")
        if game_id is not None and access.role is Role.HOST and not known:
            raise UnknownGameError(f"unknown game {game_id[:64]!r}")
        if game_id is not None and access.game not in (None, game_id):
            raise ForbiddenError("this link is for another game")
        return access

    def _entry(self, game_id: str) -> _Entry:
        with self._lock:
            entry = self._entries.get(game_id)
        if entry is None:
            raise UnknownGameError(f"unknown game {game_id[:64]!r}")
        return entry

    @contextmanager
    def _locked(self, game_id: str) -> Iterator[_Entry]:
        entry = self._entry(game_id)
        with entry.lock:
            yield entry

    # ------------------------------------------------------------------ reading
    def view_text(self, game_id: str, access: Access) -> str:
        """The game as ``access`` may see it, as JSON text (:func:`~exactodds.stud.host.views.game_view`)."""
        entry = self._entry(game_id)
        views = self.current_views(game_id)
        if views is None:
            with entry.lock:
                views = self._views(entry)
        return views.text(access.role, access.seat, now=self.clock())

    def view(self, game_id: str, access: Access) -> dict[str, Any]:
        """The game as ``access`` may see it (a dict)."""
        return dict(json.loads(self.view_text(game_id, access)))

    def current_views(self, game_id: str) -> Snapshot | None:
        """The game's views if they are of its current version (no lock taken: the event loop asks)."""
        entry = self._entry(game_id)
        views = entry.views
        return views if views is not None and views.version == entry.game.version else None

    def _views(self, entry: _Entry) -> Snapshot:
        """The views of the entry's game now (the game's lock held)."""
        if entry.views is None or entry.views.version != entry.game.version:
            entry.views = snapshot(entry.game, now=self.clock())
        return entry.views

    def game_count(self) -> int:
        """Games held (in play or over)."""
        with self._lock:
            return len(self._entries)

    def version(self, game_id: str) -> int:
        return self._entry(game_id).game.version

    def games(self) -> list[dict[str, Any]]:
        """Every game in short, newest first (the host's list)."""
        with self._lock:
            entries = list(self._entries.values())
        rows = []
        for entry in entries:
            with entry.lock:
                g = entry.game
                rows.append({"game": g.id, "created": g.created, "status": str(g.status),
                             "seats": [s.config.name for s in g.seats],
                             "hands_played": len(g.session.finished)})
        return sorted(rows, key=lambda r: -r["created"])

    def history(self, game_id: str, access: Access) -> str:
        """The evening's finished hands as a ``.phhs`` file (``stud replay`` reads it), once it is over:
        it holds every hole card, the folded ones too."""
        with self._locked(game_id) as entry:
            if entry.game.status is not GameStatus.OVER:
                raise GameStateError("the hand histories hold every hole card, folded ones too: they can be "
                                     "downloaded once the evening is over (the host can end it)")
            if not entry.game.session.finished:
                raise GameStateError("no hand was played")
            return dumps_session(entry.game.session)

    def due(self) -> list[tuple[float, str]]:
        """(when, game) of every game that will move on its own (read without the games' locks: a hint)."""
        with self._lock:
            entries = list(self._entries.items())
        out = []
        for game_id, entry in entries:
            try:
                when = entry.game.due()
            except (AttributeError, IndexError, KeyError, ValueError):
                continue  # read while the game changed: asked again on the next round
            if when is not None:
                out.append((when, game_id))
        return out

    def coach_advice(self, game_id: str, access: Access) -> tuple[CoachNote | None, JobStatus, int]:
        """The coach's advice for a seat to act (queued for the worker if not found yet): the note,
        its status and the turn it is for."""
        if access.role is not Role.SEAT or access.seat is None:
            raise ForbiddenError("the coach speaks to a seat: open a player's link")
        with self._locked(game_id) as entry:
            game = entry.game
            if not game.config.coach:
                raise GameStateError("the host did not allow the coach in this game")
            table = game.table
            if game.actor_seat() != access.seat or table is None:
                raise GameStateError("the coach speaks on your turn")
            job = CoachJob.at(game=game.id, turn=len(game.actions), seat=access.seat, table=table,
                              seats=[s.config for s in game.seats], models=self.models)
        note, status = self.coach.lookup(job)
        return note, status, job.turn

    # ------------------------------------------------------------------ changes
    def create(self, body: Mapping[str, Any], *, idempotency_key: str | None = None) -> str:
        """A new game from its set-up (:class:`~exactodds.stud.host.config.GameConfig`); the host's view."""
        marker = idempotency(idempotency_key, {"create": dict(body)})
        replayed = self._replay(marker)
        if replayed is not None:
            return replayed
        config = GameConfig.from_dict(body)
        for k, seat in enumerate(config.seats, 1):
            if seat.kind is SeatKind.BOT:
                self.models.model(seat.model, seat=k)
        with self._lock:
            playing = sum(1 for e in self._entries.values() if e.game.status is not GameStatus.OVER)
        if playing >= self.max_games:
            raise GameLimitError(f"{playing} games are in play, the most this server holds "
                                 f"(--max-games {self.max_games}): end one first")
        game = HostGame.new(config, now=self.clock())
        views = snapshot(game, now=self.clock())
        text = views.text(Role.HOST, None, now=self.clock())
        self.store.create(game, idempotency=marker, response=text if marker else None)
        self._add(game)
        self._entry(game.id).views = views
        return text

    def _replay(self, marker: Idempotency | None) -> str | None:
        if marker is None:
            return None
        return check_replay(marker, self.store.replay(marker.key))

    def act(self, game_id: str, seat: int, body: Mapping[str, Any], access: Access, *,
            idempotency_key: str | None = None) -> str:
        """A person's action for ``seat`` (their link's token only); the seat's new view (JSON text)."""
        if access.role is not Role.SEAT or access.seat != seat:
            who = {Role.HOST: "the host's link", Role.SPECTATOR: "a spectator's link"}.get(
                access.role, f"seat {access.seat}'s link")
            raise ForbiddenError(f"{who} does not act for seat {seat}: only seat {seat}'s link does")
        action, turn = parse_action(body)
        marker = idempotency(idempotency_key, {"game": game_id, "seat": seat, "body": dict(body)})
        return self._change(game_id, lambda g, now: g.act(seat, action, turn=turn, now=now), access, marker)

    def control(self, game_id: str, command: str, body: Mapping[str, Any], access: Access, *,
                idempotency_key: str | None = None) -> str:
        """One of the host's controls (CONTROLS) with its body; the host's new view (JSON text)."""
        if access.role is not Role.HOST:
            raise ForbiddenError("only the host's link runs the game's controls")
        change = _control(command, body, self.models)
        marker = idempotency(idempotency_key, {"game": game_id, "control": command, "body": dict(body)})
        return self._change(game_id, change, access, marker)

    def tick(self, game_id: str) -> bool:
        """Take the step due in a game (a bot's action, a clock's, the next hand); whether one was."""
        moved = False

        def step(game: HostGame, now: float) -> None:
            nonlocal moved
            moved = game.tick(now=now, models=self.models)

        self._change(game_id, step, None, None)
        return moved

    def _change(self, game_id: str, change: Callable[[HostGame, float], Any], access: Access | None,
                marker: Idempotency | None) -> str:
        with self._locked(game_id) as entry:
            replayed = self._replay(marker)
            if replayed is not None:
                return replayed
            game = entry.game
            before = (game.version, len(game.hands), len(game.actions))
            try:
                now = self.clock()
                change(game, now)
                text = "{}" if access is None else self._views(entry).text(access.role, access.seat, now=now)
                if (game.version, len(game.hands), len(game.actions)) != before:
                    self.store.save(game, version=before[0], hands_from=before[1], actions_from=before[2],
                                    idempotency=marker, response=text if marker else None)
                    self._views(entry)
            except BaseException:
                if (game.version, len(game.hands), len(game.actions)) != before:
                    self._reload(entry, game_id)
                raise
            with self._lock:
                self._index(game)
        if self.on_change is not None and (game.version, len(game.actions)) != before[::2]:
            self.on_change(game_id)
        return text

    def _reload(self, entry: _Entry, game_id: str) -> None:
        """Back to the stored game after a change that failed half-way (the write was refused)."""
        try:
            entry.game = self.store.load(game_id, now=self.clock())
        except ExactOddsError:
            pass  # the database is unreachable: the game stays as it is in memory until it is


def _control(command: str, body: Mapping[str, Any], models: BotModels) -> Callable[[HostGame, float], Any]:
    """The change a control makes, its body checked (a bot's model among ``models``)."""
    if command in ("start", "pause", "resume", "end"):
        if body:
            raise ActionBodyError(f"{command} takes no fields, got {_short(body)}")
        return {"start": lambda g, now: g.start(now=now), "pause": lambda g, now: g.pause(now=now),
                "resume": lambda g, now: g.resume(now=now), "end": lambda g, now: g.end(now=now)}[command]
    seat: Any = body.get("seat")
    if command == "seat_person" and set(body) <= {"seat", "name"} and "seat" in body:
        name = body.get("name")
        return lambda g, now: g.seat_person(seat, name=name)
    if command == "seat_bot" and set(body) == {"seat", "model"}:
        model = models.model(body["model"], seat=seat if isinstance(seat, int) else None)
        return lambda g, now: g.seat_bot(seat, model=model.name)
    if command == "seat_person":
        raise ActionBodyError(f'seat_person: send {{"seat": n}} or {{"seat": n, "name": "..."}}, '
                              f"got {_short(body)}")
    if command == "seat_bot":
        raise ActionBodyError(f'seat_bot: send {{"seat": n, "model": "bots"}}, got {_short(body)}')
    raise ActionBodyError(f"unknown control {command[:40]!r} (known: {', '.join(CONTROLS)})")


__all__ = ["CONTROLS", "Access", "ActionBodyError", "ForbiddenError", "GameLimitError", "HostService",
           "NoLinkError", "parse_action"]
