"""Whole-game analysis: the published return table, direct-enumeration cross-checks, invariants."""

from fractions import Fraction
from math import comb

import numpy as np
import pytest

from exactodds.cards import format_cards
from exactodds.caribbean.analysis.game import analyze, evaluate_strategy, situation_outcomes
from exactodds.caribbean.analysis.result import TOTAL_DEALS
from exactodds.caribbean.decision.decide import decide
from exactodds.caribbean.decision.settle import DEALER_COMPLETIONS
from exactodds.caribbean.profile import available_profiles, load_profile, profile_from_dict

PUBLISHED_STANDARD = {
    "win_royal_flush": 16_759_740,
    "win_straight_flush": 156_929_720,
    "win_four_of_a_kind": 2_832_435_800,
    "win_full_house": 16_624_475_280,
    "win_flush": 21_856_990_280,
    "win_straight": 43_805_516_100,
    "win_three_of_a_kind": 234_242_908_320,
    "win_two_pair": 488_012_139_360,
    "dealer_not_qualify": 4_532_514_033_720,
    "push": 321_623_100,
    "fold": 9_523_005_974_460,
    "dealer_wins": 2_726_592_727_512,
}


@pytest.fixture(scope="module")
def standard():
    return analyze("standard")


def test_total_deals_is_the_product():
    assert TOTAL_DEALS == comb(52, 5) * 47 * comb(46, 4) == 19_933_230_517_200


def test_standard_reproduces_the_published_return_table(standard):
    rows = {r.event: r.combinations for r in standard.rows}
    for event, count in PUBLISHED_STANDARD.items():
        assert rows[event] == count, event
    assert rows["win_pair"] + rows["win_ak_high"] == 2_343_248_003_808
    assert standard.total_units == -1_041_372_912_372
    assert standard.total_return == Fraction(-1_041_372_912_372, TOTAL_DEALS)
    assert f"{float(standard.house_edge):.3%}" == "5.224%"
    assert f"{float(standard.element_of_risk):.3%}" == "2.555%"
    assert f"{float(standard.raise_frequency):.2%}" == "52.23%"
    assert standard.dealer_qualifies_frequency == Fraction(1_463_700, 2_598_960)


def test_net_units_follow_the_paytable(standard):
    nets = {r.event: r.net_units for r in standard.rows}
    assert nets["win_royal_flush"] == 201 and nets["win_ak_high"] == 3
    assert nets["dealer_not_qualify"] == 1 and nets["push"] == 0
    assert nets["fold"] == -1 and nets["dealer_wins"] == -3


def _custom_profile():
    return profile_from_dict({
        "name": "custom", "call": 3, "qualifier": "pair", "cap": 150,
        "pays": {"royal_flush": 1000, "straight_flush": 100, "four_of_a_kind": 40, "full_house": 9,
                 "flush": 6, "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1,
                 "ak_high": "1/2"},
    })


@pytest.mark.parametrize("profile", ["standard", "microgaming", "custom"])
def test_situations_match_direct_enumeration(profile):
    prof = _custom_profile() if profile == "custom" else load_profile(profile)
    outcomes = situation_outcomes(prof)
    counts = outcomes.counts
    rng = np.random.default_rng(2026)
    # weight the draw towards A-K-high and pair classes, where decisions are close
    candidates = np.flatnonzero(counts.strength >= prof.qualify_strength - 50)
    for cls in rng.choice(candidates, 40, replace=False):
        up = int(rng.choice(np.flatnonzero(counts.valid[cls])))
        hand = format_cards(counts.players[cls])
        direct = decide(hand, up=up, profile=prof)
        assert direct.completions == DEALER_COMPLETIONS
        assert direct.dealer_not_qualify == outcomes.not_qualify[cls, up], hand
        assert direct.player_wins == outcomes.win[cls, up], hand
        assert direct.tie == outcomes.push[cls, up], hand
        assert direct.dealer_wins == outcomes.dealer_wins[cls, up], hand
        assert direct.ev_raise == outcomes.ev_raise(cls, up), hand
        assert (direct.decision == "raise") == outcomes.optimal_raise()[cls, up]


@pytest.mark.parametrize("name", available_profiles())
def test_invariants_for_every_shipped_profile(name):
    result = analyze(name)
    assert sum(r.combinations for r in result.rows) == TOTAL_DEALS
    assert all(r.combinations >= 0 for r in result.rows)
    counts = situation_outcomes(name).counts
    # suit classes cover every hand once; every hand sees 47 up cards
    assert int(counts.weights.sum()) == comb(52, 5)
    assert np.all(counts.valid.sum(axis=1) == 47)
    fold = result.row("fold").combinations
    assert fold + result.raised_deals == TOTAL_DEALS
    assert result.raise_frequency == Fraction(result.raised_deals, TOTAL_DEALS)
    # with the A-K qualifier the dealer qualifies as often as a random hand does
    assert result.dealer_qualifies_frequency == Fraction(1_463_700, 2_598_960)
    assert result.house_edge == -result.total_return
    assert result.element_of_risk == result.house_edge / (1 + 2 * result.raise_frequency)


def test_optimal_beats_any_other_strategy(standard):
    outcomes = situation_outcomes("standard")
    optimal = outcomes.optimal_raise()
    flipped = optimal.copy()
    flipped[np.flatnonzero(outcomes.counts.strength >= outcomes.counts.qualify_strength)[:500], :] ^= True
    worse = evaluate_strategy(outcomes, flipped & outcomes.counts.valid, name="flipped")
    assert worse.total_units < standard.total_units
    always = evaluate_strategy(outcomes, outcomes.counts.valid, name="always")
    assert always.total_units == -3_310_360_338_060  # published: raise on everything


def test_pair_qualifier_variant_counts():
    prof = _custom_profile()
    result = analyze(prof)
    assert sum(r.combinations for r in result.rows) == TOTAL_DEALS
    # a pair-or-better dealer qualifies 1,296,420 / 2,598,960 of the time
    assert result.dealer_qualifies_frequency == Fraction(2_598_960 - 1_302_540, 2_598_960)
    assert result.row("win_ak_high").combinations == 0


def test_amounts_too_fine_for_int64_counting_are_refused():
    from exactodds.errors import ProfileError

    prof = profile_from_dict({
        "name": "fine", "pays": {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20,
                                 "full_house": 7, "flush": 5, "straight": 4, "three_of_a_kind": 3,
                                 "two_pair": 2, "pair": "1/999999999989", "ak_high": "1/999999999959"},
    })
    with pytest.raises(ProfileError, match="too large or too finely divided"):
        situation_outcomes(prof)
