"""The heads-up starting-hand equity table of five-card stud (first round, exact).

Every situation class (our hole card, our up card, the opponent's up card; the
opponent's hole card unknown) gets exact win / tie / loss counts over the
:data:`~exactodds.stud.table.headsup.DEALS_PER_SITUATION` equally likely ways to deal the
rest, and its weight (the ordered deals it stands for; they sum to 132,600). The work is one
sweep per class of up-card pairs (:func:`~exactodds.stud.table.headsup.up_pair_counts`);
chunks of those pairs can run on any :class:`~exactodds.scale.ChunkRunner`, and the table is
the same integers wherever they ran.

>>> table = starting_table(pairs=[0])           # one pair of up cards (2s, 2h): 37 classes
>>> len(table.rows), table.rows[0].equity > 0
(37, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from exactodds.cache import cache_dir, cached_array
from exactodds.cards import format_card
from exactodds.errors import ExactOddsError
from exactodds.jsonable import exact
from exactodds.scale import ChunkRunner, SerialRunner
from exactodds.stud.table.classes import canonical_batch, situation_classes, total_deals, up_pair_classes
from exactodds.stud.table.headsup import DEALS_PER_SITUATION, up_pair_counts

CHUNKS = 65  # 325 up-pair classes, 5 per chunk
TABLE_FILE = "stud-headsup-table-v1.npy"
# SHA-256 of the whole table's int64 columns (hole, up, opp_up, weight, win, tie), 9,997 rows.
TABLE_SHA256 = "ecb0c12c17d17d64e555edd97a762eeac773c861f8968650375e5360b1d77a3d"


class TableError(ExactOddsError):
    """A starting-hand table that cannot be built as asked."""


@dataclass(frozen=True, kw_only=True)
class SituationRow:
    """One class of heads-up first-round situations, exact.

    ``win``, ``tie`` and ``lose`` count deals out of ``deals``; ``weight`` is the number of
    ordered (hole, up, opponent's up) deals in the class. ``equity`` = (win + tie / 2) / deals,
    our share of the pot at showdown (higher is better for us).
    """

    hole: int
    up: int
    opp_up: int
    weight: int
    win: int
    tie: int
    deals: int = DEALS_PER_SITUATION

    @property
    def lose(self) -> int:
        return self.deals - self.win - self.tie

    @property
    def equity(self) -> Fraction:
        return Fraction(2 * self.win + self.tie, 2 * self.deals)

    def to_dict(self) -> dict[str, Any]:
        return {"hole": format_card(self.hole), "up": format_card(self.up),
                "opp_up": format_card(self.opp_up), "weight": self.weight, "win": self.win, "tie": self.tie,
                "lose": self.lose,
                "deals": self.deals, "equity": exact(self.equity), "equity_float": float(self.equity)}


@dataclass(frozen=True, kw_only=True)
class StartingTable:
    """The heads-up first-round table: one :class:`SituationRow` per class, in class order."""

    players: int
    rows: tuple[SituationRow, ...]
    complete: bool        # every class (weights summing to the number of deals), or a part

    @property
    def total_weight(self) -> int:
        return sum(r.weight for r in self.rows)


def pair_chunk(pairs: Sequence[tuple[int, int]]) -> list[tuple[int, int, list[int], list[int]]]:
    """One chunk: (up, opp_up, win per hole card, tie per hole card) for each up-card pair."""
    out = []
    for up, opp_up in pairs:
        counts = up_pair_counts(int(up), int(opp_up))
        out.append((int(up), int(opp_up), counts.win.tolist(), counts.tie.tolist()))
    return out


def table_chunks(
    pairs: Sequence[int] | None = None, *, chunks: int = CHUNKS,
) -> list[tuple[list[tuple[int, int]]]]:
    """The job's chunks: the up-pair classes (all, or those numbered in ``pairs``) split
    into ``chunks`` contiguous groups, each one argument tuple of :func:`pair_chunk`."""
    reps = up_pair_classes()
    chosen = np.arange(len(reps)) if pairs is None else np.asarray(sorted(set(pairs)), dtype=np.int64)
    if len(chosen) == 0 or chosen.min() < 0 or chosen.max() >= len(reps):
        raise TableError(f"up-pair class numbers must be 0..{len(reps) - 1}, got {list(pairs or [])}")
    groups = np.array_split(chosen, min(chunks, len(chosen)))
    return [([(int(reps[i, 0]), int(reps[i, 1])) for i in group],) for group in groups if len(group)]


def starting_table(
    *, players: int = 2, pairs: Sequence[int] | None = None, runner: ChunkRunner | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> StartingTable:
    """The exact heads-up first-round table (every class, or the classes reached from the
    up-pair classes numbered in ``pairs``). ``on_chunk(i)`` is called as each chunk finishes.

    The whole table is counted once and kept in the cache directory (checked against its pinned
    SHA-256 on every load, like the whole-game count); later calls read it (nothing is reported).
    """
    if players != 2:
        raise TableError(f"the exact starting-hand table is heads-up (--players 2), got {players}")
    if pairs is None:
        table = cached_array(TABLE_FILE, build=lambda: _as_array(_counted_rows(None, runner, on_chunk)),
                             sha256=TABLE_SHA256, what="heads-up starting-hand table")
        rows = tuple(SituationRow(hole=h, up=u, opp_up=v, weight=w, win=win, tie=tie)
                     for h, u, v, w, win, tie in table.tolist())
        return StartingTable(players=2, rows=rows, complete=True)
    rows = _counted_rows(pairs, runner, on_chunk)
    return StartingTable(players=2, rows=rows, complete=len(rows) == len(situation_classes(2)[0]))


def table_cached() -> bool:
    """Whether the whole heads-up table is in the cache directory (not yet verified)."""
    return (cache_dir() / TABLE_FILE).exists()


def _as_array(rows: tuple[SituationRow, ...]) -> np.ndarray:
    """The rows as int64 columns hole, up, opp_up, weight, win, tie (the cached form)."""
    return np.array([(r.hole, r.up, r.opp_up, r.weight, r.win, r.tie) for r in rows], dtype=np.int64)


def _counted_rows(pairs: Sequence[int] | None, runner: ChunkRunner | None,
                  on_chunk: Callable[[int], None] | None) -> tuple[SituationRow, ...]:
    """Count the classes reached from ``pairs`` (all when None), one row each in class order."""
    runner = runner or SerialRunner()
    results = runner.map(pair_chunk, table_chunks(pairs), on_done=on_chunk)
    reps, weights = situation_classes(2)
    key_of = {tuple(r): i for i, r in enumerate(reps.tolist())}
    found: dict[int, tuple[int, int]] = {}
    for chunk in results:
        for up, opp_up, win, tie in chunk:
            holes = np.array([h for h in range(52) if h not in (up, opp_up)], dtype=np.int64)
            triples = canonical_batch(np.column_stack([holes, np.full(len(holes), up),
                                                       np.full(len(holes), opp_up)]))
            for h, triple in zip(holes.tolist(), triples.tolist(), strict=True):
                k = key_of[tuple(triple)]
                counts = (win[h], tie[h])
                if found.setdefault(k, counts) != counts:  # two members of one class must agree
                    raise AssertionError(f"class {triple} counted twice with different results")
    rows = tuple(SituationRow(hole=int(reps[k, 0]), up=int(reps[k, 1]), opp_up=int(reps[k, 2]),
                              weight=int(weights[k]), win=found[k][0], tie=found[k][1])
                 for k in sorted(found))
    complete = len(rows) == len(reps)
    if complete and sum(r.weight for r in rows) != total_deals(2):
        raise AssertionError("the classes' weights do not sum to the number of deals")
    return rows
