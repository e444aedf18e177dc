"""The best response to the bots: agreement with a brute-force walk of every deal on the real engine
(positions made small by many dead cards), and the Bayes filter on hand-built cases."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from exactodds.cards import parse_cards
from exactodds.cli.stud.play import lookahead_lines
from exactodds.stud.bots.belief import BeliefError, hidden_states, hole_candidates
from exactodds.stud.bots.policy import bot_action
from exactodds.stud.bots.response import BotResponseError, bot_response
from exactodds.stud.coach import lookahead_advice
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.solve.cfr import StopReason
from tests.stud_bot_brute import brute_action_evs


def played_to(seed: int, *, players: int, hero: int, round_index: int, stacks: int = 30) -> StudHand | None:
    """A hand dealt from a seeded deck, the bots following their policy and the hero acting at random
    (never folding), stopped at the hero's first decision on ``round_index`` (None if never reached)."""
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = StudHand(stacks=(stacks,) * players)
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.DEAL:
            hand.deal_from(deck)
            continue
        legal = hand.legal()
        if hand.actor == hero:
            if hand.round_index == round_index:
                return hand
            choices = [a for a in legal.actions() if a.kind != "f"]
            hand.act(rng.choice(choices))
        else:
            hand.act(bot_action(hand, legal))
    return None


def dead_cards(hand: StudHand, hero: int, *, keep: int, seed: int) -> tuple[int, ...]:
    """All but ``keep`` of the cards the hero has not seen, as dead cards (never a real hole card,
    so that the real hand stays possible)."""
    seen = {c for up in hand.up for c in up} | set(hand.down)
    unseen = [c for c in range(52) if c not in seen]
    random.Random(seed).shuffle(unseen)
    return tuple(sorted(unseen[keep - (hand.n - 1):]))


CASES = [  # (players, hero, round, cards left unseen)
    *[(2, 0, 3, 12)] * 3, *[(2, 1, 3, 12)] * 3,
    *[(2, 0, 2, 7)] * 2, *[(2, 1, 2, 7)] * 2,
    (2, 0, 1, 5), (2, 1, 1, 5),
    (3, 0, 3, 8), (3, 2, 3, 8), (3, 1, 2, 6),
]


@pytest.mark.parametrize(("k", "case"), list(enumerate(CASES)))
def test_agrees_with_brute_force(k: int, case: tuple[int, int, int, int]) -> None:
    players, hero, round_index, keep = case
    hand = None
    seed = 100 * k
    while hand is None:
        seed += 1
        hand = played_to(seed, players=players, hero=hero, round_index=round_index)
    dead = dead_cards(hand, hero, keep=keep, seed=seed)
    want = brute_action_evs(hand, hero, dead)
    got = bot_response(hand, player=hero, dead=dead, budget=60)
    assert got.exact
    assert {a.action: a.ev for a in got.actions} == want


def _hand(*steps: str, stacks: int = 40) -> StudHand:
    """A heads-up hand from compact steps: "d0 Kh 9c" deals to p1, "a cc" acts for the player to act."""
    hand = StudHand(stacks=(stacks, stacks))
    for step in steps:
        word, _, rest = step.partition(" ")
        if word.startswith("d"):
            hand.deal(int(word[1:]), parse_cards(rest))
        else:
            hand.act(Action.parse(hand.actor, rest))
    return hand


def test_completing_bot_holds_a_pair() -> None:
    # p2 shows Qh and completes: the policy completes only with a pair, so its hole card is a queen.
    hand = _hand("d0 Kh 9c", "d1 Qc Qh", "a pb", "a cbr 2")
    assert hole_candidates(hand, 0)[1] == tuple(parse_cards("Qc Qd Qs"))


def _cards(text: str) -> set[int]:
    return set(parse_cards(text))


def _round_two(bot_action_text: str | None = None) -> StudHand:
    """Hero p1 (3s down, Kc up) against the bot p2 (Ad down, 7d up): p2 brings in, p1 completes, p2
    calls; on the second round p1 (K-4 showing) bets 2 into the bot's 7-2."""
    hand = _hand("d0 3s Kc", "d1 Ad 7d", "a pb", "a cbr 2", "a cc", "d0 4h", "d1 2c", "a cbr 2")
    if bot_action_text is not None:
        hand.act(Action.parse(1, bot_action_text))
    return hand


def test_calling_bot_shows_a_card_as_high_as_the_king() -> None:
    # Without a pair the bot calls a bet only with a card at least as high as the K shown; with a
    # pair (a 7 or a 2 in the hole) it would have raised. So its hole card is a king or an ace.
    hand = _round_two()
    hand.act(bot_action(hand, hand.legal()))
    assert hand.events[-1].kind == "cc"
    assert set(hole_candidates(hand, 0)[1]) == _cards("Kd Kh Ks Ac Ad Ah As")


def test_folding_bot_holds_a_low_unpaired_card() -> None:
    # Had it folded instead (not its policy with the Ad, so only in a hand-built history): every
    # unseen card below a king that pairs neither the 7 nor the 2.
    hand = _round_two("f")
    seen = _cards("3s Kc 7d 4h 2c")
    want = {c for c in range(52) if c not in seen and c >> 2 < 11 and c >> 2 not in (5, 0)}
    assert set(hole_candidates(hand, 0)[1]) == want


def test_checking_bot_does_not_pair_its_up_cards() -> None:
    # On the second round the bot opens (Q-J showing beats 9-4) and checks: with a pair it bets.
    hand = _hand("d0 Kh 4c", "d1 8s Jd", "a pb", "a cc", "d0 9s", "d1 Qc", "a cc")
    seen = _cards("Kh 4c Jd 9s Qc")
    want = {c for c in range(52) if c not in seen and c >> 2 not in (9, 10)}
    assert set(hole_candidates(hand, 0)[1]) == want


def test_hidden_states_are_distinct_assignments() -> None:
    others, states = hidden_states({1: (5, 9), 2: (5,)})
    assert others == (1, 2) and states.tolist() == [[9, 5]]
    with pytest.raises(BeliefError, match="no hole cards"):
        hidden_states({1: ()})


def test_refuses_a_player_not_to_act() -> None:
    hand = _hand("d0 Kh 9c", "d1 Qc Qh")
    with pytest.raises(BeliefError, match="not to act"):
        bot_response(hand, player=1 - hand.legal().player)
    with pytest.raises(BotResponseError, match="budget"):
        bot_response(hand, player=hand.actor, budget=-1)


def test_sampled_early_round_is_labelled() -> None:
    hand = played_to(3, players=2, hero=0, round_index=0)
    assert hand is not None
    result = bot_response(hand, player=0, dead=dead_cards(hand, 0, keep=7, seed=3), budget=0.0, deals=4,
                          replicates=2)
    assert not result.exact and result.samples == 8
    assert all(a.standard_error is not None for a in result.actions)
    d = result.to_dict()
    assert d["exact"] is False and d["samples"] == 8 and d["seed"] == 1
    assert isinstance(result.best.ev, Fraction)


def test_coach_looks_ahead_heads_up_on_the_last_round() -> None:
    hand = _hand("d0 Kh 9c", "d1 Qc 5h", "a pb", "a cc", "d0 4d", "d1 Js", "a cc", "a cc",
                 "d0 Ks", "d1 7d", "a cc", "a cc", "d0 2h", "d1 3c")
    advice = lookahead_advice(hand, hand.actor)
    assert advice is not None and advice.equilibrium is not None
    assert advice.against_bots.exact
    assert advice.against_bots.to_dict() == bot_response(hand, player=hand.actor).to_dict() | {
        "seconds": advice.against_bots.seconds}
    lines = lookahead_lines(advice, to_call=0)
    assert "against the bots (the simple policy, exact)" in lines[0] and "equilibrium mix" in lines[1]
    assert "check " in lines[0] and "bet 4 " in lines[0]  # in words, not PHH codes
    early = _hand("d0 Kh 9c", "d1 Qc 5h")
    assert lookahead_advice(early, early.actor) is None


def test_coach_gives_the_equilibrium_on_the_third_round_too() -> None:
    hand = _hand("d0 Kh 9c", "d1 Qc 5h", "a pb", "a cc", "d0 4d", "d1 Js", "a cc", "a cc",
                 "d0 Ks", "d1 7d", stacks=12)  # two big bets behind: a second or two
    assert hand.round_index == 2
    advice = lookahead_advice(hand, hand.actor, budget=300.0)
    assert advice is not None and advice.equilibrium is not None, advice
    eq = advice.equilibrium
    assert eq.round_index == 2 and eq.stopped is StopReason.TARGET and eq.exploitability.fraction <= 0.005
    assert eq.action_values is not None and sum(v.probability for v in eq.action_values) == pytest.approx(1)
    lines = lookahead_lines(advice, to_call=0)
    assert "equilibrium mix for your card" in lines[1]
