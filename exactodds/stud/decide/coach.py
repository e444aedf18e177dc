"""The coach of ``stud play --coach``: at every decision of the player, what each action is worth with
the betting to come against the table's opponents, and the showdown odds beside it.

:func:`coach_advice` is what a table (the terminal's or a web server's) calls at a decision: a
:class:`~exactodds.stud.decide.result.Decision` against the models the bots play (their hole cards
weighed by what they did), the showdown equity as the player sees the hand (against random hole
cards, exact or a labelled sample) with the immediate pot odds, and, with the solver bots heads-up
on rounds 3-4 (they play the equilibrium there), each action's value against that equilibrium with
their hole card narrowed by their earlier actions. Everything is read from the player's own view: the
player's hole card, every up card and the folded hands' up cards, never another hole card.

>>> from exactodds.cards import parse_cards
>>> from exactodds.stud.engine.actions import Action
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> hand.act(Action(player=0, kind="pb")); hand.act(Action(player=1, kind="cbr", amount=2))
>>> advice = coach_advice(hand, 0, models={1: "bots"}, samples=200)
>>> advice.decision.best.words, advice.pot_odds.needed
('fold', Fraction(1, 6))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction

from exactodds.errors import ExactOddsError
from exactodds.progress import Progress
from exactodds.stud.bots.solver_bot import SolverBots
from exactodds.stud.decide.api import DEFAULT_LATER, Later, decide_hand
from exactodds.stud.decide.belief import weigh_holes
from exactodds.stud.decide.equilibrium import line_of
from exactodds.stud.decide.models import OpponentModel, load_model
from exactodds.stud.decide.result import Decision
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.equity import EquityResult, StudPlayer, StudPosition, stud_equity
from exactodds.stud.solve.against import ResponseValues, response_values
from exactodds.stud.solve.results import SolveResult

COACH_BUDGET = 5.0  # seconds the exact walk may take; beyond, a fixed sample
COACH_SAMPLES = 3_000  # the sample of a sampled answer (fixed: a session's coach replays exactly)
EQUITY_BUDGET = 1.0  # seconds the showdown equity may take exactly; beyond, a sample
EQUITY_SAMPLES = 20_000
EQUILIBRIUM_ITERATIONS = 1_000  # CFR+ iterations at most for the heads-up line (not seconds: it replays)


class CoachError(ExactOddsError):
    """Advice asked for a player who is not the one to act."""


@dataclass(frozen=True, kw_only=True)
class PotOdds:
    """The immediate pot odds: the share of the pot a call needs (``to_call / (pot + to_call)``) and the
    player's showdown equity against random hole cards (higher is better)."""

    to_call: int
    pot: int
    needed: Fraction
    equity: EquityResult
    seat: int  # the player's index among the players still in

    @property
    def win(self) -> Fraction:
        """The player's share of the pot at showdown, 0..1 (exact, or the sampled estimate)."""
        return self.equity.players[self.seat].equity


@dataclass(frozen=True, kw_only=True)
class SolvedOpponent:
    """Against the solver bots heads-up on rounds 3-4: each action's chips from now against the
    equilibrium they play this round (their hole card narrowed by their earlier actions)."""

    values: ResponseValues
    from_round: int  # the round (0-based) their equilibrium was solved from


@dataclass(frozen=True, kw_only=True)
class Advice:
    """The coach's answer at one decision (see the module docstring)."""

    decision: Decision
    pot_odds: PotOdds
    solved: SolvedOpponent | None = None
    solved_note: str = ""


def seen_position(hand: StudHand, player: int) -> tuple[StudPosition, int]:
    """The position as ``player`` sees it (players still in, the folded hands' up cards dead) and the
    player's index in it."""
    live = hand.in_hand
    players = tuple(StudPlayer(hole=hand.down[q] if q == player else None, up=tuple(hand.up[q]))
                    for q in live)
    dead = tuple(c for q in range(hand.n) if hand.folded[q] for c in hand.up[q])
    return StudPosition(players=players, dead=dead), live.index(player)


def coach_advice(hand: StudHand, player: int, *, models: Mapping[int, OpponentModel | str],
                 bots: SolverBots | None = None, budget: float = COACH_BUDGET, samples: int = COACH_SAMPLES,
                 seed: int = 1, later: Later = DEFAULT_LATER,
                 equilibrium_iterations: int = EQUILIBRIUM_ITERATIONS, progress: Progress | None = None,
                 stop: Callable[[], bool] | None = None) -> Advice:
    """The advice for ``player``, who must be the one to act: ``models`` gives every other player's model
    (0-based), ``bots`` the table's solver bots (None: the bots play the models everywhere)."""
    if hand.phase is not Phase.BET or hand.actor != player:
        raise CoachError(f"advice is for the player to act; {player!r} is not to act now")
    solver_late = bots is not None and len(hand.in_hand) == 2 and hand.round_index >= 2
    decision = decide_hand(hand, player=player, opponents=dict(models), budget=budget, samples=samples,
                           seed=seed, later=later, progress=progress, stop=stop,
                           equilibrium_iterations=None if solver_late else equilibrium_iterations)
    if bots is not None and solver_late:  # the solver bots solve this decision anyway: their line
        found = bots.equilibrium_here(hand, player)
        line, note = line_of(found) if isinstance(found, SolveResult) else (None, found)
        decision = replace(decision, equilibrium=line, equilibrium_note=note)
    position, seat = seen_position(hand, player)
    equity = stud_equity(position, budget=EQUITY_BUDGET, samples=EQUITY_SAMPLES, seed=seed)
    to_call = decision.to_call
    odds = PotOdds(to_call=to_call, pot=hand.pot_total, needed=Fraction(to_call, hand.pot_total + to_call),
                   equity=equity, seat=seat)
    if bots is None or not solver_late:
        return Advice(decision=decision, pot_odds=odds)
    solved, note = _against_solver(hand, player, bots)
    return Advice(decision=decision, pot_odds=odds, solved=solved, solved_note=note)


def _against_solver(hand: StudHand, player: int, bots: SolverBots) -> tuple[SolvedOpponent | None, str]:
    """Each action against the equilibrium the solver bots play this round, or why there is none."""
    opponent = next(q for q in hand.in_hand if q != player)
    solution = bots.round_solution(hand, opponent)
    if not isinstance(solution, SolveResult):
        return None, solution
    before = solution.round_index
    bots_model = load_model("bots")
    belief = weigh_holes(hand, player, models={q: bots_model for q in range(hand.n) if q != player},
                         before_round=before)
    prior = {c: 1.0 for c in next(s.cards for s in belief.seats if s.player == opponent)}
    return SolvedOpponent(values=response_values(solution, hand, prior=prior), from_round=before), ""
