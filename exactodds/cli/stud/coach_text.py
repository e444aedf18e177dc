"""The coach of ``stud play --coach`` in plain words, and what the player's decisions cost: the
recommendation first, every action's EV against the table's bots, the equilibrium line heads-up where
it exists, the pot odds last; a caveat once per session; method names, fractions and samples only
with ``--details``."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction

import click

from exactodds.cli.options import render_table
from exactodds.cli.stud.decide_text import (
    action_rows,
    assumption,
    detail_lines,
    equilibrium_lines,
    recommendation,
)
from exactodds.display import signed
from exactodds.stud.decide.coach import Advice
from exactodds.stud.decide.result import Decision
from exactodds.stud.engine.actions import Action, action_words
from exactodds.stud.equity import SampledEquity

THINKING_AFTER = 1.0  # seconds of work before "thinking..." shows


@contextmanager
def thinking(*, enabled: bool) -> Iterator[None]:
    """Show "thinking..." (with the seconds spent) on a terminal while the work takes over a second."""
    if not enabled or not sys.stderr.isatty():
        yield
        return
    done = threading.Event()
    started = time.monotonic()

    def spin() -> None:
        if done.wait(THINKING_AFTER):
            return
        while not done.wait(0.25):
            click.echo(f"\r  thinking... {time.monotonic() - started:.0f} s", err=True, nl=False)
        click.echo("\r" + " " * 30 + "\r", err=True, nl=False)

    worker = threading.Thread(target=spin, daemon=True)
    worker.start()
    try:
        yield
    finally:
        done.set()
        worker.join()


def _percent(x: Fraction | float) -> str:
    return f"{100 * float(x):.0f}%"


def pot_odds_line(advice: Advice) -> str:
    """The showdown equity and the immediate pot odds, in words."""
    odds = advice.pot_odds
    about = "about " if isinstance(odds.equity, SampledEquity) else ""
    line = f"you win {about}{_percent(odds.win)} of the time at showdown against random hole cards"
    if odds.to_call:
        line += f"; calling {odds.to_call} into {odds.pot} needs {_percent(odds.needed)}"
    return f"Pot odds: {line}."


def solver_lines(advice: Advice, *, to_call: int) -> list[str]:
    """Against the solver bots' equilibrium this round (their hole card narrowed by their earlier play)."""
    solved = advice.solved
    if solved is None:
        return [f"(Against the solver bots: {advice.solved_note}.)"] if advice.solved_note else []
    values = solved.values
    ranked = sorted(zip(values.actions, values.chips, strict=True), key=lambda ac: -ac[1])
    best, top = ranked[0]
    lines = []
    if len(ranked) > 1:
        second, chips = ranked[1]
        said_best, said_second = action_words(best, to_call=to_call), action_words(second, to_call=to_call)
        lines.append(f"Against these bots (their equilibrium this round): {said_best}, {top - chips:.2f} "
                     f"chips better than {said_second}.")
    lines.extend(f"  {action_words(a, to_call=to_call):<12} {signed(c, 2):>7}" for a, c in ranked)
    return lines


def coach_lines(advice: Advice, *, opponents: str, said: set[str], details: bool) -> list[str]:
    """The coach's lines for one decision; ``said`` holds the caveats already shown this session (each
    is shown once, every time with ``details``)."""
    d = advice.decision
    lines: list[str] = []
    if advice.solved is not None:
        lines.extend(solver_lines(advice, to_call=d.to_call))
        lines.append(f"Against the bots' usual play ({opponents}):")
    lines.append(f"{recommendation(d)} (against {opponents}).")
    lines.extend(action_rows(d, details=details))
    lines.extend(equilibrium_lines(d))
    if advice.solved is None:
        lines.extend(solver_lines(advice, to_call=d.to_call))
    lines.append(pot_odds_line(advice))
    caveat = assumption(d)
    if details or caveat not in said:
        said.add(caveat)
        lines.append(caveat)
    lines.extend(f"Note: {s.text()}." for s in d.surprises)
    if details:
        lines.extend(detail_lines(d))
        eq = advice.pot_odds.equity
        sampled = f", {eq.samples:,} deals, seed {eq.seed}" if isinstance(eq, SampledEquity) else ""
        lines.append(f"Showdown equity: {eq.method}{sampled}.")
    return lines


@dataclass(frozen=True, kw_only=True)
class PricedChoice:
    """One of the player's decisions: the action chosen and the best against the table's opponents,
    their EVs (chips from the decision on), the cost (best minus chosen; lower is better) and its
    standard error (None when exact); against an equilibrium opponent too where it was computed."""

    hand: int
    round_index: int
    chosen: str
    best: str
    chosen_ev: Fraction
    best_ev: Fraction
    error: float | None
    equilibrium_cost: float | None = None
    equilibrium_slack: float = 0.0  # chips within which a solve's EVs are not told apart

    @property
    def cost(self) -> Fraction:
        return self.best_ev - self.chosen_ev

    @property
    def mistake(self) -> bool:
        """Worse than the best beyond doubt: above 0 when exact, above twice the error when sampled."""
        return self.cost > 0 if self.error is None else float(self.cost) > 2 * self.error

    @property
    def equilibrium_mistake(self) -> bool:
        return self.equilibrium_cost is not None and self.equilibrium_cost > self.equilibrium_slack + 1e-9


def price_choice(d: Decision, action: Action, *, hand: int) -> PricedChoice:
    """What ``action`` cost at decision ``d`` (and against the equilibrium line, where there is one)."""
    chosen = d.ev_of(action)
    best = d.best if d.best.ev > chosen.ev else chosen
    eq_cost = None
    slack = 0.0
    if d.equilibrium is not None and action.text() in d.equilibrium.evs:
        evs = d.equilibrium.evs
        eq_cost = max(evs.values()) - evs[action.text()]
        slack = d.equilibrium.exploitability * d.pot
    return PricedChoice(hand=hand, round_index=d.round_index, chosen=chosen.words, best=best.words,
                        chosen_ev=chosen.ev, best_ev=best.ev, error=d.error_between(best.action.text(),
                                                                                    action.text()),
                        equilibrium_cost=eq_cost, equilibrium_slack=slack)


def summary_lines(choices: list[PricedChoice], *, opponents: str) -> list[str]:
    """Every priced decision of the session and the totals."""
    if not choices:
        return []
    rows = []
    for c in choices:
        error = f" ± {c.error:.2f}" if c.error and c.cost else ""
        eq = "" if c.equilibrium_cost is None else f"{c.equilibrium_cost:.2f}"
        rows.append([c.hand, c.round_index + 1, c.chosen, signed(c.chosen_ev, 2), c.best,
                     signed(c.best_ev, 2), f"{float(c.cost):.2f}{error}", eq])
    total = sum((c.cost for c in choices), Fraction(0))
    mistakes = sum(c.mistake for c in choices)
    lines = [f"Your decisions against {opponents} (EV in chips from the decision on; a cost within twice its "
             "sampling error is not a mistake; 'vs eq.': the cost against an equilibrium opponent):",
             render_table(["hand", "round", "you", "EV", "best", "EV best", "cost", "vs eq."], rows,
                          "rrlrlrrr"),
             f"Total cost: {float(total):.2f} chips over {len(choices)} decision(s), {mistakes} "
             f"mistake{'s' if mistakes != 1 else ''}."]
    priced = [c for c in choices if c.equilibrium_cost is not None]
    if priced:
        eq_total = sum(c.equilibrium_cost or 0.0 for c in priced)
        eq_mistakes = sum(c.equilibrium_mistake for c in priced)
        lines.append(f"Against an equilibrium opponent (heads-up, where solved): {eq_total:.2f} chips over "
                     f"{len(priced)} decision(s), {eq_mistakes} not the best.")
    return lines
