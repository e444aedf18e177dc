"""The heads-up solver: analytic bluff-catcher games, LP against CFR+, the fast best response against
the plain engine walk, mirrored seats, and strategies as distributions over the engine's legal actions."""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.cards import format_cards, parse_cards
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase
from exactodds.stud.equity.position import parse_position
from exactodds.stud.history.phh import EXAMPLE, parse_phh, replay
from exactodds.stud.solve.api import solve_hand, solve_position
from exactodds.stud.solve.cfr import Interrupted
from exactodds.stud.solve.reference import plain_exploitability
from exactodds.stud.solve.results import SolveMethod
from exactodds.stud.solve.start import RootSpec, root_hand


def _dead_except(up: str, keep: str) -> str:
    seen = set(parse_cards(up)) | set(parse_cards(keep))
    return format_cards([c for c in range(52) if c not in seen])


# ------------------------------------------------------------------ the bluff-catcher game
NUTS, AIR = "9s 9c", "5h 6d 8h Tc"  # trips nines beat kings; a pair of nines loses to them
BETTOR_UP, CATCHER_UP = "9h 9d 4c 2s", "Kh Qd 7c 3s"


def _bluff_ratio(point, nuts: list[int]) -> tuple[float, float]:
    bet = point.actions.index("cbr 4")
    value = sum(h.weight * h.probabilities[bet] for h in point.holes if h.card in nuts)
    bluff = sum(h.weight * h.probabilities[bet] for h in point.holes if h.card not in nuts)
    return value, bluff


@pytest.mark.parametrize("nut_weight", [1.0, 2.0])
def test_bluff_catcher_bettor_first(nut_weight: float) -> None:
    nuts = parse_cards(NUTS)
    bettor = ",".join([f"{c}:{nut_weight}" for c in NUTS.split()] + [f"{c}:1" for c in AIR.split()])
    r = solve_position(position=[f"? | {BETTOR_UP}", f"Ks | {CATCHER_UP}"], pot=14, stacks=(20, 20),
                       ranges=(bettor, "Ks"))
    assert r.actor == 0 and r.method is SolveMethod.LINEAR_PROGRAM
    pot, s = 14, 4
    value, bluff = _bluff_ratio(r.root, nuts)
    nut_mass = sum(h.weight for h in r.root.holes if h.card in nuts)
    assert value == pytest.approx(nut_mass, abs=1e-4)  # every winner bets
    assert bluff / value == pytest.approx(s / (pot + s), abs=1e-4)  # bluffs : value bets
    call = r.policy(actions=["cbr 4"], hole=parse_cards("Ks")[0])
    assert call["cc"] == pytest.approx(pot / (pot + s), abs=1e-4)
    assert call.get("cbr 8", 0.0) == pytest.approx(0.0, abs=1e-6)
    assert r.values[0] == pytest.approx(nut_mass * (pot + s * pot / (pot + s)), abs=1e-4)
    assert r.values[0] + r.values[1] == pytest.approx(pot)


def test_bluff_catcher_bettor_second() -> None:
    nuts = parse_cards(NUTS)
    bettor = ",".join(NUTS.split() + AIR.split())
    # the catcher shows kings and acts first; checking is its best first move
    r = solve_position(position=["5s | Kh Kd 7c 3s", f"? | {BETTOR_UP}"], pot=14, stacks=(20, 20),
                       ranges=("5s", bettor))
    assert r.actor == 0
    assert r.root.totals[r.root.actions.index("cc")] == pytest.approx(1.0, abs=1e-4)
    point = next(d for d in r.decisions if d.history == ("cc",))
    value, bluff = _bluff_ratio(point, nuts)
    assert value == pytest.approx(sum(h.weight for h in point.holes if h.card in nuts), abs=1e-4)
    assert bluff / value == pytest.approx(4 / 18, abs=1e-4)
    call = r.policy(actions=["cc", "cbr 4"], hole=parse_cards("5s")[0])
    assert call["cc"] == pytest.approx(14 / 18, abs=1e-4)


# ------------------------------------------------------------------ LP and CFR+

def test_lp_and_cfr_agree_on_the_game_value() -> None:
    rng = random.Random(7)
    for _ in range(20):
        cards = rng.sample(range(52), 18)
        players = [f"? | {format_cards(cards[:4])}", f"? | {format_cards(cards[4:8])}"]
        dead = format_cards([c for c in range(52) if c not in cards])
        stacks = (rng.choice([4, 8, 12]), rng.choice([4, 8, 12]))
        position = parse_position(players, dead)
        lp = solve_position(position=position, pot=rng.choice([4, 6, 10]), stacks=stacks)
        cfr = solve_position(position=position, pot=lp.pot, stacks=stacks, method=SolveMethod.CFR_PLUS,
                             target=1e-3)
        assert abs(lp.exploitability.chips) < 1e-6
        assert cfr.exploitability.fraction <= 1e-3
        # an eps-equilibrium's value is within eps of the game value
        assert abs(cfr.values[0] - lp.values[0]) <= cfr.exploitability.chips + 1e-7


# ------------------------------------------------------------------ plain best response
@pytest.mark.parametrize("street", [4, 3])
def test_fast_best_response_equals_the_plain_walk(street: int) -> None:
    up0, up1 = parse_cards("Kh 9c 4d 2s")[:street], parse_cards("Qc Js 7d 7h")[:street]
    keep = "Ah Ad 2c 3c 9h" if street == 4 else "Ah Ad 2c 9h 5s"
    dead = _dead_except(format_cards(up0 + up1), keep)
    position = parse_position([f"? | {format_cards(up0)}", f"? | {format_cards(up1)}"], dead)
    r = solve_position(position=position, pot=10, stacks=(8, 8), method=SolveMethod.CFR_PLUS,
                       max_iterations=3, target=1e-9)
    assert r.exploitability.chips > 1e-3  # a profile far from equilibrium: a real check
    assert plain_exploitability(r) == pytest.approx(r.exploitability.chips, abs=1e-9)


def test_plain_walk_on_an_lp_solution_and_mid_round() -> None:
    dead = _dead_except("Kh 9c 4d 2s Qc Js 7d 7h", "Ah Ad 2c 3c 9h Qs")
    r = solve_position(position=parse_position(["? | Kh 9c 4d 2s", "? | Qc Js 7d 7h"], dead), pot=10,
                       stacks=(12, 12), history=["cbr 4"])
    assert plain_exploitability(r) == pytest.approx(r.exploitability.chips, abs=1e-7)
    assert abs(r.exploitability.chips) < 1e-6


# ------------------------------------------------------------------ mirrors, legal distributions
def test_mirrored_seats_give_mirrored_strategies() -> None:
    dead = _dead_except("Kh 9c 4d Qc Js 7d", "Ah Ad 2c 9h 5s 6s")
    a = ["? | Kh 9c 4d", "? | Qc Js 7d"]
    one = solve_position(position=parse_position(a, dead), pot=10, stacks=(8, 12), max_iterations=60,
                         target=1e-9)
    two = solve_position(position=parse_position(a[::-1], dead), pot=10, stacks=(12, 8), max_iterations=60,
                         target=1e-9)
    assert one.actor == 1 - two.actor
    assert one.values == pytest.approx(two.values[::-1], abs=1e-9)
    for p, q in zip(one.decisions, two.decisions, strict=True):
        assert p.history == q.history and p.player == 1 - q.player
        for h, g in zip(p.holes, q.holes, strict=True):
            assert h.card == g.card and h.probabilities == pytest.approx(g.probabilities, abs=1e-9)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), stacks=st.tuples(st.integers(1, 14), st.integers(1, 14)),
       street=st.sampled_from([3, 4]))
def test_strategies_are_distributions_over_legal_actions(seed: int, stacks: tuple[int, int],
                                                          street: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(range(52), 2 * street + 6)
    up = (tuple(cards[:street]), tuple(cards[street:2 * street]))
    dead = format_cards([c for c in range(52) if c not in cards])
    players = [f"? | {format_cards(u)}" for u in up]
    r = solve_position(position=parse_position(players, dead), pot=6, stacks=stacks,
                       method=SolveMethod.CFR_PLUS, max_iterations=20)
    spec = RootSpec(up=up, pot=6, stacks=stacks)
    for point in r.decisions:
        hand = root_hand(spec, holes=[c for c in range(52) if c not in cards][:2])
        for step in point.history:
            hand.act(Action.parse(hand.actor or 0, step))
        assert hand.phase is Phase.BET and hand.actor == point.player
        assert point.actions == tuple(a.text() for a in hand.legal().actions())
        for hole in point.holes:
            assert all(p >= 0 for p in hole.probabilities)
            assert sum(hole.probabilities) == pytest.approx(1.0, abs=1e-9)
        assert sum(point.totals) == pytest.approx(1.0, abs=1e-9)


def test_third_round_within_the_target() -> None:
    dead = _dead_except("Kh 9c 4d Qc Js 7d", "Ah Ad 2c 9h 5s 6s 7c Tc Td 3h")
    r = solve_position(position=parse_position(["Ah | Kh 9c 4d", "? | Qc Js 7d"], dead), pot=10,
                       stacks=(8, 8), next_up="2c 5s")
    assert r.method is SolveMethod.CFR_PLUS and r.round_index == 2
    assert 0 <= r.exploitability.fraction <= 1e-3
    assert r.action_values is not None
    best = max(v.chips for v in r.action_values)
    for v in r.action_values:  # every action the equilibrium plays is (nearly) a best action
        if v.probability > 0.05:
            assert v.chips >= best - r.exploitability.chips * 10 - 1e-6
    assert any(d.next_up == tuple(parse_cards("2c 5s")) for d in r.decisions)
    card = parse_cards("Ah")[0]
    mix = r.policy(actions=["cc", "cc"], hole=card, next_up=parse_cards("2c 5s"))
    assert sum(mix.values()) == pytest.approx(1.0)
    assert np.isfinite(r.values).all() and r.values[0] + r.values[1] == pytest.approx(r.pot)


def test_solve_hand_on_a_live_hand_and_its_policy() -> None:
    history = parse_phh(EXAMPLE)
    cut = history.actions.index("p1 cc", 10)  # p1 to act on the last round
    hand = replay(dataclasses.replace(history, actions=history.actions[:cut], lines=history.lines[:cut],
                                      finishing_stacks=None), require_complete=False)
    r = solve_hand(hand, player=0)
    assert r.seats == (0, 1) and r.round_index == 3 and r.hole == parse_cards("Kh")[0]
    assert r.pot == hand.pot_total and r.stacks == (hand.stacks[0], hand.stacks[1])
    mix = r.policy_in(hand)
    assert mix == r.policy(hole=parse_cards("Kh")[0])
    assert r.action_values is not None and {v.action for v in r.action_values} == set(mix)
    hand.act(Action.parse(0, "cbr 4"))  # the other player's reply is read from the same result
    reply = r.policy_in(hand)
    assert set(reply) == {a.text() for a in hand.legal().actions()}


def test_stop_interrupts_cfr() -> None:
    dead = _dead_except("Kh 9c 4d Qc Js 7d", "Ah Ad 2c 9h 5s 6s")
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(Interrupted):
        solve_position(position=parse_position(["? | Kh 9c 4d", "? | Qc Js 7d"], dead), pot=10,
                       stacks=(8, 8), stop=stop, target=1e-9)
