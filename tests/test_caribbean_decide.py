"""The single decision: hand-checkable cases, bad input, and the fast path against a plain enumeration."""

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest

from exactodds.cards import parse_cards
from exactodds.caribbean.decision.decide import _dealer_colex, decide
from exactodds.caribbean.decision.settle import settle
from exactodds.caribbean.profile import load_profile, profile_from_dict
from exactodds.combinatorics import colex_index, colex_index_batch
from exactodds.errors import (
    CardError,
    DuplicateCardError,
    HandSizeError,
    NotEnoughCardsError,
    ProfileError,
)
from exactodds.handrank import CATEGORY_FLOOR, Category, cards_of_index, evaluate, rank_table

SHIPPED = ("standard", "betmgm", "royal500", "royal200", "royal250", "microgaming")
SEED_HAND = "Qh Qs 9d 6c 2h"


def reference(hand, *, up, hole=(), dead=(), profile="standard"):
    """Plain enumeration: every completion, evaluated and settled one by one; Fractions summed."""
    prof = load_profile(profile)
    hand, known = parse_cards(hand), parse_cards([up]) + parse_cards(hole)
    out = set(hand) | set(known) | set(parse_cards(dead))
    unseen = [c for c in range(52) if c not in out]
    table = rank_table()  # evaluate() without its parsing: the same lookup, faster
    player = evaluate(hand)
    events: Counter[str] = Counter()
    total = Fraction(0)
    for extra in combinations(unseen, 5 - len(known)):
        dealer = int(table[colex_index(known + extra)])
        result = settle(player, dealer, raised=True, profile=prof)
        events[result.event] += 1
        total += result.net
    return events, total / sum(events.values())


def assert_matches_reference(decision, **situation):
    events, ev = reference(**situation)
    assert {o.event: o.count for o in decision.outcomes} == dict(events)
    assert decision.completions == sum(events.values())
    assert decision.dealer_not_qualify == events["dealer_not_qualify"]
    assert decision.tie == events["push"] and decision.dealer_wins == events["dealer_wins"]
    wins = {e.removeprefix("win_"): n for e, n in events.items() if e.startswith("win_")}
    assert dict(decision.wins_by_payout) == wins and decision.player_wins == sum(wins.values())
    assert decision.ev_raise == ev


# --------------------------------------------------------------------------- worked example
def test_home_session_worked_example_all_dealer_cards_known():
    d = decide(SEED_HAND, up="Jh", hole="Jc As 8d 3c")
    assert d.completions == 1 and d.player_wins == 1
    assert [(o.event, o.count, o.net) for o in d.outcomes] == [("win_pair", 1, 3)]
    assert d.ev_raise == 3 and d.decision == "raise" and d.margin == 4


def test_home_session_hand_with_only_the_up_card_known():
    d = decide(SEED_HAND, up="Jh")
    assert d.completions == comb(46, 4) == 163_185
    assert (d.dealer_not_qualify, d.player_wins, d.tie, d.dealer_wins) == (70_801, 70_056, 0, 22_328)
    assert dict(d.wins_by_payout) == {"pair": 70_056}
    assert d.ev_raise == Fraction(213_985, 163_185) == Fraction(42_797, 32_637)
    assert d.ev_fold == -1 and d.decision == "raise" and d.margin == Fraction(75_434, 32_637)
    assert d.ev_raise_float == pytest.approx(1.311303122)
    assert_matches_reference(d, hand=SEED_HAND, up="Jh")


# --------------------------------------------------------------------------- hand-checkable cases
@pytest.mark.parametrize("profile", SHIPPED)
def test_royal_flush_always_raises(profile):
    for up in range(52):
        if up in parse_cards("As Ks Qs Js Ts"):
            continue
        d = decide("As Ks Qs Js Ts", up=up, profile=profile)
        assert d.dealer_wins == 0 and d.decision == "raise" and d.ev_raise > 1


def test_seven_high_folds_against_every_up_card():
    hand = "7c 5d 4h 3s 2c"
    for up in range(52):
        if up in parse_cards(hand):
            continue
        d = decide(hand, up=up)
        assert d.player_wins == 0 and d.tie == 0 and d.win_category is None
        assert d.ev_raise == Fraction(d.dealer_not_qualify - 3 * d.dealer_wins, d.completions)
        assert d.decision == "fold" and d.ev_raise < -1


def test_exact_tie_of_hands_pays_nothing():
    d = decide("Ah Kh 9h 5c 2s", up="As", hole="Ks 9s 5d 2d")
    assert (d.completions, d.tie, d.ev_raise, d.decision) == (1, 1, 0, "raise")


def test_exact_ev_tie_folds():
    # Dealer K-Q-9-8 draws 6h (no qualifier: +1) or Ah (A-K beats A-J: -3): EV(raise) = -1 exactly.
    keep = set(parse_cards("Ad Jc 5h 4s 3c Kd Qh 9c 8s 6h Ah"))
    dead = [c for c in range(52) if c not in keep]
    d = decide("Ad Jc 5h 4s 3c", up="Kd", hole=["Qh", "9c 8s"], dead=dead)
    assert (d.completions, d.dealer_not_qualify, d.dealer_wins) == (2, 1, 1)
    assert d.ev_raise == d.ev_fold == -1 and d.margin == 0 and d.decision == "fold"


def test_completion_counts_shrink_with_known_and_dead_cards():
    assert decide(SEED_HAND, up="Jh", dead="Ac Ad").completions == comb(44, 4)
    assert decide(SEED_HAND, up="Jh", hole="Jc").completions == comb(45, 3)
    assert decide(SEED_HAND, up="Jh", hole=("Jc", "As"), dead="2c 3d 4s").completions == comb(41, 2)
    exhausted = decide(SEED_HAND, up="Jh", hole="Jc", dead=[c for c in range(52) if c not in
                                                          parse_cards(SEED_HAND + " Jh Jc As 8d 3c")])
    assert exhausted.completions == comb(3, 3) == 1 and exhausted.player_wins == 1


def test_cards_as_integers_give_the_same_answer():
    a = decide(SEED_HAND, up="Jh", hole="Jc", dead="2c")
    b = decide(parse_cards(SEED_HAND), up=parse_cards("Jh")[0], hole=parse_cards("Jc"), dead=[0])
    assert a == b


def test_dealer_colex_matches_sorting_rows():
    rng = np.random.default_rng(3)
    for known_count in range(1, 6):
        deck = rng.permutation(52)
        known = np.sort(deck[:known_count])
        unseen = np.sort(deck[known_count:known_count + 20])
        got = _dealer_colex(unseen, known)
        hands = [tuple(known) + extra for extra in combinations(unseen.tolist(), 5 - known_count)]
        # Both enumerate the same hands, in different orders (colex there, lexicographic here).
        assert np.array_equal(np.sort(got), np.sort(colex_index_batch(np.array(hands))))


# --------------------------------------------------------------------------- against the plain enumeration
CUSTOM = {  # the optional fields: call size, pair qualifier, a cap, fractional pays
    "custom-call3-pair-cap": profile_from_dict({
        "name": "c1", "call": 3, "qualifier": "pair", "cap": 60,
        "pays": {"royal_flush": 250, "straight_flush": 50, "four_of_a_kind": 25, "full_house": 8,
                 "flush": "11/2", "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1,
                 "ak_high": 0},
    }),
}


def random_situations(count: int, seed: int):
    """Random situations: any number of seen hole cards, dead cards so the enumeration stays small.

    Some hands are drawn among straights or better (to reach the big pays); some dealers share
    the player's ranks (to make ties).
    """
    rng = np.random.default_rng(seed)
    table = rank_table()
    strong = np.flatnonzero(table >= CATEGORY_FLOOR[Category.STRAIGHT])
    profiles = list(SHIPPED) + list(CUSTOM)
    for i in range(count):
        if rng.random() < 0.35:
            hand = list(cards_of_index(int(rng.choice(strong))))
        else:
            hand = rng.choice(52, 5, replace=False).tolist()
        rest = [c for c in rng.permutation(52).tolist() if c not in hand]
        hole_count = i % 5
        if rng.random() < 0.25:  # dealer cards with the player's ranks, other suits
            mirrored = [c for c in rest if any(c >> 2 == h >> 2 for h in hand)]
            rest = mirrored + [c for c in rest if c not in mirrored]
        known, rest = rest[: 1 + hole_count], rest[1 + hole_count:]
        rng.shuffle(rest)
        missing = 4 - hole_count
        # Unseen cards: keep C(unseen, missing) at most a few thousand.
        most = {4: 17, 3: 26, 2: 47, 1: 47, 0: 47}[missing]
        unseen = int(rng.integers(max(missing, 8), min(most, len(rest)) + 1))
        yield {
            "hand": hand, "up": known[0], "hole": known[1:], "dead": rest[unseen:],
            "profile": profiles[i % len(profiles)],
        }


SITUATIONS = list(random_situations(210, seed=2026))


@pytest.mark.parametrize("chunk", range(6))
def test_fast_path_matches_plain_enumeration(chunk):
    for situation in SITUATIONS[chunk::6]:
        situation = situation | {"profile": CUSTOM.get(situation["profile"], situation["profile"])}
        assert_matches_reference(decide(**situation), **situation)


def test_random_situations_cover_the_cases():
    assert len(SITUATIONS) >= 200
    assert {len(s["hole"]) for s in SITUATIONS} == {0, 1, 2, 3, 4}
    assert {s["profile"] for s in SITUATIONS} == set(SHIPPED) | set(CUSTOM)
    assert sum(bool(s["dead"]) for s in SITUATIONS) > 150
    decisions = [decide(**(s | {"profile": CUSTOM.get(s["profile"], s["profile"])})) for s in SITUATIONS]
    assert sum(d.tie > 0 for d in decisions) >= 5
    assert {d.decision for d in decisions} == {"raise", "fold"}
    assert len({d.win_category for d in decisions if d.player_wins}) >= 7


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "kwargs,error,message",
    [
        ({"hand": SEED_HAND, "up": "Qh"}, DuplicateCardError,
         "card Qh is in both the player's hand and the dealer's up card"),
        ({"hand": SEED_HAND, "up": "Jh", "dead": "Ac 2h"}, DuplicateCardError,
         "card 2h is in both the player's hand and the dead cards"),
        ({"hand": SEED_HAND, "up": "Jh", "hole": "Jh"}, DuplicateCardError,
         "card Jh is in both the dealer's up card and the dealer's hole cards"),
        ({"hand": SEED_HAND, "up": "Jh", "hole": "3c", "dead": "3c"}, DuplicateCardError,
         "card 3c is in both the dealer's hole cards and the dead cards"),
        ({"hand": SEED_HAND, "up": "Jh", "dead": "Ac Ac"}, DuplicateCardError,
         "duplicate card Ac in the dead cards"),
        ({"hand": "Qh Qs 9d 6c", "up": "Jh"}, HandSizeError,
         "the player's hand must have exactly 5 cards, got 4"),
        ({"hand": SEED_HAND, "up": "Jh Jc"}, HandSizeError, "up card must be exactly one card, got 2"),
        ({"hand": SEED_HAND, "up": ""}, HandSizeError, "up card must be exactly one card, got 0"),
        ({"hand": SEED_HAND, "up": "Jh", "hole": "2c 3c 4c 5c 7c"}, HandSizeError, "at most 4 cards, got 5"),
        ({"hand": SEED_HAND, "up": "Jh", "dead": [c for c in range(52) if c not in
                                                  parse_cards(SEED_HAND + " Jh 2c 3c 4c")]},
         NotEnoughCardsError, "only 3 unseen cards are left, but the dealer needs 4 more"),
        ({"hand": SEED_HAND, "up": "Jh", "profile": "nosuch"}, ProfileError, 'unknown paytable "nosuch"'),
        ({"hand": SEED_HAND, "up": "1x"}, CardError, 'unknown card "1x"'),
    ],
)
def test_bad_input(kwargs, error, message):
    with pytest.raises(error) as info:
        decide(**kwargs)
    assert message in str(info.value)
