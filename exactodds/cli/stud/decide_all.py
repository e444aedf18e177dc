"""``exactodds stud decide --phh FILE.phhs --all``: every decision of a session priced, on the Dask
runner (``--scheduler``/``--workers``)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from exactodds.cli.options import echo_json, render_table
from exactodds.cli.progress import terminal_progress
from exactodds.cli.stud.opponents import parse_opponents
from exactodds.display import signed, total_with_error
from exactodds.errors import ExactOddsError
from exactodds.scale import open_runner
from exactodds.stud.decide.models import load_model
from exactodds.stud.decide.session import DEFAULT_SESSION_SAMPLES, SessionPrices
from exactodds.stud.decide.session import price_session as price
from exactodds.stud.history.phh import read_history_text
from exactodds.stud.history.session_phh import is_session_text, load_session


def price_session(path: str, *, opponents: Sequence[str], later: Sequence[str], samples: int | None,
                  seed: int, scheduler: str | None, workers: int | None, as_json: bool,
                  details: bool) -> None:
    """Price every decision of the session file ``path`` and print the table (or the JSON)."""
    if not is_session_text(read_history_text(path), name=path):
        raise ExactOddsError(f"{path} is one hand: --all prices a session file (.phhs); for one decision "
                             "give --at N")
    session = load_session(path)
    seats = sorted({s for entry in session.hands for s in entry.seats})
    models = parse_opponents(opponents, seats, what="seat")
    names = {m.name for m in models.values()}
    described = (f"{names.pop()} at every seat" if len(names) == 1
                 else ", ".join(f"seat {s} {m.name}" for s, m in models.items()))
    with open_runner(scheduler=scheduler, workers=workers) as runner, \
            terminal_progress(as_json=as_json) as progress:
        result = price(session, runner=runner, models=models, later=tuple(load_model(m) for m in later),
                       described=described,
                       samples=samples or DEFAULT_SESSION_SAMPLES, seed=seed, progress=progress)
    if as_json:
        echo_json(result.to_dict())
    else:
        click.echo(session_text(result, details=details))


def session_text(result: SessionPrices, *, details: bool) -> str:
    """The priced decisions as a table and each seat's total."""
    if not result.decisions:
        return f"{result.source}: no decision to price"
    rows = []
    for d in result.decisions:
        error = "" if not d.cost_error or d.taken == d.best else f" ± {d.cost_error:.2f}"
        rows.append([d.hand, d.at, d.seat, d.round_index + 1, d.taken_words, signed(d.ev(d.taken), 2),
                     d.best_words, signed(d.ev(d.best), 2), f"{float(d.cost):.2f}{error}",
                     "yes" if d.mistake else ""])
    mistakes = sum(d.mistake for d in result.decisions)
    header = ["hand", "action", "seat", "round", "taken", "EV", "best", "EV best", "cost", "mistake"]
    lines = [f"{result.source}: {len(result.decisions)} decisions priced against {result.opponents} (EV in "
             "chips from the decision on; a cost within twice its sampling error is not a mistake)",
             render_table(header, rows, "rrrrlrlrrl"),
             "Total cost: " + ", ".join(
                 f"seat {s} " + total_with_error((d.cost, d.cost_error)
                                                 for d in result.decisions if d.seat == s)
                 for s in result.cost_by_seat()) + f"; {mistakes} mistake{'s' if mistakes != 1 else ''}"]
    if details:
        exact = sum(d.exact for d in result.decisions)
        sampled = len(result.decisions) - exact
        lines.append(f"{exact} exact, {sampled} sampled ({result.samples:,} samples each, seed "
                     f"{result.seed}; your later play there: {result.later})")
    return "\n".join(lines)
