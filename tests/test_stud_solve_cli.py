"""``exactodds stud solve`` at the command line: text, JSON, a hand history, and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exactodds.stud.history.phh import EXAMPLE
from tests.cli_checks import one_line_error, run

LAST = ["--player", "? | Kd 9c 4d 2s", "--player", "Ah | Qc Js 7d 7h", "--pot", "14", "--stacks", "20,20"]


def test_text_and_json() -> None:
    text = run("stud", "solve", *LAST)
    assert text.exit_code == 0, text.output
    assert "linear-program (exact)" in text.output and "uniform over the 44 unseen cards" in text.output
    assert "hole card Ah: EV from now" in text.output
    out = run("stud", "solve", *LAST, "--json")
    data = json.loads(out.output)
    assert data["player_to_act"] == 2 and data["method"] == "linear-program"
    assert sum(data["values"]) == pytest.approx(14)
    assert {a["action"] for a in data["action_values"]} == set(data["actions"])
    assert abs(data["exploitability"]["chips"]) < 1e-6


def test_range_and_history() -> None:
    out = run("stud", "solve", *LAST, "--history", "cc", "--range", "1=Ks:2,Kc,5h", "--json")
    data = json.loads(out.output)
    assert data["player_to_act"] == 1 and data["ranges"][0] == "given"
    assert {h["card"] for h in data["root"]["holes"]} == {"Ks", "Kc", "5h"}


def test_phh_at(tmp_path: Path) -> None:
    path = tmp_path / "hand.phh"
    path.write_text(EXAMPLE, encoding="utf-8")
    out = run("stud", "solve", "--phh", str(path), "--at", "7", "--json")  # p1 on the last round
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["round"] == 4 and data["hole"] == "Kh" and data["player_to_act"] == 1
    one_line_error(run("stud", "solve", "--phh", str(path), "--at", "1"), "first round", "stud decide")


@pytest.mark.parametrize(("args", "fragments"), [
    (["--player", "? | Kd 9c 4d 2s", "--player", "? | Qc Js 7d 7h", "--player", "? | 2h 3h 4h 5d",
      "--pot", "14", "--stacks", "20,20"], ["heads-up", "exactly 2 players"]),
    (["--player", "? | Kd", "--player", "? | Qc", "--pot", "4", "--stacks", "20,20"],
     ["first round", "not covered", "stud decide"]),
    (["--player", "? | Kd 9c", "--player", "? | Qc Js 7d", "--pot", "4", "--stacks", "20,20"],
     ["same number of up cards"]),
    ([*LAST[:4], "--pot", "14", "--stacks", "0,20"], ["stack", "all-in"]),
    ([*LAST[:4], "--pot", "14", "--stacks", "20"], ["--stacks", "two whole numbers"]),
    ([*LAST[:4], "--pot", "1", "--stacks", "20,20"], ["pot", ">= 4"]),
    ([*LAST, "--range", "2=Kd:1"], ["seen cards", "Kd"]),
    ([*LAST, "--range", "2=Ks:1"], ["hole card Ah", "no weight"]),
    ([*LAST, "--range", "3=Ks"], ["SEAT=CARDS"]),
    ([*LAST, "--history", "cbr 6"], ["cannot be played", "cbr 6"]),
    ([*LAST, "--history", "cc, cc"], ["ends the round"]),
    ([*LAST, "--next-up", "2c 3c"], ["third-round solve only"]),
])
def test_bad_input(args: list[str], fragments: list[str]) -> None:
    one_line_error(run("stud", "solve", *args), *fragments)
