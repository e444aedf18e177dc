"""Published hole-carding figures (the shipped ``data/published/holecard.toml``), for comparison only.

They are ``[[compare]]`` entries, not ``[[figure]]``s: shown beside the exact values with
the difference, never checked by ``verify`` (quoted second-hand, and not all exact
optimal-strategy values).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from exactodds.jsonable import exact
from exactodds.resources import data_file


@dataclass(frozen=True, kw_only=True)
class PublishedFigure:
    """A published hole-carding figure, compared (never enforced)."""

    profile: str
    dealer_known: int
    quantity: str        # "house edge" or "player edge"
    percent: Fraction    # as published, in percent of the ante
    source: str
    note: str = ""       # how the figure relates to the exact value, when that needs saying

    @property
    def text(self) -> str:
        return f"{self.quantity} {float(self.percent):.2f}%"

    def to_dict(self, *, house_edge: Fraction) -> dict[str, object]:
        """The figure beside ours (``house_edge`` per ante), exact values as "p/q" strings."""
        return {
            "quantity": self.quantity,
            "percent": exact(self.percent),
            "difference_percent_points": float(self.difference(house_edge)),
            "source": self.source,
            "note": self.note,
        }

    def difference(self, house_edge: Fraction) -> Fraction:
        """Our value minus the published one, in percentage points of the published quantity."""
        ours = 100 * (house_edge if self.quantity == "house edge" else -house_edge)
        return ours - self.percent


@lru_cache(maxsize=1)
def published_figures() -> dict[tuple[str, int], PublishedFigure]:
    """Published hole-carding figures from the shipped ``data/published/holecard.toml`` ([[compare]]:
    shown beside the exact values with the difference, never checked by ``verify``)."""
    path = data_file("published", "holecard.toml")
    if not path.exists():
        return {}
    data = tomllib.loads(path.read_text(encoding="utf-8-sig"))  # a byte-order mark is allowed
    sources = data.get("sources", {})
    figures = {}
    for raw in data.get("compare", []):
        k = int(raw["dealer_known"])
        quantity = {"house_edge": "house edge", "player_edge": "player edge"}[raw["quantity"]]
        profile = raw["profile"]
        figures[(profile, k)] = PublishedFigure(
            profile=profile, dealer_known=k, quantity=quantity, percent=Fraction(str(raw["value"])),
            source=sources.get(raw["source"], raw["source"]), note=str(raw.get("note", "")))
    return figures
