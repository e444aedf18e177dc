"""The heads-up equilibrium beside a decision, where the solver covers the round: the mix the
equilibrium plays with the player's hole card and each action's EV against an equilibrium opponent
(:func:`exactodds.stud.solve.api.solve_position`, stopped at a time budget with its exploitability
said). The solve sees what the player sees: the up cards, the dead cards (folded hands' up cards and
any the caller names), the pot at the start of the round (dead money included), the stacks and the
round's betting, and the player's own hole card.
"""

from __future__ import annotations

from collections.abc import Iterable

from exactodds.errors import ExactOddsError
from exactodds.stud.decide.result import EquilibriumLine
from exactodds.stud.engine.state import StudHand
from exactodds.stud.equity.position import StudPlayer, StudPosition
from exactodds.stud.solve.api import DEFAULT_MAX_ITERATIONS, solve_position
from exactodds.stud.solve.results import SolveResult
from exactodds.stud.solve.start import SECOND_ROUND, SECOND_ROUND_MIN_BUDGET

EQUILIBRIUM_TARGET = 0.005  # exploitability (a share of the pot) at which the solve stops: EVs show to 0.01
# A second-round solve beside a decision: at most this much memory for its regrets and averages (small
# stacks or many dead cards; `stud solve` allows 8 GB), its result kept for the same position.
EQUILIBRIUM_MEMORY = 1e9


def equilibrium_line(hand: StudHand, player: int, *, budget: float | None, dead_money: int = 0,
                     dead: Iterable[int] = (), iterations: int = DEFAULT_MAX_ITERATIONS
                     ) -> tuple[EquilibriumLine | None, str]:
    """The equilibrium line for ``player`` (to act), or None and why there is none: solved until 0.5% of
    the pot from equilibrium, ``iterations`` CFR+ iterations or ``budget`` seconds (None: no time limit,
    so the answer does not depend on the machine's speed)."""
    live = hand.in_hand
    if len(live) != 2:
        return None, "the equilibrium is computed with two players in the hand"
    if hand.round_index == SECOND_ROUND and (budget is None or budget < SECOND_ROUND_MIN_BUDGET):
        return None, (f"a second-round equilibrium takes a minute or more: give a budget of "
                      f"{SECOND_ROUND_MIN_BUDGET:g} s or more for it, or use stud solve")
    this_round = [e for e in hand.events if e.round_index == hand.round_index and e.kind != "deal"]
    if any(e.kind == "f" for e in this_round):
        return None, "the solver covers rounds that start heads-up (a player folded in this round)"
    players = tuple(StudPlayer(hole=hand.down[p] if p == player else None, up=tuple(hand.up[p]))
                    for p in live)
    folded = [c for q in range(hand.n) if hand.folded[q] for c in hand.up[q]]
    position = StudPosition(players=players, dead=tuple(dict.fromkeys([*folded, *dead])))
    history = tuple(f"cbr {e.amount}" if e.kind == "cbr" else e.kind for e in this_round)
    stacks = tuple(hand.stacks[p] + hand.round_bets[p] for p in live)
    pot = hand.pot_total - sum(hand.round_bets) + dead_money
    try:
        result = solve_position(position=position, pot=pot, stacks=stacks, history=history,
                                target=EQUILIBRIUM_TARGET, time_budget=budget, max_iterations=iterations,
                                seats=(live[0], live[1]), profile=hand.profile,
                                max_memory=EQUILIBRIUM_MEMORY, cache=True)
    except ExactOddsError as exc:
        return None, str(exc)
    return line_of(result)


def line_of(result: SolveResult) -> tuple[EquilibriumLine | None, str]:
    """The line of a solve made at the decision for the player to act (their hole card known)."""
    if result.action_values is None:
        return None, "the solve has no action values (the player's hole card was not given)"
    return EquilibriumLine(round_index=result.round_index, method=result.method.value,
                           mix={v.action: v.probability for v in result.action_values},
                           evs={v.action: v.chips for v in result.action_values},
                           exploitability=result.exploitability.fraction), ""
