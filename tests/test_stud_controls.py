"""Monte Carlo with control variates (exactodds.stud.equity.controls): the compiled moments
against a plain reference, the exact control means, unbiasedness over many seeds against
exact answers, and the smaller standard error on the same deals."""

from __future__ import annotations

import itertools
import math
import random
import statistics

import numpy as np
import pytest

from exactodds.combinatorics import BINOM, colex_index
from exactodds.handrank import rank_table
from exactodds.stud.equity import methods as eq
from exactodds.stud.equity.controls import control_table, control_variate_equity, corrections, min_samples
from exactodds.stud.equity.deals import base_cards, player_cards
from exactodds.stud.equity.kernels.sampling import sample_moments, symmetric
from exactodds.stud.equity.position import cards_to_come, parse_position
from exactodds.stud.equity.results import EquityMethod, SampledEquity
from exactodds.stud.equity.sampling import deal_chunks, sampled_equity

from .test_stud_equity_brute import random_position

EIGHT = [f"? | {c}" for c in ("As", "Kd", "Qh", "Jc", "9s", "7d", "5h", "2c")]


def _strength(cards: list[int]) -> int:
    return int(rank_table()[colex_index(sorted(cards))])


def test_moments_match_a_plain_reference() -> None:
    position = parse_position(["Kh | 9c 4d", "? | Qh 4c", "? | 2c 3c", "? | 7h 7s"])
    g, _ = control_table(position)
    needs = cards_to_come(position)
    rows = next(deal_chunks(position, samples=300, seed=4))
    out = np.zeros((4, 5), np.int64)
    moments = np.zeros((2, 9, 9))
    sample_moments(base_cards(position), np.array(needs), rows, rank_table(), BINOM, g, out, moments)
    expected = np.zeros((2, 9, 9))
    counts = np.zeros((4, 5), np.int64)
    for r, row in enumerate(rows):
        cards = iter(int(c) for c in row)
        strengths = [_strength(player_cards(p) + [next(cards) for _ in range(k)])
                     for p, k in zip(position.players, needs, strict=True)]
        best = max(strengths)
        tied = strengths.count(best)
        z = np.array([1.0] + [1 / tied if s == best else 0.0 for s in strengths]
                     + [g[p, s] for p, s in enumerate(strengths)])
        expected[r % 2] += np.outer(z, z)
        for p, s in enumerate(strengths):
            counts[p, tied] += s == best
    assert np.array_equal(out, counts)
    assert np.allclose(symmetric(moments), expected, rtol=1e-12, atol=1e-12)


def test_control_means_are_exact_over_each_players_completions() -> None:
    position = random_position(random.Random(3), 3, 3, max_deals=200_000)
    g, mu = control_table(position)
    pool = [int(c) for c in position.unseen()]
    for p, (player, need) in enumerate(zip(position.players, cards_to_come(position), strict=True)):
        values = [g[p, _strength(player_cards(player) + list(extra))]
                  for extra in itertools.combinations(pool, need)]
        assert math.isclose(mu[p], statistics.fmean(values), rel_tol=1e-12)


def test_same_deals_as_plain_monte_carlo_and_equities_add_to_one() -> None:
    position = parse_position(EIGHT)
    plain = sampled_equity(position, samples=30_000, seed=8)
    ours = control_variate_equity(position, samples=30_000, seed=8)
    assert ours.method == EquityMethod.CONTROL_VARIATES and (ours.samples, ours.seed) == (30_000, 8)
    assert [(p.win, p.tie, p.lose, p.split) for p in ours.players] == \
        [(p.win, p.tie, p.lose, p.split) for p in plain.players]
    assert sum(p.equity for p in ours.players) == 1
    # The same deals, a clearly smaller standard error for every player.
    for mine, theirs in zip(ours.players, plain.players, strict=True):
        assert mine.standard_error < 0.8 * theirs.standard_error
        assert abs(float(mine.equity - theirs.equity)) < 3 * theirs.standard_error


@pytest.mark.parametrize("players", [3, 4])
def test_unbiased_against_exact_answers_over_many_seeds(players: int) -> None:
    # Known exact answers; 150 seeds of 500 deals: the estimates' mean sits on the exact value
    # and about 95% of the +/- 1.96 SE intervals cover it.
    position = random_position(random.Random(40 + players), players, 2, max_deals=10**8)
    exact = eq.stud_equity(position)
    assert exact.exact
    z_scores, spread = [], []
    estimates = np.zeros((150, players))
    for seed in range(150):
        result = control_variate_equity(position, samples=500, seed=seed)
        for p, (mine, truth) in enumerate(zip(result.players, exact.players, strict=True)):
            estimates[seed, p] = float(mine.equity)
            z_scores.append(float(mine.equity - truth.equity) / mine.standard_error)
            spread.append(mine.standard_error)
    covered = sum(abs(z) <= 1.96 for z in z_scores) / len(z_scores)
    assert 0.90 <= covered <= 0.99
    for p, truth in enumerate(exact.players):
        mean, sd = estimates[:, p].mean(), estimates[:, p].std(ddof=1)
        assert abs(mean - float(truth.equity)) < 4 * sd / math.sqrt(150)


def test_corrections_vanish_without_correlation() -> None:
    # Controls independent of the shares (a constant): no correction, the plain standard error.
    moments = np.zeros((2, 5, 5))
    rng = np.random.default_rng(1)
    for h in range(2):
        for _ in range(1000):
            x = float(rng.random() < 0.3)
            z = np.array([1.0, x, 1 - x, 0.5, 0.5])
            moments[h] += np.outer(z, z)
    correction, error = corrections(moments, np.array([0.5, 0.5]))
    assert np.allclose(correction, 0.0)
    # Each half's variance of the share, over its count - 1, weighted by (half / all)^2.
    shares = [moments[h, 0, 1] / moments[h, 0, 0] for h in range(2)]
    expected = math.sqrt(sum(0.25 * p * (1 - p) / 999 for p in shares))
    assert math.isclose(error[0], expected, rel_tol=1e-9)


def test_small_samples_are_plain_monte_carlo() -> None:
    # 40 deals for five players: too few to fit six coefficients; the plain sample mean.
    position = parse_position(["? | Ks 9d 4c", "? | Qh Js 2d", "? | 2c 3c 5c", "? | 7h 7s Td",
                                  "? | Ad 6h 8c"])
    assert min_samples(5) == 300
    small = control_variate_equity(position, samples=40, seed=42)
    assert small == sampled_equity(position, samples=40, seed=42) and small.method == EquityMethod.MONTE_CARLO
    at_least = control_variate_equity(position, samples=300, seed=42)
    assert at_least.method == EquityMethod.CONTROL_VARIATES
    assert all(0 <= p.equity <= 1 and p.standard_error > 0.005 for p in at_least.players)


def test_stud_equity_samples_with_control_variates() -> None:
    result = eq.stud_equity(parse_position(EIGHT), samples=2_000, seed=1)
    assert isinstance(result, SampledEquity) and result.method == EquityMethod.CONTROL_VARIATES
    assert result.samples == 2_000 and all(p.standard_error > 0 for p in result.players)
