"""The strategy card of a paytable: the cheapest card of each length, exact costs, proofs, and a cache.

:func:`strategy_card` is the one entry point (the CLI, the report and the table page call it): it
counts the game, builds the cells, runs the search (:mod:`exactodds.caribbean.strategy.card.search`) or
reads each category's lists back from the cache directory (keyed by the category's exact cells and
the search settings, so every shipped paytable with the same A-K-high cells shares one search),
re-evaluating every cost exactly, and returns a frozen :class:`CardResult`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from exactodds.cache import cache_dir, keep_in_cache
from exactodds.caribbean.analysis.game import evaluate_strategy, situation_outcomes
from exactodds.caribbean.analysis.result import TOTAL_DEALS, GameResult
from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.caribbean.strategy.card.evaluate import CardSearchError, Cells, build_cells
from exactodds.caribbean.strategy.card.grammar import RULES_OF_THUMB, Card
from exactodds.caribbean.strategy.card.problem import CategoryProblem
from exactodds.caribbean.strategy.card.search import (
    CardFound,
    ListFound,
    SearchSettings,
    search,
    search_category,
)
from exactodds.jsonable import JSONDict, exact, with_float
from exactodds.memo import BoundedCache
from exactodds.progress import Progress, staged

PARETO_RULES = 5   # the Pareto table lists cards of 0..5 rules
MAX_RULES = 8
DEFAULT_RULES = 3   # the card `exactodds caribbean card` prints (and the table's card tab shows)
CACHE_VERSION = 2


class Method(StrEnum):
    """How a card of the Pareto table was found (the JSON value)."""

    LINES = "category lines"          # no rule: every category line compared (proven)
    BRANCH_AND_BOUND = "branch and bound"   # proven cheapest
    BEAM = "beam search"              # the cheapest found, not proven


@dataclass(frozen=True, kw_only=True)
class CardLength:
    """The cheapest card found with at most ``rules`` rules, and its exact cost (lower is better)."""

    rules: int
    card: Card
    cost_units: Fraction          # net units lost against optimal play over all deals (>= 0)
    optimal_house_edge: Fraction
    lower_units: Fraction         # proven: no card of at most ``rules`` rules costs less (<= cost_units)
    proven: bool                  # no card of at most ``rules`` rules is cheaper (CardResult.covers_grammar)
    method: Method

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
                **with_float("house_edge", self.house_edge),
                "cost_lower_bound_units": exact(self.lower_units),
                "proven": self.proven, "method": str(self.method)}


@dataclass(frozen=True, kw_only=True)
class CardResult:
    """A paytable's strategy card: the Pareto table (rules -> exact cost) and the card asked for."""

    paytable: str
    description: str
    optimal: GameResult
    pareto: tuple[CardLength, ...]     # index n: at most n rules
    rules: int                         # the card asked for has at most this many rules
    rules_of_thumb_cost_units: Fraction
    covers_grammar: bool               # a proof covers the whole grammar, not only the searched shapes
    settings: SearchSettings
    total_deals: int = TOTAL_DEALS

    @property
    def chosen(self) -> CardLength:
        return self.pareto[self.rules]

    def search_summary(self) -> str:
        """The search and its budget in words (for the card's notes)."""
        s = self.settings
        return (f"a beam search (width {s.beam.width}, the {s.beam.per_move} best rules per place, "
                f"polished); "
                f"branch and bound is run up to {s.exact_rules} rules ({s.exact_nodes:,} nodes per length)")

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): the card, its exact cost, the Pareto table, what is proven."""
        s = self.settings
        return {"exact": True, "paytable": self.paytable, "combinations": self.total_deals,
                **with_float("optimal_house_edge", self.optimal.house_edge),
                "rules_asked": self.rules, "card": self.chosen.to_dict(),
                "pareto": [p.to_dict() for p in self.pareto],
                "rules_of_thumb_cost_units": exact(self.rules_of_thumb_cost_units),
                "covers_grammar": self.covers_grammar,
                "search": {"beam_width": s.beam.width, "per_move": s.beam.per_move,
                           "exact_rules": s.exact_rules, "exact_nodes": s.exact_nodes}}


def _digest(problem: CategoryProblem, settings: SearchSettings) -> str:
    h = hashlib.sha256()
    h.update(problem.digest().encode())
    h.update(repr((CACHE_VERSION, settings.max_conditions, settings.beam, settings.exact_rules,
                   settings.exact_nodes)).encode())
    return h.hexdigest()[:24]


def _cached_category(progress: Progress | None, problem: CategoryProblem, max_rules: int,
                     settings: SearchSettings) -> dict[Choice, list[ListFound]]:
    """:func:`~exactodds.caribbean.strategy.card.search.search_category`, its lists kept in the cache
    directory; regrets read back are recomputed exactly, never trusted."""
    path = cache_dir() / f"caribbean_card_{_digest(problem, settings)}.json"
    if path.exists():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            found = {d: [ListFound.from_dict(x, problem, d) for x in data[str(d)]] for d in Choice}
            if all(len(f) > max_rules for f in found.values()):
                return {d: f[:max_rules + 1] for d, f in found.items()}
        except (KeyError, TypeError, ValueError, OSError):
            pass  # a damaged or shorter file: search again and replace it
    with staged(progress, "searching strategy cards", steps=2 * max_rules) as stage:
        found = search_category(problem, max_rules, settings, step=stage.step)
    keep_in_cache(path, json.dumps({str(d): [x.to_dict() for x in f] for d, f in found.items()}).encode(),
                  what="strategy card search")
    return found


def search_cached(cells: Cells, *, max_rules: int, settings: SearchSettings | None = None,
                  progress: Progress | None = None) -> tuple[tuple[CardFound, ...], bool]:
    """The cheapest card of each length 0..max_rules
    (:func:`~exactodds.caribbean.strategy.card.search.search`) with each category's lists cached; and
    whether the search covers the whole grammar."""
    settings = settings or SearchSettings()
    outcome = search(cells, max_rules=max_rules, settings=settings,
                     solve=lambda problem, n, s: _cached_category(progress, problem, n, s))
    return outcome.cards, outcome.covers_grammar


def strategy_card(profile: Profile | str = "standard", rules: int = DEFAULT_RULES, *,
                  progress: Progress | None = None) -> CardResult:
    """The pocket strategy card of a paytable with at most ``rules`` rules (cached per process).

    Returns a :class:`CardResult`: the Pareto table of the cheapest card found for 0..max(rules, 5)
    rules with its exact cost against optimal play (units over all 19,933,230,517,200 deals; lower
    is better) and whether it is proven cheapest, and the card asked for. Raises CardSearchError for
    ``rules`` outside 0..8.
    """
    if isinstance(rules, bool) or not isinstance(rules, int) or not 0 <= rules <= MAX_RULES:
        raise CardSearchError(f"rules must be a whole number from 0 to {MAX_RULES}, got {rules!r}")
    loaded = load_profile(profile)
    return _CARDS.get((loaded, rules), lambda: _strategy_card(loaded, rules, progress))


# A card is small; the table asks for its sessions' paytables, the report and the command for one.
_CARDS = BoundedCache[tuple[Profile, int], CardResult](maxsize=16, name="strategy cards per paytable")


def _method(found: CardFound) -> Method:
    if found.rules == 0:
        return Method.LINES
    return Method.BRANCH_AND_BOUND if found.proven else Method.BEAM


def _strategy_card(profile: Profile, rules: int, progress: Progress | None) -> CardResult:
    outcomes = situation_outcomes(profile, progress=progress)
    optimal = evaluate_strategy(outcomes, outcomes.optimal_raise(), name="optimal")
    cells = build_cells(outcomes)
    settings = SearchSettings()
    found, covers = search_cached(cells, max_rules=max(rules, PARETO_RULES), settings=settings,
                                  progress=progress)
    pareto = tuple(CardLength(rules=f.rules, card=f.card, cost_units=Fraction(f.cost_scaled, cells.scale),
                              lower_units=Fraction(f.lower_scaled, cells.scale),
                              optimal_house_edge=optimal.house_edge, proven=f.proven, method=_method(f))
                   for f in found)
    return CardResult(paytable=profile.name, description=profile.description, optimal=optimal, pareto=pareto,
                      rules=rules, rules_of_thumb_cost_units=cells.cost(RULES_OF_THUMB),
                      covers_grammar=covers,
                      settings=settings)
