"""Strategy tables: files other tools read, committed summaries that stay current, the chart."""

from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.compute as pc
import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.game import analyze, situation_outcomes
from exactodds.caribbean.decision.settle import DEALER_COMPLETIONS
from exactodds.caribbean.profile import available_profiles
from exactodds.caribbean.strategy.table import strategy_arrow_table, strategy_summary, write_summary
from exactodds.cli.main import cli
from tests.test_json_golden import check_strategy_file

COMMITTED = Path(__file__).resolve().parent.parent / "tables" / "strategy"  # golden files, not shipped
AK_ROWS = 385_400  # A-K-high (hand class, up card) situations


@pytest.fixture(scope="module")
def outcomes():
    return situation_outcomes("standard")


@pytest.mark.parametrize("name", available_profiles())
def test_committed_summaries_are_current(name, tmp_path):
    csv_path, txt_path = write_summary(strategy_summary(situation_outcomes(name)), tmp_path)
    committed = COMMITTED
    assert csv_path.read_text() == (committed / csv_path.name).read_text(), "run make strategy-tables"
    assert txt_path.read_text() == (committed / txt_path.name).read_text(), "run make strategy-tables"


def test_summary_rules(outcomes):
    summary = strategy_summary(outcomes)
    assert summary.pair_plus_raise == 1
    assert summary.below_ak_raise == 0
    assert len(summary.ak_rows) == 164 * 13
    by_key = {(r.player_ranks, r.up_rank): r for r in summary.ak_rows}
    # matching the up card's rank makes A-K-J-8-3 worth a raise; a non-matching 4 does not
    assert by_key[("AKJ83", "8")].decision == "raise"
    assert by_key[("AKJ83", "4")].decision == "fold"
    # each group covers every suit arrangement of the hand and up card
    ak_classes = outcomes.pay_index == 0
    assert sum(r.deals for r in summary.ak_rows) == int(outcomes.counts.weights[ak_classes].sum()) * 47


def test_full_table_reproduces_the_raise_count(outcomes):
    table = strategy_arrow_table(outcomes)
    assert table.num_rows == 134_459 * 47
    raised = table.filter(pc.equal(table["decision"], "raise"))  # 6.3 million rows: no Python lists
    assert pc.sum(raised["class_weight"]).as_py() * DEALER_COMPLETIONS == analyze("standard").raised_deals


@pytest.mark.parametrize("fmt", ["csv", "parquet", "json"])
def test_cli_export_is_readable_by_pandas_and_duckdb(fmt, tmp_path, outcomes):
    out = tmp_path / f"ak.{fmt}"
    result = CliRunner().invoke(cli, ["caribbean", "strategy", "--only", "ak", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "pair or better: raise (always)" in result.output
    assert f"wrote {AK_ROWS:,} rows" in result.output
    frame = {"csv": pd.read_csv, "parquet": pd.read_parquet, "json": pd.read_json}[fmt](out)
    assert len(frame) == AK_ROWS
    assert set(frame["decision"]) == {"raise", "fold"}
    row = frame[(frame["hand_ranks"] == "AKJ83") & (frame["up"].str[0] == "8")].iloc[0]
    assert row["decision"] == "raise"
    num, den = map(int, row["ev_raise"].split("/"))
    assert abs(num / den - row["ev_raise_float"]) < 1e-12
    reader = {"csv": "read_csv_auto", "parquet": "read_parquet", "json": "read_json_auto"}[fmt]
    count = duckdb.connect().execute(f"select count(*) from {reader}('{out}')").fetchone()[0]
    assert count == AK_ROWS
    if fmt == "json":
        check_strategy_file(out.read_bytes())  # and byte for byte as its golden file


def test_export_refuses_unknown_extension_without_format(tmp_path):
    out = tmp_path / "x.txt"
    result = CliRunner().invoke(cli, ["caribbean", "strategy", "--only", "ak", "--out", str(out)])
    assert result.exit_code == 2
    assert "give --format" in result.output
    assert not (tmp_path / "x.txt").exists()


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml")])
def test_chart(tmp_path, suffix, magic):
    out = tmp_path / f"region{suffix}"
    result = CliRunner().invoke(cli, ["caribbean", "chart", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert Path(out).read_bytes().startswith(magic)


def test_chart_refuses_other_formats(tmp_path):
    result = CliRunner().invoke(cli, ["caribbean", "chart", "--out", str(tmp_path / "x.pdf")])
    assert result.exit_code == 2 and "png or .svg" in result.output
