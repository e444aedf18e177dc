"""Published figures (the shipped ``data/published/*.toml``) and their check against a fresh analysis.

Each figure carries its source. ``exact`` figures must match exactly; ``rounded`` ones
within half a unit of their last printed digit. A ``noted`` figure is a published misprint:
it is shown beside the computed value with its note (what the printed value corresponds to)
and is neither a match nor a failure.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from exactodds.caribbean.analysis.game import SituationOutcomes, evaluate_strategy, situation_outcomes
from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.holecard.partial import analyze_partial, edge_sort
from exactodds.caribbean.holecard.partial_rules import COUNT_STRATEGY, coarse_value
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.sidebets.profile import DEFAULT_PROGRESSIVE, load_sidebet
from exactodds.caribbean.strategy.strategies import load_strategy
from exactodds.display import grouped
from exactodds.errors import ExactOddsError
from exactodds.handrank import category_name, rank_table
from exactodds.jsonable import JSONDict, exact
from exactodds.progress import Progress
from exactodds.resources import data_dir, data_files


@dataclass(frozen=True, kw_only=True)
class Figure:
    """One published figure: what it measures, its value as published, and its source."""

    quantity: str
    profile: str | None
    value: Fraction
    kind: str                  # "exact", "rounded" or "noted" (a misprint shown with its note)
    unit: str                  # "fraction" or "percent"
    decimals: int              # printed decimals of a rounded figure
    source: str
    note: str = ""

    @property
    def label(self) -> str:
        return f"{self.quantity} [{self.profile}]" if self.profile else self.quantity

    def published_text(self) -> str:
        if self.kind in ("rounded", "noted"):
            return f"{float(self.value):.{self.decimals}f}{'%' if self.unit == 'percent' else ''}"
        return _exact_text(self.value)


@dataclass(frozen=True, kw_only=True)
class FigureCheck:
    figure: Figure
    computed: Fraction
    match: bool | None  # None: a noted figure, not compared

    def to_dict(self) -> JSONDict:
        f = self.figure
        return {"quantity": f.quantity, "paytable": f.profile, "kind": f.kind,
                "published": f.published_text(), "computed": exact(self.computed), "match": self.match,
                "source": f.source, "note": f.note}

    def computed_text(self) -> str:
        f = self.figure
        if f.kind in ("rounded", "noted"):
            shown = self.computed * (100 if f.unit == "percent" else 1)
            return f"{float(shown):.{f.decimals + 3}f}{'%' if f.unit == 'percent' else ''}"
        return _exact_text(self.computed)


def _exact_text(value: Fraction) -> str:
    """An integer with thousands separators, else "p/q"."""
    return grouped(value) if value.denominator == 1 else exact(value)


def load_figures(path: Path | None = None) -> list[Figure]:
    """All figures from the shipped published-figures files (or one file), with sources resolved."""
    folder = data_dir("published")
    paths = [path] if path else list(data_files("published").values())
    if not paths:
        raise ExactOddsError(f"no published figures found: {folder} has no .toml files")
    figures = []
    for p in paths:
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ExactOddsError(f"published figures {p} cannot be read: {exc}") from None
        sources = data.get("sources", {})
        for raw in data.get("figure", []):
            try:
                figures.append(_figure(raw, sources))
            except (KeyError, ValueError, ArithmeticError) as exc:
                raise ExactOddsError(f"published figures {p}: bad figure {raw!r}: {exc}") from None
    return figures


def _figure(raw: dict[str, Any], sources: dict[str, str]) -> Figure:
    kind = raw["kind"]
    if kind not in ("exact", "rounded", "noted"):
        raise ValueError(f"kind must be exact, rounded or noted, not {kind!r}")
    if kind == "noted" and not raw.get("note"):
        raise ValueError("a noted figure needs a note")
    text = str(raw["value"])
    unit = raw.get("unit", "fraction")
    decimals = 0
    if kind in ("rounded", "noted"):
        decimals = len(text.partition(".")[2])
        value = Fraction(Decimal(text))
    else:
        value = Fraction(text)
    return Figure(quantity=raw["quantity"], profile=raw.get("profile"), value=value, kind=kind,
                  unit=unit, decimals=decimals, source=sources.get(raw["source"], raw["source"]),
                  note=raw.get("note", ""))


class _Computer:
    """Computes quantities; each profile's situations are counted once and each strategy
    (the optimal one included) is evaluated on them once."""

    def __init__(self, progress: Progress | None = None,
                 outcomes: dict[str, SituationOutcomes] | None = None,
                 results: dict[tuple[str, str], GameResult] | None = None) -> None:
        self._outcomes: dict[str, SituationOutcomes] = dict(outcomes or {})
        self._results: dict[tuple[str, str], GameResult] = dict(results or {})
        self._progress = progress

    def _situations(self, profile: str) -> SituationOutcomes:
        if profile not in self._outcomes:
            self._outcomes[profile] = situation_outcomes(load_profile(profile), progress=self._progress)
        return self._outcomes[profile]

    def strategy_result(self, profile: str, strategy: str) -> GameResult:
        key = (profile, strategy)
        if key not in self._results:
            outcomes = self._situations(profile)
            chosen = load_strategy(strategy)
            self._results[key] = evaluate_strategy(outcomes, chosen.raise_mask(outcomes), name=chosen.name)
        return self._results[key]

    def result(self, profile: str) -> GameResult:
        return self.strategy_result(profile, "optimal")

    def value(self, figure: Figure) -> Fraction:
        name, _, arg = figure.quantity.partition(":")
        if name == "hand_count":
            counts = np.bincount(rank_table(), minlength=7462)
            return Fraction(sum(int(n) for s, n in enumerate(counts) if category_name(s) == arg))
        if name == "distinct_strengths":
            return Fraction(len(np.unique(rank_table())))
        if name == "qualifying_hands":
            profile = load_profile(figure.profile or "standard")
            return Fraction(int((rank_table() >= profile.qualify_strength).sum()))
        if name in ("progressive_break_even", "sidebet_break_even"):
            from exactodds.caribbean.sidebets.odds import sidebet_odds

            if name == "sidebet_break_even":  # arg: a shipped side-bet profile
                bet = load_sidebet(arg)
            else:  # arg: "<quads>/<full_house>/<flush>", the fixed pays of the default progressive
                pays = (Fraction(x) for x in arg.split("/"))
                fixed = dict(zip(("four_of_a_kind", "full_house", "flush"), pays, strict=True))
                bet = load_sidebet(DEFAULT_PROGRESSIVE).with_fixed_pays(fixed)
            root = sidebet_odds(bet).break_even_meter
            if root is None:
                raise ExactOddsError(f"published figure {figure.quantity!r}: the side bet has no "
                                     "break-even meter")
            return root
        if name in ("edge_sort", "edge_sort_count"):  # arg: "<ranks>[@<dealer cards seen>]:player_edge"
            ranks, _, _field = arg.partition(":")
            ranks, _, known = ranks.partition("@")
            info = edge_sort(ranks, dealer_known=int(known or 1))
            if name == "edge_sort_count":  # the count strategy (partial_rules.COUNT_STRATEGY)
                return coarse_value(figure.profile or "standard", info, COUNT_STRATEGY,
                                    progress=self._progress).total_return
            return analyze_partial(figure.profile or "standard", info, progress=self._progress).player_edge
        if name == "strategy":
            strategy, _, field = arg.partition(":")
            return Fraction(getattr(self.strategy_result(figure.profile or "standard", strategy), field))
        result = self.result(figure.profile or "standard")
        if name == "combinations":
            return Fraction(sum(result.row(event).combinations for event in arg.split("+")))
        if name in ("total_units", "total_combinations", "total_return", "house_edge",
                    "element_of_risk", "raise_frequency", "dealer_qualifies_frequency"):
            return Fraction(getattr(result, name))
        raise ExactOddsError(f"published figure has an unknown quantity {figure.quantity!r}")


def check_figures(
    figures: list[Figure], *, progress: Progress | None = None,
    outcomes: dict[str, SituationOutcomes] | None = None,
    results: dict[tuple[str, str], GameResult] | None = None,
) -> list[FigureCheck]:
    """Compute every figure and compare it with the published value (``outcomes``: profiles
    already counted, by name; ``results``: strategies already evaluated, by (profile, strategy);
    ``progress``: the counting)."""
    computer = _Computer(progress, outcomes, results)
    checks = []
    for figure in figures:
        computed = computer.value(figure)
        match: bool | None
        if figure.kind == "noted":
            match = None
        elif figure.kind == "exact":
            match = computed == figure.value
        else:
            shown = computed * (100 if figure.unit == "percent" else 1)
            match = abs(shown - figure.value) <= Fraction(1, 2 * 10**figure.decimals)
        checks.append(FigureCheck(figure=figure, computed=computed, match=match))
    return checks


def profiles_needed(figures: list[Figure]) -> list[str]:
    """Profiles whose whole-game analysis the figures need, in first-use order."""
    needed: list[str] = []
    for f in figures:
        name = f.quantity.partition(":")[0]
        if f.profile and name not in ("hand_count", "distinct_strengths", "qualifying_hands",
                                      "progressive_break_even", "sidebet_break_even", "edge_sort",
                                      "edge_sort_count"):
            if f.profile not in needed:
                needed.append(f.profile)
    return needed


@dataclass(frozen=True, kw_only=True)
class Verification:
    """Every published figure beside ours: ``failed`` > 0 means a figure does not match (worse);
    a ``noted`` figure is shown with its note, not compared."""

    checks: tuple[FigureCheck, ...]

    @property
    def failed(self) -> tuple[FigureCheck, ...]:
        return tuple(c for c in self.checks if c.match is False)

    @property
    def noted(self) -> tuple[FigureCheck, ...]:
        return tuple(c for c in self.checks if c.match is None)

    @property
    def matched(self) -> int:
        return len(self.checks) - len(self.failed) - len(self.noted)

    def to_dict(self) -> JSONDict:
        return {"figures": [c.to_dict() for c in self.checks], "matched": self.matched,
                "noted": len(self.noted), "failed": len(self.failed)}


def verify_figures(figures: list[Figure] | None = None, *, progress: Progress | None = None) -> Verification:
    """Reproduce the published figures (all shipped ones by default) from a fresh analysis."""
    return Verification(checks=tuple(check_figures(load_figures() if figures is None else figures,
                                                   progress=progress)))
