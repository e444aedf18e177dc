"""The table server against hostile pages and clients, a failing database, and its own bounds.

Every test drives the real server (``exactodds caribbean table``) on 127.0.0.1 with the exact
requests a hostile client or page can send; the database is real SQLite. Small limits
(a 1 s request timeout, 5 sessions in memory, 2 odds counts queued) keep the tests fast.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.table_server import TableServer

LIMITS = ("--request-timeout", "1", "--max-sessions", "5", "--odds-queue", "2", "--db-timeout", "0.3",
          "--max-connections", "40")


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[TableServer]:
    srv = TableServer(tmp_path_factory.mktemp("security") / "table.db", *LIMITS)
    yield srv
    srv.stop()


def _address(server: TableServer) -> tuple[str, int]:
    host, port = server.url.removeprefix("http://").strip("/").rsplit(":", 1)
    return host, int(port)


def _raw(server: TableServer, data: bytes) -> socket.socket:
    sock = socket.create_connection(_address(server), timeout=5)
    sock.sendall(data)
    return sock


def _status_line(sock: socket.socket) -> str:
    """The status line of the server's answer (raises socket.timeout if none comes in 5 s)."""
    data = b""
    while b"\r\n" not in data:
        piece = sock.recv(4096)
        if not piece:
            break
        data += piece
    return data.split(b"\r\n", 1)[0].decode()


def _session(server: TableServer, **options) -> str:
    r = server.client.post("/api/sessions", json=options)
    assert r.status_code == 201, r.text
    return r.json()["id"]


# ----------------------------------------------------------------------------- 1. body size
def test_a_body_over_the_limit_is_refused_before_it_is_read(server) -> None:
    host = f"Host: 127.0.0.1:{_address(server)[1]}\r\n".encode()
    # a declared 400 MB body: 413 at once, nothing read
    sock = _raw(server, b"POST /api/sessions HTTP/1.1\r\n" + host +
                b"Content-Type: application/json\r\nContent-Length: 400000000\r\n\r\n")
    with sock:
        assert _status_line(sock) == "HTTP/1.1 413 Request Entity Too Large"
    # a chunked body that never ends: 413 once 4 KB are in, not when the body is complete
    sock = _raw(server, b"POST /api/sessions HTTP/1.1\r\n" + host +
                b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
    with sock:
        for _ in range(3):
            sock.sendall(b"2000\r\n" + b" " * 0x2000 + b"\r\n")
        assert _status_line(sock) == "HTTP/1.1 413 Request Entity Too Large"
    assert server.client.get("/api/config").status_code == 200


# ----------------------------------------------------------------------------- 2. slow clients
def test_incomplete_requests_time_out_and_connections_are_bounded(server) -> None:
    port = _address(server)[1]
    half_headers = f"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-".encode()
    half_body = (f"POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                 "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"hands\"").encode()
    socks = [_raw(server, half_headers) for _ in range(10)] + [_raw(server, half_body) for _ in range(10)]
    closed: set[int] = set()
    deadline = time.monotonic() + 8  # the server's timeout is 1 s
    while len(closed) < len(socks) and time.monotonic() < deadline:
        for i, sock in enumerate(socks):
            if i in closed:
                continue
            sock.settimeout(0.05)
            try:
                data = sock.recv(4096)
            except TimeoutError:
                continue
            if not data or data.startswith(b"HTTP/1.1 408"):
                closed.add(i)
    for sock in socks:
        sock.close()
    assert len(closed) == len(socks), f"{len(socks) - len(closed)} incomplete requests still held open"

    # at most --max-connections (40) at once: the next one gets 503 while 45 idle sockets are open
    idle = [socket.create_connection(_address(server), timeout=5) for _ in range(45)]
    try:
        time.sleep(0.2)
        with httpx.Client(base_url=server.url, timeout=10) as client:
            assert client.get("/api/config").status_code == 503
    finally:
        for sock in idle:
            sock.close()
    time.sleep(0.3)
    assert server.client.get("/api/config").status_code == 200


# ----------------------------------------------------------------------------- 3. memory
def test_sessions_beyond_the_cache_are_evicted_and_come_back_the_same(server) -> None:
    ids = [_session(server, seed=k, hands=3) for k in range(12)]
    dealt = {}
    for sid in ids:
        server.client.post(f"/api/sessions/{sid}/chips", json={"add": 5})
        dealt[sid] = server.client.post(f"/api/sessions/{sid}/deal").json()["hand"]
    status = server.client.get("/api/status").json()["sessions"]
    assert status["limit"] == 5 and status["cached"] <= 5 and status["evicted"] >= 7
    for sid in ids:  # the evicted ones are read back from SQLite and play on as before
        view = server.client.get(f"/api/sessions/{sid}").json()
        assert view["phase"] == "decision" and view["hand"] == dealt[sid]
        done = server.client.post(f"/api/sessions/{sid}/fold").json()
        assert done["phase"] == "settled" and done["last_hand"]["player"] == dealt[sid]["player"]
        assert done["bankroll"] == "995/1"
    assert server.client.get("/api/status").json()["sessions"]["cached"] <= 5


# ----------------------------------------------------------------------------- 4. CPU
def _finish(server: TableServer, hands: int, paytable: str) -> dict:
    sid = _session(server, hands=hands, paytable=paytable)
    server.client.post(f"/api/sessions/{sid}/chips", json={"add": 1})
    for k in range(hands):
        server.client.post(f"/api/sessions/{sid}/{'deal' if k == 0 else 'rebet'}")
        view = server.client.post(f"/api/sessions/{sid}/fold").json()
    assert view["phase"] == "complete"
    return view


def test_session_odds_are_counted_by_one_worker_with_a_bounded_deduplicated_queue(server) -> None:
    before = server.client.get("/api/status").json()["odds"]
    assert before["limit"] == 2
    # three sessions of one (paytable, length): counted once
    views = [_finish(server, 3, "betmgm") for _ in range(3)]
    assert all(v["odds_status"] in ("ready", "queued", "counting") for v in views)
    # more lengths than the queue holds: some are told "busy", none waits inside its request
    statuses = []
    for hands in (4, 5, 6, 7, 8):
        start = time.perf_counter()
        statuses.append(_finish(server, hands, "betmgm")["odds_status"])
        odds = server.client.get("/api/status").json()["odds"]
        assert odds["queued"] <= 2 and time.perf_counter() - start < 30
    assert set(statuses) <= {"ready", "queued", "counting", "busy"}
    deadline = time.monotonic() + 240
    sid = views[0]["id"]
    while server.client.get(f"/api/sessions/{sid}").json()["odds"] is None and time.monotonic() < deadline:
        time.sleep(0.3)
    assert server.client.get(f"/api/sessions/{sid}").json()["odds_status"] == "ready"
    after = server.client.get("/api/status").json()["odds"]
    # the three (betmgm, 3) sessions made one job; the five other lengths at most five more
    assert 1 <= after["started"] - before["started"] <= 6
    # a session not yet complete is not counted ("later"), a very long one never ("unavailable")
    assert server.client.get(f"/api/sessions/{_session(server, hands=9)}").json()["odds_status"] == "later"
    long = _session(server, hands=500)
    assert server.client.get(f"/api/sessions/{long}").json()["odds_status"] == "unavailable"


# ----------------------------------------------------------------------------- 5. cross-site
def test_requests_a_page_of_another_site_can_send_are_refused(server) -> None:
    port = _address(server)[1]
    stored = _stored(server)
    bare = httpx.Client(base_url=server.url, timeout=10)  # no default JSON header: as a browser form
    with bare:
        # a "simple" request (no preflight): text/plain, a form, multipart
        for headers, content in (({"Content-Type": "text/plain"}, b'{"hands": 5}'),
                                 ({"Content-Type": "application/x-www-form-urlencoded"}, b"hands=5"),
                                 ({"Content-Type": "multipart/form-data; boundary=x"}, b"--x--"),
                                 ({}, b"")):
            r = bare.post("/api/sessions", content=content, headers=headers)
            assert r.status_code == 415 and "application/json" in r.json()["error"]
        sid = _session(server)
        r = bare.post(f"/api/sessions/{sid}/deal", headers={"Content-Type": "text/plain"})
        assert r.status_code == 415
        # a foreign Origin, even with the right Content-Type (a fetch after a preflight)
        evil = {"Origin": "http://evil.example", "Content-Type": "application/json"}
        assert bare.post("/api/sessions", json={}, headers=evil).status_code == 403
        assert bare.get(f"/api/sessions/{sid}", headers=evil).status_code == 403
        assert bare.post("/api/sessions", json={}, headers={**evil, "Origin": "null"}).status_code == 403
        # the CORS preflight is refused and grants nothing
        pre = bare.options("/api/sessions", headers={"Origin": "http://evil.example",
                                                      "Access-Control-Request-Method": "POST"})
        assert pre.status_code >= 400 and "access-control-allow-origin" not in pre.headers
        # DNS rebinding: the page's own name in Host
        r = bare.get(f"/api/sessions/{sid}", headers={"Host": f"evil.example:{port}"})
        assert r.status_code == 421 and "evil.example" in r.json()["error"]
        # the server's own page: same origin, allowed
        own = {"Origin": f"http://127.0.0.1:{port}", "Content-Type": "application/json"}
        assert bare.post("/api/sessions", json={}, headers=own).status_code == 201
        assert bare.get("/api/config", headers={"Host": f"localhost:{port}"}).status_code == 200
    assert _stored(server) == stored + 2  # the refused creates stored nothing


def _stored(server: TableServer) -> int:
    with sqlite3.connect(server.db) as conn:
        return conn.execute("SELECT count(*) FROM sessions").fetchone()[0]


# ----------------------------------------------------------------------------- 6. network bind
def _table(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from exactodds.cli.main import cli; cli()", "caribbean",
                           "table", *args], capture_output=True, text=True, timeout=timeout)


def test_a_network_bind_is_warned_about(tmp_path) -> None:
    # --port 70000 stops the server before it listens: nothing is exposed by this test
    run = _table("--host", "0.0.0.0", "--port", "70000", "--db", str(tmp_path / "t.db"))
    lines = run.stderr.splitlines()
    assert run.returncode == 2 and len(lines) == 2, run.stderr
    assert lines[0].startswith("Warning: --host 0.0.0.0 makes the table reachable from the network, without "
                               "authentication")
    assert lines[1] == "Error: --port must be 0 to 65535, got 70000"
    quiet = _table("--host", "127.0.0.1", "--port", "70000", "--db", str(tmp_path / "t.db"))
    assert quiet.stderr.splitlines() == ["Error: --port must be 0 to 65535, got 70000"]


# ----------------------------------------------------------------------------- 7. file mode
def test_the_database_and_its_journal_files_are_private(server) -> None:
    _session(server)  # a write: the WAL and SHM files exist
    for name in (server.db, Path(f"{server.db}-wal"), Path(f"{server.db}-shm")):
        assert stat.S_IMODE(name.stat().st_mode) == 0o600, name


# ----------------------------------------------------------------------------- 8. database trouble
def test_a_locked_database_is_a_quick_503_and_the_connection_stays_usable(server) -> None:
    sid = _session(server)
    before = server.settled_view(sid)
    other = sqlite3.connect(server.db, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    try:
        start = time.perf_counter()
        for _ in range(5):
            r = server.client.post(f"/api/sessions/{sid}/chips", json={"add": 5})
            assert r.status_code == 503
            assert r.json()["error"].startswith("database is locked by another process")
            assert r.headers.get("connection") != "close"
        assert time.perf_counter() - start < 5  # each waits --db-timeout (0.3 s), not 10 s
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert server.client.get(f"/api/sessions/{sid}").json() == before  # nothing half-applied
    assert server.client.post(f"/api/sessions/{sid}/chips", json={"add": 5}).json()["spot"] == [5]


def test_damaged_rows_are_a_503_that_says_how_to_recover(server) -> None:
    sid = _session(server)
    with sqlite3.connect(server.db) as conn:
        conn.execute("UPDATE sessions SET state = '{\"id\": 1' WHERE id = ?", (sid,))
    for _ in range(6):  # push the session out of the server's memory (5 sessions kept)
        _session(server)
    r = server.client.get(f"/api/sessions/{sid}")
    assert r.status_code == 503 and r.headers.get("connection") != "close"
    message = r.json()["error"]
    assert message.startswith("database is damaged") and ".recover" in message and "\n" not in message
    assert server.client.get("/api/config").status_code == 200


def test_a_read_only_database_is_refused_at_start(tmp_path) -> None:
    db = tmp_path / "t.db"
    first = TableServer(db)
    first.stop()
    immutable = os.geteuid() == 0  # root writes any file: make it immutable instead
    if immutable:
        subprocess.run(["chattr", "+i", str(db)], check=True)
    else:
        db.chmod(0o400)
    try:
        run = _table("--port", "0", "--db", str(db), timeout=30)
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(db)], check=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("Error: table database ") and "read-only" in run.stderr
    assert len(run.stderr.splitlines()) == 1


# ----------------------------------------------------------------------------- 9. retries
def test_an_idempotency_key_applies_a_retried_request_once(server) -> None:
    sid = _session(server, bankroll=100)
    key = {"Idempotency-Key": "deposit-7f3a9c"}
    first = server.client.post(f"/api/sessions/{sid}/deposit", json={"amount": 50}, headers=key)
    again = server.client.post(f"/api/sessions/{sid}/deposit", json={"amount": 50}, headers=key)
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert server.client.get(f"/api/sessions/{sid}").json()["bankroll"] == "150/1"
    other = server.client.post(f"/api/sessions/{sid}/deposit", json={"amount": 60}, headers=key)
    assert other.status_code == 422 and "different request" in other.json()["error"]
    without = server.client.post(f"/api/sessions/{sid}/deposit", json={"amount": 50})
    assert without.json()["bankroll"] == "200/1"  # no key: a new deposit
    made = [server.client.post("/api/sessions", json={"hands": 4}, headers={"Idempotency-Key": "create-1"})
            for _ in range(2)]
    assert made[0].json()["id"] == made[1].json()["id"]
    bad = server.client.post(f"/api/sessions/{sid}/deposit", json={"amount": 1},
                             headers={"Idempotency-Key": "x" * 200})
    assert bad.status_code == 422


# ----------------------------------------------------------------------------- 11. stopping
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_server_says_so_and_exits_0(tmp_path, sig) -> None:
    srv = TableServer(tmp_path / "t.db")
    srv.client.post("/api/sessions", json={})
    code, rest = srv.stop(sig)
    assert code == 0 and rest.splitlines()[-1] == "table server stopped; database closed"
    assert "Aborted" not in (tmp_path / "t.log").read_text()
    assert not Path(f"{tmp_path / 't.db'}-wal").exists()  # closed cleanly: the WAL is checkpointed away


# ----------------------------------------------------------------------------- 12. deposits
def test_a_view_carries_the_deposit_total_and_the_recent_few(server) -> None:
    sid = _session(server)
    for k in range(1, 31):
        view = server.client.post(f"/api/sessions/{sid}/deposit", json={"amount": k}).json()
    assert view["deposits"] == [26, 27, 28, 29, 30] and view["deposit_count"] == 30
    assert view["deposited"] == sum(range(1, 31)) == 465
    history = server.client.get(f"/api/sessions/{sid}/history").json()
    assert [d["amount"] for d in history["deposits"]] == list(range(1, 31))
    assert len(json.dumps(view)) < 4000
