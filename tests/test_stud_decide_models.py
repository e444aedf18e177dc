"""Opponent models as data: the presets, the `bots` preset against the table's own policy, every kind of
bad model file, the strength measure against a brute-force count, and the many-deal readings of
cards against the engine's one-hand rules."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.cards import parse_cards
from exactodds.handrank import evaluate, rank_table
from exactodds.stud.bots.policy import bot_action
from exactodds.stud.decide.models import ModelError, available_models, load_model, model_from_dict
from exactodds.stud.decide.policy import model_action, model_probabilities
from exactodds.stud.decide.reading import open_pairs, openers, own_class, visible_keys
from exactodds.stud.decide.strength import strength
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.rules import round_opener, shows_open_pair, visible_key
from exactodds.stud.engine.state import Phase, StudHand
from tests.stud_hands import steps_hand


def test_presets_are_shipped():
    assert available_models() == ["bots", "calling-station", "maniac", "rock"]
    assert all(load_model(name).deterministic for name in available_models())


def test_the_bots_preset_is_the_tables_policy():
    """Random hands of 2 to 8 players, the actions sometimes random: at every decision the preset's
    action is the one the table's bots take."""
    model = load_model("bots")
    rng = random.Random(5)
    checked = 0
    for _ in range(150):
        players = rng.randint(2, 8)
        deck = list(range(52))
        rng.shuffle(deck)
        hand = StudHand(stacks=tuple(rng.randint(3, 40) for _ in range(players)))
        while hand.phase is not Phase.DONE:
            if hand.phase is Phase.DEAL:
                hand.deal_from(deck)
                continue
            legal = hand.legal()
            expected = bot_action(hand, legal)
            assert model_action(model, hand, legal) == expected
            checked += 1
            hand.act(rng.choice(legal.actions()) if rng.random() < 0.3 else expected)
    assert checked > 1000


def test_presets_act_as_described():
    hand = steps_hand("d0 Kh 9c", "d1 Qc 5h", stacks=20)
    legal = hand.legal()  # p2 shows the lowest card: it must bring in
    assert model_action(load_model("maniac"), hand, legal).kind == "cbr"  # it completes
    assert model_action(load_model("rock"), hand, legal).kind == "pb"
    hand.act(Action(player=1, kind="pb"))
    legal = hand.legal()
    assert model_action(load_model("rock"), hand, legal).kind == "f"  # folds to the bring-in
    assert model_action(load_model("calling-station"), hand, legal).kind == "cc"
    assert model_action(load_model("maniac"), hand, legal) == Action(player=0, kind="cbr", amount=2)


def test_a_mixed_style_reads_strength_and_mixes():
    style = model_from_dict({"name": "sam", "rule": [
        {"facing": "bet", "strength_at_least": 0.9, "raise": 0.75, "call": 0.25},
        {"facing": "bet", "strength_below": "1/2", "fold": "2/3", "call": "1/3"},
        {"call": 1}]})
    assert not style.deterministic and style.denominator == 12
    hand = steps_hand("d0 As 9c", "d1 Qc 5h", "a pb", stacks=20)  # p1: ace-nine, strength under 0.9
    assert model_probabilities(style, hand, hand.legal()) == {Action(player=0, kind="cc"): 1}
    strong = steps_hand("d0 As Ac", "d1 Qc 5h", "a pb", stacks=20)  # a pair of aces: over 0.9
    assert model_probabilities(style, strong, strong.legal()) == {
        Action(player=0, kind="cc"): Fraction(1, 4), Action(player=0, kind="cbr", amount=2): Fraction(3, 4)}
    weak = steps_hand("d0 2s 7c", "d1 Qc 5h", "a pb", stacks=20)
    assert model_probabilities(style, weak, weak.legal()) == {
        Action(player=0, kind="cc"): Fraction(1, 3), Action(player=0, kind="f"): Fraction(2, 3)}
    with pytest.raises(ValueError, match="mixes"):
        model_action(style, weak, weak.legal())
    assert model_action(style, weak, weak.legal(), random.Random(1)).kind in ("cc", "f")


@pytest.mark.parametrize(("rules", "message"), [
    ([{"fold": -0.2, "call": 1.2}], "'fold' must be a probability from 0 to 1, got -0.2"),
    ([{"fold": 0.5, "call": 0.4}], "the probabilities add up to 9/10, not 1"),
    ([{"raize": 1}], "unknown key 'raize'"),
    ([{"strength_at_least": 1.5, "call": 1}, {"call": 1}],
     "'strength_at_least' must be a number from 0 to 1"),
    ([{"strength_below": "high", "call": 1}, {"call": 1}], "'strength_below' must be a number from 0 to 1"),
    ([{"paired": True, "call": 1}], "the last rule must have no conditions"),
    ([{"facing": "raise", "call": 1}, {"call": 1}], "'facing' must be"),
    ([{"rounds": [0], "call": 1}, {"call": 1}], "'rounds' must be round numbers from 1 to 4"),
    ([{"hand_at_least": "flushes", "call": 1}, {"call": 1}], "'hand_at_least' must be one of"),
    ([{"bets_below": 0, "call": 1}, {"call": 1}], "'bets_below' must be a whole number from 1"),
    ([{"check": 1, "paired": "yes"}, {"call": 1}], "'paired' must be true or false"),
    ([{"facing": "bet"}], "gives no action"),
    ([], "at least one [[rule]]"),
])
def test_bad_models_are_refused_naming_the_rule_and_field(rules, message):
    with pytest.raises(ModelError) as info:
        model_from_dict({"name": "friend", "rule": rules}, origin="friend.toml")
    assert "opponent model friend.toml" in str(info.value) and message in str(info.value)


def test_bad_model_files_and_names(tmp_path):
    with pytest.raises(ModelError, match='unknown opponent model "rocky"'):
        load_model("rocky")
    with pytest.raises(ModelError, match="does not exist"):
        load_model(tmp_path / "missing.toml")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = \n")
    with pytest.raises(ModelError, match="is not valid TOML"):
        load_model(broken)
    odd = tmp_path / "odd.toml"
    odd.write_text('name = "odd"\nrule = [{call = 1}]\ncolour = "red"\n')
    with pytest.raises(ModelError, match="unknown field 'colour'"):
        load_model(odd)
    like_a_preset = tmp_path / "mine.toml"
    like_a_preset.write_text('name = "bots"\nrule = [{call = 1}]\n')
    with pytest.raises(ModelError, match="is called 'bots', like a preset"):
        load_model(like_a_preset)


def test_a_common_denominator_past_int64_room_is_refused():
    """Each probability is fine alone, but the weights are whole numbers over the rules' common
    denominator, counted in int64: 10^12 at most (four primes near 10^6 make about 10^24)."""
    primes = (999983, 999979, 999961, 999959)
    rules = [{"rounds": [k + 1], "fold": f"1/{p}", "call": f"{p - 1}/{p}"} for k, p in enumerate(primes[:3])]
    rules.append({"fold": f"1/{primes[3]}", "call": f"{primes[3] - 1}/{primes[3]}"})
    with pytest.raises(ModelError, match="common denominator of 999,882,004,995,910,678,570,843"):
        model_from_dict({"name": "primes", "rule": rules})
    assert model_from_dict({"name": "two", "rule": rules[:1] + rules[3:]}).denominator == 999983 * 999959


def _brute_strength(cards: list[int]) -> Fraction:
    counts = np.bincount(rank_table(), minlength=7462)
    below = np.cumsum(counts) - counts
    rest = [c for c in range(52) if c not in cards]
    total, n = 0, 0
    for completion in itertools.combinations(rest, 5 - len(cards)):
        s = evaluate([*cards, *completion])
        total += 2 * int(below[s]) + int(counts[s])
        n += 1
    return Fraction(total, 2 * 2598960 * n)


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_strength_against_a_brute_force_count(size):
    rng = random.Random(size)
    for _ in range(2):
        cards = rng.sample(range(52), size)
        assert strength(cards) == _brute_strength(cards)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.permutations(range(52)), min_size=1, max_size=1), st.integers(2, 6), st.integers(1, 4))
def test_readings_agree_with_the_engine_rules(decks, players, street):
    deck = decks[0]
    ups = [deck[p * street:(p + 1) * street] for p in range(players)]
    arrays = [np.array([u], dtype=np.int64) for u in ups]
    live = list(range(players))
    for r in range(street):
        cut = [np.array([u[:r + 1]], dtype=np.int64) for u in ups]
        shown = [u[:r + 1] for u in ups]
        assert int(openers(cut, live, round_index=r)[0]) == round_opener(shown, live, round_index=r)
        assert bool(open_pairs(cut, live, round_index=r)[0]) == shows_open_pair(shown, live, round_index=r)
    for i, j in itertools.combinations(range(players), 2):
        a, b = int(visible_keys(arrays[i])[0]), int(visible_keys(arrays[j])[0])
        assert (a > b) == (visible_key(ups[i]) > visible_key(ups[j]))


def test_own_class_of_five_cards_counts_straights_and_flushes():
    hands = np.array([parse_cards(text) for text in
                      ("9h 8h 7h 6h 5h", "9h 8c 7h 6h 5h", "Ah Kh 7h 6h 2h", "9h 9c 7h 7d 5h")])
    assert own_class(hands).tolist() == [8, 4, 5, 2]
