"""The public Python API: names exported from ``exactodds``, card strings everywhere, readable results."""

from __future__ import annotations

import re
import subprocess
import sys
from fractions import Fraction

import pytest

import exactodds
from exactodds.stud.equity import parse_position
from exactodds.stud.equity.position import PositionError as StudPositionError


def test_all_matches_the_lazy_exports_and_every_name_resolves() -> None:
    assert set(exactodds.__all__) == {"__version__", *exactodds._EXPORTS}
    for name in exactodds.__all__:
        assert getattr(exactodds, name) is not None
    assert set(exactodds.__all__) <= set(dir(exactodds))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        exactodds.nope  # noqa: B018


def test_import_is_light() -> None:
    code = ("import sys, exactodds; "
            "print(sorted(m for m in ('numpy', 'numba', 'scipy', 'click') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]"


def test_decide_prints_a_readable_result() -> None:
    code = "import exactodds; print(exactodds.decide('Qh Qs 9d 6c 2h', up='Jh'))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    assert lines[0] == "Qh Qs 9d 6c 2h against dealer Jh, standard paytable: RAISE"
    assert "EV(raise) = 42797/32637 = +1.311303 antes" in lines[1]
    assert lines[2].startswith("163,185 equally likely dealer completions")
    assert "70,801" in lines[2] and "70,056" in lines[2] and "22,328" in lines[2]


def test_decision_repr_and_html_show_cards_as_text() -> None:
    d = exactodds.decide([42, 43, 29, 16, 2], up=38, hole=["Jc"], dead="2c")  # integers and text mixed
    text = repr(d)
    assert text.startswith(
        "Decision(hand='Qh Qs 9d 6c 2h', up='Jh', hole='Jc', dead='2c', paytable='standard'")
    assert f"ev_raise={d.ev_raise!r}" in text and "decision='raise'" in text
    assert not re.search(r"hand=\(", text)  # no tuple of card integers
    page = d._repr_html_()
    assert "<table>" in page and "Qh Qs 9d 6c 2h" in page and f"{d.dealer_not_qualify:,}" in page


def test_game_result_str_and_html() -> None:
    game = exactodds.analyze("standard")
    assert repr(game).startswith("GameResult(paytable='standard', strategy='optimal', "
                                 "house_edge=Fraction(142031221, 2718662100)")
    text = str(game)
    assert "19,933,230,517,200 deals" in text and "5.2243% per ante" in text
    for row in game.rows:
        assert f"{row.combinations:,}" in text
    assert game._repr_html_().count("<tr>") == len(game.rows) + 1


def test_stud_equity_takes_text_and_matches_the_parsed_position() -> None:
    players = ["Kh | 9c 4d Ks 2h", "? | Qh 4c 7d 8d", "? | 8s 8h Js 3c"]
    from_text = exactodds.stud_equity(players, dead="2s 3s")
    from_position = exactodds.stud_equity(parse_position(players, dead="2s 3s"))
    assert from_text == from_position
    assert from_text.exact and sum(p.equity for p in from_text.players) == 1
    with pytest.raises(StudPositionError, match="inside the StudPosition"):
        exactodds.stud_equity(parse_position(players), dead="2s")


def test_stud_equity_example_of_the_brief() -> None:
    result = exactodds.stud_equity(["Kh | 9c 4d Ks 2h", "Qc | Qh Js 7d 3c"])
    assert result.exact and result.players[0].win == 1 and result.combinations == 1
    assert repr(result) == ("EquityResult(hands=['Kh | 9c 4d Ks 2h', 'Qc | Qh Js 7d 3c'], "
                            "method='heads-up inclusion-exclusion', exact=True, "
                            "combinations=1, equity=[1, 0])")
    assert str(result).splitlines()[2].split() == ["1", "Kh", "|", "9c", "4d", "Ks", "2h",
                                                   "100.000%", "0.000%", "0.000%", "100.000%"]
    assert "<table>" in result._repr_html_()


def test_stud_position_repr_reads_back() -> None:
    position = parse_position(["Kh | 9c 4d", "? | Qh 4c"], dead="2s")
    text = repr(position)
    assert text == "StudPosition(['Kh | 9c 4d', '? | Qh 4c'], dead='2s')"
    players = re.findall(r"'([^']*\|[^']*)'", text)
    assert parse_position(players, dead="2s") == position
    assert repr(position.players[1]) == "StudPlayer('? | Qh 4c')"


def test_hand_functions_take_text_or_integers() -> None:
    royal = "As Ks Qs Js Ts"
    cards = exactodds.parse_cards(royal)
    assert exactodds.evaluate(royal) == exactodds.evaluate(cards) == 7461
    assert exactodds.compare(cards, "Kh Kd Ac 3d 4s") == 1
    assert exactodds.describe(cards) == "royal flush"
    assert exactodds.format_cards(cards) == royal
    assert exactodds.load_profile("standard").pays["royal_flush"] == Fraction(100)


def test_every_public_function_has_a_docstring_example() -> None:
    import inspect

    for name in exactodds.__all__:
        value = getattr(exactodds, name)
        if inspect.isfunction(value):
            assert value.__doc__ and ">>>" in value.__doc__, name
