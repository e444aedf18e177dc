import json

import pytest

from exactodds import __version__

from .cli_checks import run


def test_rank_json():
    result = run("rank", "Kh Kd 7s 7c Qd", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["category"] == "two_pair"
    assert data["description"] == "two pair, kings and sevens, queen kicker"
    assert data["strength"] == 4806


def test_rank_text():
    result = run("rank", "AsKsQsJsTs")
    assert result.exit_code == 0
    assert "royal flush" in result.output and "7461" in result.output


@pytest.mark.parametrize(
    "a,b,expected", [("Ah Ad 2c 3d 4s", "Kh Kd Ac 3d 4s", 1), ("5h 4c 3d 2s Ah", "6h 5c 4d 3s 2h", -1),
                     ("As Kd Qh Jc 9s", "Ad Kc Qs Jh 9h", 0)],
)
def test_compare_json(a, b, expected):
    result = run("compare", a, b, "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["result"] == expected
    assert {"strength", "category"} <= data["first"].keys() and "strength" in data["second"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["rank", "1x Kd 7s 7c Qd"], 'unknown card "1x"'),
        (["rank", "Kh Kd 7s 7c Kh"], "duplicate card Kh"),
        (["rank", "Kh Kd 7s 7c"], "exactly 5 cards, got 4"),
        (["rank", "Kh Kd 7s 7c Qd 2c"], "exactly 5 cards, got 6"),
        (["compare", "Kh Kd 7s 7c Qd", "Zz"], 'unknown card "Zz"'),
    ],
)
def test_bad_input_is_one_line(args, message):
    result = run(*args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and message in lines[0]
    assert "Traceback" not in result.output


def test_version_and_help():
    assert __version__ in run("--version").output
    for args in (["--help"], ["rank", "--help"], ["compare", "--help"]):
        result = run(*args)
        assert result.exit_code == 0 and "Usage" in result.output
