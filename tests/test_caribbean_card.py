"""The strategy card: the cell evaluator against the per-situation strategy cost, the round trip."""

import numpy as np
import pytest

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.card.evaluate import build_cells, situation_features
from exactodds.caribbean.card.grammar import RULES_OF_THUMB
from exactodds.caribbean.card.search import SearchSettings, all_atoms, exhaustive, search
from exactodds.caribbean.card.strategy_file import write_strategy_file
from exactodds.caribbean.strategy.strategies import BUILT_IN, evaluate_strategies, load_strategy


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


def test_search_matches_exhaustive_on_a_slice(cells):
    ak = cells.restricted(0, 0)
    atoms = all_atoms()[:4]
    expected = exhaustive(ak, max_rules=2, atoms=atoms, categories=(0,), max_conditions=2, raise_from=(0, 1))
    found = search(ak, max_rules=2, settings=SearchSettings(atoms=atoms, max_conditions=2, raise_from=(0, 1)))
    assert [c for _, c in found] == [c for _, c in expected]
