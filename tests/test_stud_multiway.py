"""Exact three-way equity by rank profiles against brute force, the other exact methods and
hand-checkable cases; and the chooser with a budget in seconds."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactodds.stud.equity import StudPlayer, StudPosition
from exactodds.stud.equity import methods as eq
from exactodds.stud.equity.deals import enumeration_size, player_cards
from exactodds.stud.equity.position import cards_to_come, parse_position
from exactodds.stud.equity.rank_profile.multiway import rank_profile_counts
from exactodds.stud.equity.rank_profile.profiles import player_profiles
from exactodds.stud.equity.results import EquityMethod
from exactodds.stud.equity.sampling import sampled_equity

from .test_stud_equity_brute import assert_matches_brute, random_position


@st.composite
def multiway_position(draw: st.DrawFn, *, players: int, streets: tuple[int, int],
                      max_deals: int) -> StudPosition:
    """A position of ``players`` players on a street (up cards) in ``streets``, holes known or
    not, with dead cards added until brute force stays quick (at most ``max_deals`` deals)."""
    street = draw(st.integers(*streets))
    deck = draw(st.permutations(range(52)))
    cards = iter(deck)
    seats = []
    for _ in range(players):
        hole = next(cards) if draw(st.booleans()) else None
        seats.append(StudPlayer(hole=hole, up=tuple(next(cards) for _ in range(street))))
    position = StudPosition(players=tuple(seats))
    dead: list[int] = []
    rest = list(cards)
    while enumeration_size(position) > max_deals:
        dead.append(rest.pop())
        position = StudPosition(players=position.players, dead=tuple(dead))
    assume(enumeration_size(position) > 0)
    return position


def three_way(max_deals: int = 15_000) -> st.SearchStrategy[StudPosition]:
    """A three-player position on street 1-3."""
    return multiway_position(players=3, streets=(1, 3), max_deals=max_deals)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(three_way())
def test_rank_profiles_match_brute_force(position: StudPosition) -> None:
    result = eq.rank_profile_equity(position)
    assert result.method == EquityMethod.RANK_PROFILES
    assert_matches_brute(result, position)


def _suited(rng: random.Random, street: int, holes: list[bool], suits: list[int], dead: int) -> StudPosition:
    """Players whose up cards (and known holes) share a suit each, so every flush term occurs."""
    used: set[int] = set()
    players = []
    for p in range(3):
        pool = [c for c in range(52) if c % 4 == suits[p] and c not in used]
        picked = rng.sample(pool, street + holes[p])
        used.update(picked)
        hole = picked[0] if holes[p] else None
        players.append(StudPlayer(hole=hole, up=tuple(picked[holes[p]:])))
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    # Keep the flush suits' cards live: kill other cards first.
    rest.sort(key=lambda c: c % 4 in suits)
    return StudPosition(players=tuple(players), dead=tuple(rest[:dead]))


@pytest.mark.parametrize("suits", [[0, 1, 2], [0, 0, 1], [2, 2, 2]])
@pytest.mark.parametrize("street", [1, 2, 3])
def test_flush_corrections_match_brute_force(suits: list[int], street: int) -> None:
    rng = random.Random(street * 10 + sum(suits))
    for holes in ([False, False, False], [True, False, True]):
        dead = 0
        position = _suited(rng, street, holes, suits, dead)
        while enumeration_size(position) > 40_000:
            dead += 1
            position = _suited(random.Random(dead), street, holes, suits, dead)
        assert all(p.suit >= 0 for p in (player_profiles(player_cards(q), n, position.unseen())
                                         for q, n in zip(position.players, cards_to_come(position),
                                                         strict=True)))
        assert_matches_brute(eq.rank_profile_equity(position), position)


@pytest.mark.parametrize("street", [1, 2, 3])
def test_rank_profiles_match_compiled_enumeration_on_larger_decks(street: int) -> None:
    # Larger unseen decks than Python brute force visits; the enumeration is itself checked
    # against brute force in test_stud_equity_brute.
    rng = random.Random(800 + street)
    for _ in range(2):
        position = random_position(rng, 3, street, max_deals=2_000_000)
        expected = dataclasses.replace(eq.enumeration_equity(position), method=EquityMethod.RANK_PROFILES)
        assert eq.rank_profile_equity(position) == expected


def test_first_round_three_way_holes_unknown() -> None:
    # The hard case, 3,196,938,412,067,400 deals, far beyond any other exact method: every
    # deal is shared out exactly once, and the mirror-image kings get the same odds.
    position = parse_position(["? | Ks", "? | Kh", "? | 2c"])
    result = eq.stud_equity(position)
    assert result.exact and result.method == EquityMethod.RANK_PROFILES
    assert result.combinations == 3_196_938_412_067_400
    a, b, c = result.players
    assert a.win == b.win and a.equity == b.equity and a.split == b.split
    assert a.equity + b.equity + c.equity == 1
    assert all(p.win + p.tie + p.lose == 1 for p in result.players)
    assert a.equity > c.equity


def test_counts_are_symmetric_in_seat_order() -> None:
    rng = random.Random(21)
    position = random_position(rng, 3, 2, max_deals=10**9)
    out = rank_profile_counts(position)
    rotated = StudPosition(players=position.players[1:] + position.players[:1], dead=position.dead)
    assert np.array_equal(rank_profile_counts(rotated), np.roll(out, -1, axis=0))


def test_chooser_takes_exact_within_budget_and_says_so() -> None:
    position = parse_position(["Kh | 9c 4d", "? | Qh Js", "? | 2c 3c"])
    seconds = eq.exact_seconds(position)
    assert min(seconds, key=lambda m: seconds[m]) == EquityMethod.RANK_PROFILES
    exact = seconds[EquityMethod.RANK_PROFILES]
    assert eq.choose_method(position, budget=exact) == EquityMethod.RANK_PROFILES
    assert eq.choose_method(position, budget=exact / 2) == EquityMethod.CONTROL_VARIATES
    sampled = eq.stud_equity(position, budget=0, samples=5_000, seed=1)
    assert not sampled.exact and sampled.method == EquityMethod.CONTROL_VARIATES and sampled.samples == 5_000


def test_sampled_estimate_is_unbiased_against_the_exact_answer() -> None:
    # 40 seeds: each 95% interval should hold the exact equity about 95% of the time (fewer
    # than 34 of 40 has probability below 1e-3), and the mean over seeds lies within four of
    # its own standard errors.
    position = parse_position(["Kh | 9c 4d Ks", "? | Qh Js 7d", "? | 2c 3c 4c"])
    exact = eq.rank_profile_equity(position)
    seeds = range(40)
    runs = [sampled_equity(position, samples=4_000, seed=seed) for seed in seeds]
    for p, truth in enumerate(exact.players):
        estimates = np.array([float(r.players[p].equity) for r in runs])
        errors = np.array([r.players[p].standard_error for r in runs])
        covered = np.abs(estimates - float(truth.equity)) <= 1.96 * errors
        assert covered.sum() >= 34
        assert abs(estimates.mean() - float(truth.equity)) <= 4 * errors.mean() / np.sqrt(len(runs))
