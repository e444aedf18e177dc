"""What ``exactodds stud table`` reports: a built table, its starting hands, where and how long
it ran and the files written, as one result with ``to_dict()`` (heads-up exact, or three-way)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from exactodds.stud.table.build import StartingTable
from exactodds.stud.table.classes import total_deals
from exactodds.stud.table.headsup import DEALS_PER_SITUATION
from exactodds.stud.table.summary import StartingHand
from exactodds.stud.table.threeway import ThreeWayHand, ThreeWayTable

HEADSUP_METHOD = "one heads-up inclusion-exclusion sweep per class of up-card pairs, every hole card at once"


@dataclass(frozen=True, kw_only=True)
class HeadsUpTableRun:
    """The exact heads-up first-round table and its 169 starting hands (best first)."""

    table: StartingTable
    hands: tuple[StartingHand, ...]
    ran_on: str
    seconds: float
    written: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "player_count": 2, "street": "first round", "exact": True, "method": HEADSUP_METHOD,
            "ran_on": self.ran_on, "seconds": self.seconds, "classes": len(self.table.rows),
            "deals": total_deals(2), "weights": self.table.total_weight,
            "deals_per_situation": DEALS_PER_SITUATION,
            "starting_hands": [h.to_dict() for h in self.hands], "written": list(self.written),
        }


@dataclass(frozen=True, kw_only=True)
class ThreeWayTableRun:
    """The three-way first-round table: each row exact within ``budget`` seconds, else sampled."""

    table: ThreeWayTable
    hands: tuple[ThreeWayHand, ...]
    budget: float
    ran_on: str
    seconds: float
    written: tuple[str, ...] = ()

    @property
    def sampled_rows(self) -> int:
        return sum(not r.exact for r in self.table.rows)

    def to_dict(self) -> dict[str, Any]:
        t = self.table
        return {"player_count": 3, "street": "first round", "exact": t.exact, "ran_on": self.ran_on,
                "seconds": self.seconds, "classes": len(t.rows), "deals": total_deals(3),
                "weights": sum(r.weight for r in t.rows), "sampled_rows": self.sampled_rows,
                "samples": t.samples, "seed": t.seed, "budget": self.budget,
                "starting_hands": [h.to_dict() for h in self.hands], "written": list(self.written)}
