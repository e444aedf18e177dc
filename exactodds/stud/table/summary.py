"""Starting hands of the heads-up table: equity against a random opponent up card, and ranking.

A starting hand is our two cards by rank and suitedness ("AA", "AKs", "AKo"): 169 of them.
Which of the two is the hole card does not change the showdown (the five final cards are
the same), so both orders belong to one starting hand. Its equity against a random
opponent up card is the weighted mean of its situation rows: every ordered deal of
(hole, up, opponent's up) is equally likely.

>>> hand_name(51, 47), hand_name(51, 46), hand_name(0, 1)
('AKs', 'AKo', '22')
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.cards import RANK_CHARS
from exactodds.jsonable import exact
from exactodds.stud.table.build import StartingTable


def hand_name(a: int, b: int) -> str:
    """A starting hand's name: ranks high first, then "s" (suited) or "o" (offsuit); pairs bare."""
    high, low = sorted((a >> 2, b >> 2), reverse=True)
    if high == low:
        return RANK_CHARS[high] * 2
    return RANK_CHARS[high] + RANK_CHARS[low] + ("s" if (a & 3) == (b & 3) else "o")


@dataclass(frozen=True, kw_only=True)
class StartingHand:
    """One starting hand against a random opponent up card (holes unknown to us: the opponent's).

    ``equity`` is our exact share of the pot at showdown (higher is better); ``rank`` 1 is the
    best of the 169; ``by_opp_rank[r]`` is the equity against an up card of rank r (0 = 2 ..
    12 = A); ``deals`` is the ordered (hole, up) deals of the hand.
    """

    name: str
    deals: int
    equity: Fraction
    rank: int
    by_opp_rank: tuple[Fraction, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.name, "deals": self.deals, "rank": self.rank, "equity": exact(self.equity),
                "equity_float": float(self.equity),
                "by_opp_up_rank": {RANK_CHARS[r]: exact(e) for r, e in enumerate(self.by_opp_rank)}}


def starting_hands(table: StartingTable) -> tuple[StartingHand, ...]:
    """The 169 starting hands of a complete table, best first (ties in equity keep name order)."""
    num: dict[str, list[int]] = {}
    den: dict[str, list[int]] = {}
    for row in table.rows:
        name = hand_name(row.hole, row.up)
        r = row.opp_up >> 2
        num.setdefault(name, [0] * 13)[r] += row.weight * (2 * row.win + row.tie)
        den.setdefault(name, [0] * 13)[r] += row.weight * 2 * row.deals
    stats = []
    for name in sorted(num):
        equity = Fraction(sum(num[name]), sum(den[name]))
        by_rank = tuple(Fraction(n, d) for n, d in zip(num[name], den[name], strict=True))
        deals = sum(den[name]) // (2 * table.rows[0].deals * 50)
        stats.append((name, deals, equity, by_rank))
    stats.sort(key=lambda s: -s[2])
    return tuple(StartingHand(name=name, deals=deals, equity=equity, rank=i + 1, by_opp_rank=by_rank)
                 for i, (name, deals, equity, by_rank) in enumerate(stats))
