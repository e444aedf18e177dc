"""``exactodds stud host``: host a five-card stud game in the browser (the server and its links)."""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import webbrowser

import click

from exactodds.cli.options import check_output_path
from exactodds.cli.server_options import (
    allow_host_option,
    bind_option,
    db_timeout_option,
    max_connections_option,
    open_option,
    port_option,
    request_timeout_option,
)


def network_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (where phones on the local network reach it):
    its name's addresses and the one its default route leaves from (found without sending a packet)."""
    found: set[str] = set()
    with contextlib.suppress(OSError):
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        found.update(str(info[4][0]) for info in infos)
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # a documentation address: a UDP connect sends nothing
        found.add(str(probe.getsockname()[0]))
    return sorted(a for a in found if not a.startswith("127.") and a != "0.0.0.0")


@click.command(name="host")
@port_option(8766)
@bind_option
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None,
              help="The SQLite file of the games (default: stud-host.sqlite3 in the user data folder).")
@open_option
@allow_host_option
@click.option("--max-games", "max_games", type=click.IntRange(1), default=50, show_default=True,
              help="Games in play at once at most.")
@request_timeout_option
@max_connections_option(512)
@db_timeout_option
@click.option("--opponents", "opponent_files", multiple=True, metavar="FILE.toml",
              help="An opponent model file (as stud decide reads them) the bots may play, beside the presets "
                   "bots, calling-station, rock and maniac. Repeatable.")
def host(port: int, host: str, db: str | None, open_browser: bool, allow_host: tuple[str, ...],
         max_games: int, request_timeout: float, max_connections: int, db_timeout: float,
         opponent_files: tuple[str, ...]) -> None:
    """Host five-card stud in the browser: 2 to 8 players, each on their own phone or laptop, bots in
    the empty seats, the coach beside the buttons (the home fixed-limit rules).

    Prints the host's link: open it to set up a game and get one link (and QR code) per seat. Each
    bot seat plays an opponent model of stud decide (a preset, or a file given with --opponents).
    Games and every action are kept in SQLite, so a restarted server resumes a hand where it stood.
    Ctrl-C stops the server. See docs/stud-host.md.

    Example: exactodds stud host --host 0.0.0.0 --opponents friends.toml
    """
    from exactodds.stud.host.bots import BotModels
    from exactodds.stud.host.server import create_app
    from exactodds.stud.host.service import HostService
    from exactodds.stud.host.store import HostStore
    from exactodds.web.guard import WILDCARDS, allowed_hosts
    from exactodds.web.serving import listen, network_warning, serve, url_of

    models = BotModels.of(opponent_files)  # a bad file stops the start: one line, exit 2
    warning = network_warning(host, what="anyone who can reach this port and has a link can play or watch "
                              "with it", docs="docs/stud-host.md")
    if warning is not None:
        click.echo(warning, err=True)
    if db is not None:
        check_output_path(db)  # the folder must exist: it is never created
    store = HostStore(db, timeout=db_timeout)
    try:
        service = HostService(store, models=models, max_games=max_games)
    except BaseException:
        store.close()
        raise
    sock = listen(host, port)
    url = url_of(sock)
    lan = network_addresses() if host in WILDCARDS else []
    key = service.host_key
    click.echo(f"Five-card stud host: {url}#{key}")
    port_bound = sock.getsockname()[1]
    for address in lan:
        click.echo(f"on the local network: http://{address}:{port_bound}/#{key}")
    click.echo(f"database: {store.path}")
    click.echo("The host's link is the key to every game: share the seats' links, not this one.", err=True)
    click.echo("Ctrl-C stops the server.", err=True)
    sys.stdout.flush()
    app = create_app(service, hosts=allowed_hosts(host, (*allow_host, *lan)), body_timeout=request_timeout)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(f"{url}#{key}",)).start()
    try:
        serve(app, sock, request_timeout=request_timeout, max_connections=max_connections, graceful_seconds=1)
    finally:
        service.close()
        store.close()
    click.echo("stud host stopped; database closed")
