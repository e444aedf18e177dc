"""Stud equity: tiny positions checked by hand, the call/fold EV, bad input, and the CLI."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from exactodds.cli.main import cli
from exactodds.errors import CardError, DuplicateCardError, HandSizeError
from exactodds.stud.equity import PositionError, StreetError, call_decision, parse_position, stud_equity
from exactodds.stud.equity import methods as eq
from exactodds.stud.equity.deals import enumeration_size
from exactodds.stud.equity.decision import POT_ODDS_EV
from exactodds.stud.equity.results import EquityMethod


def test_seed_example_kings_beat_queens() -> None:
    position = parse_position(["Kh | 9c 4d Ks 2h", "Qc | Qh Js 7d 3c"])
    result = stud_equity(position)
    assert result.exact and result.combinations == 1
    assert [p.win for p in result.players] == [1, 0]
    assert [p.equity for p in result.players] == [1, 0]


def test_identical_hands_split() -> None:
    result = stud_equity(parse_position(["Ah | Kh Qd Jc 9s", "Ac | Kd Qh Js 9c"]))
    for player in result.players:
        assert (player.win, player.tie, player.lose, player.equity) == (0, 1, 0, Fraction(1, 2))
        assert player.split == {2: 1}


def test_last_street_one_unknown_hole_by_hand() -> None:
    # Aces with 9-7-4 against A-Q-J-2 showing: only the last ace (Ah) beats them (43 unseen cards).
    position = parse_position(["As | Ad 9c 7h 4d", "? | Ac Qd Jh 2s"])
    result = stud_equity(position)
    assert result.combinations == 43
    assert result.players[0].win == Fraction(42, 43)
    assert result.players[1].win == Fraction(1, 43)
    assert result.players[0].tie == 0
    decision = call_decision(result, position, pot=Fraction(10), to_call=Fraction(2))
    assert decision.ev_call == Fraction(42, 43) * 12 - 2 == Fraction(418, 43)
    assert decision.exact and decision.best == "call" and decision.break_even_equity == Fraction(1, 6)


def test_last_street_multiway_by_hand() -> None:
    # Quad aces lose only to the 6c (straight flush); 39 unseen cards, 39 * 38 assignments.
    position = parse_position(["As | Ad Ah Ac Ks", "? | 2c 3c 4c 5c", "? | 9d 9h 7s 7d"])
    result = stud_equity(position)
    assert result.method == EquityMethod.LAST_STREET and result.combinations == 39 * 38
    assert [p.win for p in result.players] == [Fraction(38, 39), Fraction(1, 39), 0]
    assert [p.lose for p in result.players] == [Fraction(1, 39), Fraction(38, 39), 1]


def test_headsup_one_card_to_come_by_hand() -> None:
    # Trip aces vs 2-3-4-5: the straight (a six or As) wins unless aces fill up (K or As).
    # 44 * 43 deals; B wins 4 * 4 (A draws a six) + 36 * 5 = 196 of them.
    result = stud_equity(parse_position(["Ah | Ad Ac Kh", "2c | 3d 4h 5s"]))
    assert result.combinations == 44 * 43
    assert result.players[1].win == Fraction(196, 1892)
    assert result.players[0].win == 1 - Fraction(196, 1892)


def test_headsup_round1_unknown_holes_is_exact_and_symmetric() -> None:
    # Same up-card rank, all hole cards unknown: the two players are mirror images.
    result = stud_equity(parse_position(["? | Ks", "? | Kh"]))
    assert result.exact and result.combinations == 37_581_505_500
    a, b = result.players
    assert a.win == b.win and a.equity == b.equity == Fraction(1, 2)
    assert a.win + a.tie + a.lose == 1


def test_three_way_fourth_street_is_exact() -> None:
    # 120,709,789,200 complete deals, counted exactly by the rank-profile method.
    position = parse_position(["Kh | 9c 4d", "? | Qh Js", "? | 2c 3c"])
    result = stud_equity(position)
    assert result.exact and result.method == EquityMethod.RANK_PROFILES
    assert result.combinations == 120_709_789_200
    assert result == dataclasses.replace(eq.pairwise_equity(position), method=EquityMethod.RANK_PROFILES)
    assert sum(p.equity for p in result.players) == 1
    assert round(float(result.players[0].equity), 6) == 0.316016


def test_pot_odds_before_last_street_is_labelled() -> None:
    position = parse_position(["Ah | Ad Ac Kh", "2c | 3d 4h 5s"])
    decision = call_decision(stud_equity(position), position, pot=Fraction(6), to_call=Fraction(4))
    assert not decision.exact and decision.kind == POT_ODDS_EV
    assert decision.ev_call == Fraction(424, 473) * 10 - 4


def test_budget_switches_to_seeded_sampling() -> None:
    position = parse_position(["Kh | 9c 4d Ks", "? | Qh Js 7d", "? | 2c 3c 4c"])
    exact = stud_equity(position)
    assert exact.exact and exact.method == eq.choose_method(position)
    assert exact.combinations == enumeration_size(position) == 25_520_040
    assert exact == dataclasses.replace(eq.enumeration_equity(position), method=exact.method)
    first = stud_equity(position, budget=0, samples=20_000, seed=3)
    again = stud_equity(position, budget=0, samples=20_000, seed=3)
    assert first == again and not first.exact and first.method == EquityMethod.CONTROL_VARIATES
    for e, s in zip(exact.players, first.players, strict=True):
        assert abs(float(e.equity - s.equity)) <= 5 * s.standard_error


@pytest.mark.parametrize(
    ("players", "dead", "error", "words"),
    [
        (["Kh | 9c 4d", "? | Kh 4c"], "", DuplicateCardError, "duplicate card Kh"),
        (["Kh | 9c 4d", "? | Qh 4c"], "4d", DuplicateCardError, "player 1 and dead cards"),
        (["Kh | 9c 4d 5d 6d 7d", "? | Qh 4c 2c 3c 5c"], "", HandSizeError, "5 up cards"),
        (["Kh Kd | 9c", "? | Qh"], "", HandSizeError, "one hole card"),
        ([f"? | {c}" for c in ("2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc")], "", PositionError,
         "2 to 8 players"),
        (["? | 2c"], "", PositionError, "2 to 8 players"),
        (["Kh | 9c 4d", "? | Qh"], "", StreetError, "same number of up cards"),
        (["Kh 9c 4d", "? | Qh 4c"], "", PositionError, "HOLE | UP"),
        (["Kx | 9c", "? | Qh"], "", CardError, "unknown card"),
    ],
)
def test_bad_input(players: list[str], dead: str, error: type, words: str) -> None:
    with pytest.raises(error, match=words):
        parse_position(players, dead)


def test_not_enough_cards() -> None:
    dead = " ".join(f"{r}{s}" for r in "23456789TJQK" for s in "cdhs")
    with pytest.raises(PositionError, match="needs 8 more cards but only 2"):
        parse_position(["? | Ac", "? | Ad"], dead)


def test_cli_json() -> None:
    result = CliRunner().invoke(cli, [
        "stud", "equity", "--player", "As | Ad 9c 7h 4d", "--player", "? | Ac Qd Jh 2s",
        "--pot", "10", "--to-call", "2", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["exact"] is True and data["method"] == EquityMethod.HEADS_UP and data["combinations"] == 43
    assert [p["win"] for p in data["players"]] == ["42/43", "1/43"]
    assert [p["hole"] for p in data["players"]] == ["As", None]
    assert data["players"][0]["equity"] == "42/43" and data["players"][1]["lose"] == "42/43"
    assert data["decision"]["ev_call"] == "418/43" and data["decision"]["exact"] is True


def test_cli_sampled_json_says_not_exact() -> None:
    result = CliRunner().invoke(cli, [
        "stud", "equity", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c", "--player", "? | 2c 3c",
        "--budget", "0", "--samples", "2000", "--seed", "9", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["exact"] is False and data["method"] == EquityMethod.CONTROL_VARIATES
    assert data["samples"] == 2000 and data["seed"] == 9
    assert all(p["standard_error"] > 0 for p in data["players"])
    assert sum(Fraction(p["equity"]) for p in data["players"]) == 1


def test_cli_table() -> None:
    result = CliRunner().invoke(cli, [
        "stud", "equity", "--player", "Ah | Ad Ac Kh", "--player", "2c | 3d 4h 5s",
        "--pot", "6", "--to-call", "4"])
    assert result.exit_code == 0, result.output
    assert "exact: heads-up inclusion-exclusion, 1,892 equally likely deals" in result.output
    assert "89.641%" in result.output  # 424/473
    assert "pot-odds" in result.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--player", "Kh | 9c 4d", "--player", "? | Kh 4c"], "duplicate card Kh"),
        (["--player", "Kh | 9c 4d", "--player", "? | Qh"], "same number of up cards"),
        (["--player", "Kh | 9c", "--player", "? | Qh", "--pot", "3"], "--pot and --to-call"),
        (["--player", "Kh | 9c", "--player", "? | Qh", "--pot", "x", "--to-call", "1"], "--pot must be"),
    ],
)
def test_cli_errors_one_line_exit_2(args: list[str], words: str) -> None:
    result = CliRunner().invoke(cli, ["stud", "equity", *args])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("Error: ") and words in result.output
