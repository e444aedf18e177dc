"""The player's own later play in a sampled answer, where its best response does not fit the budget:
for each of its actions now, the best of a few fixed policies (models the player follows, e.g.
``bots`` and ``calling-station``), chosen on a pilot sample of its own.

Why a pilot: choosing the later play with the very samples that then value the action would lean
optimistic (the noise that makes a policy look best is counted in its favour). The pilot's hands come
from their own seed stream (:func:`~exactodds.stud.decide.worlds.stream` with ``pilot=True``) and are
never reused: the main samples then value each action with its chosen policy, so each figure is an
unbiased estimate of the EV of a fixed policy (a lower bound of the best response's). The pilot plays
whole hands with the compiled kernel, every later decision by the candidate; where the main samples
give the last round the best response (sampled deals), the choice is of the model played before it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.stud.decide.belief import Belief
from exactodds.stud.decide.hands import play_out
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.walk import WalkStopped
from exactodds.stud.decide.worlds import draw_hands, stream
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand

PILOT_MIN = 2_000  # hands in the pilot at least
PILOT_SHARE = 0.1  # the pilot's share of a fixed sample size, or of the time budget
PILOT_MAX = 20_000  # a time budget's pilot stops at this many hands
PILOT_CHUNK = 2_000


@dataclass(frozen=True, kw_only=True)
class LaterPlay:
    """How the player's later decisions are played after each of its actions now: ``chosen`` gives each
    action's model (one of ``candidates``), ``pilot`` the pilot's hands (0: one candidate, no pilot)
    and ``pilot_means`` each action's mean chips per candidate name on the pilot (higher is better)."""

    candidates: tuple[OpponentModel, ...]
    chosen: dict[Action, OpponentModel]
    pilot: int
    pilot_means: dict[Action, dict[str, float]]

    def models(self) -> tuple[OpponentModel, ...]:
        """The chosen models, each once, in the candidates' order."""
        return tuple(m for m in self.candidates if any(c is m for c in self.chosen.values()))

    def actions_of(self, model: OpponentModel) -> tuple[Action, ...]:
        return tuple(a for a, m in self.chosen.items() if m is model)


def fixed_later(model: OpponentModel, actions: Sequence[Action]) -> LaterPlay:
    """One model for every action (no pilot)."""
    return LaterPlay(candidates=(model,), chosen={a: model for a in actions}, pilot=0, pilot_means={})


def pilot_size(samples: int) -> int:
    """The pilot's hands for a fixed sample size: a tenth of it, at least :data:`PILOT_MIN`."""
    return max(PILOT_MIN, int(samples * PILOT_SHARE))


def choose_later(hand: StudHand, player: int, belief: Belief, models: Mapping[int, OpponentModel],
                 candidates: Sequence[OpponentModel], *, samples: int | None, budget: float, seed: int,
                 dead_money: int, stop: Callable[[], bool] | None = None) -> LaterPlay:
    """For each legal action of ``player``, the candidate of the highest mean on a pilot of sampled
    hands (the first candidate on a tie): :func:`pilot_size` hands for a fixed ``samples``, else
    :data:`PILOT_MIN` hands and more while under :data:`PILOT_SHARE` of ``budget`` seconds."""
    actions = hand.legal().actions()
    if len(candidates) == 1:
        return fixed_later(candidates[0], actions)
    target = pilot_size(samples) if samples is not None else PILOT_MIN
    started = time.monotonic()
    sums = np.zeros((len(candidates), len(actions)))
    done = chunk = 0
    while True:
        if stop is not None and stop():
            raise WalkStopped
        count = min(PILOT_CHUNK, target - done) if done < target else PILOT_CHUNK
        draws = draw_hands(hand, player, belief, count, stream(seed, chunk, pilot=True))
        for i, model in enumerate(candidates):
            _, values = play_out(hand, player, holes=draws.holes, cards=draws.cards, uniforms=draws.uniforms,
                                 models=models, later=model, dead_money=dead_money)
            sums[i] += values.sum(axis=0)
        done, chunk = done + count, chunk + 1
        if done >= target and (samples is not None or done >= PILOT_MAX
                               or time.monotonic() - started >= PILOT_SHARE * budget):
            break
    best = np.argmax(sums, axis=0)  # the first of equal sums
    means = sums / done
    return LaterPlay(candidates=tuple(candidates),
                     chosen={a: candidates[int(best[j])] for j, a in enumerate(actions)}, pilot=done,
                     pilot_means={a: {m.name: float(means[i, j]) for i, m in enumerate(candidates)}
                                  for j, a in enumerate(actions)})
