"""The coach of ``stud play --coach``: the player's own view (no peeking at hidden cards), exact showdown
odds checked by brute force, a recommendation at every decision of a scripted five-player session in
plain words (no method name, no long fraction, the caveat once), the cost of every decision in the
summary, and the bots playing a chosen model."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from exactodds.cards import parse_cards
from exactodds.cli.stud.play import cost_lines
from exactodds.handrank import evaluate
from exactodds.stud.bots.solver_bot import DecisionCost
from exactodds.stud.decide.coach import CoachError, coach_advice, seen_position
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand

from .cli_checks import run

METHOD_WORDS = ("inclusion-exclusion", "monte carlo", "control variate", "rank-profile", "sampled deals",
                "sampled hands", "prefix enumeration", "CFR", "linear program", "seed")


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


def three_way_with_a_fold() -> StudHand:
    """p3 (3h, the lowest card) brings in, p1 calls, p2 folds its Kd 8s; round 2 is dealt."""
    hand = StudHand(stacks=(40, 40, 40))
    deal_round(hand, {0: "Ah 9c", 1: "Kd 8s", 2: "2s 3h"})
    act(hand, "pb", "cc", "f")
    deal_round(hand, {0: "Tc", 2: "Td"})
    return hand


def test_the_coach_does_not_see_hidden_cards_and_counts_folded_up_cards_as_dead():
    hand = three_way_with_a_fold()
    for _ in range(2):
        player = hand.actor
        position, seat = seen_position(hand, player)
        assert len(position.players) == 2 and position.players[seat].hole == hand.down[player]
        assert [p.hole for p in position.players].count(None) == 1
        assert set(position.dead) == {*parse_cards("8s")}
        assert not {hand.down[q] for q in range(3) if q != player} & set(position.known_cards())
        act(hand, "cc")


def test_last_street_odds_match_brute_force_and_the_decision_is_exact():
    hand = three_way_with_a_fold()
    act(hand, "cc", "cc")
    deal_round(hand, {0: "4c", 2: "Qd"})
    act(hand, "cc", "cc")
    deal_round(hand, {0: "5s", 2: "6d"})
    act(hand, "cbr 4")
    player = hand.actor
    advice = coach_advice(hand, player, models={q: "bots" for q in range(3) if q != player}, samples=100)
    odds = advice.pot_odds
    assert odds.equity.exact and odds.win == brute_force_equity(hand, player)
    assert (odds.to_call, odds.pot, odds.needed) == (4, hand.pot_total, Fraction(4, hand.pot_total + 4))
    assert advice.decision.exact and {a.words for a in advice.decision.actions} >= {"call 4", "fold"}
    with pytest.raises(CoachError, match="not to act"):
        coach_advice(hand, 1 - player if 1 - player >= 0 else 2, models={})


def _decisions(output: str) -> list[str]:
    """The text between each "Your turn." and its keys."""
    return re.findall(r"Your turn\.\n(.*?)\n  Keys:", output, flags=re.S)


def test_a_five_player_session_gets_a_recommendation_at_every_decision():
    keys = "p\nc\nk\n" * 60  # post, call or check: whichever is allowed
    out = run("stud", "play", "--players", "5", "--hands", "2", "--seed", "3", "--stack", "20", "--coach",
              "--coach-samples", "150", input=keys)
    assert out.exit_code == 0, out.output
    decisions = _decisions(out.output)
    assert len(decisions) >= 4
    recommendation = re.compile(r"^  Coach: [A-Z][a-z]+.*"
                                r"(better than|too close to call|worth the same|only action)")
    for text in decisions:
        first = text.splitlines()[0]
        assert recommendation.match(first), text
        assert "Pot odds: you win" in text
        for word in METHOD_WORDS:
            assert word not in text, (word, text)
        assert not re.search(r"\d{7,}", text), text  # no long fraction
    caveats = re.findall(r"Chips from now, estimated from [\d,]+ random deals", out.output)
    assert len(caveats) <= 1  # the caveat once
    summary = out.output[out.output.index("Your decisions against the bots"):]
    assert re.search(r"Total cost: \d+\.\d\d( ± \d+\.\d\d)? chips over (\d+) decision", summary)
    assert int(re.search(r"over (\d+) decision", summary).group(1)) == len(decisions)


def test_details_show_the_method_and_sample():
    out = run("stud", "play", "--players", "3", "--hands", "1", "--seed", "3", "--coach", "--details",
              "--coach-samples", "100", input="c\n" * 30)
    assert out.exit_code == 0, out.output
    assert "Method: " in out.output and "Showdown equity: " in out.output
    assert re.search(r"Sample: 100 \(seed \d+\)|Method: exact", out.output)


def test_the_bots_play_a_chosen_model_and_replay_exactly():
    out = run("stud", "play", "--players", "3", "--hands", "2", "--seed", "4", "--opponents", "rock",
              input="r\n" * 40)
    assert out.exit_code == 0, out.output
    assert "The bots play: bots playing rock." in out.output
    assert not re.search(r"bot \d (bets|raises|completes)", out.output)
    mixed = ["stud", "play", "--players", "3", "--hands", "2", "--seed", "4", "--opponents",
             "examples/opponents/friend.toml"]
    first, again = run(*mixed, input="c\n" * 40), run(*mixed, input="c\n" * 40)
    assert first.exit_code == 0 and first.output == again.output
    assert "--details goes with --coach" in run("stud", "play", "--players", "2", "--details").output


def test_an_action_within_the_solves_exploitability_is_not_a_mistake():
    """The equilibrium plays a bet 41% of the time with EV +0.94 against the best's +0.944, the solve
    being 0.01 chips from equilibrium: choosing it is not a mistake."""
    close = DecisionCost(hand=1, round_index=2, to_call=0, chosen="cbr 4", best="cc", best_chips=0.944,
                         chosen_chips=0.94, slack=0.01)
    wrong = DecisionCost(hand=2, round_index=3, to_call=4, chosen="f", best="cc", best_chips=2.0,
                         chosen_chips=0.0, slack=0.01)
    lines = cost_lines([close], title="Your decisions against the equilibrium")
    assert lines[-1].endswith("over 1 decision(s), 0 not the best")
    assert cost_lines([close, wrong], title="x")[-1].endswith("2 decision(s), 1 not the best")
