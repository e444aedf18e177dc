"""The heads-up starting-hand table: classes, the batched sweep against stud_equity, the committed
table regenerated, symmetry, weights, files and the command line."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.cards import format_card
from exactodds.cli.main import cli
from exactodds.jsonable import exact
from exactodds.stud.equity import parse_position, stud_equity
from exactodds.stud.table.build import StartingTable, TableError, starting_table, table_chunks
from exactodds.stud.table.classes import (
    canonical,
    canonical_batch,
    situation_classes,
    total_deals,
    up_pair_classes,
)
from exactodds.stud.table.headsup import DEALS_PER_SITUATION, up_pair_counts
from exactodds.stud.table.io import hands_arrow, read_rows, rows_arrow, write_arrow
from exactodds.stud.table.summary import hand_name, starting_hands
from exactodds.stud.table.threeway import threeway_classes, threeway_hands, threeway_table

COMMITTED = Path(__file__).resolve().parents[1] / "tables" / "stud" / "headsup_first_round.parquet"
COMMITTED_HANDS = COMMITTED.with_name("headsup_starting_hands.csv")


@pytest.fixture(scope="module")
def committed() -> StartingTable:
    return read_rows(COMMITTED)


def _lookup(table: StartingTable) -> dict[tuple[int, int, int], tuple[int, int]]:
    return {(r.hole, r.up, r.opp_up): (r.win, r.tie) for r in table.rows}


def counts_of(lookup, hole: int, up: int, opp_up: int) -> tuple[int, int]:
    """The table's (win, tie) for any situation, through its canonical class."""
    return lookup[canonical((hole, up, opp_up))]


# --------------------------------------------------------------------------- classes
def test_weights_sum_to_the_number_of_deals():
    reps, weights = situation_classes(2)
    assert int(weights.sum()) == total_deals(2) == 52 * 51 * 50
    assert len(reps) == 9997 and len(up_pair_classes()) == 325
    # each class stands for 4!/(4-d)! deals, d the number of suits it uses
    suits = np.array([len(set((reps[i] & 3).tolist())) for i in range(len(reps))])
    assert (weights == np.array([24 // math.factorial(4 - d) for d in suits])).all()


def test_classes_by_brute_force():
    """Every ordered deal, relabelled by all 24 suit permutations: the orbits are the classes."""
    from itertools import permutations

    perms = [np.array(p) for p in permutations(range(4))]
    seen: dict[tuple, int] = {}
    rng = random.Random(3)
    for _ in range(300):
        deal = tuple(rng.sample(range(52), 3))
        orbit = {tuple(int(4 * (c >> 2) + p[c & 3]) for c in deal) for p in perms}
        keys = {canonical(member) for member in orbit}
        assert len(keys) == 1
        key = keys.pop()
        seen[key] = len(orbit)
    reps, weights = situation_classes(2)
    weight_of = {tuple(r): int(w) for r, w in zip(reps.tolist(), weights.tolist(), strict=True)}
    for key, size in seen.items():
        assert weight_of[key] == size


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=3, unique=True), st.permutations(range(4)))
def test_canonical_form_ignores_suit_names(cards, perm):
    renamed = [4 * (c >> 2) + perm[c & 3] for c in cards]
    assert canonical(tuple(cards)) == canonical(tuple(renamed))
    assert (canonical_batch(np.array([cards])) >> 2 == np.array(cards) >> 2).all()


# --------------------------------------------------------------------------- the sweep
@settings(max_examples=5, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=3, unique=True))
def test_batched_sweep_equals_stud_equity(cards):
    """One sweep for all hole cards gives each situation's exact counts, as the position method does;
    from the opponent's seat the counts are the same deals seen the other way."""
    hole, up, opp_up = cards
    counts = up_pair_counts(up, opp_up)
    mine, other = f"{format_card(hole)} | {format_card(up)}", f"? | {format_card(opp_up)}"
    ours = stud_equity(parse_position([mine, other]))
    assert ours.exact and ours.combinations == DEALS_PER_SITUATION
    assert ours.players[0].win * DEALS_PER_SITUATION == counts.win[hole]
    assert ours.players[0].tie * DEALS_PER_SITUATION == counts.tie[hole]
    theirs = stud_equity(parse_position([other, mine]))
    assert theirs.players[1].win == ours.players[0].win and theirs.players[0].win == ours.players[0].lose


def test_committed_table_regenerates(committed):
    """A sample of up-card pairs recomputed from scratch: their rows are identical to the committed ones."""
    rng = random.Random(2026)
    pairs = rng.sample(range(len(up_pair_classes())), 3)
    fresh = starting_table(pairs=pairs)
    lookup = _lookup(committed)
    assert len(fresh.rows) >= 3 * 25
    for row in fresh.rows:
        assert lookup[(row.hole, row.up, row.opp_up)] == (row.win, row.tie)
    weight_of = {(r.hole, r.up, r.opp_up): r.weight for r in committed.rows}
    assert all(weight_of[(r.hole, r.up, r.opp_up)] == r.weight for r in fresh.rows)


def test_committed_table_is_complete(committed):
    assert committed.complete and len(committed.rows) == 9997
    assert committed.total_weight == total_deals(2)
    assert all(r.win + r.tie + r.lose == r.deals == DEALS_PER_SITUATION and r.lose >= 0
               for r in committed.rows)


def _full_grid(table: StartingTable) -> tuple[np.ndarray, np.ndarray]:
    """win[h, u, v] and tie[h, u, v] for all 132,600 ordered situations, read through the classes."""
    lookup = _lookup(table)
    deals = np.array([(h, u, v) for h in range(52) for u in range(52) for v in range(52)
                      if len({h, u, v}) == 3], dtype=np.int64)
    win = np.zeros((52, 52, 52), dtype=np.int64)
    tie = np.zeros((52, 52, 52), dtype=np.int64)
    for (h, u, v), key in zip(deals.tolist(), canonical_batch(deals).tolist(), strict=True):
        win[h, u, v], tie[h, u, v] = lookup[tuple(key)]
    return win, tie


def test_symmetry_a_against_b_plus_b_against_a_plus_ties_is_one(committed):
    """Up card u against up card v, both hole cards unknown: averaged over our hole card, our win,
    the opponent's win (the table read with the seats swapped) and the ties add up to 1, for
    every one of the 2,652 ordered pairs of up cards."""
    win, tie = _full_grid(committed)
    ab, ba = win.sum(axis=0), win.sum(axis=0).T  # sums over the 50 hole cards
    ties = tie.sum(axis=0)
    off_diagonal = ~np.eye(52, dtype=bool)
    assert (ab + ba + ties == 50 * DEALS_PER_SITUATION)[off_diagonal].all()
    assert (ties == ties.T).all()
    pair = (47, 50)  # Ks against Ah, exactly: P(A) + P(B) + P(tie) = 1
    parts = [Fraction(int(x), 50 * DEALS_PER_SITUATION) for x in (ab[pair], ba[pair], ties[pair])]
    assert sum(parts, Fraction(0)) == 1 and parts[1] > parts[0]


def test_hole_and_up_card_can_swap(committed):
    """The showdown is of the same five cards: (hole h, up u) and (hole u, up h) have the same counts."""
    lookup = _lookup(committed)
    for row in committed.rows[::7]:
        assert counts_of(lookup, row.up, row.hole, row.opp_up) == (row.win, row.tie)


# --------------------------------------------------------------------------- starting hands
def test_starting_hands(committed):
    hands = starting_hands(committed)
    assert len(hands) == 169 and sum(h.deals for h in hands) == 52 * 51
    assert [h.rank for h in hands] == list(range(1, 170))
    assert all(a.equity >= b.equity for a, b in zip(hands, hands[1:], strict=False))
    assert [h.name for h in hands[:3]] == ["AA", "KK", "QQ"] and hands[-1].name == "32o"
    by = {h.name: h for h in hands}
    assert by["AKs"].deals == 8 and by["AKo"].deals == 24 and by["AA"].deals == 12
    assert by["AKs"].equity > by["AKo"].equity


def test_a_starting_hand_against_a_random_up_card_by_the_position_method(committed):
    """72o (hole 7c, up 2d) against each of the 50 possible up cards, averaged: the summary's figure."""
    hands = {h.name: h for h in starting_hands(committed)}
    total = Fraction(0)
    for v in range(52):
        if v in (20, 1):  # 7c, 2d
            continue
        r = stud_equity(parse_position(["7c | 2d", f"? | {format_card(v)}"]))
        total += r.players[0].equity
    assert total / 50 == hands["72o"].equity


def test_hand_names():
    assert hand_name(51, 50) == "AA" and hand_name(0, 51) == "A2o" and hand_name(3, 51) == "A2s"


# --------------------------------------------------------------------------- files and command line
@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_files_round_trip(tmp_path, suffix):
    table = starting_table(pairs=[0, 100])
    path = tmp_path / f"rows{suffix}"
    write_arrow(rows_arrow(table), path)
    assert read_rows(path).rows == table.rows
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_committed_summary_matches_the_table(committed, tmp_path):
    path = tmp_path / "hands.csv"
    write_arrow(hands_arrow(starting_hands(committed)), path)
    assert path.read_bytes() == COMMITTED_HANDS.read_bytes()


def test_bad_input():
    with pytest.raises(TableError, match="up-pair class numbers must be 0..324"):
        table_chunks([325])
    with pytest.raises(TableError, match="heads-up"):
        starting_table(players=3)


# --------------------------------------------------------------------------- three-way
def test_threeway_classes():
    """Weights sum to the deals; a class is the same under suit renaming and opponent order."""
    reps, weights = threeway_classes()
    assert len(reps) == 185_185 and int(weights.sum()) == total_deals(3) == 52 * 51 * 1225
    key_of = {tuple(r): int(w) for r, w in zip(reps.tolist(), weights.tolist(), strict=True)}
    rng = random.Random(5)
    for _ in range(50):
        h, u, a, b = rng.sample(range(52), 4)
        perm = rng.sample(range(4), 4)
        renamed = [4 * (c >> 2) + perm[c & 3] for c in (h, u, b, a)]  # suits renamed, opponents swapped
        forms = [canonical((h, u, a, b)), canonical((h, u, b, a))]
        other = [canonical(tuple(renamed)), canonical(tuple(renamed[:2] + renamed[:1:-1]))]
        assert min(forms) == min(other) and min(forms) in key_of
    with pytest.raises(TableError, match="three-way class numbers must be 0..185184"):
        threeway_table(classes=[185185])


def test_threeway_rows_are_labelled_and_reproducible():
    table = threeway_table(classes=[0, 4321, 150_000], samples=400, seed=9)
    again = threeway_table(classes=[4321], samples=400, seed=9)
    assert again.rows[0] == table.rows[1]  # a row's sample depends on its class number, not the others
    for row in table.rows:
        assert not row.exact and row.method == "monte carlo with control variates" and row.samples == 400
        assert row.standard_error is not None and 0 < row.standard_error < 0.05
        # Win and tie are sample frequencies; the equity is the control-variate estimate.
        assert row.win + row.tie <= 1
        assert abs(float(row.equity - row.win - row.tie / 2)) < 5 * row.standard_error
    assert not table.exact and threeway_hands(table)[0].standard_error > 0



@pytest.mark.parametrize("args, message", [
    (["--players", "4"], "--players must be 2 or 3, got 4"),
    (["--players", "3", "--chart", "x.png"], "--chart is drawn for the heads-up table (--players 2)"),
    (["--players", "3", "--samples", "1"],
     "Invalid value for '--samples': 1 is not in the range 2<=x<=100000000"),
    (["--out", "x.txt"], "--out file must end in .csv or .parquet, got 'x.txt'"),
    (["--chart", "x.jpg"], "--chart file must end in .png or .svg, got 'x.jpg'"),
    (["--out", "/nonexistent/x.csv"], "output folder '/nonexistent' does not exist"),
    (["--scheduler", "localhost:1"], "scheduler address 'localhost:1' must look like tcp://HOST:PORT"),
])
def test_cli_bad_input(args, message):
    result = CliRunner().invoke(cli, ["stud", "table", *args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"Error: {message}") and result.output.count("\n") == 1


def test_the_documented_example_is_the_committed_table(committed):
    """docs/stud-table.md shows a real run: its ranking lines and JSON rows are the committed table's."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "stud-table.md").read_text(encoding="utf-8")
    hands = starting_hands(committed)
    for h in hands[:10]:
        line = (f"{h.rank:>4}  {h.name:<4}  {float(h.equity):.4%}  {float(h.by_opp_rank[12]):7.2%}  "
                f"{float(h.by_opp_rank[11]):7.2%}  {float(h.by_opp_rank[0]):7.2%}")
        assert line in page, line
    aks = next(h for h in hands if h.name == "AKs")
    assert f'"hand": "AKs", "deals": 8, "rank": {aks.rank}, "equity": "{exact(aks.equity)}"' in page
    row = next(r for r in committed.rows if (format_card(r.hole), format_card(r.up), format_card(r.opp_up))
               == ("2s", "2h", "3d"))
    assert f'"weight": {row.weight}, "win": {row.win}, "tie": {row.tie}' in page
