"""``exactodds caribbean table`` (the page and HTTP API) and ``exactodds caribbean play`` (the terminal).

Both drive the same library object, :class:`exactodds.caribbean.table.game.TableSession`.
"""

from __future__ import annotations

import sys
import threading
import webbrowser
from typing import Any

import click

from exactodds.cards import format_cards
from exactodds.caribbean.decision.settle import EVENT_LABELS
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.table.coach import ODDS_MAX_HANDS, session_odds
from exactodds.caribbean.table.forms import session_view
from exactodds.caribbean.table.game import TableSession
from exactodds.caribbean.table.hand import Phase
from exactodds.caribbean.table.limits import DEFAULT_MAX_BET, DEFAULT_MIN_BET
from exactodds.cli.options import check_output_path, paytable_option
from exactodds.cli.server_options import (
    allow_host_option,
    bind_option,
    db_timeout_option,
    max_connections_option,
    open_option,
    port_option,
    request_timeout_option,
)
from exactodds.display import money
from exactodds.errors import ExactOddsError
from exactodds.handrank import describe

hands_option = click.option("--hands", "hands", type=int, default=20, show_default=True,
                            help="Hands in the session (the 20-hand home session by default).")
bankroll_option = click.option("--bankroll", "bankroll", type=int, default=1000, show_default=True,
                               help="Starting bankroll in chips.")
seed_option = click.option("--seed", "seed", type=int, default=None,
                           help="Practice deck: a reproducible shuffle (said on screen). "
                           "Default: the operating system's CSPRNG.")
min_bet_option = click.option("--min-bet", "min_bet", type=int, default=DEFAULT_MIN_BET, show_default=True,
                              help="Table minimum ante.")
paper_option = click.option("--paper", "paper", is_flag=True,
                             help="When chips run out, play on paper (the bankroll goes below zero) "
                             "instead of waiting for a deposit, as in the home rules.")
max_bet_option = click.option("--max-bet", "max_bet", type=int, default=DEFAULT_MAX_BET, show_default=True,
                              help="Table maximum ante.")


@click.command(name="table")
@port_option(8765)
@bind_option
@paytable_option
@bankroll_option
@hands_option
@min_bet_option
@max_bet_option
@seed_option
@paper_option
@click.option("--db", "db", type=click.Path(dir_okay=False), default=None,
              help="The SQLite file of sessions and hands (default: table.sqlite3 in the user data folder).")
@open_option
@allow_host_option
@click.option("--max-sessions", "max_sessions", type=click.IntRange(1), default=2000, show_default=True,
              help="Sessions kept in memory (least recently used out; the database keeps them all).")
@click.option("--odds-queue", "odds_queue", type=click.IntRange(1), default=4, show_default=True,
              help="Exact-odds counts waiting at most (one runs at a time, in the background).")
@request_timeout_option
@max_connections_option(256)
@db_timeout_option
def table_command(port: int, host: str, paytable: str, bankroll: int, hands: int, min_bet: int, max_bet: int,
                  seed: int | None, paper: bool, db: str | None, open_browser: bool,
                  allow_host: tuple[str, ...], max_sessions: int, odds_queue: int, request_timeout: float,
                  max_connections: int,
                  db_timeout: float) -> None:
    """Play Caribbean Stud in a browser, with the exact-odds coach: start the table's server.

    Serves the page and the HTTP API (see docs/table.md); sessions and every hand are kept in
    SQLite, so a restart resumes a hand in progress. Ctrl-C stops the server. There is no
    authentication: with --host other than loopback, anyone who can reach the port can play.

    Example: exactodds caribbean table --port 8080 --open
    """
    from exactodds.caribbean.table.server import create_app
    from exactodds.caribbean.table.service import TableService
    from exactodds.caribbean.table.store import Store
    from exactodds.web.guard import allowed_hosts
    from exactodds.web.serving import listen, network_warning, serve, url_of

    warning = network_warning(host, what="anyone who can reach this port can play", docs="docs/table.md")
    if warning is not None:
        click.echo(warning, err=True)
    profile = load_profile(paytable)
    options: dict[str, Any] = dict(profile=profile, bankroll=bankroll, hands=hands, min_bet=min_bet,
                                   max_bet=max_bet, seed=seed, paper=paper)
    TableSession(**options)  # checks every option before the server starts
    if db is not None:
        check_output_path(db)  # the folder must exist: it is never created
    store = Store(db, timeout=db_timeout)
    service = TableService(store, max_cached=max_sessions, **options)
    sock = listen(host, port)
    url = url_of(sock)
    click.echo(f"Caribbean Stud table: {url}")
    practice = f", practice deck (seed {seed})" if seed is not None else ""
    click.echo(f"paytable {profile.name}, {hands} hands, bankroll {bankroll:,}, "
               f"limits {min_bet:,}-{max_bet:,}{practice}")
    click.echo(f"database: {store.path}")
    click.echo("Ctrl-C stops the server.", err=True)
    sys.stdout.flush()
    app = create_app(service, hosts=allowed_hosts(host, allow_host), odds_limit=odds_queue,
                     body_timeout=request_timeout)
    if open_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    try:
        serve(app, sock, request_timeout=request_timeout, max_connections=max_connections)
    finally:
        store.close()
    click.echo("table server stopped; database closed")


# --------------------------------------------------------------------------- play at the terminal
HELP = ("keys: a N = chip of N on the Ante spot, u = undo, c = clear, d = deal, r = raise, f = fold, "
        "b = rebet, n = new bet, p N = deposit N, h = hide/show the coach, s = status, q = quit; "
        "Enter deals (or rebets)")


PAST = {"raise": "raised", "fold": "folded"}


def _status(s: TableSession) -> str:
    if s.phase == Phase.SETTLED:  # no chip can be placed until a new bet starts
        return (f"hand {s.hands_played} of {s.hands} over · bankroll {money(s.bankroll)} · "
                "b = rebet (the same bet, dealt at once), n = new bet (an empty Ante spot)")
    spot = " + ".join(str(c) for c in s.spot) if s.spot else "empty"
    shown = min(s.hands_played + 1, s.hands)
    return (f"hand {shown} of {s.hands} · bankroll {money(s.bankroll)} · Ante spot: {spot} "
            f"(limits {s.min_bet:,}-{s.max_bet:,})")


def _show_deal(s: TableSession) -> list[str]:
    assert s.hand is not None
    h = s.hand
    lines = [f"You:    {format_cards(h.player, pretty=True)}   ({describe(h.player)})",
             f"Dealer: {format_cards(h.dealer[:1], pretty=True)} ?? ?? ?? ??",
             f"ante {h.ante:,}; a raise costs {money(s.call_amount)} more"]
    if s.bankroll < s.call_amount and not s.paper:
        lines.append(f"not enough funds to raise (bankroll {money(s.bankroll)}): deposit (p N) or fold")
    if s.hide_coach:
        lines.append("Coach: hidden until you decide")
    else:
        c = h.coach
        lines.append(f"Coach: EV(raise) {float(c.ev_raise):+.4f}  EV(fold) {float(c.ev_fold):+.4f} antes  "
                     f"optimal: {c.optimal}")
    return lines


def _show_settled(s: TableSession) -> list[str]:
    r = s.history[-1]
    verdict = "optimal" if r.cost == 0 else f"optimal was {r.optimal}: cost {float(r.cost):.4f} ante " \
        f"({float(r.cost * r.ante):.2f} chips)"
    t = s.coach_totals()
    return [f"Dealer: {format_cards(r.dealer, pretty=True)}   ({describe(r.dealer)})",
            f"{EVENT_LABELS[r.event]}: {money(r.net, sign=True)}",
            f"Coach: EV(raise) {float(r.ev_raise):+.4f}  EV(fold) {float(r.ev_fold):+.4f}; "
            f"you {PAST[r.decision]}: {verdict}",
            f"session: {t['hands']} hand{'s' if t['hands'] != 1 else ''}, net {money(s.net, sign=True)}, "
            f"{t['mistakes']} mistake{'s' if t['mistakes'] != 1 else ''}, "
            f"EV given up {t['ev_given_up_float']:.4f} antes"]


def _show_result(s: TableSession, odds_thread: threading.Thread | None) -> list[str]:
    outcome = s.outcome()
    if outcome is None:
        return [f"Session stopped after {s.hands_played} of {s.hands} hands (net {money(s.net, sign=True)}); "
                "only a complete session has a result"]
    who = {"player": "the player wins", "bank": "the bank wins", "draw": "a draw"}[outcome]
    lines = [f"Session over after {s.hands_played} hands: {who} (net {money(s.net, sign=True)})"]
    if s.hands <= ODDS_MAX_HANDS and s.hands_played == s.hands:
        if odds_thread is not None and odds_thread.is_alive():
            click.echo("counting the exact session odds...", err=True)
        odds = session_odds(s.profile, s.hands)
        assert odds is not None
        lines.append(f"exact odds of {s.hands} hands of optimal play at a constant ante: "
                     f"player {float(odds.p_player):.3%}, draw {float(odds.p_draw):.3%}, "
                     f"bank {float(odds.p_bank):.3%}; expectation {float(odds.expected_net):+.4f} antes")
    return lines


@click.command(name="play")
@paytable_option
@hands_option
@seed_option
@bankroll_option
@min_bet_option
@max_bet_option
@paper_option
@click.option("--hide-coach", "hide_coach", is_flag=True, help="Show the coach only after each decision.")
def play_command(paytable: str, hands: int, seed: int | None, bankroll: int, min_bet: int, max_bet: int,
                 paper: bool, hide_coach: bool) -> None:
    """Play a Caribbean Stud session at the terminal, with the exact-odds coach.

    The same table as `exactodds caribbean table` (the same library object), one command a line.

    Example: exactodds caribbean play --hands 10 --seed 7
    """
    s = TableSession(profile=paytable, bankroll=bankroll, hands=hands, seed=seed, min_bet=min_bet,
                     max_bet=max_bet, hide_coach=hide_coach, paper=paper)
    odds_thread = None
    if hands <= ODDS_MAX_HANDS:
        odds_thread = threading.Thread(target=session_odds, args=(s.profile, hands), daemon=True)
        odds_thread.start()
    click.echo(f"Caribbean Stud: paytable {s.profile.name}, {hands} hands, bankroll {bankroll:,}")
    click.echo(f"deck: {session_view(s)['deck']}")
    click.echo(HELP)
    click.echo(_status(s))
    while s.phase != Phase.COMPLETE:
        try:
            line = input("> ")
        except EOFError:
            click.echo("")
            break
        words = line.strip().lower().split()
        cmd, args = (words[0], words[1:]) if words else ("", [])
        if cmd in ("q", "quit", "exit"):
            break
        try:
            out = _command(s, cmd, args)
        except ExactOddsError as exc:
            click.echo(f"not allowed: {exc}")
            continue
        for text in out:
            click.echo(text)
    for text in _show_result(s, odds_thread):
        click.echo(text)


def _amount(args: list[str], what: str) -> int:
    if len(args) != 1 or not args[0].isdigit():
        raise ExactOddsError(f"{what} needs one whole number, e.g. '{what[0]} 5'")
    return int(args[0])


def _command(s: TableSession, cmd: str, args: list[str]) -> list[str]:
    """Run one typed command; returns the lines to print."""
    if cmd == "":
        cmd = "d" if s.phase == Phase.BETTING else "b" if s.phase == Phase.SETTLED else "s"
    if cmd in ("a", "add"):
        s.add_chip(_amount(args, "add"))
        return [_status(s)]
    if cmd in ("u", "undo"):
        s.undo()
        return [_status(s)]
    if cmd in ("c", "clear"):
        s.clear()
        return [_status(s)]
    if cmd in ("d", "deal"):
        s.deal()
        return _show_deal(s)
    if cmd in ("b", "rebet"):
        s.rebet()
        return _show_deal(s)
    if cmd in ("r", "raise", "f", "fold"):
        s.raise_() if cmd.startswith("r") else s.fold()
        lines = _show_settled(s)
        return lines + ([_status(s)] if s.phase != Phase.COMPLETE else [])
    if cmd in ("n", "new"):
        s.new_game()
        return [_status(s)]
    if cmd in ("p", "deposit"):
        s.deposit(_amount(args, "p (deposit)"))
        shown = _show_deal(s) if s.phase == Phase.DECISION else []
        return [f"deposited; bankroll {money(s.bankroll)}", *shown]
    if cmd in ("h", "hide"):
        s.set_hide_coach(not s.hide_coach)
        return [f"coach {'hidden until you decide' if s.hide_coach else 'shown'}"]
    if cmd in ("s", "status"):
        return _show_deal(s) if s.phase == Phase.DECISION else [_status(s)]
    if cmd in ("?", "help"):
        return [HELP]
    raise ExactOddsError(f"unknown command {cmd!r}; {HELP}")
