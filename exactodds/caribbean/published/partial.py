"""Published figures for partial information (the shipped ``data/published/partial.toml``).

Each ``[[figure]]`` there names an edge-sorting quantity (``edge_sort:<ranks>:player_edge``,
optionally ``@<K>`` dealer cards seen) that ``exactodds caribbean verify`` reproduces, and the
assumptions it was published under. ``analyze --edge-sort`` shows the same figures beside the
exact value; where the published assumptions differ from what is analysed, the figure's
note says how.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Protocol

from exactodds.jsonable import JSONDict, exact
from exactodds.resources import data_file


class _Info(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def dealer_known(self) -> int: ...
    @property
    def sorted_ranks(self) -> tuple[int, ...]: ...


RANK_CHARS = "23456789TJQKA"


@dataclass(frozen=True, kw_only=True)
class PartialFigure:
    """A published partial-information figure: a player edge in percent of the ante."""

    quantity: str        # e.g. "edge_sort:AK:player_edge"
    profile: str
    percent: Fraction    # as published
    decimals: int        # printed decimals
    source: str
    note: str = ""

    @property
    def signal(self) -> str:
        return self.quantity.split(":")[0]

    @property
    def ranks(self) -> tuple[int, ...]:
        """The sorted ranks of an edge-sort figure (0 = deuce .. 12 = ace)."""
        text = self.quantity.split(":")[1].split("@")[0]
        return tuple(sorted(RANK_CHARS.index(ch) for ch in text))

    @property
    def dealer_known(self) -> int:
        head = self.quantity.split(":")[1]
        return int(head.split("@")[1]) if "@" in head else 1

    def matches(self, info: _Info, profile: str) -> bool:
        """Whether this figure is about ``info`` on ``profile``."""
        return (profile == self.profile and str(info.kind) == self.signal
                and info.dealer_known == self.dealer_known and tuple(info.sorted_ranks) == self.ranks)

    def difference(self, player_edge: Fraction) -> Fraction:
        """Our player edge minus the published one, in percentage points."""
        return 100 * player_edge - self.percent

    def to_dict(self, *, player_edge: Fraction) -> JSONDict:
        return {"quantity": "player edge", "percent": exact(self.percent),
                "difference_percent_points": float(self.difference(player_edge)),
                "source": self.source, "note": self.note}


@lru_cache(maxsize=1)
def partial_figures() -> tuple[PartialFigure, ...]:
    """Every figure of the shipped ``data/published/partial.toml`` (empty if it is absent)."""
    path = data_file("published", "partial.toml")
    if not path.exists():
        return ()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sources = data.get("sources", {})
    out = []
    for raw in data.get("figure", []):
        text = str(raw["value"])
        out.append(PartialFigure(quantity=raw["quantity"], profile=raw.get("profile", "standard"),
                                 percent=Fraction(Decimal(text)), decimals=len(text.partition(".")[2]),
                                 source=sources.get(raw["source"], raw["source"]),
                                 note=str(raw.get("note", ""))))
    return tuple(out)


@dataclass(frozen=True, kw_only=True)
class CollusionFigure:
    """A published collusion figure (a ``[[compare]]`` entry): shown beside the sampled estimate."""

    players: int
    burn_card_seen: bool
    profile: str
    text: str            # as published, e.g. "nearly 2%"
    percent: Fraction    # the number in it
    source: str
    note: str = ""

    def to_dict(self, *, player_edge: Fraction) -> JSONDict:
        return {"quantity": "player edge", "published": self.text, "percent": exact(self.percent),
                "difference_percent_points": float(100 * player_edge - self.percent),
                "source": self.source, "note": self.note}


@lru_cache(maxsize=1)
def collusion_figures() -> tuple[CollusionFigure, ...]:
    """The ``[[compare]]`` collusion entries of the shipped ``data/published/partial.toml``."""
    path = data_file("published", "partial.toml")
    if not path.exists():
        return ()
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sources = data.get("sources", {})
    return tuple(CollusionFigure(players=int(raw["players"]), burn_card_seen=bool(raw["burn_card_seen"]),
                                 profile=raw.get("profile", "standard"), text=str(raw["text"]),
                                 percent=Fraction(Decimal(str(raw["value"]))),
                                 source=sources.get(raw["source"], raw["source"]),
                                 note=str(raw.get("note", "")))
                 for raw in data.get("compare", []) if raw.get("quantity") == "collusion_player_edge")
