"""The exact best response to the table's bots: what each legal action of the player to act is worth
in chips against the documented bot policy (:mod:`exactodds.stud.bots.policy`).

The player's belief about each bot's hole card is the uniform prior over the cards it has not seen,
kept where the policy would have taken every action the bot took (:mod:`exactodds.stud.bots.belief`).
The rest of the hand is then played out over every deal of the up cards to come, the bots following
their policy and the player a best response over its information sets (it never sees a hole card):
:mod:`exactodds.stud.bots.walk`. Heads-up from the third round on the result is always exact; on
earlier rounds, or with more players, it is exact when the estimated work fits ``budget`` seconds,
else an estimate from ``replicates`` independent walks that each draw ``deals`` random deals at
every deal (not exact: each EV has a standard error).

An EV is the expected change of the player's stack from now to the end of the hand (folding now is
0; higher is better).

"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction
from math import perm
from statistics import stdev

import numpy as np

from exactodds.cards import format_card
from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict, with_float
from exactodds.stud.bots.belief import check_decision_point, hidden_states, hole_candidates
from exactodds.stud.bots.walk import BotWalk, Sampler
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand

EXACT_BEST_RESPONSE = "exact best response to the bot policy"
SAMPLED_BEST_RESPONSE = "best response to the bot policy over sampled deals"
DEFAULT_BUDGET = 5.0
DEFAULT_REPLICATES = 8
DEFAULT_SEED = 1
EXACT_FROM_ROUND = 2  # heads-up, the third round on is always exact
_ENTRIES_PER_SECOND = 2_000_000.0  # measured rate of the walk (row x hole-card state x betting node)
_LINES_PER_ROUND = 12  # betting nodes a round adds on a typical line


class BotResponseError(ExactOddsError):
    """A best response that cannot be computed as asked (bad budget, sample size or seed)."""


@dataclass(frozen=True, kw_only=True)
class ActionEV:
    """One legal action and its EV in chips against the bots (higher is better)."""

    action: Action
    ev: Fraction
    standard_error: float | None  # None when exact

    def to_dict(self) -> JSONDict:
        """The action as PHH text, its expected return (chips from now) as "p/q" and float, and its
        standard error (null if exact)."""
        return {"action": self.action.text(), **with_float("expected_return", self.ev),
                "standard_error": self.standard_error}


@dataclass(frozen=True, kw_only=True)
class BotResponse:
    """The EV of each legal action of ``player`` against the bot policy, with a best response after it."""

    player: int
    actions: tuple[ActionEV, ...]
    hole_cards: dict[int, tuple[int, ...]]  # the hole cards each other player may hold
    hidden_states: int  # equally likely assignments of those hole cards
    method: str
    exact: bool
    samples: int | None  # sampled: deals drawn at every deal of one walk, times the replicates
    seed: int | None
    seconds: float

    @property
    def best(self) -> ActionEV:
        """The action of highest EV (the first such in legal order)."""
        return max(self.actions, key=lambda a: a.ev)

    def ev_of(self, action: Action) -> Fraction:
        """The EV of one legal action."""
        for a in self.actions:
            if a.action == action:
                return a.ev
        raise BotResponseError(f"{action.text()} is not a legal action here")

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md vocabulary): actions with EVs, the best action, the hole cards
        each bot may hold, and how the result was obtained."""
        return {
            "player": self.player, "exact": self.exact, "method": self.method,
            "samples": self.samples, "seed": self.seed, "hidden_states": self.hidden_states,
            "actions": [a.to_dict() for a in self.actions], "best": self.best.action.text(),
            "hole_cards": {str(q): [format_card(c) for c in cs] for q, cs in sorted(self.hole_cards.items())},
            "seconds": self.seconds,
        }


def estimated_seconds(hand: StudHand, *, states: int, dead: int = 0) -> float:
    """The estimated time of the exact walk from ``hand``'s decision (grows with every street to come)."""
    live = len(hand.in_hand)
    unseen = 52 - sum(len(u) for u in hand.up) - 1 - dead - (hand.n - 1)
    entries = float(states) * _LINES_PER_ROUND
    for _ in range(hand.round_index + 1, hand.profile.rounds):
        entries *= perm(unseen, live) * _LINES_PER_ROUND
        unseen -= live
    return entries / _ENTRIES_PER_SECOND


def bot_response(hand: StudHand, *, player: int, dead: tuple[int, ...] = (), budget: float = DEFAULT_BUDGET,
                 deals: int | None = None, replicates: int = DEFAULT_REPLICATES,
                 seed: int = DEFAULT_SEED) -> BotResponse:
    """The EV of each legal action of ``player`` (who must be to act) against the bots.

    ``dead`` are cards the player knows to be out of play. Exact when heads-up from the third round
    on or when the estimate fits ``budget`` seconds; otherwise ``replicates`` sampled walks with
    ``deals`` deals drawn at every deal (chosen to fit the budget when None) and ``seed``.
    """
    check_decision_point(hand, player)
    if not (isinstance(budget, (int, float)) and math.isfinite(budget) and budget >= 0):
        raise BotResponseError(f"the time budget must be a number of seconds >= 0, got {budget!r}")
    if isinstance(replicates, bool) or not isinstance(replicates, int) or replicates < 2:
        raise BotResponseError(f"replicates must be a whole number >= 2, got {replicates!r}")
    if deals is not None and (isinstance(deals, bool) or not isinstance(deals, int) or deals < 1):
        raise BotResponseError(f"deals must be a whole number >= 1, got {deals!r}")
    start = time.monotonic()
    candidates = hole_candidates(hand, player, dead=dead)
    others, states = hidden_states(candidates)
    work = estimated_seconds(hand, states=len(states), dead=len(dead))
    heads_up_late = len(hand.in_hand) == 2 and hand.round_index >= EXACT_FROM_ROUND
    if heads_up_late or work <= budget:
        walk = BotWalk(hand, player, others=others, states=states, dead=frozenset(dead))
        totals = walk.action_values()
        actions = tuple(ActionEV(action=a, ev=Fraction(v) / len(states), standard_error=None)
                        for a, v in totals.items())
        return BotResponse(player=player, actions=actions, hole_cards=candidates, hidden_states=len(states),
                           method=EXACT_BEST_RESPONSE, exact=True, samples=None, seed=None,
                           seconds=time.monotonic() - start)
    per_deal = deals if deals is not None else _deals_for(hand, work=work, budget=budget / replicates)
    rng = np.random.default_rng(seed)
    runs: list[dict[Action, Fraction]] = []
    for _ in range(replicates):
        walk = BotWalk(hand, player, others=others, states=states, dead=frozenset(dead),
                       sampler=Sampler(deals=per_deal, rng=rng))
        runs.append({a: Fraction(v) / len(states) for a, v in walk.action_values().items()})
    actions = tuple(ActionEV(action=a, ev=sum((run[a] for run in runs), Fraction(0)) / replicates,
                             standard_error=stdev(float(run[a]) for run in runs) / math.sqrt(replicates))
                    for a in runs[0])
    return BotResponse(player=player, actions=actions, hole_cards=candidates, hidden_states=len(states),
                       method=SAMPLED_BEST_RESPONSE, exact=False, samples=per_deal * replicates, seed=seed,
                       seconds=time.monotonic() - start)


def _deals_for(hand: StudHand, *, work: float, budget: float) -> int:
    """Deals to draw at each deal so that one sampled walk fits ``budget`` (at least 4)."""
    streets = hand.profile.rounds - 1 - hand.round_index
    live = len(hand.in_hand)
    unseen = 52 - sum(len(u) for u in hand.up) - hand.n
    full = float(perm(unseen, live))
    ratio = max(budget, 1e-3) / max(work, 1e-9)  # the fraction of the exact work we may do
    return max(4, min(int(full), int(full * ratio ** (1 / max(streets, 1)))))
