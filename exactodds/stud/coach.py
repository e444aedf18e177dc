"""The equity coach of ``stud play --coach``: what one player's decision is worth, from that player's view.

The player sees their own hole card, every up card, and the up cards of folded hands (dead
cards); opponents' hole cards are unknown. The showdown equity comes from
:func:`exactodds.stud.equity.stud_equity` (exact, or a labelled seeded sample when the exact
count is over budget); facing a bet, :func:`exactodds.stud.equity.call_decision` gives the EV
of calling against folding (the immediate pot-odds EV before the last street).

>>> from exactodds.cards import parse_cards
>>> from exactodds.stud.engine.actions import Action
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> hand.act(Action(player=0, kind="pb")); hand.act(Action(player=1, kind="cbr", amount=2))
>>> advice = coach_advice(hand, 0)
>>> advice.equity.exact, advice.decision.to_call, advice.decision.pot
(True, Fraction(1, 1), Fraction(5, 1))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from exactodds.errors import ExactOddsError
from exactodds.jsonable import exact
from exactodds.stud.bots.solver_bot import SolverBots
from exactodds.stud.decide.api import decide_hand
from exactodds.stud.decide.belief import weigh_holes
from exactodds.stud.decide.models import load_model
from exactodds.stud.decide.result import Decision
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.equity import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    CallDecision,
    EquityResult,
    SampledEquity,
    StudPlayer,
    StudPosition,
    call_decision,
    stud_equity,
)
from exactodds.stud.solve.against import ResponseValues, response_values
from exactodds.stud.solve.api import solve_hand
from exactodds.stud.solve.results import SolveResult
from exactodds.stud.solve.start import SolveError


class CoachError(ExactOddsError):
    """Advice asked for a player who is not the one to act."""


@dataclass(frozen=True, kw_only=True)
class CoachAdvice:
    """Showdown equity of the player to act and, facing a bet, the call/fold EV (higher is better)."""

    player: int
    position: StudPosition
    seat: int  # the player's index in ``position`` (players still in, in hand order)
    equity: EquityResult
    decision: CallDecision | None

    @property
    def player_equity(self) -> Fraction:
        """The player's share of the pot at showdown, 0..1 (exact, or the sampled estimate)."""
        return self.equity.players[self.seat].equity

    def to_dict(self) -> dict[str, object]:
        eq = self.equity
        me = eq.players[self.seat]
        out: dict[str, object] = {
            "equity": exact(me.equity), "equity_float": float(me.equity),
            "exact": eq.exact, "method": eq.method,
        }
        if isinstance(eq, SampledEquity):
            out.update(samples=eq.samples, seed=eq.seed, standard_error=eq.players[self.seat].standard_error)
        if self.decision is not None:
            d = self.decision
            out.update(pot=exact(d.pot), to_call=exact(d.to_call), ev_call=exact(d.ev_call),
                       ev_call_float=float(d.ev_call), best=d.best, ev_kind=d.kind)
        return out


def player_view(hand: StudHand, player: int) -> tuple[StudPosition, int]:
    """The position as ``player`` sees it, and the player's index in it."""
    live = hand.in_hand
    players = tuple(StudPlayer(hole=hand.down[q] if q == player else None, up=tuple(hand.up[q]))
                    for q in live)
    dead = tuple(c for q in range(hand.n) if hand.folded[q] for c in hand.up[q])
    return StudPosition(players=players, dead=dead), live.index(player)


def coach_advice(hand: StudHand, player: int, *, budget: float = DEFAULT_BUDGET,
                 samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED) -> CoachAdvice:
    """Advice for ``player``, who must be the one to act."""
    if hand.phase is not Phase.BET or hand.actor != player:
        raise CoachError(f"advice is for the player to act; {player!r} is not to act now")
    legal = hand.legal()
    position, seat = player_view(hand, player)
    equity = stud_equity(position, budget=budget, samples=samples, seed=seed)
    decision = None
    if legal.call:
        decision = call_decision(equity, position, pot=hand.pot_total, to_call=legal.call, seat=seat)
    return CoachAdvice(player=player, position=position, seat=seat, equity=equity, decision=decision)


THIRD_ROUND = 2
THIRD_ROUND_COACH_BUDGET = 10.0  # seconds of CFR+ the coach's third-round solve may take
THIRD_ROUND_COACH_TARGET = 0.005  # exploitability (of the pot) at which it stops: EVs are shown to 0.01


@dataclass(frozen=True, kw_only=True)
class LookaheadAdvice:
    """Heads-up on the third and last rounds: each action's EV with the betting still to come, against
    the bots (exact) and against the equilibrium (with its mix for the player's card). Higher EV is
    better; chips from now, folding now is 0.

    ``against_bots`` is a :class:`Decision` against the simple policy, or
    :class:`ResponseValues` against the solver bots' equilibrium of the round (their hole card narrowed
    by their earlier actions), or None with the reason in ``bots_note``."""

    against_bots: Decision | ResponseValues | None
    bots_note: str
    equilibrium: SolveResult | None  # None when not solvable (the reason in ``note``)
    note: str = ""


def lookahead_advice(hand: StudHand, player: int, *, bots: SolverBots | None = None,
                     budget: float = THIRD_ROUND_COACH_BUDGET) -> LookaheadAdvice | None:
    """The look-ahead advice for ``player`` (to act), or None where it does not apply (more than two
    players in, or before the third round): then only the showdown equity and pot odds are given.
    ``bots``: the table's solver bots (None: the simple bots); ``budget``: seconds for the third-round
    equilibrium (CFR+ stopped there, the result saying how far from equilibrium it is)."""
    if hand.phase is not Phase.BET or hand.actor != player:
        raise CoachError(f"advice is for the player to act; {player!r} is not to act now")
    if len(hand.in_hand) != 2 or hand.round_index < THIRD_ROUND:
        return None
    against, bots_note = _against_bots(hand, player, bots)
    if bots is not None:
        found = bots.equilibrium_here(hand, player)
    else:
        found = _equilibrium(hand, player, budget=budget)
    if isinstance(found, str):
        return LookaheadAdvice(against_bots=against, bots_note=bots_note, equilibrium=None,
                               note=f"no equilibrium here: {found}")
    return LookaheadAdvice(against_bots=against, bots_note=bots_note, equilibrium=found)


def _equilibrium(hand: StudHand, player: int, *, budget: float) -> SolveResult | str:
    try:
        return solve_hand(hand, player=player, target=THIRD_ROUND_COACH_TARGET, time_budget=budget)
    except SolveError as exc:  # e.g. the round did not start heads-up
        return str(exc)


def _against_bots(hand: StudHand, player: int, bots: SolverBots | None
                  ) -> tuple[Decision | ResponseValues | None, str]:
    """The EVs against the table's bots and how they were obtained (or why there are none)."""
    if bots is None:
        found = decide_hand(hand, player=player, opponents="bots")
        kind = "exact" if found.exact else f"sampled, {found.samples} samples, seed {found.seed}"
        return found, f"the simple policy, {kind}"
    opponent = next(q for q in hand.in_hand if q != player)
    solution = bots.round_solution(hand, opponent)
    if isinstance(solution, SolveResult):
        before = solution.round_index
        bots_model = load_model("bots")
        belief = weigh_holes(hand, player, models={q: bots_model for q in range(hand.n) if q != player},
                             before_round=before)
        prior = {c: 1.0 for c in next(s.cards for s in belief.seats if s.player == opponent)}
        values = response_values(solution, hand, prior=prior)
        return values, (f"exact, their equilibrium from round {before + 1}, their hole card one of "
                        f"{values.opponent_cards} cards their earlier actions allow")
    if hand.round_index == hand.profile.rounds - 1:  # the simple policy plays the rest of the hand
        found = decide_hand(hand, player=player, opponents="bots")
        return found, f"the simple policy (exact): {solution}"
    return None, f"not computed: {solution}; the bots solve the last round when it comes"
