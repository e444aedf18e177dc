"""The table's HTTP API against a real uvicorn server on 127.0.0.1, driven by an HTTP client."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from fractions import Fraction

import httpx
import pytest

from exactodds.cards import parse_cards
from exactodds.caribbean.decision.settle import settle
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.table.coach import session_odds
from exactodds.caribbean.table.store import Store
from exactodds.handrank import evaluate
from tests.table_server import JSON, TableServer

STANDARD = load_profile("standard")


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[TableServer]:
    srv = TableServer(tmp_path_factory.mktemp("api") / "table.db", "--bankroll", "1000")
    yield srv
    srv.stop()


def F(text: str) -> Fraction:
    return Fraction(text)


class Recorder:
    """Sends requests and keeps every response's headers and body, to search them for hole cards."""

    def __init__(self, client: httpx.Client, sid: str = "") -> None:
        self.client, self.sid, self.seen = client, sid, []

    def call(self, method: str, path: str, body=None, expect: int = 200) -> dict:
        r = self.client.request(method, path, json=body)
        self.seen.append(str(r.headers) + r.text)
        assert r.status_code == expect, r.text
        assert r.headers["content-type"].startswith("application/json")
        return r.json()

    def act(self, action: str, body=None, expect: int = 200) -> dict:
        return self.call("POST", f"/api/sessions/{self.sid}/{action}", body, expect)


def _check_conservation(view: dict) -> None:
    on_table = view["ante"] if view["phase"] in ("betting", "decision") else 0
    assert F(view["bankroll"]) + on_table == (F(view["starting_bankroll"]) + view["deposited"]
                                              + F(view["session"]["net"]))


def _check_settled(hand: dict) -> None:
    player, dealer = parse_cards(hand["player"]), parse_cards(hand["dealer"])
    result = settle(evaluate(player), evaluate(dealer), raised=hand["decision"] == "raise", profile=STANDARD)
    assert hand["event"] == result.event and F(hand["net"]) == hand["ante"] * result.net
    assert hand["net_float"] == pytest.approx(float(F(hand["net"])))


@pytest.mark.slow
def test_a_200_hand_session_conserves_money_and_never_shows_a_hole_card_early(server) -> None:
    rec = Recorder(server.client)
    view = rec.call("POST", "/api/sessions", {"hands": 200, "bankroll": 100000, "max_bet": 100}, expect=201)
    rec.sid = sid = view["id"]
    assert len(sid) >= 20 and view["phase"] == "betting" and view["practice"] is False
    rec.act("chips", {"add": 5})
    total = Fraction(0)
    for number in range(1, 201):
        rec.seen = []
        view = rec.act("deal") if number == 1 else rec.act("rebet")
        assert view["phase"] == "decision" and view["hand"]["ante"] == 5 and view["deals"] == number
        _check_conservation(view)
        if number % 10 == 1:  # now and then, every other way of reading the hand in play
            refused = rec.act("deal", expect=409)  # a repeated deal is refused and deals nothing
            assert set(refused) == {"error"} and "\n" not in refused["error"]
            again = rec.call("GET", f"/api/sessions/{sid}")
            assert again["hand"] == view["hand"] and again["deals"] == number
            past = rec.call("GET", f"/api/sessions/{sid}/history")["hands"]  # earlier hands are public
            assert len(past) == number - 1
            rec.seen.pop()
            rec.seen.append(server.client.get("/").text)
        coach = view["hand"]["coach"]
        choice = coach["optimal"] if number % 7 else ("fold" if coach["optimal"] == "raise" else "raise")
        dealt = view["hand"]
        view = rec.act(choice)
        hand = view["last_hand"]
        assert hand["number"] == number and hand["decision"] == choice
        assert hand["player"] == dealt["player"] and hand["dealer"][0] == dealt["dealer_up"]
        for card in hand["dealer"][1:]:
            assert all(f'"{card}"' not in text for text in rec.seen[:-1]), (number, card)
        _check_settled(hand)
        total += F(hand["net"])
        _check_conservation(view)
        assert F(view["session"]["net"]) == total
    assert view["phase"] == "complete" and view["hands_played"] == 200
    assert view["outcome"] == ("player" if total > 0 else "bank" if total < 0 else "draw")
    assert view["odds"] is None  # the exact odds are computed up to 100 hands
    history = rec.call("GET", f"/api/sessions/{sid}/history")["hands"]
    assert len(history) == 200 and sum(F(h["net"]) for h in history) == total
    assert sum(1 for h in history if F(h["cost"]) > 0) == view["session"]["mistakes"] >= 25
    rec.act("rebet", expect=409)


def test_twenty_sessions_at_once_and_no_lost_update(server) -> None:
    errors: list[str] = []
    ids: list[str] = []

    def play(index: int) -> None:
        try:
            with httpx.Client(base_url=server.url, timeout=60, headers=JSON) as client:
                rec = Recorder(client)
                rec.sid = rec.call("POST", "/api/sessions", {"hands": 5, "seed": index}, expect=201)["id"]
                ids.append(rec.sid)
                rec.act("chips", {"add": 5})
                for hand in range(5):
                    view = rec.act("deal") if hand == 0 else rec.act("rebet")
                    view = rec.act(view["hand"]["coach"]["optimal"])
                    _check_settled(view["last_hand"])
                    _check_conservation(view)
                assert view["phase"] == "complete" and view["hands_played"] == 5
        except BaseException as exc:  # reported below, with the session's index
            errors.append(f"session {index}: {exc!r}")

    threads = [threading.Thread(target=play, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    store = Store(server.db)  # what the server wrote: every session, all 5 hands, once each
    for sid in ids:
        stored, _ = store.load(sid)
        assert stored.phase == "complete" and [h.number for h in stored.history] == [1, 2, 3, 4, 5]
        assert stored.bankroll == stored.starting_bankroll + stored.net
    assert len(set(ids)) == 20
    store.close()

    # many clients on one session: every chip lands once, and only one of many deals happens
    sid = server.client.post("/api/sessions", json={"max_bet": 100}).json()["id"]
    codes: list[int] = []

    def add_chips() -> None:
        with httpx.Client(base_url=server.url, timeout=60, headers=JSON) as client:
            for _ in range(5):
                codes.append(client.post(f"/api/sessions/{sid}/chips", json={"add": 1}).status_code)

    threads = [threading.Thread(target=add_chips) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    view = server.client.get(f"/api/sessions/{sid}").json()
    assert codes.count(200) == 50 and view["spot"] == [1] * 50 and view["bankroll"] == "950/1"
    deals: list[int] = []

    def deal() -> None:
        with httpx.Client(base_url=server.url, timeout=60, headers=JSON) as client:
            deals.append(client.post(f"/api/sessions/{sid}/deal").status_code)

    threads = [threading.Thread(target=deal) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert sorted(deals) == [200] + [409] * 7
    assert server.client.get(f"/api/sessions/{sid}").json()["deals"] == 1


BAD = [
    ("POST", "/api/sessions/{sid}/chips", b"{not json", 400),
    ("POST", "/api/sessions/{sid}/chips", b"[1, 2]", 400),
    ("POST", "/api/sessions/{sid}/chips", b'{"add": -5}', 400),
    ("POST", "/api/sessions/{sid}/chips", b'{"add": 1e400}', 400),
    ("POST", "/api/sessions/{sid}/chips", b'{"add": NaN}', 400),
    ("POST", "/api/sessions/{sid}/chips", b'{"add": 1' + b"0" * 400 + b"}", 400),
    ("POST", "/api/sessions/{sid}/chips", b'{"add": 500}', 400),
    ("POST", "/api/sessions/{sid}/chips", b'{"undo": true}', 409),
    ("POST", "/api/sessions/{sid}/chips", b'{"add": 5, "clear": true}', 400),
    ("POST", "/api/sessions/{sid}/chips", b'{"undo": 1}', 400),  # a malformed body is a 400, as documented
    ("POST", "/api/sessions/{sid}/chips", b"{}", 400),
    ("POST", "/api/sessions/{sid}/deposit", b'{"amt": 5}', 400),
    ("POST", "/api/sessions/{sid}/coach", b'{"hide": "yes"}', 400),
    ("POST", "/api/sessions/{sid}/deal", b'{"now": true}', 400),
    ("POST", "/api/sessions/{sid}/deposit", b'{"amount": -100}', 400),
    ("POST", "/api/sessions/{sid}/deposit", b'{"amount": 99999999999999999999}', 400),
    ("POST", "/api/sessions/{sid}/deposit", b'{"amount": "100"}', 400),
    ("POST", "/api/sessions/{sid}/deal", b"", 409),
    ("POST", "/api/sessions/{sid}/raise", b"", 409),
    ("POST", "/api/sessions/{sid}/teleport", b"", 404),
    ("GET", "/api/sessions/{sid}/deal", b"", 405),
    ("POST", "/api/sessions/{sid}/chips", b'{"add": 5, "pad": "' + b"x" * 5000 + b'"}', 413),
    ("GET", "/api/sessions/{sid}/history?format=xml", b"", 400),
    ("GET", "/api/sessions/nosuchsession", b"", 404),
    ("POST", "/api/sessions/nosuchsession/deal", b"", 404),
    ("GET", "/api/sessions/nosuchsession/card", b"", 404),
    ("POST", "/api/sessions/{sid}/card", b"", 404),  # the card is read with GET only
    ("POST", "/api/sessions", b'{"paytable": "../../etc/passwd"}', 400),
    ("POST", "/api/sessions", b'{"bankroll": -1}', 400),
    ("POST", "/api/sessions", b'{"min_bet": 50, "max_bet": 10}', 400),
    ("POST", "/api/sessions", b'{"colour": "red"}', 400),
    ("POST", "/api/sessions", b'{"hide_coach": "yes"}', 400),
    ("POST", "/api/sessions", b'{"hands": 1e3}', 400),
    ("GET", "/api/nothing", b"", 404),
]


def test_bad_requests_get_a_one_line_error_and_change_nothing(server) -> None:
    sid = server.client.post("/api/sessions", json={}).json()["id"]
    before = server.settled_view(sid)
    sessions_before = _stored_sessions(server)
    for method, path, body, status in BAD:
        r = server.client.request(method, path.format(sid=sid), content=body,
                                  headers={"Content-Type": "application/json"})
        assert r.status_code == status, (path, body[:40], r.text)
        assert r.headers["content-type"].startswith("application/json")
        payload = r.json()
        assert list(payload) == ["error"] and payload["error"] and "\n" not in payload["error"]
        assert "Traceback" not in r.text and len(r.text) < 400
        assert server.client.get(f"/api/sessions/{sid}").json() == before
    assert _stored_sessions(server) == sessions_before  # no bad create stored a session


def _stored_sessions(server: TableServer) -> int:
    with sqlite3.connect(server.db) as conn:
        return conn.execute("SELECT count(*) FROM sessions").fetchone()[0]


def test_one_session_cannot_see_another(server) -> None:
    a = server.client.post("/api/sessions", json={}).json()
    b = server.client.post("/api/sessions", json={}).json()
    assert a["id"] != b["id"] and len(a["id"]) >= 20
    server.client.post(f"/api/sessions/{a['id']}/chips", json={"add": 5})
    assert server.client.get(f"/api/sessions/{b['id']}").json()["spot"] == []
    assert server.client.get(f"/api/sessions/{a['id'][:-1]}").status_code == 404


def test_the_session_result_beside_the_exact_odds_and_the_exports(server) -> None:
    options = {"hands": 20, "seed": 99, "paytable": "betmgm"}
    sid = server.client.post("/api/sessions", json=options).json()["id"]
    server.client.post(f"/api/sessions/{sid}/chips", json={"add": 10})
    for hand in range(20):
        view = server.client.post(f"/api/sessions/{sid}/{'deal' if hand == 0 else 'rebet'}").json()
        view = server.client.post(f"/api/sessions/{sid}/{view['hand']['coach']['optimal']}").json()
    assert view["phase"] == "complete" and view["paytable"] == "betmgm"
    deadline = time.monotonic() + 120
    while view["odds"] is None and time.monotonic() < deadline:  # counted in the background, once
        time.sleep(0.2)
        view = server.client.get(f"/api/sessions/{sid}").json()
    odds = session_odds("betmgm", 20)
    assert view["odds"]["p_player"] == f"{odds.p_player.numerator}/{odds.p_player.denominator}"
    assert view["odds"]["p_bank_float"] == pytest.approx(float(odds.p_bank))
    net = F(view["session"]["net"])
    assert view["outcome"] == ("player" if net > 0 else "bank" if net < 0 else "draw")
    assert view["session"]["mistakes"] == 0 and view["session"]["ev_given_up"] == "0/1"
    as_json = server.client.get(f"/api/sessions/{sid}/history").json()["hands"]
    r = server.client.get(f"/api/sessions/{sid}/history?format=csv")
    assert r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert len(rows) == len(as_json) == 20
    for row, hand in zip(rows, as_json, strict=True):
        assert row["player"].split() == hand["player"] and row["dealer"].split() == hand["dealer"]
        assert row["decision"] == hand["decision"] == row["optimal"]
        assert F(row["ev_raise"]) == F(hand["ev_raise"]) and F(row["net"]) == F(hand["net"])
    assert sum(F(row["net"]) for row in rows) == net


def test_a_first_session_loads_no_whole_game_count(tmp_path) -> None:
    """The server answers a whole session, its coach and its exact odds without the full situation count
    (whose arrays took it from 168 MB to 526 MB): the odds come from the compact count in the cache, the
    coach from ``decide``, and the strategy card's search is loaded only when a card is asked for. So
    after its first session the process has mapped no numba (LLVM) and no scipy library."""
    from exactodds.caribbean.analysis.compact import prepare_compact

    prepare_compact("ak")  # in the cache, as after `exactodds warm-up`
    srv = TableServer(tmp_path / "table.db")
    try:
        sid = srv.client.post("/api/sessions", json={"hands": 5}).json()["id"]
        srv.client.post(f"/api/sessions/{sid}/chips", json={"add": 5})
        for hand in range(5):
            view = srv.client.post(f"/api/sessions/{sid}/{'deal' if hand == 0 else 'rebet'}").json()
            srv.client.post(f"/api/sessions/{sid}/{view['hand']['coach']['optimal']}")
        view = srv.settled_view(sid)
        assert view["phase"] == "complete" and view["odds_status"] == "ready"
        odds = session_odds("standard", 5)
        assert view["odds"]["p_player"] == f"{odds.p_player.numerator}/{odds.p_player.denominator}"
        with open(f"/proc/{srv.proc.pid}/maps", encoding="utf-8") as maps:
            libraries = {line.split()[-1] for line in maps if line.rstrip().endswith(".so") or ".so." in line}
        loaded = sorted(lib for lib in libraries if "llvmlite" in lib or "/scipy/" in lib)
        assert not loaded, loaded
    finally:
        srv.stop()


def test_the_page_and_its_files_are_served_without_a_cdn(server) -> None:
    page = server.client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "http://" not in page.text and "https://" not in page.text
    for name, kind in (("static/table.js", "javascript"), ("static/table.css", "text/css"),
                       ("shared/web.js", "javascript")):  # web.js: the script every table's pages share
        r = server.client.get(f"/{name}")
        assert r.status_code == 200 and kind in r.headers["content-type"]
        assert "https://" not in r.text
    assert server.banner[0].startswith("Caribbean Stud table: http://127.0.0.1:")


def test_a_restarted_server_resumes_the_hand_in_play(tmp_path) -> None:
    db = tmp_path / "table.db"
    first = TableServer(db)
    try:
        sid = first.client.post("/api/sessions", json={"bankroll": 10}).json()["id"]
        first.client.post(f"/api/sessions/{sid}/chips", json={"add": 5})
        dealt = first.client.post(f"/api/sessions/{sid}/deal").json()
        first.client.post(f"/api/sessions/{sid}/deposit", json={"amount": 7})
    finally:
        first.kill()
    second = TableServer(db)
    try:
        view = second.client.get(f"/api/sessions/{sid}").json()
        assert view["phase"] == "decision" and view["hand"] == {**dealt["hand"], "can_afford_raise": True}
        assert view["bankroll"] == "12/1" and view["deposits"] == [7]
        done = second.client.post(f"/api/sessions/{sid}/raise").json()
        assert done["last_hand"]["player"] == dealt["hand"]["player"]
        assert json.dumps(done["last_hand"]["dealer"][0]) == json.dumps(dealt["hand"]["dealer_up"])
        _check_settled(done["last_hand"])
    finally:
        second.stop()


def test_a_busy_port_or_a_bad_option_is_one_line(server) -> None:
    port = server.url.rsplit(":", 1)[1].strip("/")
    for args, message in (
        (["--port", port], f"Error: cannot listen on 127.0.0.1 port {port}: Address already in use"),
        (["--port", "70000"], "Error: --port must be 0 to 65535, got 70000"),
        (["--min-bet", "10", "--max-bet", "5"], "Error: min_bet 10 is above max_bet 5"),
        (["--paytable", "nonesuch"], "Error: unknown paytable"),
    ):
        command = [sys.executable, "-c", "from exactodds.cli.main import cli; cli()", "caribbean", "table",
                   "--db", str(server.db), *args]
        run = subprocess.run(command, capture_output=True, text=True, timeout=60)
        assert run.returncode == 2 and run.stderr.startswith(message) and len(run.stderr.splitlines()) == 1
        assert run.stdout == ""


def _card(client: httpx.Client, sid: str, *, seen: set[str], timeout: float = 240) -> dict:
    """The card of a session's paytable, asking again while the server's worker finds it (202)."""
    deadline = time.monotonic() + timeout
    while True:
        r = client.get(f"/api/sessions/{sid}/card")
        assert r.headers["content-type"].startswith("application/json")
        body = r.json()
        seen.add(body["status"])
        if r.status_code == 200:
            assert body["status"] == "ready"
            return body
        assert r.status_code == 202 and body["status"] in ("queued", "computing", "busy"), r.text
        assert set(body) == {"id", "paytable", "status"}
        # the search runs beside the requests, never inside one: the table answers meanwhile
        assert client.get(f"/api/sessions/{sid}").status_code == 200
        assert time.monotonic() < deadline, "no card within the time limit"
        time.sleep(0.25)


def test_the_card_tab_serves_the_cli_card_of_the_session_paytable(server) -> None:
    """GET .../card: 202 while the background worker finds the card, then the card `caribbean card`
    prints by default (3 rules) with its exact cost; it follows the session's paytable and shows no card
    of the deck."""
    client = server.client
    view = client.post("/api/sessions", json={"seed": 7, "bankroll": 100}).json()
    sid = view["id"]
    client.post(f"/api/sessions/{sid}/chips", json={"add": 5})
    dealt = client.post(f"/api/sessions/{sid}/deal").json()
    assert dealt["phase"] == "decision"
    seen: set[str] = set()
    during = [client.get(f"/api/sessions/{sid}/card").text]  # asked while the hole cards are hidden
    card = _card(client, sid, seen=seen)
    during.append(json.dumps(card))
    revealed = client.post(f"/api/sessions/{sid}/fold").json()["last_hand"]["dealer"]
    assert all(f'"{c}"' not in text for c in revealed[1:] for text in during)
    assert card["id"] == sid and card["paytable"] == "standard" and card["exact"] is True
    assert card["description"] and card["rules_asked"] == 3
    chosen = card["card"]
    assert chosen["rules"] == 3 and len(chosen["card"]["text"]) == chosen["rules_used"] + 1
    assert chosen["card"]["text"][-1].startswith("Otherwise ")
    # the exact figures (tests/test_caribbean_card.py checks the search; here: the same card, whole)
    assert F(chosen["cost_vs_optimal_units"]) == 44_846_352 == F(card["rules_of_thumb_cost_units"])
    assert [F(p["cost_vs_optimal_units"]) for p in card["pareto"]] == [
        48_899_189_088, 8_206_163_616, 1_066_300_128, 44_846_352, 28_297_872, 16_630_896]
    total = card["combinations"]
    assert total == 19_933_230_517_200
    assert F(chosen["cost_vs_optimal_per_ante"]) == F(chosen["cost_vs_optimal_units"]) / total
    assert F(chosen["house_edge"]) == F(card["optimal_house_edge"]) + F(chosen["cost_vs_optimal_per_ante"])
    assert F(card["optimal_house_edge"]) == Fraction(142031221, 2718662100)  # the standard game's 5.2243 %
    table = card["pareto_table"]
    assert table["headers"][0] == "rules"
    assert [row[0] for row in table["rows"]] == ["0", "1", "2", "3", "4", "5"]
    assert table["rows"][3][1] == "44,846,352" and "proven" in card["proof_note"].lower()
    again = client.get(f"/api/sessions/{sid}/card")
    assert again.status_code == 200 and again.json() == card  # found once, then served at once
    # another paytable's session: its own card (the worker finds it); the shipped paytables share their
    # A-K-high cells, so the rules are the same and only the house edge moves
    other = client.post("/api/sessions", json={"paytable": "betmgm"}).json()["id"]
    betmgm = _card(client, other, seen=seen)
    assert betmgm["paytable"] == "betmgm" and betmgm["card"]["card"] == chosen["card"]
    assert F(betmgm["optimal_house_edge"]) != F(card["optimal_house_edge"])
    assert F(betmgm["card"]["house_edge"]) == F(betmgm["optimal_house_edge"]) + Fraction(44_846_352, total)
    status = client.get("/api/status").json()["cards"]
    # every poll of a paytable found its card once: one search per paytable
    assert status["limit"] == 4 and status["started"] == status["ready"] == 2 and status["queued"] == 0
