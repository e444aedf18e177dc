"""The three-way first-round table: exact where ``stud_equity``'s exact methods fit the budget,
else sampled, each row with its method, sample size and standard error.

A three-way situation is our hole card, our up card and the two opponents' up cards (a set:
which opponent holds which does not change our odds); both opponents' hole cards are
unknown. Classes under suit renaming, weighted, as for heads-up: the canonical form is the
smaller of the two opponent orders' canonical forms. The weights sum to 52 x 51 x C(50, 2).
Row k is computed by :func:`exactodds.stud.equity.stud_equity` with the seed
``row_seed(seed, k)``, so a sampled row is the same wherever its chunk runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from exactodds.cards import format_card
from exactodds.jsonable import exact
from exactodds.scale import ChunkRunner, SerialRunner
from exactodds.stud.table.build import TableError
from exactodds.stud.table.classes import canonical_batch, total_deals

if TYPE_CHECKING:  # imported when a table is written
    import pyarrow as pa

DEFAULT_ROW_SAMPLES = 10_000
DEFAULT_ROW_BUDGET = 0.0  # seconds; an exact first-round row is about 3 s: sampled unless raised
ROWS_PER_CHUNK = 200


def _keys(cards: np.ndarray) -> np.ndarray:
    keys: np.ndarray = ((cards[:, 0] * 52 + cards[:, 1]) * 52 + cards[:, 2]) * 52 + cards[:, 3]
    return keys


@lru_cache(maxsize=1)
def threeway_classes() -> tuple[np.ndarray, np.ndarray]:
    """(classes (m, 4): hole, up, opponent up, opponent up, canonical; weights): 185,185 classes."""
    hu = np.array([(i, j) for i in range(52) for j in range(52) if i != j], dtype=np.int64)
    ab = np.array([(i, j) for i in range(52) for j in range(i)], dtype=np.int64)
    deals = np.column_stack([np.repeat(hu, len(ab), axis=0), np.tile(ab, (len(hu), 1))])
    distinct = ((deals[:, 2] != deals[:, 0]) & (deals[:, 2] != deals[:, 1])
                & (deals[:, 3] != deals[:, 0]) & (deals[:, 3] != deals[:, 1]))
    deals = deals[distinct]
    keys = np.minimum(_keys(canonical_batch(deals)), _keys(canonical_batch(deals[:, [0, 1, 3, 2]])))
    unique, weights = np.unique(keys, return_counts=True)
    reps = np.column_stack([unique // 52**3, unique // 52**2 % 52, unique // 52 % 52, unique % 52])
    return reps.astype(np.int64), weights.astype(np.int64)


def row_seed(seed: int, row: int) -> int:
    """The seed of row ``row``'s sample: a fixed function of the table's seed and the row."""
    return int(np.random.SeedSequence([seed, row]).generate_state(1, dtype=np.uint32)[0])


@dataclass(frozen=True, kw_only=True)
class ThreeWayRow:
    """One three-way class: our equity (share of the pot, higher is better), exact or sampled.

    ``standard_error`` is None when exact; ``samples``/``seed`` are those of a sampled row.
    """

    hole: int
    up: int
    opp_ups: tuple[int, int]
    weight: int
    exact: bool
    method: str
    win: Fraction
    tie: Fraction
    equity: Fraction
    standard_error: float | None
    samples: int | None
    seed: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"hole": format_card(self.hole), "up": format_card(self.up),
                "opp_ups": [format_card(c) for c in self.opp_ups], "weight": self.weight, "exact": self.exact,
                "method": self.method, "win": exact(self.win), "tie": exact(self.tie),
                "equity": exact(self.equity), "equity_float": float(self.equity),
                "standard_error": self.standard_error, "samples": self.samples, "seed": self.seed}


def threeway_chunk(rows: Sequence[tuple[int, int, int, int, int, int]], samples: int, seed: int,
                   budget: float) -> list[ThreeWayRow]:
    """One chunk: each (row number, hole, up, opponent up, opponent up, weight) by stud_equity."""
    from exactodds.stud.equity import SampledEquity, StudPlayer, StudPosition, stud_equity

    out = []
    for k, hole, up, a, b, weight in rows:
        position = StudPosition(players=(StudPlayer(hole=hole, up=(up,)), StudPlayer(hole=None, up=(a,)),
                                         StudPlayer(hole=None, up=(b,))))
        s = row_seed(seed, k)
        r = stud_equity(position, budget=budget, samples=samples, seed=s)
        ours = r.players[0]
        error: float | None = None
        drawn: int | None = None
        used_seed: int | None = None
        if isinstance(r, SampledEquity):
            error, drawn, used_seed = r.players[0].standard_error, r.samples, r.seed
        out.append(ThreeWayRow(hole=hole, up=up, opp_ups=(a, b), weight=weight, exact=r.exact,
                               method=r.method, win=ours.win, tie=ours.tie, equity=ours.equity,
                               standard_error=error, samples=drawn, seed=used_seed))
    return out


@dataclass(frozen=True, kw_only=True)
class ThreeWayTable:
    """The three-way rows (all classes, or those asked for), in class order."""

    rows: tuple[ThreeWayRow, ...]
    complete: bool
    samples: int
    seed: int

    @property
    def exact(self) -> bool:
        return all(r.exact for r in self.rows)


def threeway_table(
    *, classes: Sequence[int] | None = None, samples: int = DEFAULT_ROW_SAMPLES, seed: int = 2026,
    budget: float = DEFAULT_ROW_BUDGET, runner: ChunkRunner | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> ThreeWayTable:
    """The three-way first-round table (every class, or the class numbers ``classes``)."""
    from exactodds.stud.equity import check_sampling

    check_sampling(budget=budget, samples=samples, seed=seed)
    reps, weights = threeway_classes()
    chosen = np.arange(len(reps)) if classes is None else np.asarray(sorted(set(classes)), dtype=np.int64)
    if len(chosen) == 0 or chosen.min() < 0 or chosen.max() >= len(reps):
        raise TableError(f"three-way class numbers must be 0..{len(reps) - 1}")
    tasks = [([(int(k), *map(int, reps[k]), int(weights[k])) for k in chosen[i:i + ROWS_PER_CHUNK]],
              samples, seed, budget) for i in range(0, len(chosen), ROWS_PER_CHUNK)]
    parts = (runner or SerialRunner()).map(threeway_chunk, tasks, on_done=on_chunk)
    rows = tuple(row for part in parts for row in part)
    complete = len(rows) == len(reps)
    if complete and sum(r.weight for r in rows) != total_deals(3):
        raise AssertionError("the three-way classes' weights do not sum to the number of deals")
    return ThreeWayTable(rows=rows, complete=complete, samples=samples, seed=seed)


@dataclass(frozen=True, kw_only=True)
class ThreeWayHand:
    """A starting hand against two random opponent up cards: the weighted mean of its rows, with
    the standard error of that mean (rows sampled independently; 0 when every row is exact)."""

    name: str
    rank: int
    equity: Fraction
    standard_error: float
    exact: bool

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.name, "rank": self.rank, "equity": exact(self.equity),
                "equity_float": float(self.equity), "exact": self.exact,
                "standard_error": self.standard_error}


def threeway_hands(table: ThreeWayTable) -> tuple[ThreeWayHand, ...]:
    """The starting hands of the rows present, best first."""
    from exactodds.stud.table.summary import hand_name

    groups: dict[str, list[ThreeWayRow]] = {}
    for row in table.rows:
        groups.setdefault(hand_name(row.hole, row.up), []).append(row)
    stats = []
    for name, rows in groups.items():
        weight = sum(r.weight for r in rows)
        equity = sum((r.weight * r.equity for r in rows), Fraction(0)) / weight
        error = sum((r.weight * (r.standard_error or 0.0)) ** 2 for r in rows) ** 0.5 / weight
        stats.append((name, equity, error, all(r.exact for r in rows)))
    stats.sort(key=lambda s: (-s[1], s[0]))
    return tuple(ThreeWayHand(name=n, rank=i + 1, equity=e, standard_error=se, exact=x)
                 for i, (n, e, se, x) in enumerate(stats))


def threeway_arrow(table: ThreeWayTable) -> pa.Table:
    """The rows as an Arrow table (exact counts are not kept: a sampled row is a fraction of its samples)."""
    import pyarrow as pa

    rows = table.rows
    return pa.table({
        "hole": [format_card(r.hole) for r in rows], "up": [format_card(r.up) for r in rows],
        "opp_up_1": [format_card(r.opp_ups[0]) for r in rows],
        "opp_up_2": [format_card(r.opp_ups[1]) for r in rows],
        "weight": pa.array([r.weight for r in rows], pa.int64()),
        "exact": [r.exact for r in rows], "method": [r.method for r in rows],
        "samples": pa.array([r.samples for r in rows], pa.int64()),
        "seed": pa.array([r.seed for r in rows], pa.int64()),
        "win": [float(r.win) for r in rows], "tie": [float(r.tie) for r in rows],
        "equity": [float(r.equity) for r in rows],
        "equity_exact": [exact(r.equity) for r in rows],
        "standard_error": pa.array([r.standard_error for r in rows], pa.float64()),
    })


def threeway_hands_arrow(hands: Sequence[ThreeWayHand]) -> pa.Table:
    """The three-way starting hands as an Arrow table (equity as a float, with its standard error)."""
    import pyarrow as pa

    return pa.table({"rank": [h.rank for h in hands], "hand": [h.name for h in hands],
                     "equity": [float(h.equity) for h in hands], "exact": [h.exact for h in hands],
                     "standard_error": [h.standard_error for h in hands]})
