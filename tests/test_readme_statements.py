"""Statements the user documentation makes about the code, checked against it."""

import numpy as np

from exactodds.cards import format_cards, parse_cards
from exactodds.caribbean.analysis.counting import player_classes
from exactodds.symmetry import canonical_hands, suit_signature


def _suit_masks(hands: np.ndarray) -> np.ndarray:
    masks = np.zeros((len(hands), 4), dtype=np.int64)
    for j in range(hands.shape[1]):
        np.bitwise_or.at(masks, (np.arange(len(hands)), hands[:, j] & 3), np.int64(1) << (hands[:, j] >> 2))
    return masks


def test_the_strategy_tables_hand_puts_the_suit_with_the_highest_ranks_in_clubs():
    """Each class's hand names its suits by their sets of ranks, highest first (compared as 13-bit
    masks, ace the highest bit): clubs, diamonds, hearts, spades. Not by their length."""
    players = player_classes()[0]
    masks = _suit_masks(players)
    assert (np.diff(masks, axis=1) <= 0).all()
    lengths = np.array([[bin(int(m)).count("1") for m in row] for row in masks])
    assert (lengths.argmax(axis=1) != 0).any()  # the longest suit is often not clubs


def test_the_example_where_the_longest_suit_is_not_clubs():
    hand = np.array([parse_cards("Ac Kd 4h 3h 2h")], dtype=np.int64)
    canonical = canonical_hands(suit_signature(hand))[0]
    assert sorted(format_cards(canonical).split()) == sorted("Ac Kd 4h 3h 2h".split())
