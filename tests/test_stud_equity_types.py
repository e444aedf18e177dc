"""Stud equity results are two types: ExactEquity (no sampled fields) and SampledEquity (sample size,
seed and each player's standard error), with one JSON shape between them (docs/json.md)."""

from __future__ import annotations

import dataclasses
import math
import statistics
from fractions import Fraction

import numpy as np

import exactodds
from exactodds.json_schema import SCHEMAS, STUD_PLAYER, problems
from exactodds.stud.equity import (
    EquityResult,
    ExactEquity,
    PlayerEquity,
    SampledEquity,
    SampledPlayerEquity,
    results,
    stud_equity,
)
from exactodds.stud.equity.position import parse_position
from exactodds.stud.equity.results import EquityMethod, sampled_result
from exactodds.stud.equity.sampling import sampled_equity

THREE_WAY = ["Kh | 9c 4d", "? | Qh 4c", "? | 2c 3c"]
# The CLI adds the cards, dead cards, street, budget and decision around the result's own to_dict().
CLI_ONLY = {"dead", "street", "budget", "decision?"}
RESULT_SPEC = {key: spec for key, spec in SCHEMAS["stud equity"].items() if key not in CLI_ONLY} | {
    "players": [{key: spec for key, spec in STUD_PLAYER.items() if key not in ("hole", "up")}]}


def _shares(player: PlayerEquity, deals: int) -> list[Fraction]:
    """Each sampled deal's pot share for the player (1 a win, 1/t a t-way split, 0 otherwise),
    rebuilt from the counts behind the player's frequencies."""
    wins = player.win * deals
    assert wins.denominator == 1
    shares = [Fraction(1)] * int(wins)
    for t, frequency in player.split.items():
        count = frequency * deals
        assert count.denominator == 1
        shares += [Fraction(1, t)] * int(count)
    return shares + [Fraction(0)] * (deals - len(shares))


def _expected_error(player: PlayerEquity, deals: int) -> float:
    """The textbook standard error of a mean: sample standard deviation / sqrt(n)."""
    return statistics.stdev(_shares(player, deals)) / math.sqrt(deals)


def test_an_exact_result_has_no_sampled_fields() -> None:
    result = stud_equity(["Kh | 9c 4d Ks 2h", "? | Qh Qs 7d 3c"])
    assert type(result) is ExactEquity and not isinstance(result, SampledEquity)
    assert isinstance(result, EquityResult) and result.exact is True
    assert {f.name for f in dataclasses.fields(result)} == {"method", "players", "combinations", "hands"}
    assert not hasattr(result, "samples") and not hasattr(result, "seed")
    for player in result.players:
        assert type(player) is PlayerEquity and not hasattr(player, "standard_error")
    assert result.combinations == 43 and result.players[0].equity == Fraction(35, 43)
    data = result.to_dict()
    assert problems(data, RESULT_SPEC) == []
    assert (data["exact"], data["samples"], data["seed"]) == (True, None, None)
    assert [p["standard_error"] for p in data["players"]] == [None, None]


def test_a_sampled_result_carries_its_size_seed_and_standard_errors() -> None:
    # Plain Monte Carlo (the standard error of a sample mean); the chooser's control-variate
    # estimate is checked in test_stud_controls.
    result = sampled_equity(parse_position(THREE_WAY), samples=2_000, seed=9)
    assert type(result) is SampledEquity and isinstance(result, EquityResult) and result.exact is False
    assert (result.samples, result.seed, result.method) == (2_000, 9, EquityMethod.MONTE_CARLO)
    assert result.combinations == 2_000  # the frequencies are over the sample
    assert sum(p.equity for p in result.players) == 1
    for player in result.players:
        assert type(player) is SampledPlayerEquity
        assert math.isclose(player.standard_error, _expected_error(player, 2_000), rel_tol=1e-12)
        assert player.standard_error > 0
    data = result.to_dict()
    assert problems(data, RESULT_SPEC) == []
    assert (data["exact"], data["combinations"], data["samples"], data["seed"]) == (False, 2_000, 2_000, 9)
    assert [p["standard_error"] for p in data["players"]] == [p.standard_error for p in result.players]


def test_the_standard_error_of_hand_made_counts() -> None:
    # 10 deals, 3 players; columns: (unused, wins, 2-way splits, 3-way splits).
    out = np.array([[0, 5, 2, 1], [0, 2, 2, 1], [0, 1, 0, 1]], dtype=np.int64)
    result = sampled_result(out, samples=10, seed=4)
    first = result.players[0]
    assert (first.win, first.split) == (Fraction(1, 2), {2: Fraction(1, 5), 3: Fraction(1, 10)})
    assert first.equity == Fraction(19, 30)
    shares = [1.0] * 5 + [0.5] * 2 + [1 / 3] + [0.0] * 2
    mean = sum(shares) / 10
    by_hand = math.sqrt(sum((x - mean) ** 2 for x in shares) / 9 / 10)
    assert math.isclose(first.standard_error, by_hand, rel_tol=1e-12)
    third = result.players[2]  # 1 win, 1 three-way split, 8 losses
    assert math.isclose(third.standard_error, _expected_error(third, 10), rel_tol=1e-12)
    # Every deal the same share: no spread.
    even = sampled_result(np.array([[0, 0, 6], [0, 0, 6]]), samples=6, seed=0)
    assert [p.standard_error for p in even.players] == [0.0, 0.0]


def test_both_shapes_have_the_same_keys_in_the_same_order() -> None:
    exact = stud_equity(THREE_WAY[:2]).to_dict()
    sampled = stud_equity(THREE_WAY, budget=0, samples=500, seed=1).to_dict()
    assert list(exact) == list(sampled) == ["exact", "method", "combinations", "samples", "seed", "players"]
    assert list(exact["players"][0]) == list(sampled["players"][0]) == [
        "win", "tie", "lose", "equity", "equity_float", "split", "standard_error", "interval_95"]
    assert exact["players"][0]["interval_95"] is None
    player = sampled["players"][0]
    low, high = player["interval_95"]
    assert math.isclose(high - low, 2 * 1.96 * player["standard_error"], rel_tol=1e-12)
    assert low < player["equity_float"] < high


def test_the_new_names_are_public() -> None:
    for name in ("ExactEquity", "SampledEquity", "PlayerEquity", "SampledPlayerEquity", "EquityResult"):
        assert getattr(exactodds, name) is getattr(results, name)
    assert EquityResult == ExactEquity | SampledEquity
