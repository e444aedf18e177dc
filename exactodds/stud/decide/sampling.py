"""The sampled answers' main samples: chunks of sampled runs of the cards to come (every hole-card
state weighed beside each) or of sampled hands, each action valued with its own later play
(:class:`~exactodds.stud.decide.later.LaterPlay`), until every standard error meets the target, the
time budget is spent or a fixed sample size is reached.

The samples are the same for every action (paired): a later play chosen differently for two actions
replays the same worlds (hole cards, cards and numbers for mixed choices) once per chosen model and
takes each action's values from its model's replay, so the difference of two actions keeps a valid
paired standard error.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from exactodds.progress import Progress
from exactodds.stud.decide.belief import Belief, TooManyStates
from exactodds.stud.decide.deals import PreDrawn
from exactodds.stud.decide.hands import play_out
from exactodds.stud.decide.later import LaterPlay
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.walk import RootCells, Walk, WalkStopped
from exactodds.stud.decide.worlds import draw_hands, draw_runs, stream
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand

CELLS_PER_CHUNK = 120_000
HANDS_PER_CHUNK = 4_000
BUDGET_MARGIN = 0.95  # sampling stops when the next chunk would pass this share of the budget
MIN_SAMPLES = 200
MAX_WEIGHED_STATES = 400  # hole-card assignments weighed exactly beside sampled runs


@dataclass(frozen=True, kw_only=True)
class Sampled:
    """Per-sample values of each action (the same samples for every action)."""

    values: dict[Action, np.ndarray]

    @property
    def count(self) -> int:
        return len(next(iter(self.values.values())))

    def error(self, action: Action) -> float:
        v = self.values[action]
        return float(v.std(ddof=1) / math.sqrt(len(v))) if len(v) > 1 else math.inf


def sample(hand: StudHand, player: int, belief: Belief, models: Mapping[int, OpponentModel],
           later: LaterPlay, *, weighed: bool, samples: int | None, seed: int, budget: float,
           target: float, dead_money: int, progress: Progress, stop: Callable[[], bool] | None) -> Sampled:
    """Chunks of sampled runs (``weighed``: every hole-card state beside each run) or hands until the
    target, the budget or ``samples``."""
    states = weights = None
    if weighed:
        try:
            states, weights, _ = belief.states(limit=MAX_WEIGHED_STATES)
        except TooManyStates:  # pragma: no cover - the size was checked
            weighed = False
    per_chunk = (max(8, CELLS_PER_CHUNK // max(1, len(states))) if weighed and states is not None
                 else HANDS_PER_CHUNK)
    if samples is not None:
        per_chunk = min(per_chunk, samples)
    progress.stage("sampling", steps=None if samples is None else -(-samples // per_chunk))
    start = time.monotonic()
    chunks: list[dict[Action, np.ndarray]] = []
    shifts: dict[Action, float] = {}
    sums: dict[Action, float] = {}
    squares: dict[Action, float] = {}
    done = 0
    while True:
        size = per_chunk if samples is None else min(per_chunk, samples - done)
        rng = stream(seed, len(chunks))
        if weighed and states is not None and weights is not None:
            chunks.append(_runs_chunk(hand, player, belief, models, later, states, weights, size, rng,
                                      dead_money, stop))
        else:
            chunks.append(_hands_chunk(hand, player, belief, models, later, size, rng, dead_money, stop))
        done += size
        progress.step()
        for a, v in chunks[-1].items():  # shifted by the first sample: no cancellation in the variance
            shifted = v - shifts.setdefault(a, float(v[0]) if len(v) else 0.0)
            sums[a] = sums.get(a, 0.0) + float(shifted.sum())
            squares[a] = squares.get(a, 0.0) + float(shifted @ shifted)
        elapsed = time.monotonic() - start
        if samples is not None:
            if done >= samples:
                break
            continue
        if done >= MIN_SAMPLES and all(running_error(sums[a], squares[a], done) <= target for a in sums):
            break
        if elapsed * (len(chunks) + 1) / len(chunks) > BUDGET_MARGIN * budget and done >= MIN_SAMPLES // 4:
            break
    return Sampled(values={a: np.concatenate([c[a] for c in chunks]) for a in chunks[0]})


def running_error(total: float, squares: float, count: int) -> float:
    """The standard error of a mean from the sum and the sum of squares of ``count`` samples (shifted
    by a constant; for the stopping rule: the reported errors are computed from the samples)."""
    if count < 2:
        return math.inf
    variance = max(0.0, (squares - total * total / count) / (count - 1))
    return math.sqrt(variance / count)


def _dealt(hand: StudHand) -> dict[int, int]:
    return {q: len(hand.up[q]) for q in range(hand.n)}


def _runs_chunk(hand: StudHand, player: int, belief: Belief, models: Mapping[int, OpponentModel],
                later: LaterPlay, states: np.ndarray, weights: np.ndarray, count: int,
                rng: np.random.Generator, dead_money: int, stop: Callable[[], bool] | None
                ) -> dict[Action, np.ndarray]:
    """One chunk of sampled runs, every hole-card state weighed beside each: per run, each action's EV
    estimate (unbiased: the runs are drawn uniformly from the unseen cards, and at each deal a state
    holding a dealt card is left out and the others weighted by the likelihood ratio of the deal).
    The player follows each action's chosen model until the last round, then its best response."""
    unseen = np.array(belief.unseen, dtype=np.int64)
    cards = draw_runs(rng, unseen, count, hand)
    total = float(sum(int(x) for x in weights.tolist()))
    w = np.asarray(weights, dtype=np.float64) / total
    run = np.repeat(np.arange(count, dtype=np.int64), len(states))
    state = np.tile(np.arange(len(states), dtype=np.int64), count)
    out: dict[Action, np.ndarray] = {}
    for model in later.models():
        dealing = PreDrawn(cards=cards, first_round=hand.round_index + 1, unseen=len(unseen),
                           dealt_before=_dealt(hand), states=states)
        walk = Walk(hand, player, others=belief.others, states=states, models=models, stop=stop,
                    dealing=dealing, cells=RootCells(state=state, run=run, w=w[state]), later=model,
                    best_from_round=hand.profile.rounds - 1, dead_money=dead_money)
        mine = later.actions_of(model)
        out.update({a: np.bincount(run, weights=v.num, minlength=count)
                    for a, v in walk.action_values().items() if a in mine})
    return {a: out[a] for a in later.chosen}


def _hands_chunk(hand: StudHand, player: int, belief: Belief, models: Mapping[int, OpponentModel],
                 later: LaterPlay, count: int, rng: np.random.Generator, dead_money: int,
                 stop: Callable[[], bool] | None) -> dict[Action, np.ndarray]:
    """One chunk of sampled hands (hole cards from the belief, then a run of the cards to come), played
    out by the compiled kernel once per chosen later model: per hand, each action's chips from now."""
    if stop is not None and stop():
        raise WalkStopped
    draws = draw_hands(hand, player, belief, count, rng)
    out: dict[Action, np.ndarray] = {}
    for model in later.models():
        actions, values = play_out(hand, player, holes=draws.holes, cards=draws.cards,
                                   uniforms=draws.uniforms, models=models, later=model, dead_money=dead_money)
        mine = later.actions_of(model)
        out.update({a: values[:, i] for i, a in enumerate(actions) if a in mine})
    return {a: out[a] for a in later.chosen}
