"""The SQLite store of table sessions: migrations, atomic saves, crashes and restarts."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.caribbean.table.forms import session_state, session_view
from exactodds.caribbean.table.game import TableSession
from exactodds.caribbean.table.hand import Phase
from exactodds.caribbean.table.service import TableService
from exactodds.caribbean.table.store import (
    MIGRATIONS,
    SCHEMA_VERSION,
    Store,
    UnknownSessionError,
    default_db_path,
)
from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.web.store import StoreError


def _same(a: TableSession, b: TableSession) -> None:
    assert session_state(a) == session_state(b)
    assert a.history == b.history
    assert session_view(a) == session_view(b)


def test_default_path_is_in_the_user_data_folder(monkeypatch, tmp_path) -> None:
    monkeypatch.delenv("EXACTODDS_TABLE_DB", raising=False)
    assert default_db_path().name == "table.sqlite3" and "exactodds" in str(default_db_path())
    monkeypatch.setenv("EXACTODDS_TABLE_DB", str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"


def test_a_version_1_database_is_migrated_and_keeps_its_sessions(tmp_path) -> None:
    path = tmp_path / "v1.db"
    session = TableSession(bankroll=50, seed=9)
    session.add_chip(5)
    session.deal()
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO sessions (id, created, updated, state) VALUES (?, 0, 0, ?)",
                 (session.id, json.dumps(session_state(session))))
    conn.commit()
    conn.close()
    store = Store(path)
    assert store.schema_version == SCHEMA_VERSION == 3
    loaded, version = store.load(session.id)
    _same(loaded, session)
    assert version == 0
    paytable = store._conn.execute("SELECT paytable FROM sessions").fetchone()[0]
    assert paytable == "standard"


def test_newer_or_foreign_files_are_refused(tmp_path) -> None:
    newer = tmp_path / "newer.db"
    conn = sqlite3.connect(newer)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match="newer than this exactodds knows"):
        Store(newer)
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not an SQLite database|cannot be opened"):
        Store(junk)
    with pytest.raises(StoreError, match="is a folder"):
        Store(tmp_path)


def test_unknown_sessions_and_stale_updates(tmp_path) -> None:
    store = Store(tmp_path / "t.db")
    with pytest.raises(UnknownSessionError):
        store.load("no-such-id")
    s = TableSession(seed=1)
    store.create(s)
    s.add_chip(5)
    assert store.save(s, version=1, hands_from=0, deposits_from=0) == 2
    with pytest.raises(StoreError, match="changed since version 1"):
        store.save(s, version=1, hands_from=0, deposits_from=0)


def _service(path) -> TableService:
    return TableService(Store(path), bankroll=200, hands=5)


STEP = st.sampled_from([
    ("chips", {"add": 5}), ("chips", {"add": 25}), ("chips", {"undo": True}), ("chips", {"clear": True}),
    ("deal", {}), ("raise", {}), ("fold", {}), ("rebet", {}), ("new_game", {}), ("deposit", {"amount": 30}),
    ("coach", {"hide": True}),
])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, max_size=25), seed=st.integers(0, 10**6))
def test_a_restart_between_any_two_steps_loses_and_duplicates_nothing(tmp_path_factory, steps, seed) -> None:
    path = tmp_path_factory.mktemp("crash") / "t.db"
    service = _service(path)
    sid = service.create(seed=seed)["id"]
    for action, body in steps:
        try:
            service.act(sid, action, body)
        except ExactOddsError:
            pass
        live = service.session(sid)
        # "crash": drop every object, reopen the file as a new server would
        restarted = _service(path)
        again = restarted.session(sid)
        _same(again, live)
        assert [r.deal for r in again.history] == sorted({r.deal for r in again.history})
        assert [a for a, _ in restarted.store.deposit_rows(sid)] == again.deposits
        restarted.store.close()


@pytest.mark.parametrize("crash_at", ["state written", "hand written", "rows written"])
def test_a_save_stopped_half_way_leaves_the_hand_in_play(tmp_path, crash_at) -> None:
    path = tmp_path / "t.db"
    service = _service(path)
    sid = service.create(seed=5)["id"]
    service.act(sid, "chips", {"add": 5})
    service.act(sid, "deal")
    s, version = service.store.load(sid)
    before = (session_state(s), list(s.history))
    s.fold()

    def crash(step: str) -> None:
        if step == crash_at:
            raise KeyboardInterrupt(step)

    with pytest.raises(KeyboardInterrupt):
        service.store.save(s, version=version, hands_from=len(before[1]), deposits_from=0, crash=crash)
    reopened, _ = Store(path).load(sid)
    assert (session_state(reopened), reopened.history) == before and reopened.phase == Phase.DECISION
    restarted = _service(path)
    view = restarted.act(sid, "fold")
    assert view["hands_played"] == 1 and len(restarted.history(sid)) == 1


CHILD = textwrap.dedent("""
    import os, signal, sys
    from exactodds.caribbean.table.service import TableService
    from exactodds.caribbean.table.store import Store
    path, sid, crash_at = sys.argv[1], sys.argv[2], sys.argv[3]
    store = Store(path)
    s, version = store.load(sid)
    s.raise_() if s.bankroll >= s.call_amount else s.fold()
    def crash(step):
        if step == crash_at:
            os.kill(os.getpid(), signal.SIGKILL)
    store.save(s, version=version, hands_from=len(s.history) - 1, deposits_from=len(s.deposits), crash=crash)
    print("saved")
""")


@pytest.mark.parametrize("crash_at", ["state written", "rows written", "never"])
def test_a_killed_process_leaves_the_hand_either_in_play_or_fully_recorded(tmp_path, crash_at) -> None:
    path = tmp_path / "t.db"
    service = _service(path)
    sid = service.create(seed=8)["id"]
    service.act(sid, "chips", {"add": 5})
    service.act(sid, "deal")
    service.store.close()
    run = subprocess.run([sys.executable, "-c", CHILD, str(path), sid, crash_at], capture_output=True,
                         text=True, timeout=60, env=os.environ.copy())
    restarted = _service(path)
    s = restarted.session(sid)
    if crash_at == "never":
        assert run.returncode == 0 and "saved" in run.stdout
        assert s.hands_played == 1 and s.phase != Phase.DECISION
    else:
        assert run.returncode == -signal.SIGKILL
        assert s.phase == Phase.DECISION and s.hands_played == 0 and s.history == []
        assert s.bankroll + s.on_table == 200  # the ante still on the table, nothing paid or lost
    assert s.bankroll + s.on_table == s.starting_bankroll + sum(s.deposits) + s.net


def test_a_wrong_stored_deal_is_void_with_its_bets_returned(tmp_path) -> None:
    path = tmp_path / "t.db"
    service = _service(path)
    sid = service.create(seed=2)["id"]
    service.act(sid, "chips", {"add": 25})
    service.act(sid, "deal")
    service.store.close()
    conn = sqlite3.connect(path)
    state = json.loads(conn.execute("SELECT state FROM sessions").fetchone()[0])
    state["hand"]["dealer"] = state["hand"]["dealer"][:3]  # an incomplete deal
    conn.execute("UPDATE sessions SET state = ?", (json.dumps(state),))
    conn.commit()
    conn.close()
    restarted = _service(path)
    view = restarted.view(sid)
    assert view["phase"] == "betting" and view["bankroll"] == "200/1" and view["hands_played"] == 0
    history = restarted.history(sid)
    assert [h["decision"] for h in history] == ["void"] and history[0]["net"] == "0/1"
    assert _service(path).view(sid) == view  # the void was stored once


def test_an_illegal_action_through_the_service_changes_nothing(tmp_path) -> None:
    service = _service(tmp_path / "t.db")
    sid = service.create(seed=3)["id"]
    before = service.view(sid)
    for action, body in [("deal", {}), ("raise", {}), ("chips", {"add": -5}), ("chips", {"undo": True}),
                         ("chips", {"add": 5, "undo": True}), ("deposit", {"amount": "10"}), ("teleport", {}),
                         ("deal", {"extra": 1})]:
        with pytest.raises(ExactOddsError):
            service.act(sid, action, body)
        assert service.view(sid) == before
    assert _service(tmp_path / "t.db").view(sid) == before
    with pytest.raises(IllegalActionError):
        service.act(sid, "fold")
