"""The solver's waits: a bar that follows the exploitability's progress toward the target (not the
iteration cap) under its own label once the kernels are in, a bar over a session's decisions drawn
before the first decision is solved, and a session file at ``--at`` (each failed before its fix)."""

from __future__ import annotations

import itertools
import json
import time

import pytest

from exactodds.cards import format_cards, parse_cards
from exactodds.cli.progress import TerminalProgress
from exactodds.progress import RecordingProgress
from exactodds.stud.equity.position import parse_position
from exactodds.stud.history.session_phh import load_session
from exactodds.stud.solve.api import LAYOUT, solve_hand, solve_position
from exactodds.stud.solve.cfr import LOADING, PROGRESS_STEPS, SOLVING, Convergence
from exactodds.stud.solve.session import hand_at

from .cli_checks import one_line_error, run
from .test_stud_solve_all import session_file  # noqa: F401  (a session `stud play --save` wrote)


def test_the_bar_follows_the_exploitability_not_the_iteration_cap() -> None:
    keep = set(parse_cards("Kh 9c 4d Qc Js 7d Ah Ad 2c 9h 5s 6s 7c Tc 8d"))
    dead = format_cards([c for c in range(52) if c not in keep])
    log = RecordingProgress()
    result = solve_position(position=parse_position(["? | Kh 9c 4d", "? | Qc Js 7d"], dead), pot=10,
                            stacks=(12, 12), progress=log)  # the cap is 5,000 iterations
    assert result.stopped.value == "target" and result.iterations < 500
    bars = [(label, steps, done) for label, steps, done in log.stages() if steps is not None]
    assert bars == [(SOLVING, PROGRESS_STEPS, PROGRESS_STEPS)]  # the loading label never labels the bar
    assert {label for label, steps, _ in log.stages() if steps is None} <= {LAYOUT, LOADING}
    steps = [int(e[1]) for e in log.events if e[0] == "step"]  # type: ignore[call-overload]
    before_the_end = list(itertools.accumulate(steps))[-2]
    assert before_the_end >= 0.5 * PROGRESS_STEPS  # before the fix: 1 step per iteration of 5,000


def test_the_estimate_fits_the_power_of_the_last_two_checks() -> None:
    convergence = Convergence(target=0.001, max_iterations=5000, seconds=None)
    assert convergence.share(5, 1.0) == pytest.approx(5 / 5000)  # no check yet: the cap alone
    convergence.checked(10, 0.04)
    assert convergence.needed() == pytest.approx(400)  # a power of 1 after one check
    convergence.checked(20, 0.01)  # exploitability ~ 1 / t^2
    assert convergence.needed() == pytest.approx(20 * (0.01 / 0.001) ** 0.5)
    assert convergence.share(20, 2.0) == pytest.approx(20 / convergence.needed())
    budget = Convergence(target=0.001, max_iterations=5000, seconds=4.0)
    assert budget.share(3, 3.0) == pytest.approx(0.75)  # a time budget bounds the run


def test_a_bar_of_known_length_is_drawn_before_its_first_step(monkeypatch, capsys) -> None:
    import click._termui_impl as impl

    monkeypatch.setattr(impl.ProgressBar, "is_hidden", False, raising=False)
    monkeypatch.setattr("sys.stderr.isatty", lambda: True, raising=False)
    progress = TerminalProgress(delay=0.05)
    progress.stage("solving the session's decisions", steps=3)
    time.sleep(0.5)  # the first decision is still being solved
    drawn = capsys.readouterr().err
    assert "solving the session's decisions" in drawn and "0%" in drawn
    progress.step(3)
    progress.end()
    assert "100%" in capsys.readouterr().err


def test_a_session_file_at_a_decision_names_the_hand(session_file) -> None:  # noqa: F811
    one_line_error(run("stud", "solve", "--phh", str(session_file), "--at", "7"),
                   "session file of 3 hands", "--hand")
    one_line_error(run("stud", "solve", "--phh", str(session_file), "--hand", "9", "--at", "7"), "no hand 9")
    out = run("stud", "solve", "--phh", str(session_file), "--hand", "2", "--at", "7", "--against", "bots",
              "--json")
    assert out.exit_code == 0, out.output
    hand = hand_at(load_session(session_file).hands[1].history, 7)
    direct = solve_hand(hand, player=hand.actor)
    data = json.loads(out.output)
    assert data["seats"] == [s + 1 for s in direct.seats] and data["against_bots"]["actions"]
    chips = [v["chips"] for v in data["action_values"]]
    assert chips == pytest.approx([v.chips for v in direct.action_values])


def test_hand_goes_with_a_session_file(tmp_path) -> None:
    from exactodds.stud.history.phh import EXAMPLE

    path = tmp_path / "one.phh"
    path.write_text(EXAMPLE, encoding="utf-8")
    one_line_error(run("stud", "solve", "--phh", str(path), "--hand", "1", "--at", "7"), "single hand")
    one_line_error(run("stud", "solve", "--phh", str(path), "--hand", "1"), "--hand goes with")
