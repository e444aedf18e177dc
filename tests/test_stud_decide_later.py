"""The player's later play in sampled answers (:mod:`exactodds.stud.decide.later`): the better of the
``later`` models for each action, chosen on a pilot from its own seed stream, then valued on the main
samples. Checked against the exact EV of the chosen policy (no optimistic lean), on the reviewer's
case (completing against a maniac was valued as a fold to the raise), and one model keeping the
figures it gave before."""

from __future__ import annotations

import math

import numpy as np
import pytest

from exactodds.stud.decide.api import DecideError, decide_hand, decide_position
from exactodds.stud.decide.belief import weigh_holes
from exactodds.stud.decide.hands import play_out
from exactodds.stud.decide.later import choose_later
from exactodds.stud.decide.models import load_model
from exactodds.stud.decide.position import rebuild
from exactodds.stud.decide.result import DecideMethod
from exactodds.stud.decide.words import decision_lines
from exactodds.stud.decide.worlds import draw_hands, stream
from exactodds.stud.equity.position import parse_position
from tests.test_stud_decide import _policy_exact, dead_cards, position

MANIAC = load_model("maniac")
CANDIDATES = (load_model("bots"), load_model("calling-station"))


def _bring_in_hand():  # type: ignore[no-untyped-def]
    """Heads-up round 1: the player brings in with 7h under 2c against a 9s."""
    return rebuild(position=parse_position(["7h | 2c", "? | 9s"]), pot=2, stacks=(20, 20), history=()).hand


def test_each_actions_later_play_is_chosen_on_a_pilot_and_valued_without_bias():
    """Few cards left: against a maniac, bringing in is worth more with the bots' later play and
    completing with the calling station's (exact). Over seeds, the pilot picks those (bringing in is the
    closer call), and each action's estimate stands within 3 standard errors of the exact EV of the
    policy picked, whichever it is, the mean z near 0."""
    hand = _bring_in_hand()
    dead = dead_cards(hand, 0, keep=9, seed=2)
    models = {1: MANIAC}
    exact = {m.name: _policy_exact(hand, 0, models, dead, later=m, best_from_round=99) for m in CANDIDATES}
    bring_in, complete = hand.legal().actions()
    assert exact["bots"][bring_in] > exact["calling-station"][bring_in]
    assert exact["calling-station"][complete] > exact["bots"][complete] == -2
    seeds = 12
    z_sum = {bring_in: 0.0, complete: 0.0}
    bots_for_bring_in = 0
    for seed in range(seeds):
        got = decide_hand(hand, dead=dead, opponents="maniac", samples=400, seed=seed,
                          method=DecideMethod.SAMPLED_HANDS)
        assert got.pilot_samples == 2000 and got.later_candidates == ("bots", "calling-station")
        picked = {a.action: a.later_play for a in got.actions}
        assert picked[complete] == "calling-station"
        bots_for_bring_in += picked[bring_in] == "bots"
        for a in got.actions:
            assert a.standard_error
            z = (float(a.ev) - float(exact[a.later_play][a.action])) / a.standard_error
            assert abs(z) <= 3, (seed, a.words, z)
            z_sum[a.action] += z
    assert all(abs(s / seeds) <= 3 / math.sqrt(seeds) for s in z_sum.values())
    assert bots_for_bring_in >= seeds - 3


def test_the_pilot_draws_from_its_own_stream():
    """The pilot's means are those of its own hands (stream ``pilot=True``), and no pilot draw is a
    main draw of the same seed."""
    hand = position(3, 1, 1, 330)
    models = {q: load_model("bots") for q in (0, 2)}
    belief = weigh_holes(hand, 1, models=models)
    chose = choose_later(hand, 1, belief, models, CANDIDATES, samples=1000, budget=0, seed=7, dead_money=0)
    draws = draw_hands(hand, 1, belief, 2000, stream(7, 0, pilot=True))
    for model in CANDIDATES:
        actions, values = play_out(hand, 1, holes=draws.holes, cards=draws.cards, uniforms=draws.uniforms,
                                   models=models, later=model)
        for j, a in enumerate(actions):
            assert chose.pilot_means[a][model.name] == float(values[:, j].sum() / 2000)
    for seed in range(4):
        main = [stream(seed, k).random(4) for k in range(40)]
        pilot = [stream(seed, k, pilot=True).random(4) for k in range(40)]
        assert not any(np.array_equal(p, m) for p in pilot for m in main)


def test_completing_against_a_maniac_is_valued_with_the_calling_station():
    """The reviewer's case: completing was -2.00 in every sample (the later bots fold to the raise);
    now it is played on like a calling station, and the words say how the later play was chosen."""
    got = decide_position(position=["7h | 2c", "? | 9s"], pot=2, stacks=(20, 20), opponents="maniac",
                          samples=4000, seed=1)
    by_words = {a.words: a for a in got.actions}
    complete, bring_in = by_words["complete to 2"], by_words["bring in"]
    assert complete.later_play == "calling-station" and bring_in.later_play == "bots"
    assert complete.standard_error and complete.standard_error > 0.05 and complete.ev > -2
    one = decide_position(position=["7h | 2c", "? | 9s"], pot=2, stacks=(20, 20), opponents="maniac",
                          samples=4000, seed=1, later="bots")
    assert one.ev_of(complete.action).ev == -2 and one.ev_of(bring_in.action).ev == bring_in.ev  # paired
    text = "\n".join(decision_lines(got, opponents="maniac", details=True))
    assert "like the better of the bots and calling-station models for each action (chosen on a separate " \
           "sample)" in text
    assert "separate sample of 2,000 hands (its own seed stream): bring in: bots; complete to 2: " \
           "calling-station" in text
    data = got.to_dict()
    assert [a["later_play"] for a in data["actions"]] == ["bots", "calling-station"]


def test_one_later_model_keeps_the_figures_it_gave():
    """``later`` one model: no pilot, and each EV the mean of the kernel's play of the main stream's
    hands with that model, as before the choice existed."""
    hand = position(4, 0, 0, 50)
    models = {q: load_model("bots") for q in (1, 2, 3)}
    got = decide_hand(hand, samples=3000, seed=5, later="rock")
    assert got.pilot_samples is None and got.later_candidates == ("rock",) and got.later_play == "rock"
    belief = weigh_holes(hand, 0, models=models)
    draws = draw_hands(hand, 0, belief, 3000, stream(5, 0))
    actions, values = play_out(hand, 0, holes=draws.holes, cards=draws.cards, uniforms=draws.uniforms,
                               models=models, later=load_model("rock"))
    assert {a: float(got.ev_of(a).ev) for a in actions} == \
        {a: float(values[:, j].sum() / 3000) for j, a in enumerate(actions)}
    assert "you play the rest of the hand like the rock model." in decision_lines(got, opponents="bots")[-1]


def test_a_time_budgets_pilot_takes_its_share_and_an_empty_list_is_refused():
    """Without a fixed sample the pilot draws 2,000 hands, more while under a tenth of the budget, at
    most 20,000; no model of the later play at all is refused by name."""
    hand = _bring_in_hand()
    got = decide_hand(hand, opponents="maniac", budget=0.5, method=DecideMethod.SAMPLED_HANDS)
    assert got.pilot_samples is not None and 2000 <= got.pilot_samples <= 20_000
    assert got.pilot_samples % 2000 == 0 and got.samples is not None and got.samples >= 200
    with pytest.raises(DecideError, match="at least one model of your later play"):
        decide_hand(hand, later=())
