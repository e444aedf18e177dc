"""The compiled play-out of sampled hands against the walk on the real engine: the same worlds, every
payoff equal (2 to 7 players, every round, the four presets, short stacks with all-ins and side
pots, dead money), and a mixed model's estimates within their sampling error of the walk's
expectation."""

from __future__ import annotations

import numpy as np
import pytest

from exactodds.stud.decide.api import _runs
from exactodds.stud.decide.belief import weigh_holes
from exactodds.stud.decide.deals import PreDrawn
from exactodds.stud.decide.hands import UNIFORMS, play_out
from exactodds.stud.decide.models import load_model, model_from_dict
from exactodds.stud.decide.walk import RootCells, Walk
from tests.test_stud_decide import played_to

PRESETS = ("bots", "calling-station", "rock", "maniac")


def _worlds(hand, hero, models, count, seed):
    belief = weigh_holes(hand, hero, models=models)
    rng = np.random.default_rng(seed)
    states = belief.sample(count, rng)
    cards = _runs(rng, np.array(belief.unseen, dtype=np.int64), count, hand, states)
    holes = np.zeros((count, hand.n), dtype=np.int64)
    for j, q in enumerate(belief.others):
        holes[:, q] = states[:, j]
    holes[:, hero] = hand.down[hero]
    return belief, states, cards, holes, rng.random((count, UNIFORMS))


def _walk(hand, hero, belief, states, cards, models, later, dead_money=0):
    walk = Walk(hand, hero, others=belief.others, states=states, models=models, later=later,
                best_from_round=hand.profile.rounds, dead_money=dead_money,
                dealing=PreDrawn(cards=cards, first_round=hand.round_index + 1),
                cells=RootCells.of_states(np.ones(len(states))))
    return walk.action_values()


@pytest.mark.parametrize("case", range(24))
def test_every_payoff_equals_the_engine_walk(case):
    rng = np.random.default_rng(case)
    players, hero = int(rng.integers(2, 8)), 0
    stacks = int(rng.choice([4, 7, 12, 30]))  # short stacks: all-ins and side pots
    hand = None
    seed = 5000 + 31 * case
    while hand is None:
        seed += 1
        hand = played_to(seed, players=players, hero=hero, round_index=int(rng.integers(0, 4)), stacks=stacks)
    models = {q: load_model(PRESETS[(q + case) % 4]) for q in range(hand.n) if q != hero}
    later = load_model(PRESETS[case % 4])
    dead_money = int(rng.integers(0, 3))
    belief, states, cards, holes, uniforms = _worlds(hand, hero, models, 150, case)
    actions, out = play_out(hand, hero, holes=holes, cards=cards, uniforms=uniforms, models=models,
                            later=later, dead_money=dead_money, threads=2)
    reference = _walk(hand, hero, belief, states, cards, models, later, dead_money)
    assert list(reference) == list(actions)
    for i, a in enumerate(actions):
        assert np.array_equal(out[:, i], reference[a].num), (a, np.flatnonzero(out[:, i] != reference[a].num))


def test_a_mixed_model_is_sampled_without_bias():
    """The kernel draws a mixed model's choices; the walk weighs them: over the same worlds the two
    agree within the sampling error of the draws."""
    style = model_from_dict({"name": "mix", "rule": [
        {"facing": "bet", "strength_at_least": 0.6, "raise": 0.5, "call": 0.5},
        {"facing": "bet", "fold": "1/3", "call": "2/3"},
        {"check": 1}]})
    hand = played_to(77, players=3, hero=0, round_index=2)
    assert hand is not None
    models = {q: style for q in range(1, hand.n)}
    later = load_model("bots")
    belief, states, cards, holes, uniforms = _worlds(hand, 0, models, 600, 3)
    actions, out = play_out(hand, 0, holes=holes, cards=cards, uniforms=uniforms, models=models, later=later)
    reference = _walk(hand, 0, belief, states, cards, models, later)
    for i, a in enumerate(actions):
        d = out[:, i] - reference[a].num  # per world: a draw of the mix minus its expectation
        assert abs(d.mean()) <= 4 * d.std(ddof=1) / np.sqrt(len(d)) + 1e-12, a
