"""The five-card stud host's HTTP API, live updates and pages (Starlette): a thin layer over
:class:`~exactodds.stud.host.service.HostService`, on the shared web layer (:mod:`exactodds.web`).

A link's token travels in the ``Authorization: Bearer`` header, never in a URL the server sees
(the pages keep it after the ``#`` of their address, which browsers do not send). Routes:

* ``GET /api/config``, ``GET /api/status``, ``GET /api/me`` (who a link is);
* ``GET|POST /api/games`` (the host: list, create);
* ``GET /api/games/{id}`` (the link's view), ``GET /api/games/{id}/events`` (server-sent events:
  the view again after every change), ``GET /api/games/{id}/coach`` (a seat to act);
* ``POST /api/games/{id}/seats/{seat}/act`` (that seat's link only);
* ``POST /api/games/{id}/control/{command}``, ``GET /api/games/{id}/qr/{which}.svg`` (the host);
* ``GET /api/games/{id}/history.phhs`` (once the evening is over);
* the pages ``/`` (the host) and ``/play`` (a seat or a spectator).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from exactodds.errors import ExactOddsError
from exactodds.stud.host.bots import UnknownModelError
from exactodds.stud.host.config import (
    DEFAULT_ACT_SECONDS,
    DEFAULT_BETWEEN_SECONDS,
    DEFAULT_BOT_SECONDS,
    GameSetupError,
)
from exactodds.stud.host.game import GameStateError
from exactodds.stud.host.qr import link_svg
from exactodds.stud.host.service import (
    Access,
    ActionBodyError,
    ForbiddenError,
    GameLimitError,
    HostService,
    NoLinkError,
)
from exactodds.stud.host.store import UnknownGameError
from exactodds.stud.host.views import Role
from exactodds.web.app import Statuses, error_response, web_app
from exactodds.web.bodies import BODY_TIMEOUT, BadRequest, json_object
from exactodds.web.guard import LOOPBACK_NAMES
from exactodds.web.idempotency import IDEMPOTENCY_HEADER
from exactodds.web.worker import JobStatus

KEEP_ALIVE = 15.0  # seconds between two comments on an idle event stream (proxies close silent ones)
CLOCK_STEP = 0.05  # seconds between two looks for bots, clocks and next hands that are due
MAX_RETRY_PAUSE = 60.0  # seconds: the longest wait before a game whose move failed is tried again
STATUSES: Statuses = ((UnknownGameError, 404), (NoLinkError, 401), (ForbiddenError, 403),
                      (GameStateError, 409), (GameLimitError, 409), (GameSetupError, 400),
                      (ActionBodyError, 400), (UnknownModelError, 400))
log = logging.getLogger("exactodds.table")


class Hub:
    """Wakes the live streams of a game after each change (called on the event loop)."""

    def __init__(self) -> None:
        self._events: dict[str, asyncio.Event] = {}
        self.closing = False

    def event(self, game_id: str) -> asyncio.Event:
        return self._events.setdefault(game_id, asyncio.Event())

    def notify(self, game_id: str) -> None:
        event = self._events.pop(game_id, None)
        if event is not None:
            event.set()

    def close(self) -> None:
        self.closing = True
        for game_id in list(self._events):
            self.notify(game_id)


@dataclass
class HostState:
    """What the handlers share (``app.state.host``)."""

    service: HostService
    body_timeout: float = BODY_TIMEOUT
    hub: Hub = field(default_factory=Hub)
    streams: int = 0  # live event streams open now


def static_dir() -> str:
    """The folder of the pages' files, shipped in the package."""
    return str(resources.files("exactodds.stud.host") / "static")


def _host(request: Request) -> HostState:
    state: HostState = request.app.state.host
    return state


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _access(request: Request, game_id: str | None = None) -> Access:
    return _host(request).service.access(_token(request), game_id)


async def _body(request: Request) -> dict[str, Any]:
    return await json_object(request, timeout=_host(request).body_timeout)


def _json(text: str, *, status: int = 200) -> Response:
    """A JSON answer already serialised (the views are built once per change)."""
    return Response(text, status_code=status, media_type="application/json")


def _key(request: Request) -> str | None:
    return request.headers.get(IDEMPOTENCY_HEADER)


async def config(request: Request) -> Response:
    """What a new game may be: the bot models (presets and the server's --opponents files), the
    defaults and the limits (no link needed)."""
    return JSONResponse({
        "models": _host(request).service.models.to_list(),
        "defaults": {"stack": 100, "hands": 20, "coach": True, "act_seconds": DEFAULT_ACT_SECONDS,
                     "bot_seconds": DEFAULT_BOT_SECONDS, "between_seconds": DEFAULT_BETWEEN_SECONDS},
        "seats": {"min": 2, "max": 8},
    })


async def status(request: Request) -> Response:
    """The server's bounded resources: games, live streams, the coach's worker."""
    host = _host(request)
    return JSONResponse({"games": host.service.game_count(), "streams": host.streams,
                         "max_games": host.service.max_games, "coach": host.service.coach.snapshot()})


async def me(request: Request) -> Response:
    """Who the link's token is: its role, game and seat (a page's first question)."""
    access = _access(request)
    return JSONResponse({"role": str(access.role), "game": access.game, "seat": access.seat})


async def list_games(request: Request) -> Response:
    access = _access(request)
    if access.role is not Role.HOST:
        raise ForbiddenError("only the host's link lists the games")
    return JSONResponse({"games": await run_in_threadpool(_host(request).service.games)})


async def create(request: Request) -> Response:
    access = _access(request)
    if access.role is not Role.HOST:
        raise ForbiddenError("only the host's link creates games")
    body, key, service = await _body(request), _key(request), _host(request).service
    view = await run_in_threadpool(lambda: service.create(body, idempotency_key=key))
    return _json(view, status=201)


async def get_game(request: Request) -> Response:
    game_id = request.path_params["id"]
    access, service = _access(request, game_id), _host(request).service
    return _json(await run_in_threadpool(service.view_text, game_id, access))


async def act(request: Request) -> Response:
    game_id, seat = request.path_params["id"], request.path_params["seat"]
    access, service = _access(request, game_id), _host(request).service
    body, key = await _body(request), _key(request)
    return _json(await run_in_threadpool(
        lambda: service.act(game_id, seat, body, access, idempotency_key=key)))


async def control(request: Request) -> Response:
    game_id, command = request.path_params["id"], request.path_params["command"]
    access, service = _access(request, game_id), _host(request).service
    body, key = await _body(request), _key(request)
    return _json(await run_in_threadpool(
        lambda: service.control(game_id, command, body, access, idempotency_key=key)))


async def coach(request: Request) -> Response:
    """The coach's advice for the seat to act: 200 with it, 202 while the worker finds it (ask again)."""
    game_id = request.path_params["id"]
    access, service = _access(request, game_id), _host(request).service
    note, state, turn = await run_in_threadpool(service.coach_advice, game_id, access)
    if state is JobStatus.FAILED:
        return error_response(500, "the coach could not advise this turn (see the server log)")
    answer: dict[str, Any] = {"turn": turn, "status": str(state)}
    if note is None:
        return JSONResponse(answer, status_code=202)
    return JSONResponse({**answer, **note.to_dict()})


async def history(request: Request) -> Response:
    game_id = request.path_params["id"]
    access, service = _access(request, game_id), _host(request).service
    text = await run_in_threadpool(service.history, game_id, access)
    return Response(text, media_type="application/toml", headers={
        "Content-Disposition": f'attachment; filename="stud-{game_id[:8]}.phhs"'})


async def qr(request: Request) -> Response:
    """A QR code (SVG) of a seat's link (``which`` = the seat number) or the spectators' (``watch``)."""
    game_id, which = request.path_params["id"], request.path_params["which"]
    access, service = _access(request, game_id), _host(request).service
    if access.role is not Role.HOST:
        raise ForbiddenError("only the host's link shows the links")
    view = await run_in_threadpool(service.view, game_id, access)
    links = view["links"]
    if which == "watch":
        token = links["spectator"]
    elif which.isdigit() and 1 <= int(which) <= len(links["seats"]):
        token = links["seats"][int(which) - 1]["token"]
    else:
        raise BadRequest(f"a QR code is of a seat (1 to {len(links['seats'])}) or of 'watch', "
                         f"got {which[:20]!r}")
    if token is None:
        raise GameStateError(f"seat {which} is played by a bot: it has no link")
    return Response(link_svg(f"http://{request.headers.get('host', '')}/play#{token}"),
                    media_type="image/svg+xml", headers={"Cache-Control": "no-store"})


async def events(request: Request) -> Response:
    """Server-sent events: the link's view now, then again after every change of the game (within
    milliseconds); a comment every KEEP_ALIVE seconds. A link the host replaced ends its stream."""
    game_id, token = request.path_params["id"], _token(request)
    host = _host(request)
    access = host.service.access(token, game_id)

    async def stream() -> AsyncIterator[str]:
        host.streams += 1
        shown = -1
        try:
            while not host.hub.closing:
                try:
                    host.service.access(token, game_id)
                except ExactOddsError as exc:
                    yield f"event: gone\ndata: {json.dumps({'error': str(exc)})}\n\n"
                    return
                wake = host.hub.event(game_id)
                views = host.service.current_views(game_id)
                if views is None:  # not built yet for this version: built once, off the event loop
                    text = await run_in_threadpool(host.service.view_text, game_id, access)
                    version = int(json.loads(text)["version"])
                else:
                    text, version = views.text(access.role, access.seat, now=time.time()), views.version
                if version != shown:
                    shown = version
                    yield f"event: view\ndata: {text}\n\n"
                    continue
                try:
                    await asyncio.wait_for(wake.wait(), KEEP_ALIVE)
                except TimeoutError:
                    yield ": keep-alive\n\n"
        finally:
            host.streams -= 1

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


async def host_page(request: Request) -> Response:
    return FileResponse(f"{static_dir()}/host.html", media_type="text/html")


async def play_page(request: Request) -> Response:
    return FileResponse(f"{static_dir()}/play.html", media_type="text/html")


async def _clock(host: HostState) -> None:
    """Move the games on their own: bots, clocks and next hands, when due. A game whose move fails is
    tried again after a pause that doubles up to a minute; a bug's traceback is logged once per game."""
    held: dict[str, tuple[float, float]] = {}  # game -> (tried again from, pause)
    traced: set[str] = set()
    while not host.hub.closing:
        now = time.time()
        for when, game_id in sorted(host.service.due()):
            if when > now or held.get(game_id, (0.0, 0.0))[0] > now:
                continue
            try:
                await run_in_threadpool(host.service.tick, game_id)
                held.pop(game_id, None)
                continue
            except ExactOddsError as exc:  # e.g. the database is locked
                log.warning("game %s could not move on: %s", game_id[:8], exc)
            except Exception:
                if game_id in traced:
                    log.error("game %s could not move on (the same failure again)", game_id[:8])
                else:
                    traced.add(game_id)
                    log.exception("game %s could not move on", game_id[:8])
            pause = min(MAX_RETRY_PAUSE, 2 * held.get(game_id, (0.0, CLOCK_STEP / 2))[1])
            held[game_id] = (now + pause, pause)
        await asyncio.sleep(CLOCK_STEP)


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Wire the service's changes to the live streams, run the clock; stop both at the end."""
    host: HostState = app.state.host
    loop = asyncio.get_running_loop()

    def wake(game_id: str) -> None:
        loop.call_soon_threadsafe(host.hub.notify, game_id)

    host.service.on_change = wake
    clock = asyncio.create_task(_clock(host))
    yield
    host.hub.close()
    clock.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await clock
    host.service.close()


ROUTES = [
    Route("/", host_page, methods=["GET"]),
    Route("/play", play_page, methods=["GET"]),
    Route("/api/config", config, methods=["GET"]),
    Route("/api/status", status, methods=["GET"]),
    Route("/api/me", me, methods=["GET"]),
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/games", create, methods=["POST"]),
    Route("/api/games/{id}", get_game, methods=["GET"]),
    Route("/api/games/{id}/events", events, methods=["GET"]),
    Route("/api/games/{id}/coach", coach, methods=["GET"]),
    Route("/api/games/{id}/history.phhs", history, methods=["GET"]),
    Route("/api/games/{id}/qr/{which}.svg", qr, methods=["GET"]),
    Route("/api/games/{id}/seats/{seat:int}/act", act, methods=["POST"]),
    Route("/api/games/{id}/control/{command}", control, methods=["POST"]),
]


def create_app(service: HostService, *, hosts: frozenset[str] = frozenset(LOOPBACK_NAMES),
               body_timeout: float = BODY_TIMEOUT) -> Starlette:
    """The Starlette app of the host over ``service``. ``hosts``: the Host names served (see
    :mod:`~exactodds.web.guard`); ``body_timeout``: seconds a request body may take."""
    app = web_app(ROUTES, static=static_dir(), hosts=hosts, statuses=STATUSES, lifespan=lifespan)
    app.state.host = HostState(service=service, body_timeout=body_timeout)
    return app
