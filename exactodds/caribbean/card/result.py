"""The strategy card of a paytable: the cheapest card of each length, exact costs, and a cache.

:func:`strategy_card` is the one entry point (the CLI, the report and a table page call it):
it counts the game, builds the cells, runs the search (or reads its cards back from the cache
directory, re-evaluating every cost exactly) and returns a frozen :class:`CardResult`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction

from exactodds.cache import atomic_write_text, cache_dir
from exactodds.caribbean.analysis.game import evaluate_strategy, situation_outcomes
from exactodds.caribbean.analysis.result import TOTAL_DEALS, GameResult
from exactodds.caribbean.card.evaluate import CardSearchError, Cells, build_cells
from exactodds.caribbean.card.grammar import RULES_OF_THUMB, Card
from exactodds.caribbean.card.search import SearchSettings, search
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.errors import StrategyError
from exactodds.jsonable import JSONDict, exact, with_float
from exactodds.progress import Progress, staged

PARETO_RULES = 5   # the Pareto table lists cards of 0..5 rules
MAX_RULES = 8
CACHE_VERSION = 1


@dataclass(frozen=True, kw_only=True)
class CardLength:
    """The cheapest card found with at most ``rules`` rules, and its exact cost (lower is better)."""

    rules: int
    card: Card
    cost_units: Fraction          # net units lost against optimal play over all deals (>= 0)
    optimal_house_edge: Fraction

    @property
    def cost_per_ante(self) -> Fraction:
        return self.cost_units / TOTAL_DEALS

    @property
    def house_edge(self) -> Fraction:
        """The house edge per ante when the player follows this card (lower is better for the player)."""
        return self.optimal_house_edge + self.cost_per_ante

    def to_dict(self) -> JSONDict:
        return {"rules": self.rules, "rules_used": len(self.card.rules), "card": self.card.to_dict(),
                "cost_vs_optimal_units": exact(self.cost_units),
                **with_float("cost_vs_optimal_per_ante", self.cost_per_ante),
                **with_float("house_edge", self.house_edge)}


@dataclass(frozen=True, kw_only=True)
class CardResult:
    """A paytable's strategy card: the Pareto table (rules -> exact cost) and the card asked for."""

    paytable: str
    description: str
    optimal: GameResult
    pareto: tuple[CardLength, ...]     # index n: at most n rules
    rules: int                         # the card asked for has at most this many rules
    rules_of_thumb_cost_units: Fraction
    total_deals: int = TOTAL_DEALS

    @property
    def chosen(self) -> CardLength:
        return self.pareto[self.rules]

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): the card, its exact cost, the Pareto table."""
        return {"exact": True, "paytable": self.paytable, "combinations": self.total_deals,
                **with_float("optimal_house_edge", self.optimal.house_edge),
                "rules_asked": self.rules, "card": self.chosen.to_dict(),
                "pareto": [p.to_dict() for p in self.pareto],
                "rules_of_thumb_cost_units": exact(self.rules_of_thumb_cost_units)}


def _digest(cells: Cells, max_rules: int, settings: SearchSettings) -> str:
    h = hashlib.sha256()
    for array in (cells.gain, cells.features.category, cells.features.ranks, cells.features.up,
                  cells.features.suited):
        h.update(array.tobytes())
    h.update(repr((CACHE_VERSION, max_rules, settings)).encode())
    return h.hexdigest()[:24]


def search_cached(cells: Cells, *, max_rules: int, settings: SearchSettings | None = None,
                  progress: Progress | None = None) -> list[tuple[Card, int]]:
    """:func:`~exactodds.caribbean.card.search.search`, its cards kept in the cache directory (keyed by
    the cells' exact gains and the settings); costs read back are recomputed exactly, never trusted."""
    settings = settings or SearchSettings()
    path = cache_dir() / f"caribbean_card_{_digest(cells, max_rules, settings)}.json"
    if path.exists():
        try:
            cards = [Card.from_dict(c) for c in json.loads(path.read_text(encoding="utf-8"))]
            return [(card, cells.cost_scaled(card.decide(cells.features))) for card in cards]
        except (StrategyError, ValueError, OSError):
            pass  # a damaged file: search again and replace it
    with staged(progress, "searching strategy cards", steps=max_rules + 1) as stage:
        found = search(cells, max_rules=max_rules, settings=settings, progress=lambda _n: stage.step())
    atomic_write_text(path, json.dumps([card.to_dict() for card, _ in found]))
    return found


def strategy_card(profile: Profile | str = "standard", rules: int = 3, *,
                  progress: Progress | None = None) -> CardResult:
    """The pocket strategy card of a paytable with at most ``rules`` rules (cached per process).

    Returns a :class:`CardResult`: the Pareto table of the cheapest card found for 0..max(rules, 5)
    rules with its exact cost against optimal play (units over all 19,933,230,517,200 deals; lower
    is better), and the card asked for. Raises CardSearchError for ``rules`` outside 0..8.
    """
    if isinstance(rules, bool) or not isinstance(rules, int) or not 0 <= rules <= MAX_RULES:
        raise CardSearchError(f"rules must be a whole number from 0 to {MAX_RULES}, got {rules!r}")
    profile = load_profile(profile)
    key = (profile.name, tuple(sorted(profile.pays.items())), profile.call, profile.qualifier, profile.cap,
           rules)
    if key not in _CARDS:
        _CARDS[key] = _strategy_card(profile, rules, progress)
    return _CARDS[key]


_CARDS: dict[tuple[object, ...], CardResult] = {}


def _strategy_card(profile: Profile, rules: int, progress: Progress | None) -> CardResult:
    outcomes = situation_outcomes(profile, progress=progress)
    optimal = evaluate_strategy(outcomes, outcomes.optimal_raise(), name="optimal")
    cells = build_cells(outcomes)
    found = search_cached(cells, max_rules=max(rules, PARETO_RULES), progress=progress)
    pareto = tuple(CardLength(rules=n, card=card, cost_units=Fraction(cost, cells.scale),
                              optimal_house_edge=optimal.house_edge) for n, (card, cost) in enumerate(found))
    return CardResult(paytable=profile.name, description=profile.description, optimal=optimal, pareto=pareto,
                      rules=rules, rules_of_thumb_cost_units=cells.cost(RULES_OF_THUMB))
