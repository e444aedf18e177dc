"""Every decision of a session file priced: the chunks of ``exactodds stud decide --phh FILE --all``.

A decision is named by its hand and its betting action (1 = the hand's first betting action, deals not
counted), and priced for the player who took it: each legal action's EV in chips from the decision on
(:func:`~exactodds.stud.decide.api.decide_hand` against the given models), the action taken, the best,
and the cost (best minus taken; lower is better). Each chunk prices one decision from its hand history
alone, exact where the estimate fits ``budget`` (the estimate depends on the position only) and
otherwise with exactly ``samples`` samples and ``seed``, so the figures are the same in this process,
on local worker processes or on a cluster (:mod:`exactodds.scale`).

A sampled cost is a *mistake* only when it exceeds twice its standard error (paired samples); an
exact one when it is above 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.jsonable import with_float
from exactodds.progress import Progress
from exactodds.scale import ChunkRunner
from exactodds.stud.decide.api import DEFAULT_SEED, decide_hand
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.result import DecideMethod, later_summary
from exactodds.stud.history.phh import HandHistory
from exactodds.stud.history.session_phh import SessionHistory
from exactodds.stud.solve.session import betting_lines, hand_at

DEFAULT_SESSION_SAMPLES = 2_000
SESSION_BUDGET = 5.0  # an exact answer is used when its estimate fits this many seconds
MISTAKE_ERRORS = 2.0  # a sampled cost counts as a mistake above this many standard errors


@dataclass(frozen=True, kw_only=True)
class PricedDecision:
    """One decision of a session: who took which action, and every action's EV (chips from the
    decision on; higher is better)."""

    hand: int
    at: int
    seat: int  # the table seat (1-based) of the player who acted
    round_index: int
    to_call: int
    taken: str
    best: str
    taken_words: str
    best_words: str
    evs: tuple[tuple[str, Fraction, float | None], ...]  # (PHH action, EV, standard error)
    cost_error: float | None  # standard error of the cost (paired), None when exact
    exact: bool

    def ev(self, action: str) -> Fraction:
        """The EV of ``action`` (chips from the decision on)."""
        return next(ev for a, ev, _ in self.evs if a == action)

    @property
    def cost(self) -> Fraction:
        """Chips the action taken gave up against the best one (0 or more)."""
        return self.ev(self.best) - self.ev(self.taken)

    @property
    def mistake(self) -> bool:
        """Whether the action taken was worse than the best beyond doubt (sampling error allowed for)."""
        if self.cost_error is None:
            return self.cost > 0
        return float(self.cost) > MISTAKE_ERRORS * self.cost_error

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "at": self.at, "seat": self.seat, "round": self.round_index + 1,
                "to_call": self.to_call, "taken": self.taken, "best": self.best,
                **with_float("cost", self.cost), "cost_standard_error": self.cost_error,
                "mistake": self.mistake, "exact": self.exact,
                "actions": [{"action": a, **with_float("expected_return", ev), "standard_error": se}
                            for a, ev, se in self.evs]}


def price_decision(history: HandHistory, number: int, seats: tuple[int, ...], at: int,
                   models: Mapping[int, OpponentModel], later: tuple[OpponentModel, ...], samples: int,
                   seed: int) -> PricedDecision:
    """One chunk: the decision of the ``at``-th betting action of hand ``number`` (``seats``: each player's
    table seat), priced for the player who took it against ``models`` (by table seat)."""
    hand = hand_at(history, at)
    player = hand.actor
    assert player is not None
    line = history.actions[betting_lines(history)[at - 1]].split()
    taken = " ".join(line[1:])
    opponents = {q: models[seats[q]] for q in range(hand.n) if q != player}
    result = decide_hand(hand, opponents=opponents, budget=SESSION_BUDGET, samples=samples, seed=seed,
                         later=later)
    best = result.best.action.text()
    if result.ev_of_text(taken) >= result.best.ev:
        best = taken  # a tie for best: the action taken is a best one
    said = {a.action.text(): a.words for a in result.actions}
    return PricedDecision(hand=number, at=at, seat=seats[player], round_index=hand.round_index,
                          to_call=result.to_call, taken=taken, best=best, taken_words=said[taken],
                          best_words=said[best],
                          evs=tuple((a.action.text(), a.ev, a.standard_error) for a in result.actions),
                          cost_error=result.error_between(best, taken), exact=result.exact)


@dataclass(frozen=True, kw_only=True)
class SessionPrices:
    """Every priced decision of a session, in file order, and each seat's total cost (lower is better)."""

    source: str
    opponents: str
    later: str
    samples: int
    seed: int
    decisions: tuple[PricedDecision, ...]

    def cost_by_seat(self) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}
        for d in self.decisions:
            out[d.seat] = out.get(d.seat, Fraction(0)) + d.cost
        return dict(sorted(out.items()))

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "opponents": self.opponents, "later_play": self.later,
                "samples": self.samples, "seed": self.seed,
                "decisions": [d.to_dict() for d in self.decisions],
                "cost_by_seat": {str(s): with_float("cost", c) for s, c in self.cost_by_seat().items()}}


def price_session(session: SessionHistory, *, runner: ChunkRunner, models: Mapping[int, OpponentModel],
                  later: tuple[OpponentModel, ...], described: str, samples: int = DEFAULT_SESSION_SAMPLES,
                  seed: int = DEFAULT_SEED, on_done: Callable[[int], None] | None = None,
                  progress: Progress | None = None) -> SessionPrices:
    """Price every decision of ``session`` as chunks on ``runner`` (one decision a chunk); ``models``
    gives each table seat's model, ``later`` the models of the player's later play where sampled (the
    better for each action, chosen on a separate sample); ``progress`` counts the decisions priced."""
    chunks = [(entry.history, entry.number, entry.seats, at, models, later, samples, seed)
              for entry in session.hands for at in range(1, len(betting_lines(entry.history)) + 1)]
    if progress is not None:
        progress.stage("pricing the session's decisions", steps=len(chunks))

    def done(i: int) -> None:
        if progress is not None:
            progress.step()
        if on_done is not None:
            on_done(i)

    results = runner.map(price_decision, chunks, on_done=done)
    if progress is not None:
        progress.end()
    return SessionPrices(source=session.source, opponents=described,
                         later=later_summary(DecideMethod.SAMPLED_HANDS, later), samples=samples, seed=seed,
                         decisions=tuple(results))
