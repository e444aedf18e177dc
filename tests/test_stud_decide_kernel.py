"""The compiled play-out of sampled hands against the walk on the real engine: the same worlds, every
payoff equal (2 to 7 players, every round, the four presets, short stacks with all-ins and side
pots, dead money), and a mixed model's estimates within their sampling error of the walk's
expectation."""

from __future__ import annotations

import numpy as np
import pytest

from exactodds.stud.decide.belief import weigh_holes
from exactodds.stud.decide.deals import PreDrawn
from exactodds.stud.decide.hands import UNIFORMS, play_out
from exactodds.stud.decide.models import load_model, model_from_dict
from exactodds.stud.decide.sampling import running_error
from exactodds.stud.decide.walk import RootCells, Walk
from exactodds.stud.decide.worlds import draw_runs
from tests.test_stud_decide import played_to

PRESETS = ("bots", "calling-station", "rock", "maniac")


def _worlds(hand, hero, models, count, seed):
    belief = weigh_holes(hand, hero, models=models)
    rng = np.random.default_rng(seed)
    states = belief.sample(count, rng)
    cards = draw_runs(rng, np.array(belief.unseen, dtype=np.int64), count, hand, states)
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


READER = model_from_dict({"name": "reader", "rule": [
    {"facing": "bring-in", "bring_in": 1},
    {"hand_at_least": "two-pair", "call": 1},
    {"rounds": [4], "hand_at_least": "straight", "hand_below": "full-house", "raise": 1},
    {"paired": False, "strength_below": 0.35, "facing": "bet", "fold": 1},
    {"opponents_at_least": 3, "strength_at_least": 0.55, "raise": 1},
    {"opponents_at_most": 2, "hand_below": "pair", "top_card_covers_board": False, "facing": "bet",
     "fold": 1},
    {"paired": True, "bets_below": 2, "raise": 1},
    {"check": 1}]})


@pytest.mark.parametrize("case", range(8))
def test_a_model_reading_every_condition_plays_as_the_engine_walk(case):
    """Hand classes (rank groups, and five-card categories on the last round), strengths, who covers
    the board and how many are in: read once per world by the kernel, every payoff equal."""
    rng = np.random.default_rng(100 + case)
    players, round_index = int(rng.integers(2, 7)), case % 4
    hand = None
    seed = 9000 + 17 * case
    while hand is None:
        seed += 1
        hand = played_to(seed, players=players, hero=0, round_index=round_index,
                         stacks=int(rng.choice([9, 30])))
    models = {q: READER if q % 2 else load_model("bots") for q in range(1, hand.n)}
    belief, states, cards, holes, uniforms = _worlds(hand, 0, models, 120, case)
    actions, out = play_out(hand, 0, holes=holes, cards=cards, uniforms=uniforms, models=models, later=READER)
    reference = _walk(hand, 0, belief, states, cards, models, READER)
    for i, a in enumerate(actions):
        assert np.array_equal(out[:, i], reference[a].num), a


def test_runs_leave_out_each_worlds_hole_cards_as_a_plain_draw_would():
    """The runs of the cards to come: the same as ordering every unseen card by its key with the
    world's hole cards last (the broadcast comparison the faster lookup replaced)."""
    hand = played_to(5, players=5, hero=0, round_index=0)
    assert hand is not None
    seen = {hand.down[0], *(c for u in hand.up for c in u)}
    unseen = np.array(sorted(set(range(52)) - seen), dtype=np.int64)
    rng = np.random.default_rng(4)
    holes = np.stack([rng.choice(unseen, size=4, replace=False) for _ in range(300)])
    runs = draw_runs(np.random.default_rng(9), unseen, 300, hand, holes)
    keys = np.random.default_rng(9).random((300, len(unseen)))
    keys[(unseen[None, :, None] == holes[:, None, :]).any(axis=2)] = 2.0
    plain = unseen[np.argsort(keys, axis=1)[:, :3 * 5]].reshape(300, 3, 5)
    assert np.array_equal(runs, plain)
    assert not any(set(runs[w].ravel()) & set(holes[w]) for w in range(300))


def test_the_stopping_rules_running_error_is_the_samples_standard_error():
    rng = np.random.default_rng(2)
    chunks = [rng.integers(-20, 40, size=n).astype(np.float64) + 1000 for n in (7, 500, 3)]
    shift = chunks[0][0]
    total = sum(float((c - shift).sum()) for c in chunks)
    squares = sum(float((c - shift) @ (c - shift)) for c in chunks)
    every = np.concatenate(chunks)
    expected = every.std(ddof=1) / np.sqrt(len(every))
    assert running_error(total, squares, len(every)) == pytest.approx(expected, rel=1e-12)
    assert running_error(5.0, 25.0, 1) == float("inf")
