"""The optimal strategy given partial information as a file (CSV or Parquet) and in brief.

The file has one row per situation (:mod:`exactodds.caribbean.holecard.partial_situations`):
the player's hand, the seen dealer cards, the signal, the row's weight, the dealer completions
by outcome, EV(raise) exact and decimal, and the decision. It is written while the count runs,
chunk by chunk (a whole table does not fit in memory: tens to hundreds of millions of rows),
into a temporary file that replaces the target only when every row is written: Ctrl-C or
SIGTERM leaves any earlier file untouched. The weighted rows reproduce the exact game (checked
against the count on every export: :class:`ExportedStrategy`).

Columns: ``hand`` (the player's five cards, highest first), ``category`` (the JSON vocabulary:
``high_card`` below A-K, ``ak_high``, ``pair``, ...), ``seen`` (the seen dealer cards, the up
card among them), ``hidden_sorted`` (edge sorting: how many hidden dealer cards show the sorted
back) or ``flashed_rank`` (the rank seen without its suit), ``weight`` (the situations the row
stands for: suit renamings of the seen cards and of the hand), ``completions`` (the dealer's
unseen cards consistent with the signal, weighted by the flashed card's choices),
``below_qualifier``, ``weaker``, ``equal`` (of those completions: the dealer does not qualify,
is beaten, ties), ``ev_raise`` ("p/q", per ante), ``ev_raise_num``, ``ev_raise_den``,
``ev_raise_float``, ``decision`` (raise iff EV(raise) > EV(fold) = -1).
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from exactodds.cache import atomic_output
from exactodds.cards import RANK_CHARS, format_card
from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.decision.settle import kernel_nets
from exactodds.caribbean.holecard.exact import strength_ordered_hands
from exactodds.caribbean.holecard.partial import PartialInfo, PartialInfoError, SignalKind
from exactodds.caribbean.holecard.partial_situations import SituationBatch, partial_situations
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_FLOORS, Profile, load_profile
from exactodds.jsonable import JSONDict, with_float
from exactodds.progress import Progress

EXPORT_FORMATS = ("csv", "parquet")
CATEGORY_NAMES = ("high_card", *PAY_CATEGORIES)  # index: pay index + 1
CARD_NAMES = pa.array([format_card(c) for c in range(52)])


def signal_column(info: PartialInfo) -> str:
    """The name of the signal's column: ``hidden_sorted`` or ``flashed_rank``."""
    return "hidden_sorted" if info.kind is SignalKind.EDGE_SORT else "flashed_rank"


def category_index(strength: np.ndarray) -> np.ndarray:
    """Index into CATEGORY_NAMES of each strength: 0 below A-K high, then the pay categories."""
    return np.searchsorted(np.array(PAY_FLOORS), strength, side="right")


def _cards_text(cards: np.ndarray) -> pa.Array:
    """'As Kd 7c' per row of ``cards`` (rows, n), in the column order given."""
    columns = [pc.take(CARD_NAMES, pa.array(cards[:, i])) for i in range(cards.shape[1])]
    return columns[0] if len(columns) == 1 else pc.binary_join_element_wise(*columns, " ")


def batch_table(batch: SituationBatch, profile: Profile, info: PartialInfo) -> pa.Table:
    """One chunk of the strategy file as an Arrow table (the columns of the module's docstring)."""
    _, scale = kernel_nets(profile)
    num = batch.raise_units(profile)
    den = batch.completions * scale
    g = np.gcd(num, den)
    num, den = num // g, den // g
    hands = strength_ordered_hands().hands[batch.position][:, ::-1]
    signal = (pa.array(batch.signal) if info.kind is SignalKind.EDGE_SORT
              else pc.take(pa.array(list(RANK_CHARS)), pa.array(batch.signal)))
    return pa.table({
        "hand": _cards_text(hands),
        "category": pc.take(pa.array(CATEGORY_NAMES), pa.array(category_index(batch.strength))),
        "seen": _cards_text(batch.seen[:, ::-1]),
        signal_column(info): signal,
        "weight": pa.array(batch.weight),
        "completions": pa.array(batch.completions),
        "below_qualifier": pa.array(batch.below_qualifier),
        "weaker": pa.array(batch.weaker),
        "equal": pa.array(batch.equal),
        "ev_raise": pc.binary_join_element_wise(pc.cast(pa.array(num), pa.string()),
                                                pc.cast(pa.array(den), pa.string()), "/"),
        "ev_raise_num": pa.array(num),
        "ev_raise_den": pa.array(den),
        "ev_raise_float": pa.array(num / den),
        "decision": pc.take(pa.array([Choice.FOLD.value, Choice.RAISE.value]),
                            pa.array(batch.raised.astype(np.int64))),
    })


@dataclass
class _Tally:
    """Running sums over the exported rows: the game's units and deals, the summary's groups."""

    profile: Profile
    units: int = 0
    deals: int = 0
    rows: int = 0
    groups: dict[tuple[int, int], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0, 0, 0]))

    def add(self, batch: SituationBatch) -> None:
        raise_units = batch.raise_units(self.profile)
        per_row = np.where(batch.raised, raise_units, batch.fold_units(self.profile))
        deals = batch.completions * batch.weight
        self.units += int((per_row * batch.weight).sum())
        self.deals += int(deals.sum())
        self.rows += len(batch)
        key = batch.signal * len(CATEGORY_NAMES) + category_index(batch.strength)
        columns = (batch.raised * deals, deals, batch.raised * batch.weight, batch.weight)
        for column, values in enumerate(columns):
            totals = np.zeros(int(key.max()) + 1 if len(key) else 0, dtype=np.int64)
            np.add.at(totals, key, values)
            for k in np.flatnonzero(totals):
                self.groups[divmod(int(k), len(CATEGORY_NAMES))][column] += int(totals[k])


@dataclass(frozen=True, kw_only=True)
class SummaryRow:
    """Situations with one signal and one hand category: how many deals and situations raise."""

    signal: str
    category: str
    raised_deals: int
    deals: int
    raised_situations: int
    situations: int

    @property
    def decision(self) -> str:
        if self.raised_deals == self.deals:
            return "raise"
        return "fold" if self.raised_deals == 0 else "mixed"

    def to_dict(self) -> JSONDict:
        return {"signal": self.signal, "category": self.category, "decision": self.decision,
                "raised_deals": self.raised_deals, "deals": self.deals,
                "raised_situations": self.raised_situations, "situations": self.situations}


@dataclass(frozen=True, kw_only=True)
class ExportedStrategy:
    """What an export wrote: the rows, the exact result they reproduce (expected net per ante,
    higher is better for the player) and the compact summary by signal and hand category."""

    info: PartialInfo
    profile: Profile
    path: str
    fmt: str
    rows: int
    total_return: Fraction
    summary: tuple[SummaryRow, ...]

    def summary_text(self) -> str:
        """The summary as text: per signal, the share of deals raised in each hand category."""
        column = signal_column(self.info).replace("_", " ")
        lines = [f"Optimal strategy given {self.info.describe()}, paytable {self.profile.name}",
                 f"{column:>14}  {'category':<16} {'decision':<8} {'deals raised':>14}"]
        for row in self.summary:
            share = Fraction(row.raised_deals, row.deals)
            lines.append(f"{row.signal:>14}  {row.category:<16} {row.decision:<8} {float(share):>14.4%}")
        return "\n".join(lines) + "\n"

    def summary_csv(self) -> str:
        head = "category,decision,raised_deals,deals,raised_situations,situations"
        lines = [f"{signal_column(self.info)},{head}"]
        lines += [f"{r.signal},{r.category},{r.decision},{r.raised_deals},{r.deals},{r.raised_situations},"
                  f"{r.situations}" for r in self.summary]
        return "\n".join(lines) + "\n"

    def to_dict(self) -> JSONDict:
        return {**self.info.to_dict(), "information": self.info.describe(), "paytable": self.profile.name,
                "out": self.path, "format": self.fmt, "rows": self.rows,
                **with_float("expected_return", self.total_return),
                "summary": [r.to_dict() for r in self.summary]}


def check_export_format(fmt: str) -> None:
    if fmt not in EXPORT_FORMATS:
        raise PartialInfoError(f"a partial-information strategy is written as csv or parquet (tens of "
                               f"millions of rows), got {fmt!r}")


def export_partial_strategy(profile: Profile | str, info: PartialInfo, path: str | os.PathLike[str],
                            fmt: str, *,
                            progress: Progress | None = None, deck: list[int] | None = None,
                            expected_return: Fraction | None = None) -> ExportedStrategy:
    """Write every situation's optimal decision to ``path`` (``fmt`` csv or parquet), streaming
    chunk by chunk, atomically. ``deck`` restricts the game to some cards (tests). With
    ``expected_return`` (the count's exact result), the written rows must reproduce it
    (AssertionError otherwise, and nothing is written)."""
    check_export_format(fmt)
    profile = load_profile(profile)
    tally = _Tally(profile)
    writer: pq.ParquetWriter | pacsv.CSVWriter | None = None
    with atomic_output(path, "wb") as fh:
        for batch in partial_situations(profile, info, progress=progress, deck=deck):
            table = batch_table(batch, profile, info)
            if writer is None:
                opened: Callable[..., pq.ParquetWriter | pacsv.CSVWriter] = (
                    pq.ParquetWriter if fmt == "parquet" else pacsv.CSVWriter)
                writer = opened(fh, table.schema)
            writer.write_table(table)
            tally.add(batch)
        if writer is not None:
            writer.close()
        _, scale = kernel_nets(profile)
        total = Fraction(tally.units, tally.deals * scale)
        if expected_return is not None and total != expected_return:
            raise AssertionError(f"the exported rows give {total}, the count {expected_return}")
    names = [str(j) for j in range(info.signals)] if info.kind is SignalKind.EDGE_SORT else list(RANK_CHARS)
    summary = tuple(SummaryRow(signal=names[s], category=CATEGORY_NAMES[c], raised_deals=v[0], deals=v[1],
                               raised_situations=v[2], situations=v[3])
                    for (s, c), v in sorted(tally.groups.items()))
    return ExportedStrategy(info=info, profile=profile, path=str(path), fmt=fmt, rows=tally.rows,
                            total_return=total, summary=summary)
