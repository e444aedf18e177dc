"""Exact four-way equity by rank profiles (exactodds.stud.equity.fourway) against brute force,
the other exact methods and hand-checkable cases; and the chooser's use of it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactodds.stud.equity import StudPlayer, StudPosition
from exactodds.stud.equity import methods as eq
from exactodds.stud.equity.brute import brute_force_counts
from exactodds.stud.equity.fourway import can_flush, fourway_counts, fourway_supported
from exactodds.stud.equity.profiles import player_profiles


def _profiles(position: StudPosition) -> list[bool]:
    needs = eq.cards_to_come(position)
    return [can_flush(player_profiles(eq.player_cards(p), n, position.unseen()))
            for p, n in zip(position.players, needs, strict=True)]


@st.composite
def four_way(draw: st.DrawFn, max_deals: int = 12_000) -> StudPosition:
    """A four-player position on street 1-3 (holes known or not; dead cards keep brute force quick)."""
    street = draw(st.integers(1, 3))
    deck = draw(st.permutations(range(52)))
    cards = iter(deck)
    players = []
    for _ in range(4):
        hole = next(cards) if draw(st.booleans()) else None
        players.append(StudPlayer(hole=hole, up=tuple(next(cards) for _ in range(street))))
    position = StudPosition(players=tuple(players))
    assume(fourway_supported(position))
    dead: list[int] = []
    rest = list(cards)
    while eq.enumeration_size(position) > max_deals:
        dead.append(rest.pop())
        position = StudPosition(players=position.players, dead=tuple(dead))
    assume(eq.enumeration_size(position) > 0)
    return position


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(four_way())
def test_fourway_counts_match_brute_force(position: StudPosition) -> None:
    out, total = brute_force_counts(position)
    assert total == eq.enumeration_size(position)
    assert np.array_equal(fourway_counts(position), out)


def _drawing(rng: random.Random, street: int, suits: list[int | None], holes: list[bool],
             dead: int) -> StudPosition:
    """Players whose known cards share the given suit (None: two suits, no flush draw)."""
    used: set[int] = set()
    players = []
    for p in range(4):
        count = street + holes[p]
        if suits[p] is None:
            first = rng.choice([c for c in range(52) if c not in used])
            pool = [c for c in range(52) if c not in used and c % 4 != first % 4]
            picked = [first, *rng.sample(pool, count - 1)]
        else:
            picked = rng.sample([c for c in range(52) if c % 4 == suits[p] and c not in used], count)
        used.update(picked)
        players.append(StudPlayer(hole=picked[0] if holes[p] else None, up=tuple(picked[holes[p]:])))
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    rest.sort(key=lambda c: c % 4 in suits)  # keep the drawing suits live
    return StudPosition(players=tuple(players), dead=tuple(rest[:dead]))


@pytest.mark.parametrize("suits", [[0, 1, None, None], [2, 2, None, None], [None, 3, None, 1],
                                   [None, None, None, 0]])
@pytest.mark.parametrize("street", [2, 3])
def test_flush_draws_match_brute_force(suits: list[int | None], street: int) -> None:
    rng = random.Random(street * 100 + sum(s or 0 for s in suits))
    for holes in ([False, False, False, False], [True, False, True, False]):
        dead = 0
        position = _drawing(rng, street, suits, holes, dead)
        while eq.enumeration_size(position) > 25_000:
            dead += 1
            position = _drawing(random.Random(dead), street, suits, holes, dead)
        assert _profiles(position) == [s is not None for s in suits]
        out, _ = brute_force_counts(position)
        assert np.array_equal(fourway_counts(position), out)


def test_ties_of_two_three_and_four_players_match_brute_force() -> None:
    # The same ranks for everyone and one card to come from a deck of small cards: most deals
    # are split, in every way.
    position = eq.parse_position(["Ah | Kh Qd Jc", "Ad | Kd Qc Js", "Ac | Ks Qs Jd", "As | Kc Qh Jh"],
                                 dead="Th Td Tc Ts 9h 9d 9c 9s 8h 8d 8c 8s 7h 7d 7c 7s 6h 6d 6c")
    out, _ = brute_force_counts(position)
    assert (out[:, 2:] > 0).all()
    assert np.array_equal(fourway_counts(position), out)


@pytest.mark.parametrize("street", [2, 3])
def test_fourway_matches_pairwise_on_larger_decks(street: int) -> None:
    # Decks beyond Python brute force; the pairwise method is itself checked against brute force.
    rng = random.Random(900 + street)
    checked = 0
    while checked < 2:
        deck = list(range(52))
        rng.shuffle(deck)
        players = tuple(StudPlayer(hole=deck.pop() if rng.random() < 0.5 else None,
                                   up=tuple(deck.pop() for _ in range(street))) for _ in range(4))
        position = StudPosition(players=players, dead=tuple(deck[: 20 if street == 2 else 8]))
        if not fourway_supported(position) or eq.pairwise_work(position) > 3e8:
            continue
        expected = eq.pairwise_equity(position)
        result = eq.rank_profile_equity(position)
        assert result.players == expected.players and result.combinations == expected.combinations
        checked += 1


@pytest.mark.slow
def test_third_street_four_way_holes_unknown() -> None:
    # 7,795,116,293,764,800 deals, exact in seconds: every deal is shared out once, and the
    # two queen-jack hands, which differ only by suit, are level (and kill each other's cards).
    position = eq.parse_position(["? | Ks 9d", "? | Qh Js", "? | 2c 3c", "? | Qd Jc"])
    result = eq.stud_equity(position)
    assert result.exact and result.method == eq.RANK_PROFILES
    assert result.combinations == 7_795_116_293_764_800
    assert sum(p.equity for p in result.players) == 1
    assert result.players[1] == result.players[3]
    assert result.players[0].equity > result.players[1].equity > result.players[2].equity


def test_counts_do_not_depend_on_seat_order() -> None:
    players = ["Ah | Ks 9d 4c", "? | Qh Js 2d", "? | 2c 3c 5c", "? | 7h 7s Td"]
    out = fourway_counts(eq.parse_position(players))
    rotated = fourway_counts(eq.parse_position(players[1:] + players[:1]))
    assert np.array_equal(rotated, np.roll(out, -1, axis=0))


def test_chooser_uses_fourway_and_falls_back_with_three_flush_draws() -> None:
    position = eq.parse_position(["? | Ks 9d", "? | Qh Js", "? | 2c 3c", "? | 7h 8h"])
    assert eq.choose_method(position) == eq.RANK_PROFILES
    three_draws = eq.parse_position(["? | Ks 9s", "? | Qh Jh", "? | 2c 3c", "? | 7h 7s"])
    assert not fourway_supported(three_draws)
    assert eq.RANK_PROFILES not in eq.exact_seconds(three_draws)
    with pytest.raises(ValueError, match="at most two"):
        fourway_counts(three_draws)
