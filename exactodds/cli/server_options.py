"""The options every web table's server command shares (``caribbean table``, ``stud host``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

bind_option = click.option(
    "--host", "host", default="127.0.0.1", show_default=True,
    help="Address to bind (loopback by default: only this machine can reach the table).")
open_option = click.option("--open", "open_browser", is_flag=True, help="Open the page in a web browser.")
allow_host_option = click.option(
    "--allow-host", "allow_host", multiple=True, metavar="NAME",
    help="Another Host name to serve (repeatable), e.g. this machine's name with --host 0.0.0.0; "
    "127.0.0.1, localhost and --host's are always served.")
request_timeout_option = click.option(
    "--request-timeout", "request_timeout", type=click.FloatRange(0.1, 600), default=10, show_default=True,
    help="Seconds a request's headers, and its body, may take to arrive.")
db_timeout_option = click.option(
    "--db-timeout", "db_timeout", type=click.FloatRange(0, 60), default=2, show_default=True,
    help="Seconds an action waits for a database locked by another process (then 503).")


def port_option(default: int) -> Callable[[Any], Any]:
    """``--port`` (0: any free port) with the command's own default."""
    return click.option("--port", "port", type=int, default=default, show_default=True,
                        help="Port (0: any free port).")


def max_connections_option(default: int) -> Callable[[Any], Any]:
    """``--max-connections`` with the command's own default (live pages hold one each)."""
    return click.option("--max-connections", "max_connections", type=click.IntRange(1), default=default,
                        show_default=True, help="Open connections at most (beyond: 503).")
