"""``stud solve --phh FILE.phhs --all``: every heads-up last-round decision of a played session, solved
as chunks, with the same figures in one process and on a real Dask cluster on loopback."""

from __future__ import annotations

import json

import pytest

from exactodds.progress import RecordingProgress
from exactodds.scale import SerialRunner, open_runner
from exactodds.stud.decide.api import decide_hand
from exactodds.stud.history.phh import EXAMPLE, parse_phh, replay
from exactodds.stud.history.session_phh import load_session
from exactodds.stud.solve.api import solve_hand
from exactodds.stud.solve.session import hand_at, solve_session
from exactodds.stud.solve.start import LAST_ROUND

from .cli_checks import one_line_error, run
from .test_scale_dask import cluster  # noqa: F401  (the real scheduler and two workers)


@pytest.fixture(scope="module")
def session_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("solve_all") / "evening.phhs"
    result = run("stud", "play", "--players", "2", "--hands", "3", "--seed", "5", "--stack", "50",
                 "--save", str(path), input="p\nk\nc\n" * 60)
    assert result.exit_code == 0, result.output
    return path


def last_round_decisions(path):
    """(hand, at) of every last-round betting action, counted from the finished hands' events."""
    found = []
    for entry in load_session(path).hands:
        hand = replay(entry.history)
        betting = [e for e in hand.events if e.kind != "deal"]
        found += [(entry.number, k + 1) for k, e in enumerate(betting) if e.round_index == LAST_ROUND]
    return found


def test_every_last_round_decision_is_solved_and_priced(session_file):
    result = solve_session(load_session(session_file), runner=SerialRunner(), rounds=(LAST_ROUND,))
    assert [(d.hand, d.at) for d in result.decisions] == last_round_decisions(session_file)
    assert result.decisions
    entries = {e.number: e for e in load_session(session_file).hands}
    for d in result.decisions:
        assert d.cost >= 0 and d.cost == pytest.approx(d.ev(d.best) - d.ev(d.taken))
        assert d.ev(d.best) == pytest.approx(max(c for _, c, _ in d.values))
        hand = hand_at(entries[d.hand].history, d.at)
        direct = solve_hand(hand, player=hand.actor)
        assert [(v.action, v.chips) for v in direct.action_values] == [(a, c) for a, c, _ in d.values]
    totals = result.cost_by_seat()
    for seat, total in totals.items():
        assert total == pytest.approx(sum(d.cost for d in result.decisions if d.seat == seat))


def test_the_cluster_gives_the_same_figures(cluster, session_file):  # noqa: F811
    address, _ = cluster
    session = load_session(session_file)
    progress = RecordingProgress()
    serial = solve_session(session, runner=SerialRunner(), rounds=(LAST_ROUND,), progress=progress)
    n = len(serial.decisions)
    assert progress.stages() == [("solving the session's decisions", n, n)]
    with open_runner(scheduler=address) as runner:
        distributed = solve_session(session, runner=runner, rounds=(LAST_ROUND,))
    assert distributed == serial
    args = ["stud", "solve", "--phh", str(session_file), "--all", "--last-round-only", "--json"]
    here = run(*args, "--workers", "0")
    there = run(*args, "--scheduler", address)
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    assert json.loads(here.output) == json.loads(there.output) == serial.to_dict()


def test_the_text_lists_each_decision_and_the_totals(session_file):
    result = run("stud", "solve", "--phh", str(session_file), "--all", "--last-round-only")
    assert result.exit_code == 0, result.output
    assert "heads-up decision(s) on the last round" in result.output
    assert "total cost against the equilibrium: seat 1" in result.output


@pytest.mark.parametrize("extra, words", [
    (["--at", "3"], "--all takes --phh"),
    (["--pot", "4"], "--all takes --phh"),
])
def test_all_refuses_other_position_options(session_file, extra, words):
    one_line_error(run("stud", "solve", "--phh", str(session_file), "--all", *extra), words)


def test_scale_options_need_all():
    one_line_error(run("stud", "solve", "--player", "? | Kd 9c 4d 2s", "--player", "Ah | Qc Js 7d 7h",
                       "--pot", "14", "--stacks", "20,20", "--workers", "2"), "--all")


def test_against_bots_gives_the_exact_best_response_beside_the_equilibrium(tmp_path):
    path = tmp_path / "hand.phh"
    path.write_text(EXAMPLE, encoding="utf-8")
    out = run("stud", "solve", "--phh", str(path), "--at", "7", "--against", "bots", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    hand = hand_at(parse_phh(EXAMPLE), 7)
    expected = decide_hand(hand, opponents="bots")
    assert data["against_bots"]["actions"] == [a.to_dict() for a in expected.actions]
    assert data["against_bots"]["exact"] is True and data["action_values"]
    text = run("stud", "solve", "--phh", str(path), "--at", "7", "--against", "bots")
    assert "against the table's bots (exact" in text.output
    one_line_error(run("stud", "solve", "--phh", str(path), "--all", "--against", "bots"), "--against bots")
