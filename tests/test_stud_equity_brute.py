"""Every fast path of stud equity against brute force on random positions: identical fractions."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from exactodds.stud.equity import StudPlayer, StudPosition
from exactodds.stud.equity import methods as eq
from exactodds.stud.equity.brute import brute_force_counts
from exactodds.stud.equity.deals import enumeration_size
from exactodds.stud.equity.position import check_position, parse_position
from exactodds.stud.equity.results import EquityMethod, EquityResult, SampledEquity
from exactodds.stud.equity.sampling import sampled_equity

MAX_DEALS = 60_000


def random_position(
    rng: random.Random, n_players: int, street: int, max_deals: int = MAX_DEALS
) -> StudPosition:
    """A random position whose complete deals number at most ``max_deals`` (dead cards added)."""
    while True:
        deck = list(range(52))
        rng.shuffle(deck)
        players = []
        for _ in range(n_players):
            hole = deck.pop() if rng.random() < 0.5 else None
            players.append(StudPlayer(hole=hole, up=tuple(deck.pop() for _ in range(street))))
        position = StudPosition(players=tuple(players), dead=())
        while enumeration_size(position) > max_deals and deck:
            position = StudPosition(players=position.players, dead=(*position.dead, deck.pop()))
        if 0 < enumeration_size(position) <= max_deals:
            check_position(position)
            return position


def assert_matches_brute(result: EquityResult, position: StudPosition) -> None:
    out, total = brute_force_counts(position)
    assert result.exact
    assert result.combinations == total
    for p, player in enumerate(result.players):
        assert player.win == Fraction(int(out[p, 1]), total)
        assert player.tie == Fraction(int(out[p, 2:].sum()), total)
        assert player.lose == 1 - Fraction(int(out[p, 1:].sum()), total)
        share = sum((Fraction(int(out[p, t]), t) for t in range(1, len(out[p]))), Fraction(0))
        assert player.equity == share / total
    assert sum(p.equity for p in result.players) == 1


@pytest.mark.parametrize("street", [1, 2, 3, 4])
def test_headsup_matches_brute_force(street: int) -> None:
    rng = random.Random(100 + street)
    for _ in range(8):
        position = random_position(rng, 2, street)
        assert eq.choose_method(position) == EquityMethod.HEADS_UP
        assert_matches_brute(eq.headsup_equity(position), position)


def test_headsup_round1_both_holes_unknown_matches_brute_force() -> None:
    rng = random.Random(7)
    for _ in range(3):
        position = random_position(rng, 2, 1, max_deals=200_000)
        position = StudPosition(
            players=tuple(StudPlayer(hole=None, up=p.up) for p in position.players), dead=position.dead)
        while enumeration_size(position) > 200_000:
            extra = next(c for c in range(52) if c not in position.known_cards())
            position = StudPosition(players=position.players, dead=(*position.dead, extra))
        assert_matches_brute(eq.headsup_equity(position), position)


@pytest.mark.parametrize("n_players", [2, 3, 4, 5, 8])
def test_last_street_dp_matches_brute_force(n_players: int) -> None:
    rng = random.Random(200 + n_players)
    for _ in range(8):
        position = random_position(rng, n_players, 4)
        assert_matches_brute(eq.last_street_equity(position), position)


@pytest.mark.parametrize("street", [1, 2, 3, 4])
def test_enumeration_matches_brute_force(street: int) -> None:
    rng = random.Random(300 + street)
    for _ in range(6):
        n_players = rng.choice([2, 3] if street < 3 else [2, 3, 4])
        position = random_position(rng, n_players, street, max_deals=40_000)
        assert_matches_brute(eq.enumeration_equity(position), position)


@pytest.mark.parametrize("street", [1, 2, 3, 4])
def test_pairwise_matches_brute_force(street: int) -> None:
    rng = random.Random(600 + street)
    for _ in range(6):
        n_players = rng.choice([2, 3] if street < 3 else [3, 4, 5])
        position = random_position(rng, n_players, street, max_deals=40_000)
        result = eq.pairwise_equity(position)
        assert result.method == EquityMethod.PAIRWISE
        assert_matches_brute(result, position)


@pytest.mark.parametrize("street", [1, 2, 3, 4])
def test_pairwise_matches_compiled_enumeration_on_larger_decks(street: int) -> None:
    rng = random.Random(700 + street)
    for _ in range(4):
        n_players = rng.choice([3] if street < 3 else [3, 4, 5])
        position = random_position(rng, n_players, street, max_deals=3_000_000)
        expected = dataclasses.replace(eq.enumeration_equity(position), method=EquityMethod.PAIRWISE)
        assert eq.pairwise_equity(position) == expected


def test_last_street_dp_with_ties() -> None:
    # Four players on board with the same straight showing; many exact ties.
    position = parse_position(
        ["? | 9c Tc Jd Qh", "? | 9d Td Jh Qs", "? | 9h Th Js Qc", "Ks | 9s Ts Jc Qd"],
        dead="2c 3c 4c 5c 6c 7c 2d 3d 4d 5d 6d 7d 2h 3h 4h 5h",
    )
    result = eq.stud_equity(position)
    assert result.method == EquityMethod.LAST_STREET
    assert_matches_brute(result, position)
    assert result.players[3].lose == 0


def test_sampled_agrees_with_exact_within_error() -> None:
    rng = random.Random(11)
    for _ in range(3):
        position = random_position(rng, 3, 2, max_deals=3_000_000)
        exact = eq.enumeration_equity(position)
        sampled = sampled_equity(position, samples=40_000, seed=5)
        assert isinstance(sampled, SampledEquity) and not sampled.exact
        assert sampled.samples == 40_000 and sampled.method == EquityMethod.MONTE_CARLO
        for e, s in zip(exact.players, sampled.players, strict=True):
            assert s.standard_error > 0 or e.equity in (0, 1)
            assert abs(float(s.equity - e.equity)) <= 5 * s.standard_error + 1e-12
        assert sum(p.equity for p in sampled.players) == 1


@pytest.mark.parametrize("street", [1, 2, 3, 4])
def test_headsup_matches_compiled_enumeration_on_larger_decks(street: int) -> None:
    # Larger unseen decks than the Python brute force can visit; the enumeration is itself
    # checked against the brute force above.
    rng = random.Random(400 + street)
    for _ in range(5):
        position = random_position(rng, 2, street, max_deals=4_000_000)
        expected = dataclasses.replace(eq.enumeration_equity(position), method=EquityMethod.HEADS_UP)
        assert eq.headsup_equity(position) == expected


@pytest.mark.parametrize("n_players", [3, 6])
def test_last_street_dp_matches_compiled_enumeration(n_players: int) -> None:
    rng = random.Random(500 + n_players)
    for _ in range(4):
        position = random_position(rng, n_players, 4, max_deals=3_000_000)
        dp, enumerated = eq.last_street_equity(position), eq.enumeration_equity(position)
        assert dp.players == enumerated.players and dp.combinations == enumerated.combinations


def test_seat_order_only_permutes_the_answer() -> None:
    rng = random.Random(9)
    for street in (2, 4):
        position = random_position(rng, 3, street, max_deals=2_000_000)
        rotated = StudPosition(players=position.players[1:] + position.players[:1], dead=position.dead)
        a, b = eq.stud_equity(position), eq.stud_equity(rotated)
        assert a.players[1:] + a.players[:1] == b.players
