"""The strength table: counts, order, and agreement with two independent evaluators."""

import hashlib
from collections import Counter

import numpy as np
import pytest
from phevaluator import evaluate_cards
from treys import Card as TreysCard
from treys import Evaluator

from exactodds.combinatorics import N_HANDS, all_subsets_colex, colex_index, colex_index_batch
from exactodds.handrank import (
    CATEGORY_FLOOR,
    Category,
    build_table,
    category_name,
    category_of,
    compare,
    describe,
    evaluate,
    evaluate_batch,
    table_digest,
)
from exactodds.symmetry import hand_classes

CATEGORY_COUNTS = {
    "royal flush": 4, "straight flush": 36, "four of a kind": 624, "full house": 3744,
    "flush": 5108, "straight": 10200, "three of a kind": 54912, "two pair": 123552,
    "pair": 1098240, "high card": 1302540,
}
DISTINCT = {
    Category.STRAIGHT_FLUSH: 10, Category.FOUR_OF_A_KIND: 156, Category.FULL_HOUSE: 156,
    Category.FLUSH: 1277, Category.STRAIGHT: 10, Category.THREE_OF_A_KIND: 858,
    Category.TWO_PAIR: 858, Category.PAIR: 2860, Category.HIGH_CARD: 1277,
}


def test_category_counts(table):
    names = Counter()
    for strength, n in enumerate(np.bincount(table, minlength=7462)):
        names[category_name(strength)] += int(n)
    assert dict(names) == CATEGORY_COUNTS
    assert sum(names.values()) == N_HANDS == 2_598_960


def test_distinct_strengths_per_category(table):
    present = np.unique(table)
    assert len(present) == 7462 and present[0] == 0 and present[-1] == 7461
    per_category = Counter(category_of(int(s)) for s in present)
    assert per_category == DISTINCT


def test_digest_pins_the_order_of_every_hand(table):
    expected = "c266188bf74c1a996a0415392a9a3293dbed9444185fca638f995c28b80fca59"
    assert hashlib.sha256(table.astype("<u2").tobytes()).hexdigest() == expected
    assert table_digest(table) == expected


def test_fresh_build_equals_cached_table(table):
    assert np.array_equal(build_table(), table)


def _same_order(ours: np.ndarray, theirs_lower_is_better: np.ndarray) -> None:
    """Two strength vectors order every pair of hands the same way."""
    order = np.argsort(ours, kind="stable")
    a, b = ours[order], -np.asarray(theirs_lower_is_better)[order]
    assert np.all(np.diff(b) >= 0), "a stronger hand (ours) is weaker for the reference"
    # equal strengths ⇔ equal reference values
    assert np.array_equal(np.diff(a) == 0, np.diff(b) == 0)


@pytest.fixture(scope="module")
def class_hands(all_hands):
    """One hand of each of the 134,459 suit classes: the independent evaluators check these, and
    :func:`test_every_hand_has_its_suit_class_strength` carries the check over to every hand."""
    return all_hands[hand_classes().representatives]


def test_every_hand_has_its_suit_class_strength(table, all_hands):
    """Each of the 2,598,960 hands is a renaming of suits of its class's representative (the same
    ranks, the same numbers of cards per suit) and has its strength: the evaluators' checks on the
    representatives hold for every hand (strengths, theirs and ours, ignore the suits' names)."""
    classes = hand_classes()
    of_class = classes.representatives[classes.class_of(all_hands)]
    representative = all_hands[of_class]
    assert np.array_equal(np.sort(all_hands >> 2, axis=1), np.sort(representative >> 2, axis=1))
    suits = np.arange(4, dtype=np.int8)
    per_suit = [np.sort(((h & 3)[:, :, None] == suits).sum(axis=1, dtype=np.int8), axis=1)
                for h in (all_hands, representative)]
    assert np.array_equal(*per_suit)
    assert np.array_equal(table, table[of_class])


def test_matches_phevaluator_on_every_suit_class(table, class_hands):
    # phevaluator uses our encoding (4 * rank + suit, clubs..spades) and lower = stronger.
    theirs = np.fromiter((evaluate_cards(*map(int, h)) for h in class_hands), np.int64, len(class_hands))
    _same_order(table[colex_index_batch(class_hands)].astype(np.int64), theirs)


def test_matches_treys_on_every_suit_class(table, class_hands):
    treys_cards = [TreysCard.new(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    evaluator = Evaluator()
    five = evaluator._five  # treys' own 5-card path (lower = stronger)
    theirs = np.fromiter(
        (five([treys_cards[c] for c in h]) for h in class_hands.tolist()), np.int64, len(class_hands)
    )
    _same_order(table[colex_index_batch(class_hands)].astype(np.int64), theirs)


@pytest.mark.parametrize(
    "stronger,weaker",
    [
        ("6h 2c 3d 4s 5h", "Ah 2c 3d 4s 5h"),  # wheel is the lowest straight
        ("Ah 2c 3d 4s 5h", "Kh Qc Jd 9s 8h"),  # but still a straight
        ("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c"),  # ace-high straight tops
        ("Kh Kd 7s 7c 2d", "Kc Ks 6s 6c Ad"),  # two pair: high pair, then low pair
        ("Kh Kd 7s 7c 3d", "Kc Ks 7h 7d 2d"),  # ... then kicker
        ("Ah Qh 9h 5h 3h", "Ad Qd 9d 5d 2d"),  # flush card by card to the last
        ("Ah Kh 9h 5h 3h", "Ad Qd Jd 9d 8d"),
        ("Qs Qd 9c 6h 3s", "Qh Qc 9d 6s 2c"),  # pair kickers down to the last
        ("2c 2d 2h 3c 3d", "As Ks Qs Js 9s"),  # full house beats flush
        ("5c 5d 5h 5s 2c", "4c 4d 4h 4s Ac"),  # quads by rank then kicker
        ("9s 8s 7s 6s 5s", "As 2s 3s 4s 5s"),  # steel wheel is the lowest straight flush
    ],
)
def test_tie_rules_from_the_seeds(stronger, weaker):
    assert compare(stronger, weaker) == 1
    assert compare(weaker, stronger) == -1


def test_k_a_2_3_4_is_not_a_straight():
    assert category_of(evaluate("Kh Ac 2d 3s 4h")) == Category.HIGH_CARD
    assert category_of(evaluate("Kh Ah 2h 3h 4h")) == Category.FLUSH


def test_suits_never_break_ties():
    assert compare("As Kd Qh Jc 9s", "Ad Kc Qs Jh 9h") == 0
    assert evaluate("Ah Kh Qh Jh 9h") == evaluate("As Ks Qs Js 9s")


def test_extremes_and_floors():
    assert evaluate("7h 5d 4c 3s 2h") == 0
    assert evaluate("As Ks Qs Js Ts") == 7461
    assert evaluate("2c 2d 3h 4s 5c") == CATEGORY_FLOOR[Category.PAIR]
    assert evaluate("Ah 2c 3d 4s 5h") == CATEGORY_FLOOR[Category.STRAIGHT]


@pytest.mark.parametrize(
    "hand,text",
    [
        ("Kh Kd 7s 7c Qd", "two pair, kings and sevens, queen kicker"),
        ("As Ks Qs Js Ts", "royal flush"),
        ("9s 8s 7s 6s 5s", "straight flush, nine high"),
        ("5c 5d 5h 5s 2c", "four fives, two kicker"),
        ("Kc Kd Kh 7s 7c", "full house, kings full of sevens"),
        ("Ah Qh 9h 5h 3h", "flush, ace-queen-nine-five-three"),
        ("Ah 2c 3d 4s 5h", "straight, five high"),
        ("Jc Jd Jh 9s 2c", "three jacks, nine-two kickers"),
        ("Qh Qs 9d 6c 2h", "pair of queens, nine-six-two kickers"),
        ("Ad Kc 9h 4s 3s", "ace high, king-nine-four-three"),
    ],
)
def test_descriptions(hand, text):
    assert describe(hand) == text


def test_batch_from_cards_and_from_indices(table, all_hands):
    rng = np.random.default_rng(7)
    idx = rng.integers(0, N_HANDS, 5000)
    hands = all_hands[idx]
    shuffled = rng.permuted(hands, axis=1)  # row order must not matter
    assert np.array_equal(colex_index_batch(shuffled), idx)
    assert np.array_equal(evaluate_batch(shuffled), table[idx])
    assert np.array_equal(evaluate_batch(idx), table[idx])
    assert evaluate(tuple(hands[0])) == table[idx[0]]


def test_colex_order_of_subsets():
    rows = all_subsets_colex(10, 3)
    assert [colex_index(r) for r in rows.tolist()] == list(range(len(rows)))


def test_batch_rejects_bad_shape():
    with pytest.raises(ValueError, match=r"\(n, 5\)"):
        evaluate_batch(np.zeros((3, 4), dtype=int))
