"""The heads-up equilibrium beside a decision, where the solver covers the round: the mix the
equilibrium plays with the player's hole card and each action's EV against an equilibrium opponent
(:func:`exactodds.stud.solve.api.solve_hand`, stopped at a time budget with its exploitability said).
"""

from __future__ import annotations

from exactodds.errors import ExactOddsError
from exactodds.stud.decide.result import EquilibriumLine
from exactodds.stud.engine.state import StudHand
from exactodds.stud.solve.api import solve_hand

EQUILIBRIUM_TARGET = 0.005  # exploitability (a share of the pot) at which the solve stops: EVs show to 0.01


def equilibrium_line(hand: StudHand, player: int, *, budget: float) -> tuple[EquilibriumLine | None, str]:
    """The equilibrium line for ``player`` (to act), or None and why there is none."""
    if len(hand.in_hand) != 2:
        return None, "the equilibrium is computed with two players in the hand"
    try:
        result = solve_hand(hand, player=player, target=EQUILIBRIUM_TARGET, time_budget=budget)
    except ExactOddsError as exc:
        return None, str(exc)
    if result.action_values is None:  # pragma: no cover - the player's own hole card is always known
        return None, "the solve has no action values"
    return EquilibriumLine(round_index=result.round_index, method=result.method.value,
                           mix={v.action: v.probability for v in result.action_values},
                           evs={v.action: v.chips for v in result.action_values},
                           exploitability=result.exploitability.fraction), ""
