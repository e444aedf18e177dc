"""The solve on classes of interchangeable cards loses nothing: the classes are what the rules make
them, the class-level game has the card-level game's value (both by the exact linear program), and a
class-level profile has, played card by card, exactly the exploitability the class-level walk gives."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.cards import format_cards, parse_cards, rank_of, suit_of
from exactodds.handrank import evaluate_batch
from exactodds.stud.engine.state import Phase
from exactodds.stud.equity.position import parse_position
from exactodds.stud.solve.against import lift_profile, response_values
from exactodds.stud.solve.api import solve_position
from exactodds.stud.solve.best_response import exploitability
from exactodds.stud.solve.card_classes import card_classes, singletons, unseen_cards
from exactodds.stud.solve.cfr import solve_cfr
from exactodds.stud.solve.game import Game, build_game
from exactodds.stud.solve.lp import solve_lp
from exactodds.stud.solve.reference import plain_response_values
from exactodds.stud.solve.results import SolveMethod
from exactodds.stud.solve.start import RootSpec, root_hand


def _up(a: str, b: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(parse_cards(a)), tuple(parse_cards(b))


def test_without_a_possible_flush_the_classes_are_the_ranks() -> None:
    classes = card_classes(up=_up("Kd 9c 4d", "Qc Js 7d"), dead=(), weights=None)
    assert classes.count == 13 and int(classes.size.sum()) == 46
    for members in classes.members:
        assert len({rank_of(c) for c in members}) == 1


def test_a_flush_draw_keeps_its_suit_apart() -> None:
    classes = card_classes(up=_up("Kd 9d 4d", "Qc Js 7d"), dead=(), weights=None)
    diamonds = [c for c in classes.unseen if suit_of(int(c)) == 1]
    for card in diamonds:  # every unseen diamond can complete the flush: each is its own class
        assert classes.size[classes.class_of(int(card))] == 1
    assert classes.count == len(diamonds) + 13
    both = card_classes(up=_up("Kd 9d 4d", "Qc Jc 7c"), dead=(), weights=None)
    assert both.count == 33  # clubs and diamonds apart, hearts and spades of a rank together


def test_a_range_splits_the_cards_it_weighs_differently() -> None:
    up = _up("Kd 9c 4d 2s", "Qc Js 7d 7h")
    unseen = unseen_cards(up, ())
    w = np.ones(len(unseen))
    w[list(unseen).index(parse_cards("Ah")[0])] = 2.0
    classes = card_classes(up=up, dead=(), weights=(w, np.ones(len(unseen))))
    assert classes.size[classes.class_of(parse_cards("Ah")[0])] == 1
    assert classes.size[classes.class_of(parse_cards("As")[0])] == 3


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), street=st.sampled_from([3, 4]))
def test_cards_of_a_class_are_interchangeable(seed: int, street: int) -> None:
    """Swapping two cards of a class changes no strength of either player, with any last up card."""
    rng = random.Random(seed)
    cards = rng.sample(range(52), 2 * street)
    up = (tuple(cards[:street]), tuple(cards[street:]))
    classes = card_classes(up=up, dead=(), weights=None)
    for members in classes.members:
        for a, b in zip(members, members[1:], strict=False):
            others = [int(c) for c in classes.unseen if c not in (a, b)]
            for p in range(2):
                tails = [()] if street == 4 else [(d,) for d in rng.sample(others, 6)]
                hands = [[h, *up[p], *t] for h in (a, b) for t in tails]
                got = evaluate_batch(np.array(hands))
                assert list(got[:len(tails)]) == list(got[len(tails):])


def _small(spec_up: tuple[str, str], keep: str) -> tuple[RootSpec, tuple[int, ...]]:
    up = _up(*spec_up)
    seen = set(up[0]) | set(up[1]) | set(parse_cards(keep))
    dead = tuple(c for c in range(52) if c not in seen)
    return RootSpec(up=up, pot=10, stacks=(12, 12)), dead


def _both(spec: RootSpec, dead: tuple[int, ...]) -> tuple[Game, Game]:
    n = len(unseen_cards(spec.up, dead))
    weights = (np.full(n, 1.0 / n), np.full(n, 1.0 / n))
    return (build_game(spec, dead=dead, weights=weights),
            build_game(spec, dead=dead, weights=weights, reduce=False))


@pytest.mark.parametrize("seed", range(6))
def test_the_last_round_on_classes_has_the_card_level_value(seed: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(range(52), 8 + 16)
    spec, dead = _small((format_cards(cards[:4]), format_cards(cards[4:8])), format_cards(cards[8:]))
    small, big = _both(spec, dead)
    assert small.classes.count < big.classes.count or small.classes.count == len(small.unseen)
    lp_small, lp_big = solve_lp(small), solve_lp(big)
    assert lp_small.value == pytest.approx(lp_big.value, abs=1e-7)
    lifted = exploitability(big, lift_profile(lp_small.profile, small, big))
    assert lifted.chips == pytest.approx(exploitability(small, lp_small.profile).chips, abs=1e-7)
    assert abs(lifted.chips) < 1e-6  # the class-level equilibrium is an equilibrium of the full game


def test_a_third_round_profile_has_the_same_exploitability_card_by_card() -> None:
    spec, dead = _small(("Kd 9c 4d", "Qc Js 7d"), "Ah Ad As 9h 9s 5s 5h 2c 2d")
    small, big = _both(spec, dead)
    assert small.classes.count == 4 and big.classes.count == 9
    run = solve_cfr(small, max_iterations=7, target=1e-9)  # far from an equilibrium: a real check
    assert run.exploitability.fraction > 1e-3
    lifted = exploitability(big, lift_profile(run.profile, small, big))
    assert lifted.chips == pytest.approx(run.exploitability.chips, abs=1e-9)
    assert lifted.values == pytest.approx(run.exploitability.values, abs=1e-9)
    assert big.contexts[1].size + big.contexts[2].size == 9 * 8


def test_singletons_are_the_card_level_game() -> None:
    unseen = unseen_cards(_up("Kd 9c 4d", "Qc Js 7d"), ())
    classes = singletons(unseen)
    assert classes.count == 46 and list(classes.of) == list(range(46))


# ------------------------------------------------------------------ against a solved opponent
def _prior(unseen: np.ndarray, seed: int) -> dict[int, float]:
    rng = random.Random(seed)
    return {int(c): rng.choice([0.0, 0.5, 1.0, 2.0]) for c in unseen}


@pytest.mark.parametrize("seed", range(3))
def test_response_values_equal_the_plain_engine_walk(seed: int) -> None:
    up0, up1 = "Kh 9c 4d", "Qc Js 7d"
    keep = "Ah Ad 2c 9h 5s 7h Qd"
    seen = set(parse_cards(up0 + " " + up1)) | set(parse_cards(keep))
    dead = format_cards([c for c in range(52) if c not in seen])
    position = parse_position([f"? | {up0}", f"? | {up1}"], dead)
    result = solve_position(position=position, pot=10, stacks=(8, 8), method=SolveMethod.CFR_PLUS,
                            max_iterations=4, target=1e-9)  # any profile will do; a rough one mixes
    holes = (parse_cards("Ah")[0], parse_cards("9h")[0])
    hand = root_hand(result.solution.game.spec, holes=holes, realize_pot=True)
    rng = random.Random(seed)
    while hand.phase is Phase.BET and hand.actor != 0:
        hand.act(rng.choice(list(hand.legal().actions())))
    if seed == 2:  # on to the last round: play the third round out, deal, reach seat 0's decision
        while hand.phase is Phase.BET:
            hand.act(next(a for a in hand.legal().actions() if a.kind == "cc"))
        hand.deal(0, parse_cards("2c"))
        hand.deal(1, parse_cards("Qd"))
        while hand.phase is Phase.BET and hand.actor != 0:
            hand.act(rng.choice(list(hand.legal().actions())))
    assert hand.phase is Phase.BET and hand.actor == 0
    prior = _prior(result.solution.game.unseen, seed)
    fast = response_values(result, hand, prior=prior)
    slow = plain_response_values(result, hand, prior=prior)
    assert fast.chips == pytest.approx(slow, abs=1e-9)
    assert len(set(np.round(fast.chips, 6))) > 1  # the actions differ in value: a real check
