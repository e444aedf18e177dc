"""The exact result of a whole game: its return table rows and summary figures (no kernel here).

``house_edge`` is the expected loss per ante; ``element_of_risk`` the expected loss per
unit actually wagered (ante plus the call when made). Positive means the house wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds import display
from exactodds.caribbean.decision.settle import EVENT_LABELS, EVENTS, Event, event_net
from exactodds.caribbean.profile import Profile
from exactodds.jsonable import JSONDict, exact, with_float

TOTAL_DEALS = 19_933_230_517_200  # C(52,5) x 47 x C(46,4)


@dataclass(frozen=True)
class ReturnRow:
    """One line of the return table: an event, its net result in antes, and its deal count."""

    event: Event
    label: str
    net_units: Fraction
    combinations: int
    total_deals: int = TOTAL_DEALS  # the whole table's deal count (other conventions: hole-carding)

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.total_deals)

    @property
    def return_contribution(self) -> Fraction:
        """This row's share of the expected return per ante."""
        return self.net_units * self.probability


@dataclass(frozen=True)
class GameResult:
    """The exact whole-game result of one profile under one strategy."""

    profile: Profile
    strategy: str
    rows: tuple[ReturnRow, ...]
    total_combinations: int
    total_units: Fraction       # net units summed over every deal (negative: the house wins)
    raised_deals: int
    dealer_qualifies_frequency: Fraction  # over every deal, raised or not

    @property
    def total_return(self) -> Fraction:
        """Expected net result per ante for the player (negative: the house wins)."""
        return self.total_units / self.total_combinations

    @property
    def house_edge(self) -> Fraction:
        """Expected loss per ante."""
        return -self.total_return

    @property
    def average_wager(self) -> Fraction:
        """Average amount wagered per deal, in antes: 1 + call x raise frequency."""
        return 1 + self.profile.call * self.raise_frequency

    @property
    def element_of_risk(self) -> Fraction:
        """Expected loss per unit wagered (ante plus call when made)."""
        return self.house_edge / self.average_wager

    @property
    def raise_frequency(self) -> Fraction:
        return Fraction(self.raised_deals, self.total_combinations)

    def row(self, event: Event | str) -> ReturnRow:
        return next(r for r in self.rows if r.event == event)

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): exact values as "p/q" with floats beside."""
        return {
            "exact": True,
            "paytable": self.profile.name,
            "strategy": self.strategy,
            "combinations": self.total_combinations,
            "rows": [{"event": r.event, "label": r.label, "net": exact(r.net_units),
                      "combinations": r.combinations} for r in self.rows],
            "total_units": exact(self.total_units),
            **with_float("expected_return", self.total_return),
            **with_float("house_edge", self.house_edge),
            **with_float("element_of_risk", self.element_of_risk),
            **with_float("raise_frequency", self.raise_frequency),
            **with_float("dealer_qualifies_frequency", self.dealer_qualifies_frequency),
        }

    def __repr__(self) -> str:
        return display.game_repr(self)

    def __str__(self) -> str:
        return display.game_str(self)

    def _repr_html_(self) -> str:
        return display.game_html(self)


def build_result(profile: Profile, combos: dict[str, int], raised_deals: int, dealer_qualifies: int,
                 name: str) -> GameResult:
    """The GameResult of a profile from its event counts; checks that they sum to every deal."""
    rows = tuple(
        ReturnRow(event=e, label=EVENT_LABELS[e], net_units=event_net(e, profile), combinations=combos[e])
        for e in EVENTS
    )
    total = sum(r.combinations for r in rows)
    if total != TOTAL_DEALS:
        raise AssertionError(f"return table sums to {total}, expected {TOTAL_DEALS}")
    units = sum((r.net_units * r.combinations for r in rows), Fraction(0))
    return GameResult(profile=profile, strategy=name, rows=rows, total_combinations=total,
                      total_units=units, raised_deals=raised_deals,
                      dealer_qualifies_frequency=Fraction(dealer_qualifies, TOTAL_DEALS))
