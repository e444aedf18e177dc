"""``stud play --bots solver``: the bots sample the heads-up equilibrium for their own card (reproducibly,
never reading the other hole card), fall back to the simple policy where the equilibrium is not
computed, and the session summary prices the player's decisions against the equilibrium."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from exactodds.stud.bots.policy import bot_action
from exactodds.stud.bots.solver_bot import (
    PolicyUsed,
    SolverBots,
    action_text,
    decision_cost,
    sample,
    total_cost,
)
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.solve.api import solve_hand

from .cli_checks import run


def to_last_round(seed: int, *, actor: int) -> StudHand | None:
    """A heads-up hand dealt from a seeded deck, everyone checking/calling, stopped at ``actor``'s first
    last-round decision (None if never reached)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = StudHand(stacks=(30, 30))
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.DEAL:
            hand.deal_from(deck)
            continue
        legal = hand.legal()
        if hand.round_index == 3 and hand.actor == actor:
            return hand
        kind = "pb" if legal.bring_in is not None else "cc"
        hand.act(Action(player=legal.player, kind=kind))
    return None


HANDS = [h for h in (to_last_round(s, actor=1) for s in range(12)) if h is not None][:3]


@pytest.mark.parametrize("hand", HANDS)
def test_the_bot_samples_the_equilibrium_mix_of_its_own_card(hand):
    bots = SolverBots(seed=7)
    choice = bots.choose(hand, hand.legal())
    assert choice.policy is PolicyUsed.EQUILIBRIUM
    mix = solve_hand(hand, player=1).policy_in(hand)
    assert choice.mix == pytest.approx(mix, abs=1e-9)
    assert mix[action_text(choice.action)] > 0
    assert sum(mix.values()) == pytest.approx(1)


@pytest.mark.parametrize("hand", HANDS)
def test_the_bot_never_reads_the_other_hole_card(hand):
    first = SolverBots(seed=3).choose(hand, hand.legal())
    seen = {c for up in hand.up for c in up} | {hand.down[1]}
    other = next(c for c in range(52) if c not in seen and c != hand.down[0])
    hand.down[0] = other  # the opponent's hole card changes: nothing the bot sees does
    again = SolverBots(seed=3).choose(hand, hand.legal())
    assert (again.action, again.mix) == (first.action, first.mix)


def test_sampling_follows_the_mix_and_is_reproducible():
    mix = {"cc": 0.25, "cbr 4": 0.75, "f": 0.0}
    rng = random.Random(11)
    draws = Counter(sample(mix, rng) for _ in range(4000))
    assert draws["f"] == 0
    assert abs(draws["cc"] / 4000 - 0.25) < 4 * (0.25 * 0.75 / 4000) ** 0.5
    a, b = random.Random(5), random.Random(5)
    assert [sample(mix, a) for _ in range(100)] == [sample(mix, b) for _ in range(100)]


def test_the_simple_policy_acts_where_the_equilibrium_is_not_computed():
    hand = StudHand(stacks=(20, 20, 20))
    hand.deal_from(list(range(52)))
    choice = SolverBots(seed=1).choose(hand, hand.legal())
    assert choice.policy is PolicyUsed.SIMPLE and "rounds 2 to 4" in choice.why
    assert choice.action == bot_action(hand, hand.legal())


def test_the_third_round_uses_the_simple_policy_at_budget_zero():
    rng = random.Random(2)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = StudHand(stacks=(30, 30))
    while not (hand.phase is Phase.BET and hand.round_index == 2):
        if hand.phase is Phase.DEAL:
            hand.deal_from(deck)
            continue
        legal = hand.legal()
        hand.act(Action(player=legal.player, kind="pb" if legal.bring_in is not None else "cc"))
    choice = SolverBots(seed=1, third_round_budget=0).choose(hand, hand.legal())
    assert choice.policy is PolicyUsed.SIMPLE and "budget 0" in choice.why
    assert choice.action == bot_action(hand, hand.legal())


@pytest.mark.parametrize("hand", HANDS)
def test_a_decision_costs_the_gap_to_the_best_action(hand):
    result = solve_hand(hand, player=1)
    values = {v.action: v.chips for v in result.action_values}
    best = max(values.values())
    for text, chips in values.items():
        kind, _, amount = text.partition(" ")
        action = Action(player=1, kind=kind, amount=int(amount) if amount else None)
        cost = decision_cost(result, action, hand=1)
        assert cost.cost == pytest.approx(best - chips) and cost.cost >= -1e-9
        assert cost.chosen_chips == chips and cost.best_chips == pytest.approx(best, abs=1e-9)
    costs = [decision_cost(result, Action(player=1, kind="cc"), hand=1)] * 2
    assert total_cost(costs) == pytest.approx(2 * (best - values["cc"]))


def test_a_solver_session_is_reproducible_and_prices_the_decisions():
    keys = "p\nk\nc\n" * 40
    args = ("stud", "play", "--players", "2", "--hands", "2", "--seed", "5", "--stack", "50",
            "--bots", "solver", "--solver-budget", "0", "--coach", "--coach-samples", "200")
    first, again = run(*args, input=keys), run(*args, input=keys)
    assert first.exit_code == 0, first.output
    assert first.output == again.output
    out = first.output
    assert "(bot played the equilibrium" in out and "(bot played the simple policy" in out
    start = out.index("Your decisions against the equilibrium")
    out = out[start:out.index("Total cost against the equilibrium") + 200]
    rows = re.findall(r"^\s+\d+\s+[34]\s+\S.*?\s([+-]\d+\.\d\d)\s+\S.*?\s([+-]\d+\.\d\d)\s+(\d+\.\d\d)$", out,
                      flags=re.M)
    assert rows, out
    for chosen, best, cost in rows:
        assert float(cost) == pytest.approx(float(best) - float(chosen), abs=0.011)
    total = re.search(r"Total cost against the equilibrium: (\d+\.\d\d) chips over (\d+) decision", out)
    assert total and int(total.group(2)) == len(rows)
    assert float(total.group(1)) == pytest.approx(sum(float(r[2]) for r in rows), abs=0.01 * len(rows))


def test_the_help_says_where_the_solver_bots_play():
    out = run("stud", "play", "--help").output
    assert "--bots" in out and "equilibrium" in out and "their model elsewhere" in out
    assert "--solver-budget" in out
