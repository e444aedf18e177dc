"""Five-card stud engine: hand-checked hands for each rule of the home fixed-limit profile."""

import random
from pathlib import Path

import pytest

from exactodds.cards import parse_cards
from exactodds.errors import IllegalActionError
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.rules import HOME_RULES, StudProfile, visible_key
from exactodds.stud.engine.settlement import Pot, build_pots, split_evenly
from exactodds.stud.engine.state import Phase, StudHand, TableSetupError
from exactodds.stud.history.phh import apply_line, load_phh, replay

HANDS = Path(__file__).resolve().parent.parent / "examples" / "hands"


def play(stacks, *lines, profile=HOME_RULES):
    hand = StudHand(stacks=stacks, profile=profile)
    for line in lines:
        apply_line(hand, line, {})
    return hand


def pots_of(hand):
    return [(p.amount, tuple(q + 1 for q in p.players)) for p in hand.outcome.pots]


def test_home_rules_worked_example_file():
    hand = replay(load_phh(HANDS / "home_rules_worked_example.phh"))
    out = hand.outcome
    assert pots_of(hand) == [(14, (1, 2))]
    assert out.payoffs == (7, -7)
    assert hand.contributed == [7, 7]
    assert out.finishing_stacks == (27, 13)
    assert out.showdown_order == (0, 1)  # a round of checks: the first player of the round shows first


# ------------------------------------------------------------------ who acts
@pytest.mark.parametrize(
    ("ups", "bring_in"),
    [
        (("As", "2s", "3c"), 1),  # ace is high: the deuce brings in
        (("5d", "5c", "5h"), 1),  # equal ranks: clubs lowest
        (("9c", "2s", "2h"), 2),  # hearts below spades
        (("Kc", "Kd", "Qs"), 2),
    ],
)
def test_bring_in_is_lowest_up_card_with_suit_ties(ups, bring_in):
    downs = ("Ah", "Ad", "Ac")
    hand = play((20, 20, 20), *(f"d dh p{i + 1} {downs[i]}{ups[i]}" for i in range(3)))
    assert hand.actor == bring_in
    legal = hand.legal()
    assert legal.bring_in == 1 and legal.raise_to == (2,)
    assert not legal.check and not legal.fold and legal.call is None


def test_bring_in_player_must_post_or_complete():
    hand = play((20, 20), "d dh p1 Ah2c", "d dh p2 Ad9c")
    for bad in ("cc", "f", "cbr 4"):
        before = hand.snapshot()
        with pytest.raises(IllegalActionError):
            hand.act(Action.parse(0, bad))
        assert hand.snapshot() == before
    hand.act(Action.parse(0, "pb"))
    legal = hand.legal()
    assert (legal.call, legal.raise_to, legal.fold) == (1, (2,), True)


def test_bring_in_player_with_one_chip_can_only_post_it():
    hand = play((2, 20), "d dh p1 Ah2c", "d dh p2 Ad9c")
    legal = hand.legal()
    assert (legal.bring_in, legal.raise_to) == (1, ())
    apply_line(hand, "p1 pb", {})
    assert hand.stacks[0] == 0 and hand.legal().raise_to == ()  # nobody left to raise against


def test_calling_the_bring_in_ends_the_round_without_an_option():
    hand = play((20, 20, 20), "d dh p1 Ah2c", "d dh p2 Ad9c", "d dh p3 AcTc", "p1 pb", "p2 cc", "p3 cc")
    assert hand.phase is Phase.DEAL and hand.round_index == 1
    assert hand.contributed == [2, 2, 2]


def test_ante_all_in_bring_in_still_owed_in_full():
    hand = play((1, 20, 20), "d dh p1 Ah2c", "d dh p2 Ad9c", "d dh p3 AcTc")
    assert hand.stacks[0] == 0 and hand.actor == 1
    legal = hand.legal()
    assert (legal.call, legal.raise_to) == (1, (2,))
    apply_line(hand, "p2 cc", {})
    apply_line(hand, "p3 cc", {})
    assert hand.contributed == [1, 2, 2] and hand.round_index == 1


def test_best_visible_combination_acts_first():
    # round 2: a pair of threes beats king-nine
    hand = play((20, 20), "d dh p1 Ah9c", "d dh p2 Ad3h", "p2 pb", "p1 cc", "d dh p1 Ks", "d dh p2 3d")
    assert hand.actor == 1
    # equal visible ranks: the suit of the highest card decides (K of hearts over K of clubs)
    hand = play((20, 20), "d dh p1 Ah7d", "d dh p2 Ad7c", "p2 pb", "p1 cc", "d dh p1 Kc", "d dh p2 Kh")
    assert hand.actor == 1
    hand = play((20, 20), "d dh p1 Ah7d", "d dh p2 Ad7c", "p2 pb", "p1 cc", "d dh p1 Ks", "d dh p2 Kh")
    assert hand.actor == 0


def test_visible_order_ignores_straights_and_flushes():
    assert visible_key(parse_cards("9c 2d 3h 4s")) > visible_key(parse_cards("5c 6d 7h 8s"))
    assert visible_key(parse_cards("Tc 3c 4d 6s")) > visible_key(parse_cards("2h 5h 7h 9h"))
    assert visible_key(parse_cards("2c 2d 3h 3s")) > visible_key(parse_cards("Ac Ad Kh Qs"))
    assert visible_key(parse_cards("2c 2d 2h 5s")) > visible_key(parse_cards("Ac Ad Kh Ks"))


def test_showdown_order_last_bettor_first():
    hand = play((20, 20), "d dh p1 Kh9c", "d dh p2 QcQh", "p1 cbr 2", "p2 cc", "d dh p1 4d", "d dh p2 Js",
                "p2 cc", "p1 cc", "d dh p1 Ks", "d dh p2 7d", "p1 cc", "p2 cc", "d dh p1 2h", "d dh p2 3c",
                "p1 cc", "p2 cbr 4", "p1 cc")
    assert hand.outcome.showdown_order == (1, 0)
    assert hand.outcome.payoffs == (7, -7)


# ------------------------------------------------------------------ limits
TWO_ROUNDS_PAIR = ("d dh p1 Ah9c", "d dh p2 Ad4h", "p2 pb", "p1 cc", "d dh p1 9d", "d dh p2 Ks")


def test_open_pair_allows_the_big_bet_and_it_sticks():
    hand = play((40, 40), *TWO_ROUNDS_PAIR)
    assert hand.actor == 0 and hand.legal().raise_to == (2, 4)
    apply_line(hand, "p1 cbr 2", {})
    assert hand.legal().raise_to == (4, 6)
    apply_line(hand, "p2 cbr 6", {})  # the big unit is now used
    assert hand.legal().raise_to == (10,)
    with pytest.raises(IllegalActionError, match="allowed: to 10"):
        hand.act(Action.parse(0, "cbr 8"))


def test_no_open_pair_means_small_unit_in_round_two():
    hand = play((40, 40), "d dh p1 Ah9c", "d dh p2 Ad4h", "p2 pb", "p1 cc", "d dh p1 8d", "d dh p2 Ks")
    assert hand.legal().raise_to == (2,)
    with pytest.raises(IllegalActionError):
        hand.act(Action.parse(hand.actor, "cbr 4"))


def test_raise_cap_with_three_players():
    hand = play((40, 40, 40), "d dh p1 Ah2c", "d dh p2 Ad9c", "d dh p3 AcTc",
                "p1 pb", "p2 cbr 2", "p3 cbr 4", "p1 cbr 6", "p2 cbr 8")
    legal = hand.legal()
    assert legal.player == 2 and legal.raise_to == () and legal.call == 4
    with pytest.raises(IllegalActionError, match="cap of a bet and 3 raises"):
        hand.act(Action.parse(2, "cbr 10"))


def test_no_raise_cap_heads_up():
    hand = play((40, 40), "d dh p1 Ah2c", "d dh p2 Ad9c",
                "p1 pb", "p2 cbr 2", "p1 cbr 4", "p2 cbr 6", "p1 cbr 8", "p2 cbr 10", "p1 cbr 12")
    assert hand.round_bets == [12, 10] and hand.legal().raise_to == (14,)


ROUND_3 = ("d dh p1 Ac2c", "d dh p2 Kd9h", "d dh p3 QsTh", "p1 pb", "p2 cc", "p3 cc",
           "d dh p1 3d", "d dh p2 4s", "d dh p3 5c", "p3 cc", "p1 cc", "p2 cc",
           "d dh p1 Jd", "d dh p2 6h", "d dh p3 7s")


def test_all_in_raise_below_half_unit_does_not_reopen():
    hand = play((40, 40, 7), *ROUND_3, "p1 cbr 4", "p2 cc", "p3 cbr 5")  # +1 < half of 4
    legal = hand.legal()
    assert legal.player == 0 and legal.call == 1 and legal.raise_to == ()
    with pytest.raises(IllegalActionError, match="short all-in does not reopen"):
        hand.act(Action.parse(0, "cbr 9"))
    apply_line(hand, "p1 cc", {})
    assert hand.legal().raise_to == ()


def test_all_in_raise_of_half_unit_reopens_and_next_raise_adds_a_unit():
    hand = play((40, 40, 8), *ROUND_3, "p1 cbr 4", "p2 cc", "p3 cbr 6")  # +2 = half of 4
    legal = hand.legal()
    assert legal.player == 0 and legal.call == 2 and legal.raise_to == (10,)
    apply_line(hand, "p1 cbr 10", {})


def test_player_who_has_not_acted_may_complete_after_a_short_all_in():
    hand = play((40, 7, 40), *ROUND_3, "p1 cbr 4", "p2 cbr 5")
    assert hand.legal().player == 2 and hand.legal().raise_to == (8,)
    apply_line(hand, "p3 cbr 8", {})
    assert hand.legal().player == 0 and hand.legal().raise_to == (12,)  # a full raise reopens


def test_check_raise_is_allowed_and_uncalled_excess_returned():
    hand = play((40, 40), "d dh p1 Kh9c", "d dh p2 QcQh", "p1 pb", "p2 cc", "d dh p1 4d", "d dh p2 Js",
                "p2 cc", "p1 cbr 2", "p2 cbr 4", "p1 f")
    out = hand.outcome
    assert pots_of(hand) == [(8, (2,))] and out.returned == (0, 2)
    assert out.payoffs == (-4, 4)


def test_fold_without_a_bet_is_refused_and_changes_nothing():
    hand = play((40, 40, 40), *ROUND_3)
    before = hand.snapshot()
    with pytest.raises(IllegalActionError, match="may not fold with no bet"):
        hand.act(Action.parse(0, "f"))
    with pytest.raises(IllegalActionError, match="p1's turn"):
        hand.act(Action.parse(1, "cc"))
    assert hand.snapshot() == before
    lenient = play((40, 40, 40), *ROUND_3, profile=StudProfile(fold_without_bet=True))
    lenient.act(Action.parse(0, "f"))
    assert lenient.folded == [True, False, False]


# ------------------------------------------------------------------ pots
def test_three_way_all_in_side_pot():
    hand = play((5, 9, 30), "d dh p1 AsKc", "d dh p2 3cQd", "d dh p3 2s2d",
                "p3 pb", "p1 cbr 2", "p2 cbr 4", "p3 cbr 6", "p1 cc", "p2 cbr 8", "p3 cc",
                "d dh p1 Ah", "d dh p2 4h", "d dh p3 5c", "d dh p1 Ad", "d dh p2 8c", "d dh p3 9h",
                "d dh p1 7s", "d dh p2 Jh", "d dh p3 Ts")
    assert hand.phase is Phase.DONE
    assert pots_of(hand) == [(15, (1, 2, 3)), (8, (2, 3))]
    assert hand.outcome.finishing_stacks == (15, 0, 29)
    assert hand.outcome.payoffs == (10, -9, -1)


def test_four_way_all_in_with_folded_contributor_and_uncalled_excess():
    hand = play((3, 5, 9, 20), "d dh p1 As2c", "d dh p2 Qs3d", "d dh p3 6sTh", "d dh p4 4c7h",
                "p1 cbr 2", "p2 cbr 4", "p3 cbr 6", "p4 cbr 8", "p3 f",
                "d dh p1 Ah", "d dh p2 Qh", "d dh p4 8c", "d dh p1 Ad", "d dh p2 Qd", "d dh p4 9d",
                "d dh p1 Ks", "d dh p2 5s", "d dh p4 Js")
    out = hand.outcome
    assert pots_of(hand) == [(12, (1, 2, 4)), (6, (2, 4)), (4, (4,))]
    assert out.returned == (0, 0, 0, 2)
    assert out.finishing_stacks == (12, 6, 2, 17)
    assert out.payoffs == (9, 1, -7, -3) and sum(out.payoffs) == 0


def test_split_pot_odd_chip_goes_left_of_dealer():
    hand = play((20, 20, 20), "d dh p1 Ac9h", "d dh p2 Ad9s", "d dh p3 3cQs",
                "p1 cbr 2", "p2 cc", "p3 f",
                "d dh p1 Kc", "d dh p2 Kd")
    card = {0: ["Jd", "Qd"], 1: ["Jh", "Qh"]}
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.DEAL:
            for p in list(hand.deal_due):
                hand.deal(p, parse_cards(card[p].pop()))
        else:
            hand.act(Action(player=hand.actor, kind="cc"))
    out = hand.outcome
    assert pots_of(hand) == [(7, (1, 2))]
    assert out.winners[0] == {0: 4, 1: 3}
    assert out.payoffs == (1, 0, -1)


def test_build_pots_and_split_by_hand():
    pots, returned = build_pots(contributions=(10, 25, 25, 40, 5), folded=(False, False, True, False, True))
    assert pots == (Pot(amount=5 * 5 + 5 * 4, players=(0, 1, 3)), Pot(amount=15 * 3, players=(1, 3)))
    assert returned == (0, 0, 0, 15, 0)
    assert split_evenly(11, (3, 1, 2)) == {1: 4, 2: 4, 3: 3}


def test_table_limits():
    with pytest.raises(TableSetupError, match="2 to 8 players"):
        StudHand(stacks=(10,))
    with pytest.raises(TableSetupError, match="positive"):
        StudHand(stacks=(10, 0))
    with pytest.raises(IllegalActionError, match="already been dealt"):
        play((10, 10), "d dh p1 AsKs", "d dh p2 AsQs")


def test_a_copy_is_independent_of_its_hand():
    """Hands played on from a copy at every step of random hands: the original never changes, and the
    copy plays on exactly as the original would."""
    rng = random.Random(8)
    for _ in range(40):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = StudHand(stacks=tuple(rng.randint(2, 30) for _ in range(rng.randint(2, 6))))
        while hand.phase is not Phase.DONE:
            before = hand.snapshot()
            twin = hand.copy()
            if hand.phase is Phase.DEAL:
                cards = [deck.pop() for _ in range(2 if hand.round_index == 0 else 1)]
                twin.deal(twin.deal_due[0], cards)
                assert hand.snapshot() == before
                hand.deal(hand.deal_due[0], cards)
            else:
                action = rng.choice(hand.legal().actions())
                twin.act(action)
                assert hand.snapshot() == before
                hand.act(action)
            assert twin.snapshot() == hand.snapshot()
