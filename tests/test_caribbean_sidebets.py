"""Side bets as data: exact probabilities against direct enumeration, break-even meters against a
numerical root, returns by hand, and bad side-bet files."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.optimize import brentq

from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_FLOORS
from exactodds.caribbean.sidebets.odds import category_counts, return_at, sidebet_odds
from exactodds.caribbean.sidebets.profile import (
    DEFAULT_PROGRESSIVE,
    SideBetError,
    available_sidebets,
    load_sidebet,
    parse_pays,
    sidebet_from_dict,
)
from exactodds.cli.main import cli
from exactodds.combinatorics import BINOM, all_subsets_colex
from exactodds.handrank import evaluate, rank_table


def _category_of_strengths(strengths: np.ndarray) -> np.ndarray:
    """Index into PAY_CATEGORIES (-1 below A-K high) of each strength."""
    return np.searchsorted(np.array(PAY_FLOORS), strengths, side="right") - 1


def _reference_counts(category_index: np.ndarray, weight: int = 1) -> dict[str, int]:
    counts = np.bincount(category_index + 1, minlength=len(PAY_CATEGORIES) + 1)
    return {c: int(counts[i + 1]) * weight for i, c in enumerate(PAY_CATEGORIES)}


def test_player_five_counts_against_every_hand():
    # all C(52,5) hands evaluated from their cards (evaluate_batch), not through the rank table
    from exactodds.handrank import evaluate_batch

    hands = all_subsets_colex(52, 5)
    reference = _reference_counts(_category_of_strengths(evaluate_batch(hands)))
    counts = dict(category_counts("player"))
    assert counts["total"] == 2_598_960
    assert {c: counts[c] for c in PAY_CATEGORIES} == reference
    assert (counts["royal_flush"], counts["straight_flush"], counts["four_of_a_kind"]) == (4, 36, 624)


def test_best_of_six_counts_against_all_six_card_sets():
    """numpy over all C(52,6) six-card sets (each is 6 (hand, up card) pairs), in chunks."""
    table = rank_table()
    six = all_subsets_colex(52, 6).astype(np.int64)
    totals = np.zeros(len(PAY_CATEGORIES) + 1, dtype=np.int64)
    for start in range(0, len(six), 2_000_000):
        chunk = six[start:start + 2_000_000]
        best = np.zeros(len(chunk), dtype=np.int64)
        for drop in range(6):
            keep = [j for j in range(6) if j != drop]
            index = sum(BINOM[chunk[:, j], i + 1] for i, j in enumerate(keep))
            best = np.maximum(best, table[index])
        totals += np.bincount(_category_of_strengths(best) + 1, minlength=len(totals))
    reference = {c: int(totals[i + 1]) * 6 for i, c in enumerate(PAY_CATEGORIES)}
    counts = dict(category_counts("player_and_up_card"))
    assert counts["total"] == 2_598_960 * 47 == len(six) * 6
    assert {c: counts[c] for c in PAY_CATEGORIES} == reference
    assert counts["royal_flush"] == 188 * 6  # six-card sets holding a royal flush


def test_best_of_six_on_hand_and_up_card_pairs_sample():
    """(hand, up card) pairs straight from the rules: the best of the six five-card choices."""
    rng = np.random.default_rng(5)
    deck = np.arange(52)
    for _ in range(300):
        cards = rng.choice(deck, size=6, replace=False)
        best = max(evaluate(list(map(int, five))) for five in combinations(cards, 5))
        hand, up = cards[:5], cards[5]
        with_up = max(evaluate(list(map(int, five))) for five in combinations([*hand, up], 5))
        assert best == with_up >= evaluate(list(map(int, hand)))


def test_progressive_return_by_hand_and_variance():
    odds = sidebet_odds("progressive-100-75-50", meter=200_000)
    paid = {"royal_flush": (4, 200_000), "straight_flush": (36, 20_000), "four_of_a_kind": (624, 100),
            "full_house": (3744, 75), "flush": (5108, 50)}
    n = 2_598_960
    expected = Fraction(sum(k * pay for k, pay in paid.values()), n) - 1
    losers = n - sum(k for k, _ in paid.values())
    second = Fraction(sum(k * (pay - 1) ** 2 for k, pay in paid.values()) + losers, n)
    assert odds.expected_return == expected
    assert odds.variance == second - expected**2
    assert odds.hit_frequency == Fraction(4 + 36 + 624 + 3744 + 5108, n)


def test_stake_returned_return_by_hand():
    odds = sidebet_odds("bonus-5plus1-example")
    counts = dict(category_counts("player_and_up_card"))
    profile = load_sidebet("bonus-5plus1-example")
    to_one = sum(Fraction(counts[c]) * (p.fixed + 1) for c, p in profile.pays.items()) / counts["total"] - 1
    assert odds.expected_return == to_one
    assert odds.break_even_meter is None and "no meter" in odds.break_even_note


@pytest.mark.parametrize("name", [n for n in available_sidebets() if load_sidebet(n).is_progressive])
def test_break_even_against_numerical_root(name):
    profile = load_sidebet(name)
    odds = sidebet_odds(profile)
    root = brentq(lambda m: float(return_at(profile, Fraction(m))), 0, 10**7, xtol=1e-6)
    assert odds.break_even_meter is not None
    assert abs(float(odds.break_even_meter) - root) < 1e-3
    assert return_at(profile, odds.break_even_meter) == 0


def test_break_even_with_a_cap_and_the_linear_piece():
    data = {"name": "capped", "pays": {"royal_flush": {"meter_share": 1, "cap": 100_000},
                                      "straight_flush": {"meter_share": "1/10"}, "four_of_a_kind": 100}}
    profile = sidebet_from_dict(data)
    odds = sidebet_odds(profile, meter=150_000)
    # above the cap only the straight flush grows with the meter
    assert odds.return_slope == Fraction(36, 10 * 2_598_960)
    assert odds.return_intercept + odds.return_slope * 150_000 == odds.expected_return
    root = brentq(lambda m: float(return_at(profile, Fraction(m))), 0, 10**9, xtol=1e-3)
    assert abs(float(odds.break_even_meter) - root) < 1e-2 and odds.break_even_meter > 100_000
    never = sidebet_from_dict({"name": "never", "pays": {"royal_flush": {"meter_share": 1, "cap": 1000}}})
    assert sidebet_odds(never).break_even_meter is None
    rich = sidebet_from_dict({"name": "rich", "pays": {"pair": 5, "royal_flush": {"meter_share": 1}}})
    assert "fixed pays alone" in sidebet_odds(rich).break_even_note


def test_shipped_profiles_load_and_label_examples():
    names = available_sidebets()
    assert {"progressive-100-75-50", "progressive-150-100-50", "progressive-500-100-50",
            "progressive-500-150-50", "progressive-500-250-100", "progressive-fixed-sf-5000",
            "bonus-5plus1-example"} <= set(names)
    bonus = load_sidebet("bonus-5plus1-example")
    assert bonus.example and "EXAMPLE" in bonus.description and bonus.pays_on == "player_and_up_card"
    assert load_sidebet("progressive-fixed-sf-5000").pays["straight_flush"].fixed == 5000


@pytest.mark.parametrize("data, message", [
    ({"pays": {"flush": 5}}, "field 'name' is missing"),
    ({"name": "x"}, "field 'pays' is missing"),
    ({"name": "x", "pays": {"flushes": 5}}, "field 'pays.flushes' is not a category"),
    ({"name": "x", "pays": {"flush": "five"}}, "field 'pays.flush' must be a number"),
    ({"name": "x", "pays": {"flush": -5}}, "field 'pays.flush' must not be negative"),
    ({"name": "x", "pays": {"flush": {"fixd": 5}}}, "field 'pays.flush.fixd' is not a pay field"),
    ({"name": "x", "pays": {"flush": {"meter_share": 2}}}, "field 'pays.flush.meter_share' is a share"),
    ({"name": "x", "pays": {"flush": {"fixed": 50, "cap": 10}}}, "field 'pays.flush.cap'"),
    ({"name": "x", "pays": {"flush": 5}, "pays_on": "dealer"}, "field 'pays_on' must be one of"),
    ({"name": "x", "pays": {"flush": 5}, "stake": 0}, "field 'stake' must be positive"),
    ({"name": "x", "pays": {"flush": 5}, "example": "yes"}, "field 'example' must be true or false"),
    ({"name": "x", "pays": {"flush": 5}, "meter": {"reset": 10}}, "field 'meter' is given but no category"),
    ({"name": "x", "pays": {"royal_flush": {"meter_share": 1}}, "meter": {"contribution": 2}},
     "field 'meter.contribution'"),
    ({"name": "x", "pays": {"flush": 5}, "colour": "red"}, "field 'colour' is not a side-bet field"),
])
def test_bad_sidebet_fields(data, message):
    with pytest.raises(SideBetError, match=message.replace("(", r"\(")) as info:
        sidebet_from_dict(data, origin="bad.toml")
    assert "side bet bad.toml" in str(info.value) and "\n" not in str(info.value)


def _run(*args):
    return CliRunner().invoke(cli, ["caribbean", *args])


def test_cli_bad_sidebet_files(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text('name = "w"\n[pays]\nflush = "lots"\n')
    for args, message in [((str(broken),), "is not valid TOML"),
                          ((str(wrong),), "field 'pays.flush' must be a number"),
                          ((str(tmp_path / "missing.toml"),), "does not exist"),
                          (("nope",), 'unknown side bet "nope"'),
                          (("progressive-100-75-50", "--meter", "lots"), "--meter must be a number")]:
        out = _run("sidebet", *args)
        assert out.exit_code == 2, out.output
        assert out.output.startswith("Error: ") and out.output.count("\n") == 1 and message in out.output


def test_cli_sidebet_json_and_text(tmp_path):
    out = _run("sidebet", "progressive-150-100-50", "--meter", "$246,784", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert Fraction(data["break_even_meter"]) == Fraction(4_688_900, 19)
    assert data["lines"][0]["category"] == "royal_flush" and data["lines"][0]["combinations"] == 4
    assert Fraction(data["expected_return"]) == return_at(load_sidebet("progressive-150-100-50"), 246_784)
    custom = tmp_path / "mine.toml"
    custom.write_text('name = "mine"\n[pays]\nflush = 20\nstraight = 10\n')
    text = _run("sidebet", str(custom))
    assert text.exit_code == 0 and "house edge" in text.output and "break-even" not in text.output
    progressive = _run("progressive", "--pays", "quads=150,full_house=100", "--json")
    assert Fraction(json.loads(progressive.output)["break_even_meter"]) == Fraction(4_688_900, 19)


def test_pays_of_the_progressive_by_their_short_names():
    """``--pays`` reads the fixed pays of the progressive profile (one model: the side bet's)."""
    assert parse_pays(" quads=150, Full_House=5/2,flush=0") == {
        "four_of_a_kind": Fraction(150), "full_house": Fraction(5, 2), "flush": Fraction(0)}
    assert parse_pays("four_of_a_kind=7") == {"four_of_a_kind": Fraction(7)}
    expected = '^--pays: expected NAME=AMOUNT with NAME one of quads, full_house, flush, got "royal_flush=1"$'
    with pytest.raises(SideBetError, match=expected):
        parse_pays("royal_flush=1")
    with pytest.raises(SideBetError, match="^--pays: quads is given twice$"):
        parse_pays("quads=1,four_of_a_kind=2")
    changed = load_sidebet(DEFAULT_PROGRESSIVE).with_fixed_pays(parse_pays("quads=150"))
    assert changed.pays["four_of_a_kind"].fixed == 150 and changed.pays["flush"].fixed == 50
    assert changed.name == f"{DEFAULT_PROGRESSIVE} with changed pays"
