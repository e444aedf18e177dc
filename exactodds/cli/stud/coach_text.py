"""The coach of ``stud play --coach`` at a terminal: "thinking..." while it works, and what the player's
decisions cost over the session. Its words are :func:`~exactodds.stud.decide.words.coach_lines` (shared
with the host's page)."""

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
from exactodds.display import signed, total_with_error
from exactodds.stud.decide.result import Decision
from exactodds.stud.engine.actions import Action

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
    total = total_with_error((c.cost, c.error) for c in choices)
    mistakes = sum(c.mistake for c in choices)
    mistaken = total_with_error((c.cost, c.error) for c in choices if c.mistake)
    forgiven = any(c.cost and not c.mistake for c in choices)  # costs within their sampling error
    lines = [f"Your decisions against {opponents} (EV in chips from the decision on; a cost within twice its "
             "sampling error is not a mistake; 'vs eq.': the cost against an equilibrium opponent):",
             render_table(["hand", "round", "you", "EV", "best", "EV best", "cost", "vs eq."], rows,
                          "rrlrlrrr"),
             f"Total cost: {total} chips over {len(choices)} decision(s); {mistakes} "
             f"mistake{'s' if mistakes != 1 else ''}" + (f", costing {mistaken} chips." if forgiven
                                                          and mistakes else ".")]
    priced = [c for c in choices if c.equilibrium_cost is not None]
    if priced:
        eq_total = sum(c.equilibrium_cost or 0.0 for c in priced)
        eq_mistakes = sum(c.equilibrium_mistake for c in priced)
        lines.append(f"Against an equilibrium opponent (heads-up, where solved): {eq_total:.2f} chips over "
                     f"{len(priced)} decision(s), {eq_mistakes} not the best.")
    return lines
