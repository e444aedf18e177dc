"""Strategies: the published totals exactly, user rules and strategy tables, bad input."""

import re

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.strategy.strategies import (
    BUILT_IN,
    evaluate_strategies,
    load_strategy,
    situation_index,
)
from exactodds.caribbean.strategy.table import strategy_arrow_table, write_strategy
from exactodds.cli.main import cli
from exactodds.combinatorics import all_subsets_colex
from exactodds.errors import StrategyError

PUBLISHED_TOTAL_LOSS = {
    "optimal": 1_041_372_912_372,
    "rules-of-thumb": 1_041_417_758_724,
    "akj83": 1_059_715_400_580,
    "matching-rank": 1_063_176_931_284,
    "pair-plus": 1_090_272_101_460,
    "ak-plus": 1_132_600_203_540,
    "always-raise": 3_310_360_338_060,
}


@pytest.fixture(scope="module")
def outcomes():
    return situation_outcomes("standard")


@pytest.fixture(scope="module")
def built_in_results(outcomes):
    return {r.result.strategy: r for r in evaluate_strategies(outcomes, list(BUILT_IN.values()))}


@pytest.mark.parametrize("name", list(PUBLISHED_TOTAL_LOSS))
def test_published_strategy_totals_exactly(built_in_results, name):
    item = built_in_results[name]
    assert item.result.total_units == -PUBLISHED_TOTAL_LOSS[name]
    assert item.cost_units == PUBLISHED_TOTAL_LOSS[name] - PUBLISHED_TOTAL_LOSS["optimal"]
    assert item.cost_units >= 0


def test_situation_index_maps_any_suits_to_the_class_tables(outcomes):
    rng = np.random.default_rng(5)
    hands = all_subsets_colex(52, 5)[rng.integers(0, 2_598_960, 300)].astype(np.int64)
    ups = np.array([rng.choice(np.setdiff1d(np.arange(52), h)) for h in hands])
    rows, canonical_up = situation_index(outcomes, hands, ups)
    from exactodds.caribbean.decision.decide import decide

    for hand, up, row, cup in list(zip(hands, ups, rows, canonical_up, strict=True))[:25]:
        assert decide(hand, up=int(up)).ev_raise == outcomes.ev_raise(row, cup)
    assert np.all(outcomes.counts.valid[rows, canonical_up])


def test_python_rule_files(tmp_path, outcomes, built_in_results):
    batch = tmp_path / "pairs.py"
    batch.write_text(
        "from exactodds.handrank import CATEGORY_FLOOR, evaluate_batch\n"
        "def raise_batch(hands, ups):\n"
        "    return evaluate_batch(hands) >= CATEGORY_FLOOR[1]  # pair or better\n"
    )
    (pairs,) = evaluate_strategies(outcomes, [load_strategy(batch)])
    assert pairs.result.total_units == built_in_results["pair-plus"].result.total_units

    # the same rule written per hand (strings) and per batch (card integers) agree
    single = tmp_path / "match_slow.py"
    single.write_text("def raise_hand(hand, up):\n    return up[0] in hand\n")
    fast = tmp_path / "match_fast.py"
    fast.write_text(
        "def raise_batch(hands, ups):\n    return ((hands >> 2) == (ups >> 2)[:, None]).any(axis=1)\n")
    slow_result, fast_result = evaluate_strategies(outcomes, [load_strategy(single), load_strategy(fast)])
    assert slow_result.result.total_units == fast_result.result.total_units
    assert slow_result.result.raise_frequency > 0


def test_exported_ak_table_reproduces_optimal(tmp_path, outcomes, built_in_results):
    path = tmp_path / "ak.parquet"
    write_strategy(strategy_arrow_table(outcomes, only_ak=True), path, "parquet")
    (result,) = evaluate_strategies(outcomes, [load_strategy(path)])
    assert result.result.total_units == built_in_results["optimal"].result.total_units


@pytest.mark.parametrize(
    "name,content,message",
    [
        ("x.py", "x = 1\n", "defines neither raise_hand"),
        ("x.py", "raise ValueError('nope')\n", "failed to load: ValueError: nope"),
        ("x.csv", "hand,decision\nAs Kd 9h 5c 2s,raise\n", "lacks the column up"),
        ("x.csv", "hand,up,decision\nAs Kd 9h 5c 2s,8c,maybe\n", "row 1: decision must be raise or fold"),
        ("x.csv", "hand,up,decision\nAs Kd 9h 5c 1x,8c,raise\n", 'unknown card "1x"'),
        ("x.csv", "hand,up,decision\nAs Kd 9h 5c 2s,As,raise\n", "row 1: the up card is in the hand"),
    ],
)
def test_malformed_strategy_files(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_text(content)
    with pytest.raises(StrategyError, match=re.escape(message)):
        strategy = load_strategy(path)
        strategy.raise_mask(situation_outcomes("standard"))


def test_unknown_strategy_names():
    with pytest.raises(StrategyError, match='unknown strategy "bogus"'):
        load_strategy("bogus")
    with pytest.raises(StrategyError, match="does not exist"):
        load_strategy("missing.py")


def test_cli_strategies_json():
    import json

    result = CliRunner().invoke(cli, ["caribbean", "strategies", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    names = [s["strategy"] for s in data["strategies"]]
    assert names == list(PUBLISHED_TOTAL_LOSS)
    assert data["strategies"][1]["total_units"] == "-1041417758724/1"
    assert data["strategies"][1]["cost_vs_optimal_units"] == "44846352/1"


def test_cli_unknown_strategy_is_one_line():
    result = CliRunner().invoke(cli, ["caribbean", "strategies", "--strategy", "bogus"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        'Error: unknown strategy "bogus" (built in: optimal, rules-of-thumb, akj83, matching-rank, '
        "pair-plus, ak-plus, always-raise; or a .py file or a strategy table .csv/.parquet/.json)"
    ]


def test_a_card_file_written_before_the_card_moved_says_to_write_it_again(tmp_path):
    """A card's .py file from before the card search moved into caribbean/strategy/card/ imports the
    old package: the error says what the file is and how to get a working one, not only the import."""
    path = tmp_path / "my_card.py"
    path.write_text('"""Strategy card for the paytable standard (written by exactodds caribbean card)."""\n\n'
                    "from exactodds.caribbean.card.grammar import Card\n"
                    "from exactodds.caribbean.card.strategy_file import decide_cards\n")
    with pytest.raises(StrategyError) as caught:
        load_strategy(path)
    assert str(caught.value) == (
        f"strategy file {path} is a strategy card written by an earlier exactodds (it imports "
        "exactodds.caribbean.card, since moved): write it again with "
        "`exactodds caribbean card --out my_card.py`")
    other = tmp_path / "other.py"
    other.write_text("import exactodds_no_such_module\n")  # any other missing module: as before
    with pytest.raises(StrategyError, match="failed to load: ModuleNotFoundError: No module named"):
        load_strategy(other)
