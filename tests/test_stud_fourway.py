"""Exact four-way equity by rank profiles (exactodds.stud.equity.rank_profile.fourway) against brute force,
the other exact methods and hand-checkable cases; and the chooser's use of it."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.stud.equity import StudPlayer, StudPosition
from exactodds.stud.equity import methods as eq
from exactodds.stud.equity.brute import brute_force_counts
from exactodds.stud.equity.deals import enumeration_size, player_cards
from exactodds.stud.equity.position import cards_to_come, parse_position
from exactodds.stud.equity.rank_profile.fourway import (
    PLAYERS,
    fourway_counts,
    fourway_supported,
    group_bound,
    plan,
)
from exactodds.stud.equity.rank_profile.profiles import player_profiles, profile_count, rank_counts
from exactodds.stud.equity.results import EquityMethod

from .test_stud_multiway import multiway_position


def _flushing(position: StudPosition) -> list[bool]:
    needs = cards_to_come(position)
    return [bool((player_profiles(player_cards(p), n, position.unseen()).flush >= 0).any())
            for p, n in zip(position.players, needs, strict=True)]


def four_way(max_deals: int = 12_000) -> st.SearchStrategy[StudPosition]:
    """A four-player position on street 2 or 3. No first-street position gets under the brute
    force's size: the first street is checked in test_stud_multiway_independent (a vectorised
    enumeration)."""
    return multiway_position(players=4, streets=(2, 3), max_deals=max_deals)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(four_way())
def test_fourway_counts_match_brute_force(position: StudPosition) -> None:
    assert fourway_supported(position)
    out, total = brute_force_counts(position)
    assert total == enumeration_size(position)
    assert np.array_equal(fourway_counts(position), out)


def _drawing(rng: random.Random, street: int, suits: list[int | None], holes: list[bool],
             max_deals: int) -> StudPosition:
    """Players whose known cards share the given suit (None: two suits, no flush draw), with
    dead cards until at most ``max_deals`` deals, keeping enough of each drawing suit live."""
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
    position = StudPosition(players=tuple(players))
    needs = cards_to_come(position)
    keep = {suit: max(n for n, t in zip(needs, suits, strict=True) if t == suit) for suit in set(suits)
            if suit is not None}
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    rest.sort(key=lambda c: c % 4 in keep)  # other suits die first
    dead: list[int] = []
    for card in rest:
        if enumeration_size(position) <= max_deals:
            break
        live = sum(1 for c in position.unseen() if c % 4 == card % 4)
        if live <= keep.get(card % 4, 0):
            continue
        dead.append(card)
        position = StudPosition(players=position.players, dead=tuple(dead))
    assert enumeration_size(position) <= max_deals
    return position


DRAWS = [[0, 1, None, None], [2, 2, None, None], [None, 3, None, 1], [None, None, None, 0],
         [0, 1, 2, None], [1, None, 1, 1], [0, 1, 2, 3], [3, 3, 0, 0], [0, 1, 0, 2]]


@pytest.mark.parametrize(("street", "suits"), [(street, suits) for street in (2, 3) for suits in DRAWS]
                         + [(2, [2, 2, 2, 2])])  # 4 x 3 known cards of one suit leave too few at street 3
def test_flush_draws_match_brute_force(suits: list[int | None], street: int) -> None:
    # Every term of the expansion: up to four players drawing to flushes, of one suit or several.
    rng = random.Random(street * 100 + sum(s or 0 for s in suits))
    for holes in ([False, True, False, True], [True, False, True, False]):
        position = _drawing(rng, street, suits, holes, 30_000)
        assert _flushing(position) == [s is not None for s in suits]
        out, _ = brute_force_counts(position)
        assert np.array_equal(fourway_counts(position), out)


def test_ties_of_two_three_and_four_players_match_brute_force() -> None:
    # The same ranks for everyone and one card to come from a deck of small cards: most deals
    # are split, in every way.
    position = parse_position(["Ah | Kh Qd Jc", "Ad | Kd Qc Js", "Ac | Ks Qs Jd", "As | Kc Qh Jh"],
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
    position = parse_position(["? | Ks 9d", "? | Qh Js", "? | 2c 3c", "? | Qd Jc"])
    result = eq.stud_equity(position)
    assert result.exact and result.method == EquityMethod.RANK_PROFILES
    assert result.combinations == 7_795_116_293_764_800
    assert sum(p.equity for p in result.players) == 1
    assert result.players[1] == result.players[3]
    assert result.players[0].equity > result.players[1].equity > result.players[2].equity


def test_counts_do_not_depend_on_seat_order() -> None:
    players = ["Ah | Ks 9d 4c", "? | Qh Js 2d", "? | 2c 3c 5c", "? | 7h 7s Td"]
    out = fourway_counts(parse_position(players))
    rotated = fourway_counts(parse_position(players[1:] + players[:1]))
    assert np.array_equal(rotated, np.roll(out, -1, axis=0))


@pytest.mark.parametrize("draws", range(PLAYERS + 1))
def test_plan_counts_every_term_once(draws: int) -> None:
    # Each of the 16 terms (which players take their flush part) in exactly one run.
    flushing = [p < draws for p in range(PLAYERS)]
    seen: list[frozenset[int]] = []
    for run in plan(needs=[3, 2, 3, 3], flushing=flushing):
        parts = dict(run.outer)
        parts[run.inner[0]] = "D" if run.flush else "G"
        parts[run.inner[1]] = run.fourth if run.flush else "G"
        options = [[frozenset()] if "D" not in parts[p] or not flushing[p] else
                   [frozenset({p})] if parts[p] == "D" else [frozenset(), frozenset({p})]
                   for p in range(PLAYERS)]
        for combo in itertools.product(*options):
            seen.append(frozenset().union(*combo))
    expected = [frozenset(t) for k in range(draws + 1) for t in itertools.combinations(range(draws), k)]
    assert sorted(seen, key=sorted) == sorted(expected, key=sorted)


def test_chooser_uses_fourway_with_any_number_of_flush_draws() -> None:
    for players in (["? | Ks 9d", "? | Qh Js", "? | 2c 3c", "? | 7h 8h"],
                    ["? | Ks 9s", "? | Qh Jh", "? | 2c 3c", "? | 7d 8h"]):
        assert eq.choose_method(parse_position(players)) == EquityMethod.RANK_PROFILES
    # Four flush draws in four suits: eleven runs, beyond the default 10 s but within 30 s.
    four_suits = parse_position(["? | Ks 9s", "? | Qh Jh", "? | 2c 3c", "? | 7d 4d"])
    assert eq.choose_method(four_suits) == EquityMethod.CONTROL_VARIATES
    assert eq.choose_method(four_suits, budget=30) == EquityMethod.RANK_PROFILES
    # The first round has about 1.4e20 deals, beyond int64: each group's counts fit, their sums are
    # two words. Sampled under the default budget, counted when the budget covers its estimate.
    first_round = parse_position(["? | Ks", "? | Qh", "? | 2c", "? | 7h"])
    assert enumeration_size(first_round) > 2**66 and fourway_supported(first_round)
    assert group_bound(first_round) < 2**62
    estimate = eq.exact_seconds(first_round)
    assert list(estimate) == [EquityMethod.RANK_PROFILES]  # enumeration and pairwise count in int64
    assert eq.choose_method(first_round) == EquityMethod.CONTROL_VARIATES
    assert eq.choose_method(first_round, budget=estimate[EquityMethod.RANK_PROFILES] + 1) == (
        EquityMethod.RANK_PROFILES)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 62), st.data())
def test_two_word_sums_are_the_integer_sums(bits: int, data: st.DataObject) -> None:
    """The kernel's two-word sums (high * 2**bits + low, 0 <= low < 2**bits) against Python's integers:
    any signed int64 parts below 2**62, carries up and down, past 2**63 in total."""
    from exactodds.stud.equity.rank_profile.kernels.fourway import add_wide

    bound = 2 ** min(61, bits + 20)  # the high word stays within int64 over 40 parts
    parts = data.draw(st.lists(st.lists(st.integers(-bound, bound), min_size=20, max_size=20),
                               min_size=1, max_size=40))
    high, low = np.zeros((4, 5), np.int64), np.zeros((4, 5), np.int64)
    for part in parts:
        add_wide(high, low, np.array(part, np.int64).reshape(4, 5), bits)
    expected = [sum(part[k] for part in parts) for k in range(20)]
    assert [int(h) * 2**bits + int(x) for h, x in zip(high.ravel(), low.ravel(), strict=True)] == expected
    assert (low >= 0).all() and (low < 2**bits).all()


def test_two_word_sums_pass_two_to_the_63() -> None:
    from exactodds.stud.equity.rank_profile.kernels.fourway import add_wide

    high, low = np.zeros((1, 1), np.int64), np.zeros((1, 1), np.int64)
    for _ in range(9):
        add_wide(high, low, np.array([[2**62 - 1]], np.int64), 62)
    assert int(high[0, 0]) * 2**62 + int(low[0, 0]) == 9 * (2**62 - 1) > 2**65


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.filter_too_much])
@given(four_way(max_deals=8_000), st.integers(1, 8))
def test_a_low_word_of_a_few_bits_carries_and_still_counts_exactly(position: StudPosition, bits: int) -> None:
    """With a low word of 1 to 8 bits every group's sum carries into the high word (as the first round's
    do past 2**62), so the whole two-word path is checked against brute force on small decks."""
    out, _ = brute_force_counts(position)
    assert out.max() >= 2**bits  # the sums carried
    assert np.array_equal(fourway_counts(position, word_bits=bits), out)


def test_profile_count_is_the_number_of_classes() -> None:
    rng = random.Random(5)
    for _ in range(20):
        deck = list(range(52))
        rng.shuffle(deck)
        pool = np.array(sorted(deck[: rng.randint(8, 44)]), dtype=np.int64)
        need = rng.randint(1, 4)
        classes = player_profiles(deck[52 - (5 - need):], need, pool)  # five cards in all
        assert profile_count(rank_counts(pool), need) == len(classes.strength)
