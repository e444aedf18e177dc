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

import contextlib
import csv
import io
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

from exactodds.caribbean.profile import Profile, available_profiles, load_profile
from exactodds.caribbean.strategy.card.pareto import PARETO_HEADERS, pareto_rows, proof_note
from exactodds.caribbean.table.card_worker import start_card_worker
from exactodds.caribbean.table.forms import SessionView
from exactodds.caribbean.table.hand import Phase
from exactodds.caribbean.table.odds_worker import (
    OddsJob,
    OddsWorker,
    odds_lookup,
    odds_status_word,
    start_odds_worker,
)
from exactodds.caribbean.table.service import ACTIONS, TableService
from exactodds.caribbean.table.store import UnknownSessionError
from exactodds.web.app import Statuses, error_response, web_app
from exactodds.web.bodies import BODY_TIMEOUT, BadRequest, json_object
from exactodds.web.guard import LOOPBACK_NAMES
from exactodds.web.idempotency import IDEMPOTENCY_HEADER
from exactodds.web.worker import JobStatus, KeyedWorker

if TYPE_CHECKING:  # the card search loads the whole-game count (numba, scipy): not before a card is asked for
    from exactodds.caribbean.strategy.card.result import CardResult

ODDS_DELAY = 1.5  # seconds after start-up before the exact session odds are counted
CREATE_FIELDS = {"paytable", "bankroll", "hands", "seed", "min_bet", "max_bet", "hide_coach", "paper"}
HISTORY_COLUMNS = ("number", "deal", "ante", "player", "dealer", "player_hand", "dealer_hand", "decision",
                   "optimal", "ev_raise", "ev_raise_float", "ev_fold", "ev_fold_float", "cost", "cost_float",
                   "event", "net", "net_float")
STATUSES: Statuses = ((UnknownSessionError, 404),)


@dataclass
class TableState:
    """What the handlers share (``app.state.table``): the service, the odds worker, the limits."""

    service: TableService
    default_profile: Profile
    precompute_odds: bool = True
    odds_limit: int = 4
    body_timeout: float = BODY_TIMEOUT
    worker: OddsWorker | None = field(default=None)
    cards: KeyedWorker[Profile, CardResult] | None = field(default=None)

    @property
    def defaults(self) -> dict[str, Any]:
        return self.service.defaults


def static_dir() -> str:
    """The folder of the page's files, shipped in the package."""
    return str(resources.files("exactodds.caribbean.table") / "static")


def _table(request: Request) -> TableState:
    state: TableState = request.app.state.table
    return state


async def _body(request: Request) -> dict[str, Any]:
    return await json_object(request, timeout=_table(request).body_timeout)


def with_odds(table: TableState, view: SessionView) -> SessionView:
    """The view with the session's exact odds once counted, and their status. Never waits: a
    finished session whose odds are not counted yet has them queued for the background worker."""
    session = table.service.session(view["id"])
    if table.worker is None:
        view["odds"], view["odds_status"] = None, "unavailable"
        return view
    odds, status = odds_lookup(table.worker, session.profile, session.hands,
                               count=view["phase"] == Phase.COMPLETE)
    view["odds"] = None if odds is None else odds.to_dict()
    view["odds_status"] = odds_status_word(status)
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
        return error_response(503, "the strategy card worker is not running")
    result, state = table.cards.lookup(session.profile)
    failure = table.cards.failure(session.profile) if state is JobStatus.FAILED else None
    if failure is not None:
        message, paytable_at_fault = failure
        return error_response(422 if paytable_at_fault else 500, message)
    shown = "computing" if state is JobStatus.RUNNING else str(state)
    answer = {"id": sid, "paytable": session.profile.name, "status": shown}
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


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    """Start the odds worker (and the default session's count, a little after start-up, so that the
    count, numba on every core, does not delay the first page) and the strategy card worker (a card is
    searched when a page first asks for it); stop them at the end."""
    table: TableState = app.state.table
    table.worker = start_odds_worker(limit=table.odds_limit,
                                     start_delay=ODDS_DELAY if table.precompute_odds else 0)
    table.cards = start_card_worker(limit=table.odds_limit)
    if table.precompute_odds:
        table.worker.request(OddsJob(table.default_profile, table.defaults.get("hands", 20), warm=True))
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
    names served (see :mod:`~exactodds.web.guard`). ``odds_limit``: odds counts
    waiting at most. ``body_timeout``: seconds a request body may take.
    """
    app = web_app(ROUTES, static=static_dir(), hosts=hosts, statuses=STATUSES, lifespan=lifespan)
    app.state.table = TableState(service=service, default_profile=load_profile(service.defaults.get(
        "profile", "standard")), precompute_odds=precompute_odds, odds_limit=odds_limit,
        body_timeout=body_timeout)
    return app
