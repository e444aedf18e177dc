"""A web table's Starlette app: the guard in front, errors as one line of JSON, the page's files.

Every error answer is ``{"error": "..."}`` on one line and changes nothing: a library error
(:class:`~exactodds.errors.ExactOddsError`) gets the status its class is given in the app's
table of statuses, else the shared ones of :data:`SHARED_STATUSES` (503 when the database cannot
serve, 409 for an illegal action, 413 and 408 for bodies, 422 for a reused idempotency key), else
400; an unknown route a 404; a crash a logged 500 that says the action was not applied.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.web.bodies import BodyTimeout, BodyTooLarge
from exactodds.web.guard import RequestGuard
from exactodds.web.idempotency import IdempotencyKeyError
from exactodds.web.store import DatabaseUnavailableError, StoreError

log = logging.getLogger("exactodds.table")
Statuses = tuple[tuple[type[ExactOddsError], int], ...]
SHARED_STATUSES: Statuses = (
    (DatabaseUnavailableError, 503), (IllegalActionError, 409), (StoreError, 409),
    (BodyTooLarge, 413), (BodyTimeout, 408), (IdempotencyKeyError, 422),
)


def error_response(status: int, message: str) -> JSONResponse:
    """The one-line JSON error (whitespace folded)."""
    return JSONResponse({"error": " ".join(str(message).split())}, status_code=status)


def status_of(exc: ExactOddsError, statuses: Statuses) -> int:
    """The HTTP status of a library error: the first class of ``statuses`` it belongs to, else 400."""
    return next((status for kind, status in statuses if isinstance(exc, kind)), 400)


def error_handlers(statuses: Statuses) -> dict[Any, Callable[[Request, Exception], Any]]:
    """Starlette exception handlers: library errors by ``statuses`` (then the shared ones), HTTP
    errors (a page's 404 says only "not found"), and a logged one-line 500 for anything else."""
    table = (*statuses, *SHARED_STATUSES)

    async def on_library_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ExactOddsError)
        return error_response(status_of(exc, table), str(exc))

    async def on_http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        detail = exc.detail if exc.status_code != 404 or request.url.path.startswith("/api/") else "not found"
        return error_response(exc.status_code, detail or "error")

    async def on_crash(request: Request, exc: Exception) -> Response:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error_response(500, "internal error; the action was not applied")

    return {ExactOddsError: on_library_error, HTTPException: on_http_error, Exception: on_crash}


def shared_static_dir() -> str:
    """The folder of the files every table's pages load (``web.js``), served at /shared."""
    return str(resources.files("exactodds.web") / "static")


def web_app(routes: Sequence[BaseRoute], *, static: str, hosts: frozenset[str], statuses: Statuses,
            lifespan: Callable[[Starlette], AbstractAsyncContextManager[None]]) -> Starlette:
    """A Starlette app of ``routes``, the page's files (folder ``static``, served at /static) and the
    files every table shares (at /shared), behind :class:`~exactodds.web.guard.RequestGuard` for
    ``hosts``, with the error handlers of ``statuses``."""
    files = [Mount("/static", app=StaticFiles(directory=static), name="static"),
             Mount("/shared", app=StaticFiles(directory=shared_static_dir()), name="shared")]
    return Starlette(routes=[*routes, *files],
                     lifespan=lifespan, middleware=[Middleware(RequestGuard, hosts=hosts)],
                     exception_handlers=error_handlers(statuses))
