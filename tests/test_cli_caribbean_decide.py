import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from exactodds.cards import format_cards, parse_cards
from exactodds.cli.main import cli

SEED_HAND = "Qh Qs 9d 6c 2h"
KEYS = {"decision", "ev_raise", "ev_fold", "ev_raise_float", "combinations", "dealer_not_qualify",
        "player_wins", "tie", "dealer_wins", "wins_by_payout", "margin"}


def run(*args):
    return CliRunner().invoke(cli, ["caribbean", "decide", *args])


def test_json_the_home_session_hand():
    result = run(SEED_HAND, "--up", "Jh", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert KEYS <= data.keys()
    assert data["decision"] == "raise"
    assert data["ev_raise"] == "42797/32637" and data["ev_fold"] == "-1/1"
    assert data["ev_raise_float"] == pytest.approx(42797 / 32637)
    assert Fraction(data["margin"]) == Fraction(42797, 32637) + 1
    assert (data["combinations"], data["dealer_not_qualify"], data["player_wins"], data["tie"],
            data["dealer_wins"]) == (163_185, 70_801, 70_056, 0, 22_328)
    assert data["wins_by_payout"] == {"pair": 70_056}
    assert all(isinstance(data[k], int) for k in ("combinations", "player_wins", "tie"))


def test_hole_repeated_or_in_one_string_and_dead_cards():
    one = json.loads(run(SEED_HAND, "--up", "Jh", "--hole", "Jc As", "--dead", "Kd 2c", "--json").output)
    two = json.loads(run(SEED_HAND, "--up", "Jh", "--hole", "Jc", "--hole", "As", "--dead", "Kd2c",
                         "--json").output)
    assert one == two
    assert one["combinations"] == 42 * 41 // 2 and one["hole"] == ["Jc", "As"] and one["dead"] == ["Kd", "2c"]


def test_all_dealer_cards_known():
    data = json.loads(run(SEED_HAND, "--up", "Jh", "--hole", "Jc As 8d 3c", "--json").output)
    assert (data["combinations"], data["player_wins"], data["ev_raise"]) == (1, 1, "3/1")


def test_text_output():
    result = run(SEED_HAND, "--up", "Jh")
    assert result.exit_code == 0
    out = result.output
    assert "pair of queens" in out and "163,185" in out and "70,801" in out
    assert "EV(raise) = 42797/32637" in out and out.strip().splitlines()[-1].startswith("RAISE")
    fold = run("7c 5d 4h 3s 2c", "--up", "8c").output
    assert fold.strip().splitlines()[-1].startswith("FOLD")


def test_exact_ev_tie_folds_on_the_command_line():
    keep = set(parse_cards("Ad Jc 5h 4s 3c Kd Qh 9c 8s 6h Ah"))
    dead = format_cards(c for c in range(52) if c not in keep)
    result = run("Ad Jc 5h 4s 3c", "--up", "Kd", "--hole", "Qh 9c 8s", "--dead", dead)
    assert "exact EV tie folds" in result.output.splitlines()[-1]


def test_paytable_option(tmp_path):
    royal = ["As Ks Qs Js Ts", "--up", "2c", "--json"]
    standard = json.loads(run(*royal).output)
    big = json.loads(run(*royal, "--paytable", "royal500").output)
    assert Fraction(big["ev_raise"]) > Fraction(standard["ev_raise"]) > 0
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\ncall = 3\n[pays]\n' + "\n".join(
        f"{k} = 1" for k in ("royal_flush", "straight_flush", "four_of_a_kind", "full_house", "flush",
                             "straight", "three_of_a_kind", "two_pair", "pair", "ak_high")))
    mine = json.loads(run(*royal, "--paytable", str(path)).output)
    assert mine["paytable"] == "mine" and mine["dealer_wins"] == mine["tie"] == 0
    # Dealer below A-K: +1; otherwise the royal wins the ante and 3 x 1 on the call: +4.
    assert Fraction(mine["ev_raise"]) == Fraction(mine["dealer_not_qualify"] + 4 * mine["player_wins"],
                                                  mine["combinations"])


@pytest.mark.parametrize(
    "args,message",
    [
        ([SEED_HAND, "--up", "Qs"], "card Qs is in both the player's hand and the dealer's up card"),
        ([SEED_HAND, "--up", "Jh", "--dead", "2h"], "card 2h is in both the player's hand and the dead"),
        ([SEED_HAND, "--up", "Jh", "--dead", "Jh"], "card Jh is in both the dealer's up card and the dead"),
        ([SEED_HAND, "--up", "Jh", "--hole", "3c", "--dead", "3c 4c"], "card 3c is in both the dealer's"),
        ([SEED_HAND, "--up", "Jh", "--dead", format_cards(c for c in range(52) if c not in
                                                          parse_cards(SEED_HAND + " Jh Ac Ad"))],
         "only 2 unseen cards are left, but the dealer needs 4 more"),
        ([SEED_HAND, "--up", "Jh", "--paytable", "nosuch"], 'unknown paytable "nosuch"'),
        ([SEED_HAND, "--up", "Jh", "--paytable", "missing.toml"], "file missing.toml does not exist"),
        ([SEED_HAND, "--up", "Jh Jc"], "the dealer's up card must be exactly one card, got 2"),
        ([SEED_HAND, "--up", "Jh", "--hole", "2c 3c 4c 5c 7c"], "at most 4 cards, got 5"),
        (["Qh Qs 9d 6c", "--up", "Jh"], "the player's hand must have exactly 5 cards, got 4"),
        ([SEED_HAND, "--up", "Zz"], 'unknown card "Zz"'),
    ],
)
def test_bad_input_is_one_line_exit_2(args, message):
    for extra in ([], ["--json"]):
        result = run(*args, *extra)
        assert result.exit_code == 2
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("Error: ") and message in lines[0]


def test_malformed_paytable_file_is_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\n[pays]\nroyal_flush = -100\n' + "\n".join(
        f"{k} = 1" for k in ("straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
                             "three_of_a_kind", "two_pair", "pair", "ak_high")))
    result = run(SEED_HAND, "--up", "Jh", "--paytable", str(path))
    assert result.exit_code == 2
    expected = f"Error: paytable {path}: field 'pays.royal_flush' must not be negative, got -100"
    assert result.output.strip() == expected


def test_help():
    for args in (["caribbean", "--help"], ["caribbean", "decide", "--help"]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0 and "Usage" in result.output
    assert "decisions, whole-game analysis, strategies" in CliRunner().invoke(cli, ["caribbean", "-h"]).output
