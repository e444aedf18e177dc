"""Serving a web table: the listening socket (127.0.0.1 by default), the warning when it is opened
to the network, and uvicorn run until Ctrl-C or SIGTERM.

:func:`listen` binds before anything is printed (a busy port is a one-line error); :func:`serve`
runs the app on that socket with uvicorn's HTTP protocol given a deadline on request headers, a
cap on connections, and a clean stop on SIGINT and SIGTERM.
"""

from __future__ import annotations

import asyncio
import ipaddress
import signal
import socket
from types import FrameType

import uvicorn
from starlette.types import ASGIApp

from exactodds.errors import ExactOddsError
from exactodds.web.guard import header_timeout_protocol


class PortError(ExactOddsError):
    """A port that cannot be listened on."""


class ServerStopped(Exception):
    """The server's user stopped it (Ctrl-C or SIGTERM)."""


def _stopped(signum: int, frame: FrameType | None) -> None:
    raise ServerStopped(signum)


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def network_warning(host: str, *, what: str, docs: str) -> str | None:
    """The one-line warning for a server bound to ``host`` beyond this machine, or None on loopback.
    ``what``: who can do what, e.g. "anyone who can reach this port can play"; ``docs``: where the
    security is described."""
    if is_loopback(host):
        return None
    return (f"Warning: --host {host} makes the table reachable from the network, without "
            f"authentication: {what} (see {docs}, Security)")


def http_protocol(timeout: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (the C parser, httptools, when installed) with a header deadline."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as base
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol as base  # type: ignore[assignment]
    return header_timeout_protocol(base, timeout)


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port`` (0: any free port), or PortError in one line."""
    if not 0 <= port <= 65535:
        raise PortError(f"--port must be 0 to 65535, got {port}")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror:
        raise PortError(f"--host {host!r} is not an address of this machine") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    # Accepted connections inherit this: without it a small response waits ~40 ms on delayed ACKs.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        raise PortError(f"cannot listen on {host} port {port}: {exc.strerror}") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock: socket.socket) -> str:
    """The page's address on a listening socket, e.g. ``http://127.0.0.1:8765/``."""
    bound_host, bound_port = sock.getsockname()[:2]
    shown_host = f"[{bound_host}]" if ":" in bound_host else bound_host
    return f"http://{shown_host}:{bound_port}/"


def serve(app: ASGIApp, sock: socket.socket, *, request_timeout: float, max_connections: int,
          graceful_seconds: int | None = None) -> None:
    """Run ``app`` on ``sock`` until Ctrl-C or SIGTERM (then return normally). Headers must arrive
    within ``request_timeout`` seconds; beyond ``max_connections`` open connections, 503.
    ``graceful_seconds``: how long a stop waits for open requests (live streams never end on their
    own); None waits for them all."""
    config = uvicorn.Config(app, log_level="warning", access_log=False, http=http_protocol(request_timeout),
                            limit_concurrency=max_connections, timeout_keep_alive=5,
                            h11_max_incomplete_event_size=16 * 1024,
                            timeout_graceful_shutdown=graceful_seconds)
    # uvicorn stops on SIGINT/SIGTERM, then raises the signal again: here, a clean stop.
    signal.signal(signal.SIGTERM, _stopped)
    signal.signal(signal.SIGINT, _stopped)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except (ServerStopped, KeyboardInterrupt):
        pass
