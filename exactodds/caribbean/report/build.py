"""Everything a game math report (a "par sheet") shows, computed exactly from one count.

:func:`build_report` gathers the main wager's return table and figures, the strategy, the
volatility, the side bets, the published figures that apply and the reproducibility data;
:mod:`exactodds.caribbean.report.html` lays them out as one self-contained page.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

from exactodds.caribbean.analysis.figures import (
    DealerQualifying,
    HoldInterval,
    MainWagerFigures,
    session_counts_upto,
)
from exactodds.caribbean.analysis.normal import NormalGame
from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.caribbean.sidebets.odds import SideBetOdds, sidebet_odds
from exactodds.caribbean.sidebets.profile import load_sidebet, sidebet_path
from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict, with_float
from exactodds.progress import Progress, or_none
from exactodds.resources import data_files

if TYPE_CHECKING:  # the modules behind these load numba and matplotlib; imported when the report runs
    from exactodds.caribbean.analysis.game import SituationOutcomes
    from exactodds.caribbean.published.figures import Figure
    from exactodds.caribbean.strategy.card.result import CardResult
    from exactodds.caribbean.strategy.strategies import StrategyResult
    from exactodds.caribbean.strategy.table import StrategySummary
    from exactodds.caribbean.studies.session import SessionResult

AHEAD_HANDS = (1, 5, 10, 20, 50, 100)
SESSION_HANDS = 20
REPORT_STAGES = 6  # steps of the "building the report" stage, after the counting


class ReportError(ExactOddsError):
    """A report that cannot be made as asked (e.g. an output file of an unknown type)."""


@dataclass(frozen=True, kw_only=True)
class SessionOdds:
    """P(player ahead / even / behind) after ``hands`` hands, exact."""

    hands: int
    ahead: Fraction
    even: Fraction
    behind: Fraction

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md), with the keys of ``caribbean session --json``."""
        return {"hands": self.hands, **with_float("p_ahead", self.ahead), **with_float("p_even", self.even),
                **with_float("p_behind", self.behind)}


@dataclass(frozen=True, kw_only=True)
class CheckRow:
    """A published figure beside the computed value: status "match", "MISMATCH", "note" or "compared"."""

    label: str
    published: str
    computed: str
    status: str
    source: str
    note: str = ""


@dataclass(frozen=True, kw_only=True)
class InputFile:
    role: str
    path: str
    sha256: str


@dataclass(frozen=True, kw_only=True)
class ReportData:
    """The report's content; every number is exact unless its field says otherwise."""

    profile: Profile
    strategy: str
    strategy_description: str
    result: GameResult               # the main wager under the chosen strategy
    figures: MainWagerFigures
    qualifying: DealerQualifying
    holds: tuple[HoldInterval, ...]
    summary: StrategySummary         # of the optimal strategy
    strategies: tuple[StrategyResult, ...]  # each built-in strategy
    card: CardResult                 # the 3-rule pocket strategy card and its Pareto table
    session: SessionResult           # SESSION_HANDS hands
    ahead: tuple[SessionOdds, ...]
    sidebets: tuple[SideBetOdds, ...]
    checks: tuple[CheckRow, ...]
    inputs: tuple[InputFile, ...]
    version: str
    command_line: str
    rank_table_sha256: str


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _paytable_file(name_or_path: str, profile: Profile) -> Path:
    path = Path(name_or_path)
    if path.is_file():
        return path
    return data_files("paytables")[profile.name]


def session_odds(result: GameResult, hands: int) -> SessionOdds:
    """Exact P(ahead), P(even), P(behind) after ``hands`` hands (counts cut at a net of 0)."""
    counts, low = session_counts_upto(result, hands=hands, upto=Fraction(0))
    from exactodds.caribbean.studies.session import hand_distribution

    per_hand = hand_distribution(result)
    step = Fraction(per_hand.step, per_hand.scale)
    total = per_hand.total**hands
    behind = sum(c for j, c in enumerate(counts) if low + j * step < 0)
    even = sum(c for j, c in enumerate(counts) if low + j * step == 0)
    return SessionOdds(hands=hands, ahead=1 - Fraction(behind + even, total), even=Fraction(even, total),
                       behind=Fraction(behind, total))


def _applicable_checks(profile: Profile, sidebets: tuple[SideBetOdds, ...], optimal: GameResult,
                       outcomes: SituationOutcomes,
                       strategies: tuple[StrategyResult, ...]) -> tuple[CheckRow, ...]:
    """Published figures about this paytable, the deck, and the chosen side bets, beside our values."""
    from exactodds.caribbean.published.figures import check_figures, load_figures
    from exactodds.caribbean.published.holecard import published_figures

    names = {o.profile.name for o in sidebets}
    fixed = {tuple(o.profile.pays[c].fixed if c in o.profile.pays else None
                   for c in ("four_of_a_kind", "full_house", "flush")) for o in sidebets}

    def applies(f: Figure) -> bool:
        kind, _, arg = f.quantity.partition(":")
        if kind == "sidebet_break_even":
            return arg in names
        if kind == "progressive_break_even":
            return tuple(Fraction(x) for x in arg.split("/")) in fixed
        if f.profile is None:
            return True
        return f.profile == profile.name and shipped

    # a paytable's published figures apply only to the shipped profile itself, not to a file of its name
    shipped = profile.name in data_files("paytables") and load_profile(profile.name) == profile
    figures = [f for f in load_figures() if applies(f)]
    rows = []
    known = {(profile.name, item.result.strategy): item.result for item in strategies}
    for c in check_figures(figures, outcomes={profile.name: outcomes}, results=known):
        status = "note" if c.match is None else "match" if c.match else "MISMATCH"
        rows.append(CheckRow(label=c.figure.label, published=c.figure.published_text(),
                             computed=c.computed_text(), status=status, source=c.figure.source,
                             note=c.figure.note))
    held = published_figures().get((profile.name, 1))
    if held is not None and shipped:
        rows.append(CheckRow(label=f"{held.quantity} [{profile.name}]", published=held.text,
                             computed=f"house edge {float(optimal.house_edge):.4%}", status="compared",
                             source=held.source,
                             note=f"ours minus published {float(held.difference(optimal.house_edge)):+.4f} "
                                  "points (a rounded figure, compared, not enforced)"))
    return tuple(rows)


def build_report(*, paytable: str = "standard", sidebets: tuple[str, ...] = (), strategy: str = "optimal",
                 command_line: str = "", progress: Progress | None = None) -> ReportData:
    """Compute every figure of the report (inputs are all checked before the long work).

    Reports the counting, then a stage "building the report" of REPORT_STAGES steps, to ``progress``.
    """
    from exactodds.caribbean.strategy.strategies import BUILT_IN, evaluate_strategies, load_strategy

    profile = load_profile(paytable)
    chosen = load_strategy(strategy)
    side_profiles = [load_sidebet(s) for s in sidebets]
    inputs = [InputFile(role="paytable", path=str(_paytable_file(paytable, profile)), sha256="")]
    inputs += [InputFile(role="side bet", path=str(sidebet_path(s)), sha256="") for s in sidebets]
    if Path(strategy).is_file():
        inputs.append(InputFile(role="strategy", path=strategy, sha256=""))
    inputs += [InputFile(role="published figures", path=str(p), sha256="")
               for p in data_files("published").values()]
    inputs = [InputFile(role=i.role, path=i.path, sha256=_sha256(Path(i.path))) for i in inputs]

    from exactodds.caribbean.analysis.game import evaluate_strategy, situation_outcomes
    from exactodds.caribbean.strategy.card.result import strategy_card
    from exactodds.caribbean.strategy.table import strategy_summary
    from exactodds.caribbean.studies.session import session_distribution
    from exactodds.handrank import TABLE_SHA256, rank_table

    rank_table()  # verified against TABLE_SHA256 on load
    outcomes = situation_outcomes(profile, progress=progress)
    stages = or_none(progress)
    stages.stage("building the report", steps=REPORT_STAGES)

    def step(_label: str) -> None:
        stages.step()

    results = tuple(evaluate_strategies(outcomes, list(BUILT_IN.values())))
    optimal = results[0].optimal
    result = optimal if chosen is BUILT_IN["optimal"] else evaluate_strategy(
        outcomes, chosen.raise_mask(outcomes), name=chosen.name)
    step("strategies")
    card = strategy_card(profile, 3)
    step("strategy card")
    normal = NormalGame.of(result)
    step("figures and hold intervals")
    summary = strategy_summary(outcomes)
    session = session_distribution(result, hands=SESSION_HANDS)
    ahead = tuple(session_odds(result, n) for n in AHEAD_HANDS)
    step("session odds")
    odds = tuple(sidebet_odds(p) for p in side_profiles)
    step("side bets")
    checks = _applicable_checks(profile, odds, optimal, outcomes, results)
    step("published figures")
    stages.end()
    try:
        version = metadata.version("exactodds")
    except metadata.PackageNotFoundError:  # running from a source tree
        version = "unknown (not installed)"
    return ReportData(
        profile=profile, strategy=result.strategy, strategy_description=chosen.description, result=result,
        figures=normal.figures, qualifying=normal.qualifying, holds=normal.holds, summary=summary,
        strategies=results, card=card, session=session, ahead=ahead, sidebets=odds, checks=checks,
        inputs=tuple(inputs), version=version, command_line=command_line, rank_table_sha256=TABLE_SHA256)
