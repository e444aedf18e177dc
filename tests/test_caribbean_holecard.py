"""Hole-carding (K dealer cards seen): exact whole-game tables, cross-checked against direct enumeration."""

import json
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.result import TOTAL_DEALS
from exactodds.caribbean.decision.decide import decide
from exactodds.caribbean.holecard.exact import (
    analyze_known,
    completions,
    seen_set_classes,
    seen_set_situations,
    total_deals,
)
from exactodds.caribbean.holecard.sample import sample_known
from exactodds.caribbean.profile import load_profile, profile_from_dict
from exactodds.caribbean.published.holecard import published_figures
from exactodds.cli.main import cli
from exactodds.errors import ExactOddsError

# Exact rows of the standard table (deal counts); K = 1 is in test_caribbean_analysis.py.
K5_ROWS = {
    "win_royal_flush": 3_351_948, "win_straight_flush": 31_385_944, "win_four_of_a_kind": 566_487_160,
    "win_full_house": 3_324_895_056, "win_flush": 4_371_398_056, "win_straight": 8_761_103_220,
    "win_three_of_a_kind": 46_848_581_664, "win_two_pair": 97_602_427_872, "win_pair": 464_948_464_320,
    "win_ak_high": 6_319_761_672, "dealer_not_qualify": 1_741_419_589_140, "push": 72_999_180,
    "fold": 1_612_375_658_208, "dealer_wins": 0,
}
K2_ROWS = {
    "win_royal_flush": 33_519_480, "win_straight_flush": 313_859_440, "win_four_of_a_kind": 5_664_871_600,
    "win_full_house": 33_248_950_560, "win_flush": 43_713_980_560, "win_straight": 87_611_032_200,
    "win_three_of_a_kind": 468_485_816_640, "win_two_pair": 976_024_278_720,
    "win_pair": 4_648_484_420_712, "win_ak_high": 58_612_859_580,
    "dealer_not_qualify": 12_951_995_912_544, "push": 642_952_920, "fold": 12_128_849_940_240,
    "dealer_wins": 8_462_778_639_204,
}
# Categories the K = 1 optimal strategy always raises: each (player, dealer) pair of hands is
# counted C(5, K) times, so their win counts scale exactly with C(5, K).
ALWAYS_RAISED_K1 = {"win_royal_flush": 16_759_740, "win_straight": 43_805_516_100,
                    "win_two_pair": 488_012_139_360}


@pytest.fixture(scope="module")
def k5():
    return analyze_known("standard", dealer_known=5)


def test_deal_counts():
    assert total_deals(1) == TOTAL_DEALS
    for k in range(1, 6):
        assert total_deals(k) == comb(52, 5) * comb(47, k) * comb(47 - k, 5 - k)
        assert total_deals(k) == comb(52, 5) * comb(47, 5) * comb(5, k)
    assert completions(2) == comb(45, 3) == 14_190
    for k in (2, 3, 4):
        reps, weights = seen_set_classes(k)
        assert int(weights.sum()) == comb(52, k)
    assert len(seen_set_classes(2)[0]) == 169


def _check_table(result, rows, k):
    game = result.game
    assert result.exact and result.dealer_known == k
    assert {r.event: r.combinations for r in game.rows} == rows
    assert sum(r.combinations for r in game.rows) == game.total_combinations == total_deals(k)
    assert all(r.probability == Fraction(r.combinations, total_deals(k)) for r in game.rows)
    assert game.raised_deals + game.row("fold").combinations == total_deals(k)
    # the dealer's hand is a uniformly random hand whatever is seen
    assert game.dealer_qualifies_frequency == Fraction(1_463_700, 2_598_960)
    for event, count in ALWAYS_RAISED_K1.items():
        assert rows[event] * 5 == count * comb(5, k)


def test_five_known_exact(k5):
    _check_table(k5, K5_ROWS, 5)
    assert k5.game.total_units == 2_562_679_248_804
    assert k5.player_edge == Fraction(2_562_679_248_804, total_deals(5))
    assert f"{float(k5.player_edge):.4%}" == "64.2816%"


def _agrees_with_sampled_enumeration(exact, k, samples):
    estimate = sample_known("standard", dealer_known=k, samples=samples, seed=7)
    assert abs(float(estimate.total_return) - float(exact.total_return)) < 4 * estimate.standard_error
    low, high = estimate.interval_95
    assert low < float(estimate.total_return) < high


def test_five_known_other_profiles():
    pair_qualifier = profile_from_dict({
        "name": "pairq", "qualifier": "pair",
        "pays": {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7,
                 "flush": 5, "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ak_high": 1},
    })
    result = analyze_known(pair_qualifier, dealer_known=5)
    rows = {r.event: r.combinations for r in result.game.rows}
    assert sum(rows.values()) == total_deals(5)
    assert rows["win_ak_high"] == 0 and rows["dealer_wins"] == 0
    # a pair-or-better dealer qualifies 1,296,420 / 2,598,960 of the time
    assert result.game.dealer_qualifies_frequency == Fraction(1_296_420, 2_598_960)
    royal500 = analyze_known("royal500", dealer_known=5)
    assert royal500.game.row("win_royal_flush").combinations == K5_ROWS["win_royal_flush"]
    # the call (2 antes) pays 500 instead of 100 to 1: 800 antes more per royal
    assert royal500.game.total_units == 2_562_679_248_804 + 800 * K5_ROWS["win_royal_flush"]


def test_two_known_exact():
    # one test (not a shared fixture), so that the ~30 s run happens in one xdist worker only
    k2 = analyze_known("standard", dealer_known=2)
    _check_table(k2, K2_ROWS, 2)
    assert k2.game.total_units == -245_591_705_472
    assert f"{float(k2.house_edge):.4%}" == "0.6160%"
    _agrees_with_sampled_enumeration(k2, 2, 1500)


def test_five_known_agrees_with_sampled_enumeration(k5):
    _agrees_with_sampled_enumeration(k5, 5, 4000)


@pytest.mark.parametrize("k", [2, 3, 4])
def test_situations_equal_direct_enumeration(k):
    """The kernel's per-situation counts, EV and decision equal decide()'s full enumeration."""
    profile = load_profile("standard")
    rng = np.random.default_rng(100 + k)
    for _ in range(2):
        seen = sorted(int(c) for c in rng.choice(52, k, replace=False))
        table = seen_set_situations(seen, profile)
        rest = np.setdiff1d(np.arange(52), seen)
        for _ in range(12):
            hand = sorted(int(c) for c in rng.choice(rest, 5, replace=False))
            below, weaker, equal, raises = table.counts(hand)
            direct = decide(hand, up=seen[0], hole=seen[1:], profile=profile)
            assert direct.completions == completions(k)
            counted = (below, weaker - below, equal)
            assert (direct.dealer_not_qualify, direct.player_wins, direct.tie) == counted
            win_net = profile.win_net(direct.player_strength) if direct.player_wins else 0
            dealer_wins = completions(k) - weaker - equal
            ev = Fraction(below + (weaker - below) * win_net + dealer_wins * profile.lose_net, completions(k))
            assert direct.dealer_wins == dealer_wins
            assert direct.ev_raise == ev
            assert (direct.decision == "raise") == raises


def test_bad_input():
    with pytest.raises(ExactOddsError):
        analyze_known("standard", dealer_known=6)
    with pytest.raises(ExactOddsError):
        seen_set_situations([3, 3])
    with pytest.raises(ExactOddsError):
        sample_known("standard", dealer_known=2, samples=1)


def test_published_figures_are_compared_not_enforced():
    figures = published_figures()
    assert sorted(figures) == [("standard", k) for k in range(1, 6)]
    assert figures["standard", 2].text == "house edge 1.74%"
    assert figures["standard", 5].text == "player edge 64.27%"
    assert figures["standard", 5].difference(Fraction(-642816, 1_000_000)) == Fraction(116, 10_000)


def test_published_figures_only_beside_their_own_paytable():
    result = CliRunner().invoke(cli, ["caribbean", "analyze", "--paytable", "betmgm", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output).get("published") is None


def test_cli_json_and_errors(k5):
    runner = CliRunner()
    out = runner.invoke(cli, ["caribbean", "analyze", "--dealer-known", "5", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert data["dealer_known"] == 5 and data["exact"] is True
    assert data["combinations"] == total_deals(5)
    assert data["published"]["quantity"] == "player edge"
    assert out.stderr == ""  # no progress bar when not on a terminal
    assert "standard_error" not in data
    args = ["caribbean", "analyze", "--dealer-known", "4", "--samples", "200", "--json"]
    sampled = runner.invoke(cli, args)
    assert sampled.exit_code == 0, sampled.output
    data = json.loads(sampled.stdout)
    assert data["exact"] is False and data["samples"] == 200 and len(data["interval_95"]) == 2
    assert data["standard_error"] > 0
    bad = runner.invoke(cli, ["caribbean", "analyze", "--dealer-known", "6"])
    assert bad.exit_code == 2
    assert bad.output.strip().count("\n") == 0 and bad.output.startswith("Error:")
