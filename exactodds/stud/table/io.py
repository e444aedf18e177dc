"""Reading and writing the starting-hand table: CSV or Parquet through pyarrow, written atomically.

Columns of the situation table: ``hole``, ``up``, ``opp_up`` (card strings, canonical
suits), ``weight``, ``win``, ``tie``, ``lose``, ``deals`` (exact integers) and ``equity``
(a float for readers; the exact value is ``(2 win + tie) / (2 deals)``). The starting-hand
summary has ``rank``, ``hand``, ``deals``, ``equity`` and one ``vs_R`` equity column per
opponent up-card rank R.
"""

from __future__ import annotations

import io
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from exactodds.cache import atomic_write_bytes
from exactodds.cards import RANK_CHARS, format_card, parse_card
from exactodds.stud.table.build import SituationRow, StartingTable, TableError
from exactodds.stud.table.classes import situation_classes
from exactodds.stud.table.summary import StartingHand

FORMATS = (".csv", ".parquet")


def table_format(path: str | os.PathLike[str]) -> str:
    """".csv" or ".parquet" from the file name; TableError for anything else."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise TableError(f"--out file must end in .csv or .parquet, got {str(path)!r}")
    return suffix


def rows_arrow(table: StartingTable) -> pa.Table:
    """The situation rows as an Arrow table (integer counts as int64)."""
    rows = table.rows
    return pa.table({
        "hole": [format_card(r.hole) for r in rows],
        "up": [format_card(r.up) for r in rows],
        "opp_up": [format_card(r.opp_up) for r in rows],
        "weight": pa.array([r.weight for r in rows], pa.int64()),
        "win": pa.array([r.win for r in rows], pa.int64()),
        "tie": pa.array([r.tie for r in rows], pa.int64()),
        "lose": pa.array([r.lose for r in rows], pa.int64()),
        "deals": pa.array([r.deals for r in rows], pa.int64()),
        "equity": pa.array([float(r.equity) for r in rows], pa.float64()),
    })


def hands_arrow(hands: Sequence[StartingHand]) -> pa.Table:
    """The starting-hand summary as an Arrow table."""
    columns: dict[str, list[Any]] = {
        "rank": [h.rank for h in hands], "hand": [h.name for h in hands], "deals": [h.deals for h in hands],
        "equity": [float(h.equity) for h in hands],
    }
    for r, char in enumerate(RANK_CHARS):
        columns[f"vs_{char}"] = [float(h.by_opp_rank[r]) for h in hands]
    return pa.table(columns)


def write_arrow(data: pa.Table, path: str | os.PathLike[str]) -> None:
    """Write an Arrow table as CSV or Parquet (by the file name), atomically."""
    kind = table_format(path)
    sink = io.BytesIO()
    if kind == ".csv":
        pacsv.write_csv(data, sink)
    else:
        pq.write_table(data, sink, compression="zstd")
    atomic_write_bytes(path, sink.getvalue())


def read_rows(path: str | os.PathLike[str]) -> StartingTable:
    """Read a situation table written by :func:`write_arrow` (CSV or Parquet)."""
    kind = table_format(path)
    if kind == ".csv":
        data = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(column_types={
            c: pa.int64() for c in ("weight", "win", "tie", "lose", "deals")}))
    else:
        data = pq.read_table(path)
    d = data.to_pydict()
    rows = tuple(SituationRow(hole=parse_card(h), up=parse_card(u), opp_up=parse_card(v), weight=w, win=x,
                              tie=t, deals=n)
                 for h, u, v, w, x, t, n in zip(d["hole"], d["up"], d["opp_up"], d["weight"], d["win"],
                                                d["tie"], d["deals"], strict=True))
    for row, lose in zip(rows, d["lose"], strict=True):
        if row.lose != lose:
            raise TableError(f"{path}: row {format_card(row.hole)} {format_card(row.up)} "
                             f"{format_card(row.opp_up)} does not add up to its deals")
    return StartingTable(players=2, rows=rows, complete=len(rows) == len(situation_classes(2)[0]))
