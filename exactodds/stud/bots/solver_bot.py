"""The bots of ``stud play --bots solver``, and what the player's decisions cost against the equilibrium.

Heads-up on rounds 2-4 a solver bot plays the equilibrium of :func:`solve_hand` (solved once per round
from the round's start, a later round keeping an earlier round's equilibrium, and read through
:meth:`SolveResult.policy_in` at each decision), sampling its action from the mix for its own hole card
with a generator seeded from the session's seed, so a session replays exactly. The third round is
solved when the solve fits a time budget (CFR+ stopped at the budget), the second round when the
budget is at least :data:`SECOND_ROUND_MIN_BUDGET` and the solve fits it and :data:`BOT_MAX_MEMORY`;
otherwise the simple policy of :mod:`exactodds.stud.bots.policy` plays the round; everywhere else
(more than two players in, round 1) the simple policy. The bot sees only what a
player sees: :func:`solve_hand` reads the up cards, the dead cards, the betting and the asking player's
own hole card, never another player's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from exactodds.errors import ExactOddsError
from exactodds.stud.bots.policy import bot_action
from exactodds.stud.engine.actions import Action, Legal
from exactodds.stud.engine.state import StudHand
from exactodds.stud.solve.api import solve_hand
from exactodds.stud.solve.results import SolveResult
from exactodds.stud.solve.start import SECOND_ROUND, SECOND_ROUND_MIN_BUDGET, THIRD_ROUND

DEFAULT_THIRD_ROUND_BUDGET = 10.0  # seconds of CFR+ a third-round solve may take
THIRD_ROUND_TARGET = 0.005  # exploitability (fraction of the pot) a budgeted third-round solve aims at
WORST_PLAYED = 0.02  # a budgeted solve further from equilibrium than this (of the pot) is not played
THIRD_ROUND_MAX_ITERATIONS = 2000
BOT_MAX_MEMORY = 2e9  # bytes of regrets and averages a bot's second-round solve may hold


class BotPolicy(StrEnum):
    """Which bots sit at the table."""

    SIMPLE = "simple"  # the documented simple rule everywhere
    SOLVER = "solver"  # the heads-up equilibrium on the last round (the second and third within a budget)


class PolicyUsed(StrEnum):
    """Which policy chose one bot action."""

    SIMPLE = "simple policy"
    EQUILIBRIUM = "equilibrium"


@dataclass(frozen=True, kw_only=True)
class BotChoice:
    """A bot's action, the policy that chose it and, for the equilibrium, its mix (action -> probability)
    for the bot's hole card; ``why`` says why the simple policy acted, when it did."""

    action: Action
    policy: PolicyUsed
    mix: dict[str, float] | None = None
    why: str = ""


def action_text(action: Action) -> str:
    """The solver's text of an engine action (``"cbr 4"``, ``"cc"``, ``"f"``)."""
    return f"cbr {action.amount}" if action.kind == "cbr" else action.kind


def _action_of(text: str, player: int) -> Action:
    if text.startswith("cbr "):
        return Action(player=player, kind="cbr", amount=int(text.split()[1]))
    return Action(player=player, kind=text)


def _heads_up_late(hand: StudHand, *, first: int = THIRD_ROUND) -> bool:
    return len(hand.in_hand) == 2 and hand.round_index >= first


class SolverBots:
    """The equilibrium bots of one session. ``seed``: the session's seed (the bots' own generator is
    derived from it, so the deals are those of a session with the simple bots); ``third_round_budget``:
    seconds a second- or third-round solve may take (0: never solve them; the second round needs at
    least :data:`SECOND_ROUND_MIN_BUDGET`).

    Heads-up from the start of a round, the bots play one equilibrium for the whole round, solved
    once from the round's start (so it does not depend on who acts first). On a later round they keep
    an earlier round's equilibrium when there is one: its later rounds already weigh what the earlier
    betting showed, where a fresh solve would assume uniform ranges again."""

    def __init__(self, *, seed: int, third_round_budget: float = DEFAULT_THIRD_ROUND_BUDGET) -> None:
        if not third_round_budget >= 0:
            raise ExactOddsError(f"the third-round budget must be 0 or more seconds, "
                                 f"got {third_round_budget!r}")
        self._rng = random.Random(f"stud-solver-bots:{seed}")
        self.third_round_budget = float(third_round_budget)
        self._hand: StudHand | None = None
        self._round: dict[int, SolveResult | str] = {}  # round -> the bots' equilibrium, or why none
        self._here: dict[int, SolveResult | str] = {}  # events so far -> solved at that decision

    def _fresh(self, hand: StudHand) -> None:
        if self._hand is not hand:
            self._hand, self._round, self._here = hand, {}, {}

    def _solve(self, hand: StudHand, player: int, *, from_round_start: bool) -> SolveResult | str:
        which = "second" if hand.round_index == SECOND_ROUND else "third"
        try:
            if hand.round_index == hand.profile.rounds - 1:
                return solve_hand(hand, player=player, from_round_start=from_round_start)
            if self.third_round_budget <= 0:
                return f"{which}-round solving is off (budget 0 s)"
            if hand.round_index == SECOND_ROUND and self.third_round_budget < SECOND_ROUND_MIN_BUDGET:
                return (f"a second-round solve needs a budget of {SECOND_ROUND_MIN_BUDGET:g} s or more "
                        f"(it takes minutes on a full deck); the budget is {self.third_round_budget:g} s")
            found = solve_hand(hand, player=player, target=THIRD_ROUND_TARGET,
                               max_iterations=THIRD_ROUND_MAX_ITERATIONS, time_budget=self.third_round_budget,
                               from_round_start=from_round_start, max_memory=BOT_MAX_MEMORY, cache=True)
        except ExactOddsError as exc:
            return f"not solvable here: {exc}"
        if found.exploitability.fraction > WORST_PLAYED:
            gap = 100 * found.exploitability.fraction
            return (f"the {which}-round solve reached only {gap:.1f}% of the pot from equilibrium within "
                    f"{self.third_round_budget:g} s")
        return found

    def round_solution(self, hand: StudHand, player: int) -> SolveResult | str:
        """The equilibrium the bots play this round (solved once, from the round's start; on a later
        round an earlier round's when there is one), or why there is none."""
        self._fresh(hand)
        r = hand.round_index
        if r not in self._round:
            earlier = [found for k, found in sorted(self._round.items())
                       if k < r and isinstance(found, SolveResult)]
            self._round[r] = earlier[0] if earlier else self._solve(hand, player, from_round_start=True)
        return self._round[r]

    def equilibrium_here(self, hand: StudHand, player: int) -> SolveResult | str:
        """The equilibrium solved at this very decision for ``player`` (who is to act), with the values of
        their actions for their hole card; or why there is none."""
        if not _heads_up_late(hand):
            return "the equilibrium is computed heads-up on rounds 3 and 4 only"
        self._fresh(hand)
        failed = self._round.get(hand.round_index)
        if isinstance(failed, str):  # this round's solve already failed (e.g. over the budget)
            return failed
        key = len(hand.events)
        if key not in self._here:
            self._here[key] = self._solve(hand, player, from_round_start=False)
        return self._here[key]

    def choose(self, hand: StudHand, legal: Legal) -> BotChoice:
        """The bot's action for ``legal.player`` (to act in ``hand``)."""
        if not _heads_up_late(hand, first=SECOND_ROUND):
            return BotChoice(action=bot_action(hand, legal), policy=PolicyUsed.SIMPLE,
                             why="the equilibrium plays heads-up on rounds 2 to 4 only")
        found = self.round_solution(hand, legal.player)
        if isinstance(found, str):
            return BotChoice(action=bot_action(hand, legal), policy=PolicyUsed.SIMPLE, why=found)
        try:
            mix = found.policy_in(hand)
        except ExactOddsError as exc:
            return BotChoice(action=bot_action(hand, legal), policy=PolicyUsed.SIMPLE,
                             why=f"this line is outside the solved round: {exc}")
        text = sample(mix, self._rng)
        return BotChoice(action=_action_of(text, legal.player), policy=PolicyUsed.EQUILIBRIUM, mix=mix)


def sample(mix: dict[str, float], rng: random.Random) -> str:
    """One action drawn from ``mix`` (action -> probability) with ``rng``."""
    actions = sorted(mix)
    weights = [max(0.0, mix[a]) for a in actions]
    if sum(weights) <= 0:
        raise ExactOddsError("the equilibrium mix has no positive probability")
    return rng.choices(actions, weights=weights, k=1)[0]


@dataclass(frozen=True, kw_only=True)
class DecisionCost:
    """One of the player's decisions against the equilibrium opponent: the chips from now of the best
    action and of the chosen one, and the cost (best minus chosen, 0 or more; lower is better)."""

    hand: int
    round_index: int
    to_call: int
    chosen: str
    best: str
    best_chips: float
    chosen_chips: float
    slack: float = 0.0  # the solve's exploitability in chips: EVs closer than this are not told apart

    @property
    def cost(self) -> float:
        return self.best_chips - self.chosen_chips

    @property
    def mistake(self) -> bool:
        """Whether the action chosen was worse than the best by more than the solve can tell apart (an
        action within the solve's exploitability of the best is not a mistake)."""
        return self.cost > self.slack + 1e-6

    def to_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "round": self.round_index + 1, "to_call": self.to_call,
                "chosen": self.chosen, "best": self.best,
                "best_chips": self.best_chips, "chosen_chips": self.chosen_chips, "cost": self.cost}


def decision_cost(result: SolveResult, action: Action, *, hand: int) -> DecisionCost:
    """What ``action`` cost against the equilibrium of ``result`` (solved at the decision, for the player
    to act with their hole card known)."""
    if result.action_values is None:
        raise ExactOddsError("the solve has no action values: the player's hole card was not given")
    values = {v.action: v.chips for v in result.action_values}
    chosen = action_text(action)
    if chosen not in values:
        raise ExactOddsError(f'"{chosen}" is not an action of the solved decision ({", ".join(values)})')
    best = max(values, key=lambda a: values[a])
    if values[chosen] >= values[best] - 1e-9:  # a tie: the chosen action is a best one
        best = chosen
    return DecisionCost(hand=hand, round_index=result.round_index, to_call=result.root.to_call,
                        chosen=chosen, best=best, best_chips=values[best], chosen_chips=values[chosen],
                        slack=max(0.0, result.exploitability.chips))


def total_cost(costs: Sequence[DecisionCost]) -> float:
    """The chips the decisions cost in all, against the equilibrium (0 is perfect)."""
    return sum(c.cost for c in costs)
