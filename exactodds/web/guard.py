"""What stands between a web table's app and a hostile page or client.

* :class:`RequestGuard` (ASGI middleware): only the Host names the server was started for
  (a DNS-rebinding page sends its own name: 421); an ``Origin`` other than the server's own is
  refused (403); every POST must say ``Content-Type: application/json`` (415), which a form or
  a ``text/plain`` fetch from another site cannot send without a CORS preflight, and the server
  answers no preflight. An exception of the app, once answered with its one-line 500, keeps the
  connection open.
* :func:`header_timeout_protocol`: the uvicorn HTTP protocol with a deadline on a request's
  headers (uvicorn has none: a client sending half a request line held a socket for ever).
  Bodies have their deadline where they are read (:func:`exactodds.web.bodies.read_body`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger("exactodds.table")
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WILDCARDS = ("0.0.0.0", "::", "")


def host_name(value: str) -> str:
    """The host part of a ``Host`` header (``[::1]:8765`` -> ``::1``), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:].split("]", 1)[0]
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def allowed_hosts(bind: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The Host names served: the loopback names, the bound address (unless a wildcard) and ``extra``."""
    names = {*LOOPBACK_NAMES, *(host_name(e) for e in extra)}
    if bind not in WILDCARDS:
        names.add(host_name(bind) if not bind.count(":") > 1 else bind.lower())
    return frozenset(names)


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


class RequestGuard:
    """Host, Origin and Content-Type checks before the app (see the module's docstring)."""

    def __init__(self, app: ASGIApp, *, hosts: frozenset[str]) -> None:
        self.app, self.hosts = app, hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        problem = self._problem(scope["method"], headers)
        if problem is not None:
            await _refuse(send, *problem)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:  # a one-line 500, and the connection stays usable
            log.exception("internal error on %s %s", scope["method"], scope["path"])
            if not started:
                await _refuse(send, 500, "internal error; the action was not applied")

    def _problem(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return 421, (f"this server does not serve the host name {host[:60]!r} (it serves "
                         f"{', '.join(sorted(self.hosts))}; see --allow-host)")
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"http://{host.strip().lower()}":
            return 403, f"requests from another site ({origin[:60]}) are refused"
        if method == "POST":
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind != "application/json":
                shown = kind[:40] or "none"
                return 415, f"POST needs Content-Type: application/json (got {shown})"
        return None


def header_timeout_protocol(base: type[asyncio.Protocol], timeout: float) -> type[asyncio.Protocol]:
    """``base`` (uvicorn's httptools or h11 protocol) closing a connection whose request headers
    are not complete ``timeout`` seconds after its first byte (or after the connection opens)."""

    class HeaderTimeout(base):  # type: ignore[misc, valid-type]
        _header_timer: asyncio.TimerHandle | None = None
        _armed_for: Any = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self._arm()

        def data_received(self, data: bytes) -> None:
            idle = self.cycle is None or self.cycle.response_complete
            super().data_received(data)
            if idle and (self.cycle is None or self.cycle.response_complete) and (
                    self._header_timer is None or self._armed_for is not self.cycle):
                self._arm()  # bytes of a new request whose headers are not complete yet

        def connection_lost(self, exc: Exception | None) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None
            super().connection_lost(exc)

        def _arm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
            self._armed_for = self.cycle
            self._header_timer = self.loop.call_later(timeout, self._expire)

        def _expire(self) -> None:
            self._header_timer = None
            if self.cycle is self._armed_for and not self.transport.is_closing():
                if self.cycle is None or self.cycle.response_complete:  # still waiting for headers
                    self.transport.close()

    return HeaderTimeout
