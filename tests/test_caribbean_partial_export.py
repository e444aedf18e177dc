"""The partial-information strategy as a file: a reduced deck exported, read back, and checked
against the kernel's own sums; the summary; atomic writes when stopped."""

from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pyarrow.csv as pacsv
import pyarrow.parquet as pq
import pytest

from exactodds.caribbean.holecard.exact import game_from_sums
from exactodds.caribbean.holecard.kernels import partial_signals as pk
from exactodds.caribbean.holecard.partial import PartialInfoError, edge_sort, rank_seen
from exactodds.caribbean.holecard.partial_export import export_partial_strategy
from exactodds.caribbean.holecard.partial_situations import partial_situations, strategy_value
from exactodds.caribbean.profile import load_profile
from exactodds.counting.layout import ACC_COLUMNS
from tests.test_caribbean_partial import REDUCED, run_task

PROFILE = load_profile("standard")


def reduced_game(info):
    """The reduced deck's whole game from the kernel's sums, one seen set at a time."""
    sums = np.zeros(pk.PARTIAL_COLUMNS, dtype=np.int64)
    for seen in combinations(REDUCED, info.dealer_known):
        loc, _ = run_task(list(seen), info, live_cards=REDUCED)
        sums += loc
    total = comb(14, 5) * comb(9, info.dealer_known) * comb(9 - info.dealer_known, info.hidden)
    total *= info.deals_per_completion
    return game_from_sums(PROFILE, sums[:ACC_COLUMNS].tolist(), total=total, strategy="reduced"), sums


def value_of_rows(table):
    """Expected net per ante of the file's rows: raise rows earn EV(raise), fold rows lose the ante."""
    units = Fraction(0)
    deals = 0
    for row in table.to_pylist():
        n = row["weight"] * row["completions"]
        ev = Fraction(row["ev_raise"]) if row["decision"] == "raise" else Fraction(-1)
        assert ev == Fraction(row["ev_raise_num"], row["ev_raise_den"]) or row["decision"] == "fold"
        assert (row["decision"] == "raise") == (Fraction(row["ev_raise"]) > -1)
        units += n * ev
        deals += n
    return units / deals


@pytest.mark.parametrize("info, fmt", [(edge_sort("AK"), "parquet"), (rank_seen(), "csv")])
def test_a_reduced_export_reads_back_to_the_exact_game(tmp_path, info, fmt):
    game, sums = reduced_game(info)
    out = tmp_path / f"strategy.{fmt}"
    exported = export_partial_strategy(PROFILE, info, out, fmt, deck=REDUCED,
                                       expected_return=game.total_return)
    table = pq.read_table(out) if fmt == "parquet" else pacsv.read_csv(out)
    assert table.num_rows == exported.rows > 0
    assert value_of_rows(table) == game.total_return == exported.total_return
    assert sum(table.column("weight").to_pylist()) == sums[pk.SITUATIONS]
    raised = [w for w, d in zip(table.column("weight").to_pylist(), table.column("decision").to_pylist(),
                                strict=True) if d == "raise"]
    assert sum(raised) == sums[pk.RAISED_SITUATIONS]
    assert sum(r.situations for r in exported.summary) == sums[pk.SITUATIONS]
    assert sum(r.raised_deals for r in exported.summary) == game.raised_deals
    assert exported.summary_csv().count("\n") == len(exported.summary) + 1


def test_other_strategies_are_valued_exactly_from_the_situations():
    """Folding everything loses the ante; the recorded decisions are the best of all."""
    info = edge_sort("AK")
    batches = list(partial_situations(PROFILE, info, deck=REDUCED))
    optimal = strategy_value(PROFILE, batches).total_return
    assert strategy_value(PROFILE, batches, lambda b: np.zeros(len(b), bool)).total_return == -1
    pair_plus = strategy_value(PROFILE, batches, lambda b: b.strength >= PROFILE.qualify_strength)
    assert pair_plus.total_return < optimal
    assert optimal == reduced_game(info)[0].total_return


class StopAfterFirstChunk:
    def stage(self, label, *, steps=None):
        pass

    def step(self, count=1):
        raise KeyboardInterrupt

    def end(self):
        pass


def test_a_stopped_export_leaves_the_earlier_file_untouched(tmp_path):
    out = tmp_path / "strategy.csv"
    out.write_text("earlier\n")
    with pytest.raises(KeyboardInterrupt):
        export_partial_strategy(PROFILE, edge_sort("AK"), out, "csv", deck=REDUCED,
                                progress=StopAfterFirstChunk())
    assert out.read_text() == "earlier\n"
    assert [p.name for p in tmp_path.iterdir()] == ["strategy.csv"]


def test_json_is_refused_for_a_partial_strategy(tmp_path):
    with pytest.raises(PartialInfoError, match="csv or parquet"):
        export_partial_strategy(PROFILE, edge_sort("AK"), tmp_path / "x.json", "json", deck=REDUCED)


def test_a_coarse_strategy_is_the_best_over_its_cells_and_never_beats_the_optimum():
    """On the reduced deck: one cell per situation gives the optimum; the count strategy's cells
    give the best cell-wise choice, as a plain sum over the rows says; fewer cells give less."""
    from exactodds.caribbean.holecard.partial_rules import COUNT_STRATEGY, CoarseStrategy, best_coarse_value

    info = edge_sort("AK")
    batches = list(partial_situations(PROFILE, info, deck=REDUCED))
    optimal = strategy_value(PROFILE, batches).total_return

    def each(batch, _info):
        return (batch.position * 52 + batch.seen[:, 0]) * 8 + batch.signal

    every = CoarseStrategy(name="each", sees="all", cell_of=each)
    finest = best_coarse_value(PROFILE, info, every, deck=REDUCED)
    assert finest.total_return == optimal
    count = best_coarse_value(PROFILE, info, COUNT_STRATEGY, deck=REDUCED).total_return
    gains: dict[int, Fraction] = {}
    for b in batches:
        for cell, r, f, w in zip(COUNT_STRATEGY.cell_of(b, info).tolist(), b.raise_units(PROFILE).tolist(),
                                 b.fold_units(PROFILE).tolist(), b.weight.tolist(), strict=True):
            gains[cell] = gains.get(cell, 0) + (r - f) * w
    deals = sum(int((b.completions * b.weight).sum()) for b in batches)
    assert count == Fraction(-deals + sum(g for g in gains.values() if g > 0), deals)
    assert count < optimal
    blind = CoarseStrategy(name="blind", sees="the signal", cell_of=lambda b, _i: b.signal)
    assert best_coarse_value(PROFILE, info, blind, deck=REDUCED).total_return < count
