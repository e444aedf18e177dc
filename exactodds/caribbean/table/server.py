"""The table's HTTP API and page (Starlette): a thin layer over :class:`TableService`.

Every API response is JSON (the CSV export of the history, asked for with ``?format=csv``,
is the one exception). Errors are one line ``{"error": "..."}`` and change nothing: 4xx for
the request, 503 when the database cannot serve it (locked, read-only, damaged). The dealer's
hole cards are only in the session's view once the hand is settled.

Routes: ``POST /api/sessions``; ``GET /api/sessions/{id}``; ``POST /api/sessions/{id}/chips``,
``deal``, ``raise``, ``fold``, ``rebet``, ``new_game``, ``deposit``, ``coach``;
``GET /api/sessions/{id}/history``; ``GET /api/sessions/{id}/card`` (the pocket strategy card of
the session's paytable: 202 until the background worker has found it); ``GET /api/config``;
``GET /api/status``; the page at ``/``.
The handlers are module functions reading ``request.app.state`` (a :class:`TableState`).
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from exactodds.caribbean.card.pareto import PARETO_HEADERS, pareto_rows, proof_note
from exactodds.caribbean.profile import Profile, available_profiles, load_profile
from exactodds.caribbean.table.card_worker import CardStatus, CardWorker
from exactodds.caribbean.table.forms import SessionView
from exactodds.caribbean.table.guard import LOOPBACK_NAMES, RequestGuard
from exactodds.caribbean.table.hand import Phase
from exactodds.caribbean.table.odds_worker import OddsWorker
from exactodds.caribbean.table.service import ACTIONS, IdempotencyKeyError, TableService
from exactodds.caribbean.table.store import DatabaseUnavailableError, StoreError, UnknownSessionError
from exactodds.errors import ExactOddsError, IllegalActionError

if TYPE_CHECKING:  # the card search loads the whole-game count (numba, scipy): not before a card is asked for
    from exactodds.caribbean.card.result import CardResult

ODDS_DELAY = 1.5  # seconds after start-up before the exact session odds are counted
MAX_BODY = 4096  # bytes; every request body of the API is a small JSON object
BODY_TIMEOUT = 10.0  # seconds a request body may take to arrive
IDEMPOTENCY_HEADER = "idempotency-key"
CREATE_FIELDS = {"paytable", "bankroll", "hands", "seed", "min_bet", "max_bet", "hide_coach", "paper"}
HISTORY_COLUMNS = ("number", "deal", "ante", "player", "dealer", "player_hand", "dealer_hand", "decision",
                   "optimal", "ev_raise", "ev_raise_float", "ev_fold", "ev_fold_float", "cost", "cost_float",
                   "event", "net", "net_float")
log = logging.getLogger("exactodds.table")


class BadRequest(ExactOddsError):
    """A request that is not a JSON object of the expected form."""


class BodyTooLarge(ExactOddsError):
    """A request body over MAX_BODY bytes (refused as soon as it is known: 413)."""


class BodyTimeout(ExactOddsError):
    """A request body that did not arrive in time (408)."""


@dataclass
class TableState:
    """What the handlers share (``app.state.table``): the service, the odds worker, the limits."""

    service: TableService
    default_profile: Profile
    precompute_odds: bool = True
    odds_limit: int = 4
    body_timeout: float = BODY_TIMEOUT
    worker: OddsWorker | None = field(default=None)
    cards: CardWorker | None = field(default=None)

    @property
    def defaults(self) -> dict[str, Any]:
        return self.service.defaults


def static_dir() -> str:
    """The folder of the page's files, shipped in the package."""
    return str(resources.files("exactodds.caribbean.table") / "static")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


STATUS: tuple[tuple[type[ExactOddsError], int], ...] = (
    (UnknownSessionError, 404), (DatabaseUnavailableError, 503), (IllegalActionError, 409), (StoreError, 409),
    (BodyTooLarge, 413), (BodyTimeout, 408), (IdempotencyKeyError, 422),
)


def _status(exc: ExactOddsError) -> int:
    return next((status for kind, status in STATUS if isinstance(exc, kind)), 400)


def _table(request: Request) -> TableState:
    state: TableState = request.app.state.table
    return state


async def read_body(request: Request, *, timeout: float) -> bytes:
    """The request's body, refused past MAX_BODY bytes (by its Content-Length, or as it streams in,
    chunked bodies too) and past ``timeout`` seconds between two pieces."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.strip().isdigit() or int(declared) > MAX_BODY):
        raise BodyTooLarge(f"request body of {declared[:20]} bytes is too large (at most {MAX_BODY:,})")
    chunks, size = [], 0
    stream = request.stream().__aiter__()
    while True:
        try:
            chunk = await asyncio.wait_for(stream.__anext__(), timeout)
        except StopAsyncIteration:
            break
        except TimeoutError:
            raise BodyTimeout(f"request body did not arrive within {timeout:g} s") from None
        size += len(chunk)
        if size > MAX_BODY:
            raise BodyTooLarge(f"request body is too large (more than {MAX_BODY:,} bytes)")
        chunks.append(chunk)
    return b"".join(chunks)


async def _body(request: Request) -> dict[str, Any]:
    raw = await read_body(request, timeout=_table(request).body_timeout)
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw, parse_constant=_refuse_constant)
    except (ValueError, RecursionError) as exc:
        raise BadRequest(f"request body is not valid JSON: {str(exc)[:80]}") from None
    if not isinstance(body, dict):
        raise BadRequest(f"request body must be a JSON object, got {type(body).__name__}")
    return body


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number")


def with_odds(table: TableState, view: SessionView) -> SessionView:
    """The view with the session's exact odds once counted, and their status. Never waits: a
    finished session whose odds are not counted yet has them queued for the background worker."""
    session = table.service.session(view["id"])
    if table.worker is None:
        view["odds"], view["odds_status"] = None, "unavailable"
        return view
    odds, status = table.worker.lookup(session.profile, session.hands, count=view["phase"] == Phase.COMPLETE)
    view["odds"] = None if odds is None else odds.to_dict()
    view["odds_status"] = status
    return view


def _key(request: Request) -> str | None:
    return request.headers.get(IDEMPOTENCY_HEADER)


async def create(request: Request) -> Response:
    table = _table(request)
    body = await _body(request)
    unknown = set(body) - CREATE_FIELDS
    if unknown:
        allowed = ", ".join(sorted(CREATE_FIELDS))
        raise BadRequest(f"unknown field {sorted(unknown)[0]!r} (allowed: {allowed})")
    options = dict(body)
    if "paytable" in options:
        name = options.pop("paytable")
        if name == table.default_profile.name:
            options["profile"] = table.default_profile
        elif isinstance(name, str) and name in available_profiles():
            options["profile"] = name
        else:
            raise BadRequest(f"unknown paytable {str(name)[:40]!r} (known: "
                             f"{', '.join(sorted({*available_profiles(), table.default_profile.name}))})")
    key = _key(request)

    def make() -> SessionView:
        return with_odds(table, table.service.create(idempotency_key=key, **options))

    return JSONResponse(await run_in_threadpool(make), status_code=201)


async def get_session(request: Request) -> Response:
    table, sid = _table(request), request.path_params["id"]
    return JSONResponse(await run_in_threadpool(lambda: with_odds(table, table.service.view(sid))))


async def action(request: Request) -> Response:
    table = _table(request)
    sid, name = request.path_params["id"], request.path_params["action"]
    if name not in ACTIONS:
        raise HTTPException(404, f"unknown action {name[:40]!r} (known: {', '.join(ACTIONS)})")
    body, key = await _body(request), _key(request)
    return JSONResponse(await run_in_threadpool(
        lambda: with_odds(table, table.service.act(sid, name, body, idempotency_key=key))))


async def history(request: Request) -> Response:
    table, sid = _table(request), request.path_params["id"]
    rows = await run_in_threadpool(table.service.history, sid)
    fmt = request.query_params.get("format", "json")
    if fmt == "json":
        deposits = await run_in_threadpool(table.service.deposits, sid)
        return JSONResponse({"id": sid, "hands": rows, "deposits": deposits})
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(HISTORY_COLUMNS)
        for row in rows:
            values = (row[c] for c in HISTORY_COLUMNS)
            writer.writerow([" ".join(v) if isinstance(v, list) else v for v in values])
        return Response(out.getvalue(), media_type="text/csv", headers={
            "Content-Disposition": 'attachment; filename="caribbean-history.csv"'})
    raise BadRequest(f"history format must be json or csv, got {fmt[:20]!r}")


def card_view(result: CardResult) -> dict[str, Any]:
    """The card's JSON (``exactodds caribbean card --json``'s object) with the paytable's description,
    the Pareto table as the command line prints it, and which lengths are proven cheapest."""
    return {**result.to_dict(), "description": result.description,
            "pareto_table": {"headers": PARETO_HEADERS, "rows": pareto_rows(result)},
            "proof_note": proof_note(result)}


async def card(request: Request) -> Response:
    """The pocket strategy card of the session's paytable: 200 with it once found, else 202 with its
    status (``queued``, ``computing``, ``busy``): ask again; a search that failed is a one-line
    ``error`` (422 when the paytable cannot have a card, 500 otherwise). Never waits for the search."""
    table, sid = _table(request), request.path_params["id"]
    session = await run_in_threadpool(table.service.session, sid)
    if table.cards is None:
        return _error(503, "the strategy card worker is not running")
    result, state = table.cards.lookup(session.profile)
    failure = table.cards.failure(session.profile) if state is CardStatus.FAILED else None
    if failure is not None:
        message, paytable_at_fault = failure
        return _error(422 if paytable_at_fault else 500, message)
    answer = {"id": sid, "paytable": session.profile.name, "status": str(state)}
    if result is None:
        return JSONResponse(answer, status_code=202)
    return JSONResponse({**answer, **card_view(result)})


async def config(request: Request) -> Response:
    table = _table(request)
    defaults, profile = table.defaults, table.default_profile
    return JSONResponse({
        "paytable": profile.name, "paytables": sorted({*available_profiles(), profile.name}),
        "bankroll": str(defaults.get("bankroll", 1000)), "hands": defaults.get("hands", 20),
        "min_bet": defaults.get("min_bet", 1), "max_bet": defaults.get("max_bet", 100),
        "seed": defaults.get("seed"), "paper": defaults.get("paper", False),
    })


async def status(request: Request) -> Response:
    """The server's bounded resources: sessions in memory, the odds worker's queue."""
    table = _table(request)
    service = table.service
    return JSONResponse({
        "sessions": {"cached": service.cached, "limit": service.max_cached, "evicted": service.evicted},
        "odds": table.worker.snapshot() if table.worker is not None else None,
        "cards": table.cards.snapshot() if table.cards is not None else None,
    })


async def index(request: Request) -> Response:
    return FileResponse(f"{static_dir()}/index.html", media_type="text/html")


async def on_library_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ExactOddsError)
    return _error(_status(exc), str(exc))


async def on_http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    detail = exc.detail if exc.status_code != 404 or request.url.path.startswith("/api/") else "not found"
    return _error(exc.status_code, detail or "error")


async def on_crash(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s %s", request.method, request.url.path)
    return _error(500, "internal error; the action was not applied")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Start the odds worker (and the default session's count, a little after start-up, so that the
    count, numba on every core, does not delay the first page) and the strategy card worker (a card is
    searched when a page first asks for it); stop them at the end."""
    table: TableState = app.state.table
    table.worker = OddsWorker(limit=table.odds_limit, start_delay=ODDS_DELAY if table.precompute_odds else 0)
    table.cards = CardWorker(limit=table.odds_limit)
    if table.precompute_odds:
        table.worker.request(table.default_profile, table.defaults.get("hands", 20), warm=True)
    yield
    table.worker.stop()
    table.cards.stop()


ROUTES = [
    Route("/", index, methods=["GET"]),
    Route("/api/config", config, methods=["GET"]),
    Route("/api/status", status, methods=["GET"]),
    Route("/api/sessions", create, methods=["POST"]),
    Route("/api/sessions/{id}", get_session, methods=["GET"]),
    Route("/api/sessions/{id}/history", history, methods=["GET"]),
    Route("/api/sessions/{id}/card", card, methods=["GET"]),
    Route("/api/sessions/{id}/{action}", action, methods=["POST"]),
]


def create_app(service: TableService, *, precompute_odds: bool = True, hosts: frozenset[str] = frozenset(
        LOOPBACK_NAMES), odds_limit: int = 4, body_timeout: float = BODY_TIMEOUT) -> Starlette:
    """The Starlette app of the table over ``service`` (its defaults make the server's new sessions).

    ``precompute_odds`` counts the exact session odds of the default profile in the background,
    so the first session's result does not wait for the whole-game count. ``hosts``: the Host
    names served (see :mod:`~exactodds.caribbean.table.guard`). ``odds_limit``: odds counts
    waiting at most. ``body_timeout``: seconds a request body may take.
    """
    app = Starlette(
        routes=[*ROUTES, Mount("/static", app=StaticFiles(directory=static_dir()), name="static")],
        lifespan=lifespan, middleware=[Middleware(RequestGuard, hosts=hosts)],
        exception_handlers={ExactOddsError: on_library_error, HTTPException: on_http_error,
                            Exception: on_crash})
    app.state.table = TableState(service=service, default_profile=load_profile(service.defaults.get(
        "profile", "standard")), precompute_odds=precompute_odds, odds_limit=odds_limit,
        body_timeout=body_timeout)
    return app
