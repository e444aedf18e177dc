"""Main-wager figures: the variance against an independent per-situation sum and the simulator,
the compact cached count against the full analysis, dealer qualifying by up card, hold intervals,
and several paytables in one ``analyze``."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.compact import optimal_result
from exactodds.caribbean.analysis.figures import (
    dealer_qualifying,
    exact_hold_interval,
    main_wager_figures,
    normal_hold_intervals,
    qualifying_by_up_rank,
)
from exactodds.caribbean.analysis.game import evaluate_strategy, situation_outcomes
from exactodds.caribbean.decision.settle import DEALER_COMPLETIONS, DEALER_NOT_QUALIFY, DEALER_WINS
from exactodds.caribbean.profile import PAY_CATEGORIES, load_profile, profile_from_dict
from exactodds.caribbean.strategy.strategies import load_strategy
from exactodds.caribbean.studies.session import hand_distribution, session_distribution
from exactodds.caribbean.studies.simulate import simulate
from exactodds.cli.main import cli

FRACTIONAL_CAPPED = profile_from_dict({
    "name": "fractional-capped", "call": "3/2", "cap": 60,
    "pays": {"royal_flush": 200, "straight_flush": 60, "four_of_a_kind": 25, "full_house": 8, "flush": "11/2",
             "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ak_high": 1},
})
PAIR_QUALIFIER = profile_from_dict({
    "name": "pair-qualifier", "call": 2, "qualifier": "pair",
    "pays": {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7, "flush": 5,
             "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ak_high": 1},
})
PROFILES = [load_profile("standard"), load_profile("royal500"), FRACTIONAL_CAPPED, PAIR_QUALIFIER]


def _moments_by_situation(outcomes, raised: np.ndarray) -> tuple[Fraction, Fraction, Fraction]:
    """E[X], E[X^2], E[W] summed situation by situation (not from the return-table rows)."""
    p = outcomes.profile
    nets = {e: (p.category_win_net(c) if e.startswith("win_") else None)
            for e, c in ((f"win_{c}", c) for c in PAY_CATEGORIES)}
    weights = outcomes.counts.weights
    valid = outcomes.counts.valid
    x1 = x2 = wager = Fraction(0)
    total = 0
    for pay in range(-1, len(PAY_CATEGORIES)):
        rows = outcomes.pay_index == pay
        win = nets[f"win_{PAY_CATEGORIES[pay]}"] if pay >= 0 else Fraction(0)
        for raised_here in (True, False):
            m = (raised == raised_here) & valid & rows[:, None]
            w = np.broadcast_to(weights[:, None], m.shape)
            n = int((w * m).sum()) * DEALER_COMPLETIONS
            total += n
            if not raised_here:
                x1 -= n
                x2 += n
                wager += n
                continue
            b, wins, lose = (int((arr.astype(np.int64) * w * m).sum())
                             for arr in (outcomes.not_qualify, outcomes.win, outcomes.dealer_wins))
            x1 += b * 1 + wins * win + lose * p.lose_net
            x2 += b * 1 + wins * win**2 + lose * p.lose_net**2
            wager += n * (1 + p.call)
    return x1 / total, x2 / total, wager / total


@pytest.fixture(scope="module", params=PROFILES, ids=lambda p: p.name)
def case(request):
    outcomes = situation_outcomes(request.param)
    result = evaluate_strategy(outcomes, outcomes.optimal_raise(), name="optimal")
    return outcomes, result


def test_variance_against_a_situation_by_situation_sum(case):
    outcomes, result = case
    figures = main_wager_figures(result)
    mean, second, wager = _moments_by_situation(outcomes, outcomes.optimal_raise())
    assert figures.house_edge_per_ante == -mean == result.house_edge
    assert figures.variance_per_ante == second - mean**2
    assert figures.average_total_wager_antes == wager == result.average_wager
    assert figures.element_of_risk_per_unit_wagered == -mean / wager == result.element_of_risk
    assert figures.rtp_per_unit_wagered == 1 + mean / wager
    assert figures.variance_per_unit_wagered == (second - mean**2) / wager**2
    assert figures.hit_frequency + figures.push_frequency + figures.loss_frequency == 1
    # the session module's own moments of the same rows
    assert hand_distribution(result).variance == figures.variance_per_ante


def test_compact_count_gives_the_same_result_row_for_row(case):
    _, result = case
    compact = optimal_result(result.profile)
    assert compact.rows == result.rows
    assert compact.raised_deals == result.raised_deals
    assert compact.dealer_qualifies_frequency == result.dealer_qualifies_frequency


def test_hit_frequency_counts_the_dealer_not_qualifying(case):
    _, result = case
    positive = sum(r.combinations for r in result.rows if r.event.startswith("win_") or
                   r.event == DEALER_NOT_QUALIFY)
    figures = main_wager_figures(result)
    assert figures.hit_frequency == Fraction(positive, result.total_combinations)
    assert figures.loss_frequency == result.row("fold").probability + result.row(DEALER_WINS).probability


def test_standard_figures_as_published():
    figures = main_wager_figures(optimal_result("standard"))
    assert f"{float(figures.house_edge_per_ante):.4%}" == "5.2243%"
    assert f"{float(figures.element_of_risk_per_unit_wagered):.4%}" == "2.5553%"
    assert f"{figures.standard_deviation_per_ante:.2f}" == "2.24"  # Wizard of Odds: 2.24
    to_dict = figures.to_dict()
    assert to_dict["paytable"] == "standard" and to_dict["house_edge_per_ante"] == figures.house_edge_per_ante


def test_standard_deviation_agrees_with_the_simulator():
    """The sample variance of simulated play against the exact variance, within 4 standard errors
    (the error of a sample variance: sqrt((mu4 - sigma^4) / n), mu4 from the exact rows)."""
    profile = FRACTIONAL_CAPPED
    outcomes = situation_outcomes(profile)
    result = evaluate_strategy(outcomes, outcomes.optimal_raise(), name="optimal")
    figures = main_wager_figures(result)
    hands = 200_000
    sim = simulate(outcomes, load_strategy("optimal"), hands=hands, seed=11)
    mean = result.total_return
    mu4 = sum(((r.net_units - mean) ** 4 * r.combinations for r in result.rows), Fraction(0)) / \
        result.total_combinations
    error = math.sqrt((float(mu4) - float(figures.variance_per_ante) ** 2) / hands)
    assert abs(float(sim.sample_variance) - float(figures.variance_per_ante)) < 4 * error
    sd_error = error / (2 * figures.standard_deviation_per_ante)
    assert abs(math.sqrt(sim.sample_variance) - figures.standard_deviation_per_ante) < 4 * sd_error


def test_dealer_qualifying_by_up_rank():
    q = dealer_qualifying(optimal_result("standard"))
    assert q.probability("A") == q.probability("K") == Fraction(166_005, 249_900)
    assert q.over_all_deals == optimal_result("standard").dealer_qualifies_frequency


@pytest.mark.parametrize("qualifier", ["ak", "pair"])
def test_qualifying_formula_against_every_hand(qualifier):
    """Each up card's qualifying completions, counted over every hand holding that card."""
    from exactodds.caribbean.profile import QUALIFIERS
    from exactodds.combinatorics import all_subsets_colex
    from exactodds.handrank import rank_table

    hands = all_subsets_colex(52, 5)
    qualifying = hands[rank_table() >= QUALIFIERS[qualifier]]
    per_card = np.bincount(qualifying.ravel().astype(np.int64), minlength=52)
    assert len(set(per_card.reshape(13, 4).T.tolist()[0])) > 1  # the ranks differ
    assert (per_card.reshape(13, 4) == per_card.reshape(13, 4)[:, :1]).all()  # the suits do not
    expected = tuple(("23456789TJQKA"[r], int(per_card[4 * r])) for r in range(13))
    assert qualifying_by_up_rank(QUALIFIERS[qualifier]) == expected


def test_hold_intervals_normal_and_exact():
    result = optimal_result("standard")
    figures = main_wager_figures(result)
    holds = normal_hold_intervals(figures)
    assert [h.hands for h in holds] == [100, 1_000, 10_000, 100_000, 1_000_000]
    for h in holds:
        low, high = h.per_ante
        assert math.isclose((low + high) / 2, float(figures.house_edge_per_ante))
        assert math.isclose((high - low) / 2, 1.959963984540054 * figures.standard_deviation_per_ante
                            / math.sqrt(h.hands))
    exact = exact_hold_interval(result, hands=100)
    # the exact range of 100 hands and its normal approximation are of about the same width
    width = exact.per_ante[1] - exact.per_ante[0]
    assert 0.8 < width / (holds[0].per_ante[1] - holds[0].per_ante[0]) < 1.2


@pytest.mark.parametrize("profile", [load_profile("standard"), FRACTIONAL_CAPPED], ids=lambda p: p.name)
@pytest.mark.parametrize("hands", [1, 7, 20])
def test_exact_hold_interval_against_the_full_session_distribution(profile, hands):
    result = optimal_result(profile)
    session = session_distribution(result, hands=hands).session
    low, high = session.quantile(Fraction(25, 1000)), session.quantile(Fraction(975, 1000))
    exact = exact_hold_interval(result, hands=hands)
    assert exact.per_ante == (float(-high / hands), float(-low / hands))


def test_analyze_json_several_paytables_from_one_count(tmp_path):
    custom = tmp_path / "custom.toml"
    custom.write_text('name = "custom"\ncall = "3/2"\ncap = 60\n[pays]\nroyal_flush = 200\n'
                      'straight_flush = 60\nfour_of_a_kind = 25\nfull_house = 8\nflush = "11/2"\n'
                      'straight = 4\n'
                      'three_of_a_kind = 3\ntwo_pair = 2\npair = 1\nak_high = 1\n')
    args = ["caribbean", "analyze", "--paytable", "standard", "--paytable", str(custom), "--json"]
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)["paytables"]
    assert [d["paytable"] for d in data] == ["standard", "custom"]
    assert Fraction(data[0]["figures"]["house_edge_per_ante"]) == Fraction(142_031_221, 2_718_662_100)
    assert data[0]["dealer_qualifying"]["by_up_rank"][-1]["qualifying"] == 166_005
    assert Fraction(data[1]["figures"]["variance_per_ante"]) == main_wager_figures(
        optimal_result(FRACTIONAL_CAPPED)).variance_per_ante
    assert [h["method"] for h in data[1]["hold_intervals"]] == ["normal"] * 5 + ["exact"]


def test_cached_count_answers_in_a_fresh_process():
    """The compact count is in the cache (built above): a new paytable needs no kernel."""
    code = ("import sys\nfrom exactodds.cli.main import cli\n"
            "cli.main(['caribbean', 'analyze', '--paytable', 'royal250', '--json'], standalone_mode=False)\n"
            "assert 'numba' not in sys.modules, 'the cached path loaded numba'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["paytable"] == "royal250"


def test_compact_cache_is_verified_and_rebuilt(tmp_path, monkeypatch):
    """A corrupt compact table is never used: it is rebuilt with a warning and verified again."""
    import shutil

    from exactodds.cache import CacheWarning, array_digest, cache_dir
    from exactodds.caribbean.analysis import compact

    for name in ("handrank-v1.npy", "hand-classes-v1.npy"):
        if (cache_dir() / name).exists():
            shutil.copy(cache_dir() / name, tmp_path / name)
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(tmp_path))
    compact.compact_counts.cache_clear()
    try:
        assert not compact.is_cached("pair")
        table = compact.compact_counts("pair")
        assert array_digest(table) == compact.COMPACT_SHA256["pair"] and compact.is_cached("pair")
        stored = tmp_path / "caribbean_compact_counts_pair.npy"
        data = bytearray(stored.read_bytes())
        data[-8:] = b"\xff" * 8  # one weight changed
        stored.write_bytes(bytes(data))
        compact.compact_counts.cache_clear()
        with pytest.warns(CacheWarning, match="corrupt"):
            again = compact.compact_counts("pair")
        assert (again == table).all()
    finally:
        compact.compact_counts.cache_clear()


def test_several_paytables_need_the_normal_game():
    out = CliRunner().invoke(cli, ["caribbean", "analyze", "--paytable", "standard", "--paytable", "betmgm",
                                   "--dealer-known", "5"])
    assert out.exit_code == 2 and out.output.startswith("Error: several --paytable options")
