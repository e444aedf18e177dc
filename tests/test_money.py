"""The one bounded money parser: every form, every bound, and every caller uses it."""

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactodds.caribbean.profile import PAY_CATEGORIES, profile_from_dict
from exactodds.caribbean.sidebets.odds import sidebet_odds
from exactodds.caribbean.sidebets.profile import DEFAULT_PROGRESSIVE, SideBetError, parse_pays
from exactodds.errors import ExactOddsError, ProfileError
from exactodds.money import MAX_AMOUNT, AmountError, parse_amount
from exactodds.stud.equity import DecisionError, check_call_amounts


@pytest.mark.parametrize(("text", "expected"), [
    ("10", Fraction(10)), (" 2.5 ", Fraction(5, 2)), ("5/2", Fraction(5, 2)), ("1e3", Fraction(1000)),
    ("$250,000", Fraction(250_000)), ("1_000", Fraction(1000)), ("1,000.50", Fraction(2001, 2)),
    ("0", Fraction(0)), ("0.1", Fraction(1, 10)), ("1e12", Fraction(MAX_AMOUNT)),
    ("1e-12", Fraction(1, MAX_AMOUNT)), (0.1, Fraction(1, 10)), (Decimal("2.25"), Fraction(9, 4)),
    (7, Fraction(7)), (Fraction(1, 3), Fraction(1, 3)), (MAX_AMOUNT, Fraction(MAX_AMOUNT)),
])
def test_accepted_forms(text, expected):
    assert parse_amount(text) == expected


@pytest.mark.parametrize(("value", "words"), [
    ("1e400", "x is too large: 1e400 (at most 1,000,000,000,000)"),
    ("1e99999999", "too large"), (1e308, "too large"), (float("inf"), "too large"), ("inf", "too large"),
    (MAX_AMOUNT + 1, "too large"), ("1000000000001", "too large"), ("9" * 40, "too large"),
    ("1e-99999999", "too fine a fraction"), ("1/" + "3" * 40, "too fine a fraction"),
    (Fraction(1, 10**13), "too fine a fraction"), ("1e-13", "too fine a fraction"),
    ("-1", "must not be negative, got -1"), ("-1e400", "must not be negative"), (float("-inf"), "negative"),
    ("abc", 'must be a number such as 10, 2.5 or 5/2, got "abc"'), ("", 'got ""'), ("nan", "number"),
    (float("nan"), "number"), ("1/0", "number"), ("²", "number"), ("1,00", "number"), ("5/2/1", "number"),
    (True, "got bool"), (None, "got NoneType"), ([1], "got list"),
])
def test_refused_with_one_line_naming_the_value(value, words):
    with pytest.raises(AmountError) as info:
        parse_amount(value, name="x")
    message = str(info.value)
    assert words in message and "\n" not in message and message.startswith("x ")


@given(st.integers(min_value=0, max_value=MAX_AMOUNT), st.integers(min_value=1, max_value=10**6))
def test_fractions_round_trip_within_the_bound(numerator, denominator):
    value = Fraction(numerator, denominator)
    if value <= MAX_AMOUNT:
        assert parse_amount(f"{numerator}/{denominator}") == value == parse_amount(value)


@given(st.decimals(allow_nan=False, allow_infinity=False, min_value=0, max_value=MAX_AMOUNT, places=6))
def test_decimals_are_read_exactly(number):
    assert parse_amount(str(number)) == Fraction(number)


def test_callers_raise_their_own_error_class():
    with pytest.raises(DecisionError, match="--pot is too large"):
        check_call_amounts("1e400", "1", names=("--pot", "--to-call"))
    with pytest.raises(SideBetError, match="the meter is too large"):
        sidebet_odds(DEFAULT_PROGRESSIVE, meter="1e400")
    with pytest.raises(SideBetError, match="the amount for quads is too large"):
        parse_pays("quads=1e400")
    pays = {k: 1 for k in PAY_CATEGORIES}
    with pytest.raises(ProfileError, match=r"field 'pays.royal_flush' is too large: 1e\+308"):
        profile_from_dict({"name": "x", "pays": pays | {"royal_flush": 1e308}})
    with pytest.raises(ProfileError, match="field 'call' must not be negative"):
        profile_from_dict({"name": "x", "pays": pays, "call": -2})
    assert issubclass(AmountError, ExactOddsError)


def test_one_bound_for_every_caller():
    """The same amount is accepted, or refused, by every caller alike."""
    pays = {k: 1 for k in PAY_CATEGORIES}
    for amount, ok in ((MAX_AMOUNT, True), (MAX_AMOUNT + 1, False)):
        outcomes = []
        for call in (lambda a=amount: check_call_amounts(a, 1),
                     lambda a=amount: sidebet_odds(DEFAULT_PROGRESSIVE, meter=a),
                     lambda a=amount: parse_pays(f"flush={a}"),
                     lambda a=amount: profile_from_dict({"name": "x", "pays": pays | {"royal_flush": a}})):
            try:
                call()
                outcomes.append(True)
            except ExactOddsError:
                outcomes.append(False)
        assert outcomes == [ok] * 4
