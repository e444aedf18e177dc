import pytest

from exactodds.cards import (
    format_card,
    format_cards,
    make_card,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from exactodds.errors import CardError, DuplicateCardError, HandSizeError


def test_encoding_is_four_times_rank_plus_suit():
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("2h") == 2
    assert parse_card("2s") == 3
    assert parse_card("As") == 51
    assert parse_card("Td") == make_card(8, 1) == 33
    assert rank_of(51) == 12 and suit_of(51) == 3


@pytest.mark.parametrize(
    "text",
    ["As Kd 10h 9c 2s", "AsKd10h9c2s", "AsKdTh9c2s", "as kd th 9c 2s", "A♠ K♦ 10♥ 9♣ 2♠",
     "A♠K♦T♥9♣2♠", "As,Kd,Th,9c,2s", "  AS  KD  TH 9C 2S "],
)
def test_accepts_what_people_type(text):
    assert parse_cards(text) == (51, 45, 34, 28, 3)


def test_list_input_and_ints():
    assert parse_cards(["As", "Kd"]) == (51, 45)
    assert parse_cards([51, 45]) == (51, 45)


def test_round_trips_every_card():
    for card in range(52):
        assert parse_card(format_card(card)) == card
        assert parse_card(format_card(card, pretty=True)) == card
    assert format_cards(range(4), pretty=True) == "2♣ 2♦ 2♥ 2♠"
    assert format_cards(parse_cards("10h js")) == "Th Js"


@pytest.mark.parametrize("text,bad", [("1x", "1x"), ("As 1x Kd", "1x"), ("Ax", "Ax"),
                                      ("Zs", "Zs"), ("A", "A"), ("11h", "11h")])
def test_unknown_card_is_named(text, bad):
    with pytest.raises(CardError, match=f'unknown card "{bad}"'):
        parse_cards(text)


def test_duplicate_card_is_named():
    with pytest.raises(DuplicateCardError, match="duplicate card Kd"):
        parse_cards("As Kd kd")


@pytest.mark.parametrize("text,n", [("As Kd Qh Jc", 4), ("As Kd Qh Jc Ts 9s", 6)])
def test_wrong_number_of_cards(text, n):
    with pytest.raises(HandSizeError, match=f"exactly 5 cards, got {n}"):
        parse_cards(text, count=5)


def test_out_of_range_int():
    with pytest.raises(CardError):
        parse_cards([52])
