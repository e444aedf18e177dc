"""The equity coach: the player's own view of the hand (no peeking at hidden cards), exact equity
checked by brute force over the unseen cards, the call/fold EV, and the label of a sampled estimate."""

from fractions import Fraction

import pytest

from exactodds.cards import parse_cards
from exactodds.cli.stud.play import coach_lines
from exactodds.handrank import evaluate
from exactodds.stud.coach import CoachError, coach_advice, player_view
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand


def deal_round(hand: StudHand, cards: dict[int, str]) -> None:
    for p, text in cards.items():
        hand.deal(p, parse_cards(text))


def act(hand: StudHand, *steps: str) -> None:
    for step in steps:
        hand.act(Action.parse(hand.actor, step))


def brute_force_equity(hand: StudHand, player: int) -> Fraction:
    """Last street: every live opponent's unknown hole card over the unseen deck, all equally likely."""
    live = hand.in_hand
    known = {hand.down[player], *(c for q in range(hand.n) for c in hand.up[q])}
    unseen = [c for c in range(52) if c not in known]
    opponents = [q for q in live if q != player]
    mine = evaluate(hand.cards_of(player))
    total, share = 0, Fraction(0)

    def walk(k: int, used: tuple[int, ...]) -> None:
        nonlocal total, share
        if k == len(opponents):
            best = max(evaluate((c, *hand.up[q])) for c, q in zip(used, opponents, strict=True))
            total += 1
            if mine > best:
                share += 1
            elif mine == best:
                tied = sum(evaluate((c, *hand.up[q])) == mine for c, q in zip(used, opponents, strict=True))
                share += Fraction(1, tied + 1)
            return
        for c in unseen:
            if c not in used:
                walk(k + 1, (*used, c))

    walk(0, ())
    return share / total


def last_street_heads_up() -> StudHand:
    hand = StudHand(stacks=(20, 20))
    deal_round(hand, {0: "Kh 9c", 1: "Qc Qh"})
    act(hand, "cbr 2", "cc")
    deal_round(hand, {0: "4d", 1: "Js"})
    act(hand, "cc", "cc")
    deal_round(hand, {0: "Ks", 1: "7d"})
    act(hand, "cbr 4", "cc")
    deal_round(hand, {0: "2h", 1: "3c"})
    act(hand, "cbr 4")  # p1 bets: p2 decides
    return hand


def test_heads_up_last_street_matches_brute_force_and_the_ev():
    hand = last_street_heads_up()
    advice = coach_advice(hand, 1)
    assert advice.equity.exact
    assert advice.player_equity == brute_force_equity(hand, 1)
    d = advice.decision
    assert (d.pot, d.to_call) == (hand.pot_total, 4) == (18, 4)
    assert d.ev_call == advice.player_equity * (d.pot + d.to_call) - d.to_call
    assert d.exact and d.kind.startswith("showdown EV")
    data = advice.to_dict()
    assert (data["pot"], data["to_call"]) == ("18/1", "4/1")
    assert data["ev_call"] == f"{d.ev_call.numerator}/{d.ev_call.denominator}" and data["exact"] is True


def three_way_with_a_fold() -> StudHand:
    """p3 (3h, the lowest card) brings in, p1 calls, p2 folds its Kd 8s; round 2 is dealt."""
    hand = StudHand(stacks=(40, 40, 40))
    deal_round(hand, {0: "Ah 9c", 1: "Kd 8s", 2: "2s 3h"})
    assert hand.actor == 2
    act(hand, "pb", "cc", "f")
    deal_round(hand, {0: "Tc", 2: "Td"})
    return hand


def test_the_coach_does_not_see_hidden_cards_and_counts_folded_up_cards_as_dead():
    hand = three_way_with_a_fold()
    for _ in range(2):
        player = hand.actor
        position, seat = player_view(hand, player)
        assert len(position.players) == 2 and position.players[seat].hole == hand.down[player]
        assert [p.hole for p in position.players].count(None) == 1
        assert set(position.dead) == {*parse_cards("8s")}  # the folded up card, not its hole card
        assert not {hand.down[q] for q in range(3) if q != player} & set(position.known_cards())
        act(hand, "cc")


def test_three_players_one_folded_last_street_matches_brute_force():
    hand = three_way_with_a_fold()
    act(hand, "cc", "cc")
    deal_round(hand, {0: "4c", 2: "Qd"})
    act(hand, "cc", "cc")
    deal_round(hand, {0: "5s", 2: "6d"})
    act(hand, "cbr 4")
    player = hand.actor
    advice = coach_advice(hand, player)
    assert set(advice.position.dead) == {*parse_cards("8s")}
    assert advice.equity.exact and advice.player_equity == brute_force_equity(hand, player)
    assert advice.decision.ev_call == advice.player_equity * (hand.pot_total + 4) - 4


def test_no_ev_when_checking_is_free_and_only_for_the_player_to_act():
    hand = StudHand(stacks=(20, 20))
    deal_round(hand, {0: "Kh 9c", 1: "Qc Qh"})
    act(hand, "cbr 2", "cc")
    deal_round(hand, {0: "4d", 1: "Js"})
    advice = coach_advice(hand, hand.actor)
    assert advice.decision is None and 0 < advice.player_equity < 1
    with pytest.raises(CoachError, match="not to act"):
        coach_advice(hand, 1 - hand.actor)
    assert advice.to_dict()["exact"] is True and "ev_call" not in advice.to_dict()


def test_a_sampled_estimate_is_labelled():
    hand = StudHand(stacks=(20, 20, 20, 20))
    deal_round(hand, {0: "Kh 9c", 1: "Qc Qh", 2: "2c 7d", 3: "Ts Jd"})
    act(hand, "pb")
    advice = coach_advice(hand, hand.actor, budget=0, samples=5_000, seed=3)
    assert not advice.equity.exact and advice.equity.samples == 5_000
    text = "\n".join(coach_lines(advice))
    assert "sampled estimate: 5,000 random deals, seed 3, standard error" in text
    assert "not modelled" in text  # facing the bring-in: the immediate pot-odds EV, so labelled
    data = advice.to_dict()
    assert data["exact"] is False and data["samples"] == 5_000 and data["standard_error"] > 0
