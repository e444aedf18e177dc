"""The five-card stud host through its HTTP API, against a real server (``exactodds stud host``), real
SQLite and the live event streams: who may do what, bad requests refused with the game unchanged,
a server killed mid-hand resuming with every chip, the evening's .phhs, and a short load run."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.host_load import LoadResult, run_load
from tests.host_server import HostServer, bearer, seat_tokens
from tests.phh_settle import settle_session

PERSONS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]
CLI = [sys.executable, "-c", "from exactodds.cli.main import cli; cli()"]


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> Iterator[HostServer]:
    srv = HostServer(tmp_path_factory.mktemp("host") / "host.db")
    yield srv
    srv.stop()


def _view(server: HostServer, game: str, token: str) -> dict:
    with server.as_(token) as client:
        r = client.get(f"/api/games/{game}")
        assert r.status_code == 200, r.text
        return r.json()


def _act(server: HostServer, game: str, seat: int, token: str, choice: dict, turn: int,
         key: str | None = None) -> httpx.Response:
    body = {"action": choice["action"], "turn": turn}
    if choice["action"] == "cbr":
        body["amount"] = choice["amount"]
    headers = bearer(token) | ({"Idempotency-Key": key} if key else {})
    url = f"{server.url}api/games/{game}/seats/{seat}/act"
    return httpx.post(url, json=body, headers=headers, timeout=30)


def _to_act(server: HostServer, game: str, tokens: dict[int, str]) -> tuple[int, dict]:
    """The seat to act (a person's: the bots of these games never act first) and its view."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        spectator = _view(server, game, server.key)
        seat = spectator["hand"] and spectator["hand"]["actor"]
        if seat in tokens:
            view = _view(server, game, tokens[seat])
            if view["legal"]:
                return seat, view
        time.sleep(0.05)
    raise AssertionError("no person's turn came")


def _game_state(server: HostServer, game: str) -> dict:
    view = _view(server, game, server.key)
    return {k: v for k, v in view.items() if k != "now"}


def test_links_act_only_for_their_own_seat_and_bad_requests_change_nothing(server) -> None:
    made = server.new_game(seats=PERSONS, stack=40, hands=5, act_seconds=600, between_seconds=60)
    game, tokens = made["game"], seat_tokens(made)
    spectator = made["links"]["spectator"]
    server.control(game, "start")
    seat, view = _to_act(server, game, tokens)
    other = next(s for s in tokens if s != seat)
    before = _game_state(server, game)
    legal = view["legal"]
    call = next(a for a in legal if a["action"] in ("pb", "cc"))
    url, root = f"{server.url}api/games/{game}", f"{server.url}api/games"
    refused = [
        (_act(server, game, seat, tokens[other], call, view["turn"]), 403,
         f"seat {other}'s link does not act"),
        (_act(server, game, other, tokens[seat], call, view["turn"]), 403,
         f"only seat {other}'s link"),
        (_act(server, game, seat, spectator, call, view["turn"]), 403, "a spectator's link does not act"),
        (_act(server, game, seat, server.key, call, view["turn"]), 403, "the host's link does not act"),
        (_act(server, game, seat, "x" * 22, call, view["turn"]), 403, "not valid"),
        (httpx.post(f"{url}/seats/{seat}/act", json={"action": "cc", "turn": view["turn"]}, timeout=30), 401,
         "needs a link"),
        (_act(server, game, other, tokens[other], {"action": "cc"}, view["turn"]), 409, "turn, not"),
        (_act(server, game, seat, tokens[seat], call, view["turn"] - 1 if view["turn"] else 99), 409,
         "that turn is over"),
        (_act(server, game, seat, tokens[seat], {"action": "cbr", "amount": 3}, view["turn"]), 409,
         "cannot bet or raise to 3"),
        (_act(server, game, seat, tokens[seat], {"action": "raise"}, view["turn"]), 400, 'send {"action"'),
        (httpx.post(f"{url}/seats/{seat}/act", content=b"cc", timeout=30,
                    headers=bearer(tokens[seat]) | {"Content-Type": "text/plain"}), 415, "application/json"),
        (httpx.post(f"{url}/seats/{seat}/act", content=b"{" + b" " * 5000 + b"}", timeout=30,
                    headers=bearer(tokens[seat])), 413, "too large"),
        (httpx.post(f"{url}/control/pause", json={}, headers=bearer(tokens[seat]), timeout=30), 403,
         "only the host's link"),
        (httpx.get(f"{url}/history.phhs", headers=bearer(tokens[seat]), timeout=30), 409, "once the evening"),
        (httpx.get(f"{root}/nope", headers=bearer(tokens[seat]), timeout=30), 403, "another game"),
        (httpx.get(f"{root}/nope", headers=bearer(server.key), timeout=30), 404, "unknown game"),
        (httpx.post(root, json={"seats": []}, headers=bearer(server.key), timeout=30), 400,
         "seats must be a list of 2 to 8"),
        (httpx.post(root, json={"seats": [{"name": "A"}, {"name": "B", "bot": "shark"}]},
                    headers=bearer(server.key), timeout=30), 400,
         "seat 2's bot model must be one of bots, calling-station, maniac, rock, got 'shark'"),
        (httpx.post(f"{url}/control/seat_bot", json={"seat": other, "model": "shark"},
                    headers=bearer(server.key), timeout=30), 400, f"seat {other}'s bot model must be one of"),
    ]
    for response, status, message in refused:
        assert response.status_code == status, response.text
        assert message in response.json()["error"] and "\n" not in response.text, response.text
        assert _game_state(server, game) == before
    # a retried action (the same idempotency key) is applied once, and answered the same
    first = _act(server, game, seat, tokens[seat], call, view["turn"], key="k-1")
    again = _act(server, game, seat, tokens[seat], call, view["turn"], key="k-1")
    assert first.status_code == again.status_code == 200 and first.json() == again.json()
    assert first.json()["turn"] == view["turn"] + 1
    replayed = _act(server, game, seat, tokens[seat], call, view["turn"])  # the same action, sent again
    assert replayed.status_code == 409 and "that turn is over" in replayed.json()["error"]
    assert _game_state(server, game)["turn"] == view["turn"] + 1


def test_live_updates_reach_every_link_and_a_replaced_link_is_refused(server) -> None:
    made = server.new_game(seats=[*PERSONS, {"name": "Dee", "bot": "bots"}], stack=40, hands=3,
                           act_seconds=600, bot_seconds=0.2, between_seconds=60)
    game, tokens = made["game"], seat_tokens(made)
    seen: dict[str, list[dict]] = {name: [] for name in ("1", "2", "3", "spectator")}
    links = {"1": tokens[1], "2": tokens[2], "3": tokens[3], "spectator": made["links"]["spectator"]}

    done = threading.Event()

    def listen(name: str) -> None:
        with httpx.stream("GET", f"{server.url}api/games/{game}/events", headers=bearer(links[name]),
                          timeout=30) as stream:
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    seen[name].append(json.loads(line[6:]))
                if line.startswith("event: gone") or done.is_set():
                    return

    threads = [threading.Thread(target=listen, args=(name,), daemon=True) for name in seen]
    for t in threads:
        t.start()
    time.sleep(0.5)
    server.control(game, "start")
    seat, view = _to_act(server, game, tokens)
    sent = time.monotonic()
    assert _act(server, game, seat, tokens[seat], view["legal"][0], view["turn"]).status_code == 200
    deadline = time.monotonic() + 10
    while not all(any(v["turn"] > view["turn"] for v in views) for views in seen.values()):
        assert time.monotonic() < deadline, {k: [v["turn"] for v in vs] for k, vs in seen.items()}
        time.sleep(0.01)
    print(f"every link saw the action {time.monotonic() - sent:.3f} s after it was sent")
    # every stream's first view is the whole table; a seat's own hole card is in its view only
    holes = {s: seen[str(s)][-1]["hole"] for s in (1, 2, 3)}
    for name, views in seen.items():
        others = {card for s, card in holes.items() if str(s) != name}
        assert not any(card in json.dumps(v) for v in views for card in others
                       if card and f'"{card}"' in json.dumps(v)), name
    # the host replaces seat 1's link: the old one is refused, its stream ends, the new one works
    host_view = server.control(game, "seat_person", seat=1)
    new = seat_tokens(host_view)[1]
    assert new != tokens[1]
    with server.as_(tokens[1]) as old:
        assert old.get(f"/api/games/{game}").status_code == 403
    assert _view(server, game, new)["seat"] == 1
    threads[0].join(timeout=10)
    assert not threads[0].is_alive()
    done.set()
    server.control(game, "end")  # a last view for the other streams, which then end
    for t in threads:
        t.join(timeout=10)


def _play_out(server: HostServer, game: str, tokens: dict[int, str], *, until) -> None:
    """Persons check or call (bring in when due) until ``until(spectator's view)``."""
    deadline = time.monotonic() + 120
    while not until(_view(server, game, server.key)):
        assert time.monotonic() < deadline
        spectator = _view(server, game, server.key)
        seat = spectator["hand"] and spectator["hand"]["actor"]
        if seat in tokens:
            view = _view(server, game, tokens[seat])
            if view["legal"]:
                choice = next(a for a in view["legal"] if a["action"] in ("pb", "cc"))
                _act(server, game, seat, tokens[seat], choice, view["turn"])
                continue
        time.sleep(0.02)


def test_killed_mid_hand_the_server_resumes_with_every_chip_and_the_evening_replays(tmp_path) -> None:
    db = tmp_path / "host.db"
    server = HostServer(db)
    try:
        made = server.new_game(seats=[*PERSONS, {"name": "Dee", "bot": "bots"}], stack=30, hands=2,
                               act_seconds=600, bot_seconds=0, between_seconds=0.2)
        game, tokens = made["game"], seat_tokens(made)
        server.control(game, "start")
        _play_out(server, game, tokens, until=lambda v: v["hand"] and v["hand"]["round"] >= 3)
        before = {s: _view(server, game, t) for s, t in tokens.items()}
        spectator = _view(server, game, server.key)
        chips = sum(s["stack"] for s in spectator["seats"]) + spectator["hand"]["pot"]
        assert chips == 4 * 30
        key = server.key
        server.kill()
        assert oct(db.stat().st_mode & 0o777) == "0o600"
        server = HostServer(db)
        assert server.key == key  # the host's link survives a restart
        for seat, token in tokens.items():
            after = _view(server, game, token)
            for field in ("turn", "hole", "seats", "standings", "legal"):
                assert after[field] == before[seat][field], field
            # the same hand at the same point; the player to act gets the whole time again
            assert after["hand"] | {"deadline": 0} == before[seat]["hand"] | {"deadline": 0}
            assert after["hand"]["deadline"] >= before[seat]["hand"]["deadline"]
        _play_out(server, game, tokens, until=lambda v: v["status"] == "over")
        final = _view(server, game, server.key)
        assert sum(r["chips"] for r in final["standings"]) == 4 * 30
        with server.as_(tokens[1]) as client:
            text = client.get(f"/api/games/{game}/history.phhs").text
    finally:
        server.stop()
    # the pots, settled independently from the .phhs (phevaluator), match the file and the server
    settled = settle_session(text)
    assert len(settled) == 2 and all(mine == theirs for mine, theirs in settled)
    path = tmp_path / "evening.phhs"
    path.write_text(text)
    replay = subprocess.run([*CLI, "stud", "replay", str(path), "--json"], capture_output=True, text=True)
    assert replay.returncode == 0, replay.stderr
    results = {r["player"]: r["finish"] for r in json.loads(replay.stdout)["results"]}
    assert results == {r["name"]: r["chips"] for r in final["standings"]}


def test_a_short_load_run_has_no_error_and_keeps_every_chip(server) -> None:
    result = run_load(server.url, server.key, games=2, seats=3, seconds=3)
    assert not result.errors and result.chips_ok
    assert len(result.actions) > 20 and len(result.updates) > 20
    print(f"{len(result.actions)} actions, p99 {1000 * LoadResult.percentile(result.actions, 0.99):.0f} ms")


def test_opened_to_the_network_it_warns_and_prints_the_network_links(tmp_path) -> None:
    server = HostServer(tmp_path / "host.db", "--host", "0.0.0.0")
    try:
        port = server.url.rsplit(":", 1)[1].strip("/")
        assert all(line.endswith(f":{port}/#{server.key}") for line in server.banner[:1])
    finally:
        code, rest = server.stop()
    assert code == 0 and "stud host stopped; database closed" in rest
    log = (tmp_path / "host.log").read_text(encoding="utf-8")
    assert "Warning: --host 0.0.0.0 makes the table reachable from the network, without authentication" in log
    bad = subprocess.run([*CLI, "stud", "host", "--port", "70000", "--db", str(tmp_path / "x.db")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip() == "Error: --port must be 0 to 65535, got 70000"


FRIEND = """name = "friend"
description = "Calls anything, bets a pair."
[[rule]]
paired = true
bet = 1
[[rule]]
call = 1
"""


def test_opponent_files_add_models_a_bad_one_stops_the_start(tmp_path) -> None:
    friend, bad = tmp_path / "friend.toml", tmp_path / "bad.toml"
    friend.write_text(FRIEND)
    bad.write_text(FRIEND.replace("bet = 1", "bet = 0.7"))
    db = tmp_path / "host.db"
    run = [*CLI, "stud", "host", "--port", "0", "--db", str(db)]
    refused = subprocess.run([*run, "--opponents", str(friend), "--opponents", str(bad)], capture_output=True,
                             text=True, timeout=60)
    assert refused.returncode == 2 and refused.stderr.strip() == \
        f"Error: opponent model {bad}: rule 1: the probabilities add up to 7/10, not 1"
    server = HostServer(db, "--opponents", str(friend))
    try:
        with server.as_(server.key) as client:
            offered = {m["name"]: m for m in client.get("/api/config").json()["models"]}
        assert list(offered) == ["bots", "calling-station", "maniac", "rock", "friend"]
        assert offered["friend"]["origin"] == str(friend) and offered["rock"]["origin"] == "preset"
        made = server.new_game(seats=[{"name": "Ann"}, {"name": "Pal", "bot": "friend"}], stack=20, hands=1,
                               act_seconds=600, bot_seconds=0)
        assert made["seats"][1]["model"] == "friend"
        server.control(made["game"], "start")
    finally:
        server.stop()
    # the game in play needs its model: a server started without the file says so and stops
    again = subprocess.run(run, capture_output=True, text=True, timeout=60)
    expected = f"Error: game {made['game'][:8]} (in play) has seat 2 (Pal) playing the model 'friend'"
    assert again.returncode == 2 and again.stderr.strip().startswith(expected), again.stderr
    assert len(again.stderr.strip().splitlines()) == 1
