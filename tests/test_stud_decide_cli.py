"""``exactodds stud decide``: the recommendation first in plain words, details only on request, hand
histories and session files, and one clear line for every bad input."""

from __future__ import annotations

import json
import re

import pytest

from tests.cli_checks import one_line_error, run

LAST_ROUND = ["--player", "Kh | 9c 9d 4d 2h", "--player", "? | Qh 7c 6d 3c", "--player", "? | 2s 3s 8h Td",
              "--pot", "20", "--stacks", "30,30,30"]


def test_plain_words_first_details_on_request():
    out = run("stud", "decide", *LAST_ROUND, "--opponents", "calling-station")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("p1 to act on round 4 holding Kh")
    assert re.match(r"^Bet 4: \d+\.\d\d chips better than checking \(against 2 opponents playing "
                    r"calling-station\)\.$", lines[1])
    assert re.search(r"^  bet 4 +\+\d+\.\d\d$", out.output, flags=re.M)
    assert "/" not in out.output and "seed" not in out.output and "exact best response" not in out.output
    detailed = run("stud", "decide", *LAST_ROUND, "--opponents", "calling-station", "--details")
    assert "Method: exact" in detailed.output and "(= " in detailed.output


def test_sampled_answers_say_so_and_replay_with_the_seed():
    args = ["stud", "decide", "--player", "? | 9c", "--player", "Kh | 2s", "--player", "? | Qh",
            "--samples", "300", "--seed", "5"]
    out = run(*args)
    assert out.exit_code == 0, out.output
    assert re.search(r"estimated from [\d,]+ random deals", out.output) and " ± " in out.output
    assert "seed" not in out.output
    detailed = run(*args, "--details")
    assert "Sample: 300 (seed 5)" in detailed.output
    a, b = (json.loads(run(*args, "--json").output) for _ in range(2))
    assert a["actions"] == b["actions"] and a["exact"] is False and a["samples"] == 300


def test_per_seat_models_and_a_model_file(tmp_path):
    friend = tmp_path / "friend.toml"
    friend.write_text('name = "friend"\n[[rule]]\nfacing = "bet"\nfold = 0.5\ncall = 0.5\n'
                      '[[rule]]\ncheck = 1\n')
    out = run("stud", "decide", *LAST_ROUND, "--opponents", "calling-station", "--opponents", f"3={friend}",
              "--json")
    data = json.loads(out.output)
    assert [(o["player"], o["model"]) for o in data["opponents"]] == [(2, "calling-station"), (3, "friend")]


def test_a_session_file_needs_the_hand():
    path = "examples/hands/heads_up_evening.phhs"
    one_line_error(run("stud", "decide", "--phh", path, "--at", "3"), "--hand N")
    out = run("stud", "decide", "--phh", path, "--hand", "2", "--at", "3", "--no-equilibrium")
    assert out.exit_code == 0, out.output
    one_line_error(run("stud", "decide", "--phh", "examples/hands/heads_up_against_bots.phh", "--at", "3",
                       "--hand", "1"), "--hand goes with a session file")


@pytest.mark.parametrize(("args", "fragments"), [
    (["--player", "Kh | 9c", "--player", "? | 2s"], ["player 2 is to act", "hole card"]),
    (["--player", "Kh | 9c", "--player", "? | 9c"], ["9c"]),
    (["--player", "Kh | 9c 4d", "--player", "? | 2s 3s"], ["--pot is needed after round 1"]),
    (["--player", "Kh | 9c 4d", "--player", "? | 2s 3s", "--pot", "6", "--stacks", "20"],
     ["--stacks must be 2"]),
    (["--player", "? | 9c", "--player", "Kh | 2s", "--opponents", "rocky"],
     ['unknown opponent model "rocky"']),
    (["--player", "? | 9c", "--player", "Kh | 2s", "--opponents", "5=rock"],
     ["the player must be one of 1"]),
    (["--player", "? | 9c", "--player", "Kh | 2s", "--history", "cbr 9"], ["cannot be played", "cbr 9"]),
    (["--phh", "examples/hands/heads_up_against_bots.phh"], ["--phh takes --at N"]),
    (["--player", "? | 9c", "--player", "Kh | 2s", "--all"], ["--all takes --phh"]),
])
def test_bad_input_is_one_line(args, fragments):
    one_line_error(run("stud", "decide", *args), *fragments)


def test_a_bad_model_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "bad"\n[[rule]]\nfold = -0.5\ncall = 1.5\n')
    args = ["stud", "decide", "--player", "? | 9c", "--player", "Kh | 2s", "--opponents"]
    one_line_error(run(*args, str(bad)), "bad.toml: rule 1: 'fold' must be a probability from 0 to 1")
    unsummed = tmp_path / "unsummed.toml"
    unsummed.write_text('name = "x"\n[[rule]]\nfold = 0.5\ncall = 0.4\n')
    one_line_error(run(*args, str(unsummed)), "the probabilities add up to 9/10, not 1")


def test_opponents_named_wrongly_are_refused(tmp_path):
    heads_up = ["stud", "decide", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c", "--pot", "6",
                "--history", "cc", "--budget", "0.2"]
    one_line_error(run(*heads_up, "--opponents", "1=rock"), "player 1 is the one deciding")
    one_line_error(run(*heads_up, "--opponents", "2=rock", "--opponents", "2=maniac"), "names player 2 twice")
    one_line_error(run(*heads_up, "--opponents", "rock", "--opponents", "maniac"), "two models for everyone")
    files = []
    for k, intent in enumerate(("call", "fold")):
        files.append(tmp_path / f"pal{k}.toml")
        files[-1].write_text(f'name = "pal"\nrule = [{{{intent} = 1}}]\n')
    three = ["stud", "decide", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c", "--player", "? | 7s 7d",
             "--pot", "9", "--history", "cbr 2"]
    one_line_error(run(*three, "--opponents", f"2={files[0]}", "--opponents", f"3={files[1]}"),
                   "two opponent models are called 'pal'")


def test_equal_evs_are_worth_the_same_and_the_third_round_names_the_last():
    """Against a rock both checking and betting win the pot exactly (it folds to a bet and checks
    behind): 'worth the same', not a close call; on round 3 the sampled deals leave one round before
    the last."""
    out = run("stud", "decide", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c", "--pot", "6",
              "--history", "cc", "--opponents", "2=rock", "--samples", "200")
    assert out.exit_code == 0, out.output
    assert "worth the same" in out.output.splitlines()[1] and "too close" not in out.output
    third = run("stud", "decide", "--player", "Kh | Kd 9c 4d", "--player", "? | Qc Js 7d", "--pot", "10",
                "--stacks", "20,20", "--budget", "0", "--samples", "200")
    assert third.exit_code == 0, third.output
    assert "estimated from 200 random deals; you play the rest of this round like the better of the bots " \
           "and calling-station models for each action (chosen on a separate sample) and the last round as " \
           "well as possible" in third.output
    one = run("stud", "decide", "--player", "Kh | Kd 9c 4d", "--player", "? | Qc Js 7d", "--pot", "10",
              "--stacks", "20,20", "--budget", "0", "--samples", "200", "--later", "rock")
    assert "you play the rest of this round like the rock model and the last round as well as possible" \
        in one.output
