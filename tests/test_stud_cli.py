"""``exactodds stud replay | deal | play`` at the command line."""

import json
from pathlib import Path

from exactodds.stud.history.phh import EXAMPLE
from exactodds.stud.history.session_phh import load_session, replay_session

from .cli_checks import run

HANDS = Path(__file__).resolve().parent.parent / "examples" / "hands"
EXAMPLE_FILE = str(HANDS / "home_rules_worked_example.phh")


def test_replay_json_seed_example():
    result = run("stud", "replay", EXAMPLE_FILE, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["pots"] == [{"amount": 14, "players": [1, 2], "winners": {"1": 14}}]
    assert data["payoffs"] == [7, -7] and sum(data["payoffs"]) == 0
    assert data["finishing_stacks"] == [27, 13]
    assert data["showdown_order"] == [1, 2]
    assert [s["round"] for s in data["streets"]] == [1, 2, 3, 4]


def test_replay_text_street_by_street():
    result = run("stud", "replay", EXAMPLE_FILE)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("Round 1") < out.index("p1 completes to 2") < out.index("Round 2") < out.index("Round 4")
    assert "p1 bets 4" in out and "pair of kings" in out
    assert "main pot      14  p1 p2     p1 14" in out
    assert "p2         20      13   -7" in out


def test_replay_rejects_illegal_action_with_its_line(tmp_path):
    bad = EXAMPLE.replace('"p1 cbr 4"', '"p1 cbr 6"')
    path = tmp_path / "bad.phh"
    path.write_text(bad)
    result = run("stud", "replay", str(path))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert lines == ['Error: bad.phh line 9: "p1 cbr 6": p1 cannot bet or raise to 6; allowed: to 4']


def test_replay_rejects_wrong_turn_and_bad_fields(tmp_path):
    path = tmp_path / "turn.phh"
    path.write_text(EXAMPLE.replace('"p2 cc", "p1 cc", "d dh p1 Ks"', '"p1 cc", "p2 cc", "d dh p1 Ks"'))
    result = run("stud", "replay", str(path))
    assert result.exit_code == 2
    assert "line 9" in result.output and "it is p2's turn, not p1's" in result.output
    path.write_text(EXAMPLE.replace('"F5S"', '"F7S"'))
    result = run("stud", "replay", str(path))
    assert result.exit_code == 2 and 'variant must be "F5S"' in result.output
    path.write_text(EXAMPLE.replace('"p2 sm Qc"', '"p2 sm Qd"'))
    result = run("stud", "replay", str(path))
    assert result.exit_code == 2 and "p2 does not hold Qd" in result.output
    assert "Traceback" not in result.output


def test_finishing_stacks_must_agree(tmp_path):
    path = tmp_path / "fin.phh"
    path.write_text(EXAMPLE + "finishing_stacks = [20, 20]\n")
    result = run("stud", "replay", str(path))
    assert result.exit_code == 2 and "disagree" in result.output


def test_deal_shows_each_players_view():
    result = run("stud", "deal", "--players", "3", "--seed", "5")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Seed 5, 3 players" in out
    assert "p1 sees  p1: [Js] 6c Td 5s 4h  p2: [??] 7h 2d Kh 3s  p3: [??] Qd 9d 2s 7s" in out
    assert "Bring-in: p1 (lowest first up card 6c)" in out
    data = json.loads(run("stud", "deal", "-n", "3", "--seed", "5", "--json").output)
    assert data["players"][1] == {"player": 2, "hole": "Ks", "up": ["7h", "2d", "Kh", "3s"]}
    assert data["bring_in"] == 1
    assert run("stud", "deal", "--players", "9").exit_code == 2
    unseeded = run("stud", "deal", "--players", "2")
    assert unseeded.exit_code == 0 and unseeded.output.startswith("Seed ")


def test_play_one_hand_by_default_and_save_it(tmp_path):
    save = tmp_path / "played.phhs"
    keys = "x\n" + "p\nk\nc\n" * 30  # "x" is refused; then post, check or call, whichever is allowed
    result = run("stud", "play", "--players", "3", "--seed", "7", "--save", str(save), input=keys)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "1 hand(s)" in out and "You are seat 1" in out
    assert 'Not allowed: unknown key "x"' in out
    assert "Keys: p = post the bring-in 1, r = complete to 2" in out
    session = replay_session(load_session(save))
    assert len(session.hands) == 1
    for r in session.result.seats:  # the printed net results are the replayed ones
        row = [str(r.seat), *r.name.split(), str(r.start), str(r.rebuys), str(r.finish), f"{r.net:+d}"]
        assert row in [line.split() for line in out.splitlines()]


def test_play_refuses_bad_seat():
    result = run("stud", "play", "--players", "2", "--seed", "1", "--seat", "3")
    assert result.exit_code == 2 and result.output.startswith("Error: --seat must be 1..2")


def test_every_example_hand_replays_to_its_finishing_stacks():
    files = sorted(HANDS.glob("*.phh"))
    assert len(files) >= 3
    for path in files:
        result = run("stud", "replay", str(path), "--json")
        assert result.exit_code == 0, (path, result.output)
        data = json.loads(result.output)
        assert sum(data["payoffs"]) == 0
        assert "finishing_stacks = " + str(data["finishing_stacks"]) in path.read_text()


def test_stud_hands_help_has_an_example_and_the_ranges():
    import re
    for command in ("replay", "deal", "play"):
        output = run("stud", command, "--help").output
        assert "Example: exactodds stud " + command in output, output
        for match in re.finditer(r"INTEGER RANGE", output):
            assert re.search(r"(<=x|x>=|x<=)", output[match.start():]), output
        assert not re.search(r"seed 00\d", output, re.IGNORECASE)


def test_replay_json_cards_are_lists():
    data = json.loads(run("stud", "replay", EXAMPLE_FILE, "--json").output)
    assert data["hands"]["1"]["cards"] == ["Kh", "9c", "4d", "Ks", "2h"]
