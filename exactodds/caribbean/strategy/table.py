"""The optimal strategy as data: the full table, its compact summary, and files for other tools.

The full table has one row per (player hand class, up card): 134,459 x 47 = 6,319,573
rows. A class is a set of hands equal up to a renaming of suits; its ``hand`` column is
the canonical member (the suit with the most cards is clubs, then diamonds, hearts,
spades) and ``class_weight`` the number of hands it stands for, so weighted sums
reproduce the whole game. The up card is written in the same suit naming.

The compact summary groups the A-K-high situations (the only ones where the decision is
not settled by the hand's category) by the player's ranks and the up card's rank.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import IO

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from exactodds.cache import atomic_output, atomic_write_text
from exactodds.cards import RANK_CHARS, format_card, format_cards
from exactodds.caribbean.analysis.game import SituationOutcomes
from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.decision.settle import DEALER_COMPLETIONS
from exactodds.caribbean.profile import PAY_CATEGORIES
from exactodds.errors import ExactOddsError

FORMATS = ("csv", "json", "parquet")
AK_HIGH = PAY_CATEGORIES.index("ak_high")
PAIR = PAY_CATEGORIES.index("pair")


def strategy_arrow_table(outcomes: SituationOutcomes, *, only_ak: bool = False) -> pa.Table:
    """The optimal strategy, one row per (class, up card), as an Arrow table.

    Columns: hand, hand_ranks, category, class_weight, up, ev_raise ("p/q"), ev_raise_num,
    ev_raise_den, ev_raise_float, ev_fold, decision ("raise" when EV(raise) > -1, else "fold").
    """
    counts = outcomes.counts
    classes = np.arange(len(counts.weights))
    if only_ak:
        classes = classes[outcomes.pay_index == AK_HIGH]
    valid = counts.valid[classes]
    cls = np.repeat(classes, valid.sum(axis=1))
    up = np.nonzero(valid)[1]

    num = outcomes.ev_raise_scaled[cls, up]
    den = np.full_like(num, DEALER_COMPLETIONS * outcomes.scale)
    g = np.gcd(num, den)
    num, den = num // g, den // g
    raise_mask = outcomes.optimal_raise()[cls, up]

    hand_text = pa.array([format_cards(h[::-1]) for h in counts.players[classes]])
    rank_text = pa.array(["".join(RANK_CHARS[c >> 2] for c in h[::-1]) for h in counts.players[classes]])
    category = pa.array([PAY_CATEGORIES[i] if i >= 0 else "high_card"  # the JSON vocabulary's categories
                         for i in outcomes.pay_index[classes]])
    position = np.searchsorted(classes, cls)  # row -> position within `classes`
    up_text = pa.array([format_card(c) for c in range(52)])
    num_arr, den_arr = pa.array(num), pa.array(den)
    return pa.table({
        "hand": pc.take(hand_text, position),
        "hand_ranks": pc.take(rank_text, position),
        "category": pc.take(category, position),
        "class_weight": pa.array(counts.weights[cls]),
        "up": pc.take(up_text, up),
        "ev_raise": pc.binary_join_element_wise(pc.cast(num_arr, pa.string()),
                                                pc.cast(den_arr, pa.string()), "/"),
        "ev_raise_num": num_arr,
        "ev_raise_den": den_arr,
        "ev_raise_float": pa.array(num / den),
        "ev_fold": pa.array(np.full(len(num), "-1/1")),
        "decision": pc.take(pa.array([Choice.FOLD.value, Choice.RAISE.value]),
                            pa.array(raise_mask.astype(np.int64))),
    })


def write_strategy(table: pa.Table, path: str | os.PathLike[str], fmt: str) -> None:
    """Write the table atomically as CSV (with header), a JSON array of records, or Parquet."""
    if fmt not in FORMATS:
        raise ExactOddsError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    with atomic_output(path, "wb") as fh:
        if fmt == "csv":
            pacsv.write_csv(table, fh)
        elif fmt == "parquet":
            pq.write_table(table, fh)
        else:
            _write_json_records(table, fh)


def _write_json_records(table: pa.Table, fh: IO[bytes]) -> None:
    fh.write(b"[\n")
    first = True
    for batch in table.to_batches(max_chunksize=200_000):
        lines = [json.dumps(row, separators=(",", ":")) for row in batch.to_pylist()]
        if lines:
            fh.write((b"" if first else b",\n") + ",\n".join(lines).encode())
            first = False
    fh.write(b"\n]\n")


def format_for(path: str | os.PathLike[str], fmt: str | None) -> str:
    """The output format: given, or from the file's extension. A given format must agree with a known
    extension (``--format parquet`` into ``x.csv`` is refused)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if fmt:
        if fmt not in FORMATS:
            raise ExactOddsError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
        if suffix in FORMATS and suffix != fmt:
            raise ExactOddsError(f'--format {fmt} does not match the file name "{path}" (a .{suffix} file); '
                                 f"name the file .{fmt} or leave --format out")
        return fmt
    if suffix in FORMATS:
        return suffix
    raise ExactOddsError(f"cannot tell the format of {path}: give --format csv, json or parquet")


# --------------------------------------------------------------------------- summary
@dataclass(frozen=True)
class AkRow:
    """A-K-high situations with given player ranks and up-card rank, over all suit arrangements."""

    player_ranks: str
    up_rank: str
    raise_deals: int    # (hand, up card) pairs where raising is optimal
    deals: int          # all (hand, up card) pairs in the group

    @property
    def decision(self) -> str:
        if self.raise_deals == self.deals:
            return "raise"
        return "fold" if self.raise_deals == 0 else "mixed"


@dataclass(frozen=True)
class StrategySummary:
    """The optimal strategy in brief: category rules, their exceptions, and the A-K-high region."""

    profile: str
    pair_plus_raise: Fraction      # share of pair-or-better (hand, up) pairs that raise
    below_ak_raise: Fraction       # share of below-A-K (hand, up) pairs that raise
    ak_rows: tuple[AkRow, ...]

    def csv_text(self) -> str:
        lines = ["player_ranks,up_rank,decision,raise_deals,deals"]
        lines += [f"{r.player_ranks},{r.up_rank},{r.decision},{r.raise_deals},{r.deals}"
                  for r in self.ak_rows]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        def share(x: Fraction) -> str:
            return "always" if x == 1 else "never" if x == 0 else f"{float(x):.4%} of the time"

        out = [
            f"Optimal Caribbean Stud strategy, paytable {self.profile}",
            f"- pair or better: raise ({share(self.pair_plus_raise)})",
            f"- below A-K high: fold (raise {share(self.below_ak_raise)})",
            "- A-K high: raise against these up-card ranks (all suit arrangements unless marked",
            "  'k/n': k of n hand-and-up-card suit arrangements raise); other A-K hands fold",
        ]
        by_pattern: dict[str, list[AkRow]] = defaultdict(list)
        for r in self.ak_rows:
            by_pattern[r.player_ranks].append(r)
        never = 0
        for pattern, rows in by_pattern.items():
            parts = [r.up_rank if r.decision == "raise" else f"{r.up_rank}({r.raise_deals}/{r.deals})"
                     for r in rows if r.decision != "fold"]
            if parts:
                out.append(f"  {pattern}: {' '.join(parts)}")
            else:
                never += 1
        if never:
            out.append(f"  ({never} other A-K rank patterns always fold)")
        return "\n".join(out) + "\n"


def strategy_summary(outcomes: SituationOutcomes) -> StrategySummary:
    """Summarise the optimal strategy of a profile (see StrategySummary)."""
    counts = outcomes.counts
    raise_mask = outcomes.optimal_raise()
    w = counts.weights[:, None]
    raised = (raise_mask * w).sum(axis=1)
    total = (counts.valid * w).sum(axis=1)

    def share(selected: np.ndarray) -> Fraction:
        return Fraction(int(raised[selected].sum()), int(total[selected].sum()))

    groups: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    for cls in np.flatnonzero(outcomes.pay_index == AK_HIGH):
        ranks = "".join(RANK_CHARS[c >> 2] for c in counts.players[cls][::-1])
        for up in np.flatnonzero(counts.valid[cls]):
            key = (ranks, RANK_CHARS[up >> 2])
            groups[key][0] += int(raise_mask[cls, up]) * int(counts.weights[cls])
            groups[key][1] += int(counts.weights[cls])
    order = {r: i for i, r in enumerate(RANK_CHARS)}
    keys = sorted(groups, key=lambda k: ([-order[c] for c in k[0]], order[k[1]]))
    rows = tuple(AkRow(player_ranks=k[0], up_rank=k[1], raise_deals=groups[k][0], deals=groups[k][1])
                 for k in keys)
    return StrategySummary(
        profile=outcomes.profile.name,
        pair_plus_raise=share(outcomes.pay_index >= PAIR),
        below_ak_raise=share(outcomes.pay_index < AK_HIGH),
        ak_rows=rows,
    )


def write_summary(summary: StrategySummary, directory: str | os.PathLike[str]) -> tuple[Path, Path]:
    """Write ``<profile>.csv`` and ``<profile>.txt`` into a directory (atomically)."""
    directory = Path(directory)
    csv_path, txt_path = directory / f"{summary.profile}.csv", directory / f"{summary.profile}.txt"
    atomic_write_text(csv_path, summary.csv_text())
    atomic_write_text(txt_path, summary.text())
    return csv_path, txt_path


def regenerate_summaries(directory: str | os.PathLike[str]) -> list[Path]:
    """Write the summary of every shipped profile into ``directory``; return the files written."""
    from exactodds.caribbean.analysis.game import situation_outcomes
    from exactodds.caribbean.profile import available_profiles

    written: list[Path] = []
    for name in available_profiles():
        written.extend(write_summary(strategy_summary(situation_outcomes(name)), directory))
    return written


if __name__ == "__main__":  # make strategy-tables
    import sys

    for path in regenerate_summaries(sys.argv[1] if len(sys.argv) > 1 else "tables/strategy"):
        print(path)
