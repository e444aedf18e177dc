"""The strategy card: the cell evaluator against the per-situation strategy cost, the round trip."""

import re
from fractions import Fraction

import numpy as np
import pytest

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.analysis.result import TOTAL_DEALS
from exactodds.caribbean.strategy.card.evaluate import CardSearchError, build_cells, situation_features
from exactodds.caribbean.strategy.card.grammar import RULES_OF_THUMB
from exactodds.caribbean.strategy.card.result import strategy_card
from exactodds.caribbean.strategy.card.strategy_file import write_strategy_file
from exactodds.caribbean.strategy.strategies import BUILT_IN, evaluate_strategies, load_strategy

from .cli_checks import one_line_error, run


@pytest.fixture(scope="module")
def outcomes():
    return situation_outcomes("standard")


@pytest.fixture(scope="module")
def cells(outcomes):
    return build_cells(outcomes)


def test_rules_of_thumb_cost_agrees(outcomes, cells):
    assert cells.cost(RULES_OF_THUMB) == 44_846_352
    rows, ups, f = situation_features(outcomes)
    mask = np.zeros_like(outcomes.counts.valid)
    mask[rows, ups] = RULES_OF_THUMB.decide(f)
    assert (mask == BUILT_IN["rules-of-thumb"].raise_mask(outcomes)).all()


def test_round_trip(outcomes, cells, tmp_path):
    path = tmp_path / "card.py"
    write_strategy_file(RULES_OF_THUMB, path, paytable="standard")
    (result,) = evaluate_strategies(outcomes, [load_strategy(str(path))])
    assert result.cost_units == cells.cost(RULES_OF_THUMB) == 44_846_352


@pytest.mark.parametrize(("args", "fragments"), [
    (["--rules", "9"], ["--rules", "9"]),
    (["--rules", "-1"], ["--rules", "-1"]),
    (["--out", "{tmp}/card.docx"], ["--out", "card.docx"]),
    (["--paytable", "no-such-paytable"], ["no-such-paytable"]),
    (["--out", "{tmp}/missing/card.html"], ["missing", "does not exist"]),
])
def test_cli_refuses_bad_input_and_writes_nothing(tmp_path, args, fragments):
    args = [a.replace("{tmp}", str(tmp_path)) for a in args]
    one_line_error(run("caribbean", "card", *args), *fragments)
    assert list(tmp_path.rglob("*")) == []


def _mm(css: str, selector: str, prop: str) -> float:
    block = re.search(re.escape(selector) + r"\s*\{([^}]*)\}", css)
    assert block, selector
    value = re.search(prop + r":\s*([\d.]+)mm", block.group(1))
    assert value, (selector, prop)
    return float(value.group(1))


def test_html_card_is_pocket_sized(tmp_path):
    out = tmp_path / "card.html"
    result = run("caribbean", "card", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output and "44,846,352" in result.output
    html = out.read_text(encoding="utf-8")
    page = re.search(r"@page\s*\{\s*size:\s*([\d.]+)mm\s+([\d.]+)mm", html)
    assert page and (float(page.group(1)), float(page.group(2))) == (90.0, 60.0)  # 9 x 6 cm
    width, height = _mm(html, ".card", "width"), _mm(html, ".card", "height")
    assert 80 <= width <= 90 and 50 <= height <= 60
    assert "higher than your fourth-highest card" in html  # the standard 3-rule card itself


def test_standard_pareto_table_is_exact():
    result = strategy_card("standard", 3)
    assert [p.cost_units for p in result.pareto] == [48_899_189_088, 8_206_163_616, 1_066_300_128,
                                                    44_846_352, 28_297_872, 16_630_896]
    # 0 to 2 rules proven cheapest over the whole grammar (only A-K high is mixed), 3 to 5 found by the beam
    assert [p.proven for p in result.pareto] == [True, True, True, False, False, False]
    assert result.covers_grammar
    assert all(p.lower_units <= p.cost_units for p in result.pareto)
    assert [p.lower_units for p in result.pareto[:3]] == [p.cost_units for p in result.pareto[:3]]
    assert result.chosen.cost_units == result.rules_of_thumb_cost_units == 44_846_352
    assert all(len(p.card.rules) <= p.rules for p in result.pareto)
    assert result.chosen.house_edge == result.optimal.house_edge + Fraction(44_846_352, TOTAL_DEALS)


def test_searched_cards_round_trip_through_the_situation_evaluator(outcomes, tmp_path):
    """Each card's cost from the cells equals its strategy file's cost valued situation by situation."""
    result = strategy_card("standard", 3)
    for p in result.pareto[1:4]:
        path = tmp_path / f"card{p.rules}.py"
        write_strategy_file(p.card, path, paytable="standard")
        (valued,) = evaluate_strategies(outcomes, [load_strategy(str(path))])
        assert valued.cost_units == p.cost_units


@pytest.mark.parametrize("rules", [-1, 9, 2.5, True])
def test_strategy_card_refuses_a_bad_length(rules):
    with pytest.raises(CardSearchError, match="rules must be a whole number from 0 to 8"):
        strategy_card("standard", rules)


def test_cli_says_one_cost_and_what_a_unit_is():
    """The card's footer, its table row and the rules of thumb's line print the same cost per ante
    (0.000225%, not 0.00022% beside it), and the output says what a unit is."""
    result = run("caribbean", "card")
    assert result.exit_code == 0, result.output
    out = result.output
    footer = re.search(r"^Costs (\S+) of the ante", out, re.M).group(1)
    row = re.search(r"^3 +44,846,352 +(\S+) ", out, re.M).group(1)
    thumb = re.search(r"cost 44,846,352 units \((\S+) per ante\)", out).group(1)
    assert footer == row == thumb == "0.000225%"
    assert float(footer.rstrip("%")) / 100 == pytest.approx(44_846_352 / TOTAL_DEALS, rel=3e-3)
    assert f"A unit is one ante: a cost in units is the antes lost against optimal play summed over all " \
           f"{TOTAL_DEALS:,} deals" in out
