"""Every heads-up decision of rounds 2-4 of a session file (the rounds asked for), solved: the chunks of
``exactodds stud solve --phh FILE.phhs --all``.

A decision is named by its hand and its betting action (1 = the hand's first betting action, deals
not counted). Each chunk solves one decision from its hand history alone (:func:`solve_decision`), so
it gives the same figures in this process, on local worker processes or on a cluster
(:mod:`exactodds.scale`); the solve time is left out of the result for that reason. For the player
who took the action: the EV (chips from the decision on, against the equilibrium opponent) of each
legal action, the EV of the action taken, the best, and the cost (best minus taken; lower is better).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from exactodds.progress import Progress
from exactodds.scale import ChunkRunner
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.history.phh import HandHistory, replay
from exactodds.stud.history.session_phh import SessionHistory
from exactodds.stud.solve.api import DEFAULT_MAX_ITERATIONS, DEFAULT_TARGET, solve_hand
from exactodds.stud.solve.start import LAST_ROUND, SECOND_ROUND, THIRD_ROUND, SolveError


def betting_lines(history: HandHistory) -> list[int]:
    """The indices in ``history.actions`` of the betting actions (deals and shows left out)."""
    return [i for i, line in enumerate(history.actions)
            if line.split()[0] != "d" and "sm" not in line.split()[1:2]]


def hand_at(history: HandHistory, at: int) -> StudHand:
    """The hand replayed up to the decision of its ``at``-th betting action (1-based), at that decision."""
    betting = betting_lines(history)
    if not 1 <= at <= len(betting):
        raise SolveError(f"{history.source} has {len(betting)} betting actions; "
                         f"--at must be 1..{len(betting)}")
    cut = betting[at - 1]
    partial = dataclasses.replace(history, actions=history.actions[:cut], lines=history.lines[:cut],
                                  finishing_stacks=None)
    hand = replay(partial, require_complete=False)
    if hand.phase is not Phase.BET or hand.actor is None:
        raise SolveError(f"action {at} of {history.source} is not a betting decision")
    return hand


def solvable(hand: StudHand, *, rounds: tuple[int, ...]) -> bool:
    """Whether the solver covers the decision now: heads-up, on one of ``rounds`` (0-based), the round
    having started heads-up."""
    if len(hand.in_hand) != 2 or hand.round_index not in rounds:
        return False
    return not any(e.kind == "f" for e in hand.events if e.round_index == hand.round_index)


@dataclass(frozen=True, kw_only=True)
class DecisionSolve:
    """One solved decision of a session: where it is, who took which action, each action's EV against
    the equilibrium (chips from the decision on; higher is better), and the equilibrium's quality."""

    hand: int
    at: int
    seat: int  # the table seat (1-based) of the player who acted
    round_index: int
    to_call: int  # chips the player had to call (0: nothing to call)
    taken: str
    method: str
    values: tuple[tuple[str, float, float], ...]  # (action, chips, equilibrium probability)
    exploitability: float  # fraction of the pot
    iterations: int

    @property
    def best(self) -> str:
        """The action of highest EV (the one taken when it ties for best)."""
        chips = {a: c for a, c, _ in self.values}
        top = max(chips, key=lambda a: chips[a])
        return self.taken if chips.get(self.taken, -1e300) >= chips[top] - 1e-9 else top

    def ev(self, action: str) -> float:
        """The EV of ``action`` (chips from the decision on)."""
        return next(c for a, c, _ in self.values if a == action)

    @property
    def cost(self) -> float:
        """Chips the action taken gave up against the best one (0 or more)."""
        return self.ev(self.best) - self.ev(self.taken)

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "at": self.at, "seat": self.seat, "round": self.round_index + 1,
                "to_call": self.to_call, "taken": self.taken, "best": self.best,
                "ev_taken": self.ev(self.taken), "ev_best": self.ev(self.best), "cost": self.cost,
                "method": self.method,
                "action_values": [{"action": a, "chips": c, "probability": p} for a, c, p in self.values],
                "exploitability_fraction_of_pot": self.exploitability, "iterations": self.iterations}


def solve_decision(history: HandHistory, number: int, seats: tuple[int, ...], at: int, target: float,
                   max_iterations: int, time_budget: float | None = None) -> DecisionSolve:
    """One chunk: the decision of the ``at``-th betting action of hand ``number`` (``seats``: the table
    seat of each player of the hand), solved for the player who took it."""
    hand = hand_at(history, at)
    player = hand.actor
    assert player is not None
    line = history.actions[betting_lines(history)[at - 1]].split()
    taken = " ".join(line[1:])
    result = solve_hand(hand, player=player, target=target, max_iterations=max_iterations,
                        time_budget=time_budget)
    assert result.action_values is not None
    values = tuple((v.action, v.chips, v.probability) for v in result.action_values)
    return DecisionSolve(hand=number, at=at, seat=seats[player], round_index=hand.round_index,
                         to_call=result.root.to_call, taken=taken,
                         method=result.method.value, values=values,
                         exploitability=result.exploitability.fraction, iterations=result.iterations)


@dataclass(frozen=True, kw_only=True)
class SessionSolve:
    """Every solved decision of a session, in file order, and each seat's total cost (lower is better)."""

    source: str
    rounds: tuple[int, ...]
    decisions: tuple[DecisionSolve, ...]

    def cost_by_seat(self) -> dict[int, float]:
        out: dict[int, float] = {}
        for d in self.decisions:
            out[d.seat] = out.get(d.seat, 0.0) + d.cost
        return dict(sorted(out.items()))

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "rounds": [r + 1 for r in self.rounds],
                "ranges": "uniform over the unseen cards at each decision (ignores the earlier betting)",
                "decisions": [d.to_dict() for d in self.decisions],
                "cost_by_seat": {str(s): c for s, c in self.cost_by_seat().items()}}


def session_decisions(session: SessionHistory, *, rounds: tuple[int, ...]) -> list[tuple[int, tuple[int, ...],
                                                                                          HandHistory, int]]:
    """(hand number, seats, history, at) of every decision the solver covers, in file order."""
    found = []
    for entry in session.hands:
        for at in range(1, len(betting_lines(entry.history)) + 1):
            hand = hand_at(entry.history, at)
            if solvable(hand, rounds=rounds):
                found.append((entry.number, entry.seats, entry.history, at))
    return found


def solve_session(session: SessionHistory, *, runner: ChunkRunner,
                  rounds: tuple[int, ...] = (THIRD_ROUND, LAST_ROUND), target: float = DEFAULT_TARGET,
                  max_iterations: int = DEFAULT_MAX_ITERATIONS, time_budget: float | None = None,
                  on_done: Callable[[int], None] | None = None,
                  progress: Progress | None = None) -> SessionSolve:
    """Solve every covered decision of ``session`` on ``rounds`` (0-based: 1 to 3) as chunks on ``runner``
    (one decision a chunk, each stopped at ``target``, ``max_iterations`` or ``time_budget`` seconds);
    ``progress`` counts the decisions solved."""
    if not rounds or any(r not in (SECOND_ROUND, THIRD_ROUND, LAST_ROUND) for r in rounds):
        raise SolveError(f"the solver covers rounds 2 to 4 (1 to 3 zero-based), got {rounds!r}")
    chunks = [(history, number, seats, at, target, max_iterations, time_budget)
              for number, seats, history, at in session_decisions(session, rounds=rounds)]
    if progress is not None:
        progress.stage("solving the session's decisions", steps=len(chunks))

    def done(i: int) -> None:
        if progress is not None:
            progress.step()
        if on_done is not None:
            on_done(i)

    results = runner.map(solve_decision, chunks, on_done=done)
    if progress is not None:
        progress.end()
    return SessionSolve(source=session.source, rounds=rounds, decisions=tuple(results))
