"""The table's HTTP API and page (Starlette): a thin layer over :class:`TableService`.

Every API response is JSON (the CSV export of the history, asked for with ``?format=csv``,
is the one exception). Errors are a 4xx with one line ``{"error": "..."}`` and change
nothing. The dealer's hole cards are only in the session's view once the hand is settled.

Routes: ``POST /api/sessions``; ``GET /api/sessions/{id}``; ``POST /api/sessions/{id}/chips``,
``deal``, ``raise``, ``fold``, ``rebet``, ``new_game``, ``deposit``, ``coach``;
``GET /api/sessions/{id}/history``; ``GET /api/config``; the page at ``/``.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from exactodds.caribbean.profile import available_profiles, load_profile
from exactodds.caribbean.table.coach import ODDS_MAX_HANDS, session_odds, session_odds_ready
from exactodds.caribbean.table.service import ACTIONS, TableService
from exactodds.caribbean.table.store import StoreError, UnknownSessionError
from exactodds.errors import ExactOddsError, IllegalActionError

ODDS_DELAY = 1.5  # seconds after start-up before the exact session odds are counted
MAX_BODY = 4096  # bytes; every request body of the API is a small JSON object
CREATE_FIELDS = {"paytable", "bankroll", "hands", "seed", "min_bet", "max_bet", "hide_coach", "paper"}
HISTORY_COLUMNS = ("number", "deal", "ante", "player", "dealer", "player_hand", "dealer_hand", "decision",
                   "optimal", "ev_raise", "ev_raise_float", "ev_fold", "ev_fold_float", "cost", "cost_float",
                   "event", "net", "net_float")
log = logging.getLogger("exactodds.table")


class BadRequest(ExactOddsError):
    """A request that is not a JSON object of the expected form."""


def static_dir() -> str:
    """The folder of the page's files, shipped in the package."""
    return str(resources.files("exactodds.caribbean.table") / "static")


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


def _status(exc: ExactOddsError) -> int:
    if isinstance(exc, UnknownSessionError):
        return 404
    if isinstance(exc, (IllegalActionError, StoreError)):
        return 409
    return 400


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise BadRequest(f"request body of {len(raw):,} bytes is too large (at most {MAX_BODY:,})")
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


def create_app(service: TableService, *, precompute_odds: bool = True) -> Starlette:
    """The Starlette app of the table over ``service`` (its defaults make the server's new sessions).

    ``precompute_odds`` starts the exact session odds of the default profile in a background
    thread, so the first session's result does not wait for the whole-game count.
    """
    defaults = service.defaults
    default_profile = load_profile(defaults.get("profile", "standard"))

    def run(fn: Callable[..., Any], *args: Any) -> Any:
        return run_in_threadpool(fn, *args)  # the library's work is blocking: off the event loop

    counting: set[tuple[str, int]] = set()
    counting_lock = threading.Lock()

    def view_with_odds(view: dict[str, Any], session_id: str) -> dict[str, Any]:
        """The view with the session's exact odds once counted (never waits for the count: a
        finished session whose odds are not ready starts counting them in the background)."""
        s = service.session(session_id)
        odds = session_odds_ready(s.profile, s.hands)
        if odds is None and view["phase"] == "complete" and s.hands <= ODDS_MAX_HANDS:
            key = (session_id, s.hands)
            with counting_lock:
                if key not in counting:
                    counting.add(key)
                    threading.Thread(target=session_odds, args=(s.profile, s.hands), daemon=True).start()
        view["odds"] = None if odds is None else odds.to_dict()
        return view

    async def create(request: Request) -> Response:
        body = await _body(request)
        unknown = set(body) - CREATE_FIELDS
        if unknown:
            allowed = ", ".join(sorted(CREATE_FIELDS))
            raise BadRequest(f"unknown field {sorted(unknown)[0]!r} (allowed: {allowed})")
        options = dict(body)
        if "paytable" in options:
            name = options.pop("paytable")
            if name == default_profile.name:
                options["profile"] = default_profile
            elif isinstance(name, str) and name in available_profiles():
                options["profile"] = name
            else:
                raise BadRequest(f"unknown paytable {str(name)[:40]!r} (known: "
                                 f"{', '.join(sorted({*available_profiles(), default_profile.name}))})")
        def make() -> dict[str, Any]:
            session = service.create(**options)
            return view_with_odds(service.view(session.id), session.id)

        return JSONResponse(await run(make), status_code=201)

    async def get_session(request: Request) -> Response:
        sid = request.path_params["id"]
        return JSONResponse(await run(lambda: view_with_odds(service.view(sid), sid)))

    async def action(request: Request) -> Response:
        sid, name = request.path_params["id"], request.path_params["action"]
        if name not in ACTIONS:
            raise HTTPException(404, f"unknown action {name[:40]!r} (known: {', '.join(ACTIONS)})")
        body = await _body(request)
        return JSONResponse(await run(lambda: view_with_odds(service.act(sid, name, body), sid)))

    async def history(request: Request) -> Response:
        sid = request.path_params["id"]
        rows = await run(service.history, sid)
        fmt = request.query_params.get("format", "json")
        if fmt == "json":
            return JSONResponse({"id": sid, "hands": rows})
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

    async def config(request: Request) -> Response:
        return JSONResponse({
            "paytable": default_profile.name,
            "paytables": sorted({*available_profiles(), default_profile.name}),
            "bankroll": str(defaults.get("bankroll", 1000)), "hands": defaults.get("hands", 20),
            "min_bet": defaults.get("min_bet", 1), "max_bet": defaults.get("max_bet", 100),
            "seed": defaults.get("seed"), "paper": defaults.get("paper", False),
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

    routes = [
        Route("/", index, methods=["GET"]),
        Route("/api/config", config, methods=["GET"]),
        Route("/api/sessions", create, methods=["POST"]),
        Route("/api/sessions/{id}", get_session, methods=["GET"]),
        Route("/api/sessions/{id}/history", history, methods=["GET"]),
        Route("/api/sessions/{id}/{action}", action, methods=["POST"]),
        Mount("/static", app=StaticFiles(directory=static_dir()), name="static"),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        timer = None
        if precompute_odds:
            # A little after start-up, so that the count (numba, every core) does not delay the first page.
            hands = defaults.get("hands", 20)
            timer = threading.Timer(ODDS_DELAY, session_odds, args=(default_profile, hands))
            timer.daemon = True
            timer.start()
        yield
        if timer is not None:
            timer.cancel()

    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ExactOddsError: on_library_error, HTTPException: on_http_error, Exception: on_crash})
