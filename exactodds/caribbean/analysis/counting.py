"""The whole-game counting: dealer hands by strength for every (player hand class, up card).

The kernels are in :mod:`exactodds.caribbean.analysis.kernels.whole_game` (the strength-ordered sweep
on the shared subset counters of :mod:`exactodds.counting`); this module prepares their
typed inputs and returns :class:`SituationCounts`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from exactodds.caribbean.analysis.kernels import whole_game as kernel
from exactodds.caribbean.analysis.kernels.whole_game import DealerCounts, PlayerClasses
from exactodds.counting.deck import strength_deck
from exactodds.counting.kernels.hand_counters import counters_below
from exactodds.handrank import N_STRENGTHS
from exactodds.progress import Progress, staged
from exactodds.stopping import stoppable
from exactodds.symmetry import hand_classes
from exactodds.threaded import run_spans

__all__ = ["COUNTING_STAGES", "SituationCounts", "count_situations", "player_classes"]



@dataclass(frozen=True)
class SituationCounts:
    """Dealer-hand counts for every (player hand class, up card) with only the up card known.

    Arrays are (classes, 52), indexed by the up card; entries where the up card is one of
    the player's cards are 0 and meaningless (``valid`` marks the real ones). For each
    situation there are DEALER_COMPLETIONS dealer completions in all.

    * ``below_qualifier``: dealer hands weaker than ``qualify_strength`` (dealer does not qualify);
    * ``weaker``: dealer hands weaker than the player's hand;
    * ``equal``: dealer hands exactly as strong as the player's hand.

    For classes weaker than the qualifier no call can win or push, so ``weaker`` and
    ``equal`` are not computed there (``weaker`` repeats ``below_qualifier``, ``equal`` is 0).
    """

    players: np.ndarray          # (classes, 5) sorted cards of each class representative
    weights: np.ndarray          # (classes,) hands per class
    strength: np.ndarray         # (classes,) player strength, higher = stronger
    qualify_strength: int
    below_qualifier: np.ndarray
    weaker: np.ndarray
    equal: np.ndarray
    valid: np.ndarray            # (classes, 52) bool: up card not in the player's hand

    def arrays(self) -> DealerCounts:
        """The count arrays as the kernels' bundle."""
        return DealerCounts(below_qualifier=self.below_qualifier, weaker=self.weaker, equal=self.equal,
                            valid=self.valid)


@lru_cache(maxsize=1)
def player_classes() -> PlayerClasses:
    """The player hand classes sorted by strength (higher = stronger), as the sweep reads them.

    Returns PlayerClasses (players (classes, 5) sorted cards of each representative, weights,
    strength, level_start) where classes with strength s are level_start[s]:level_start[s + 1].
    """
    deck = strength_deck()
    table, hands = deck.table, deck.hands
    classes = hand_classes()
    strength = table[classes.representatives].astype(np.int64)
    by_strength = np.argsort(strength, kind="stable")
    players = hands[classes.representatives[by_strength]].astype(np.int64)
    strength = strength[by_strength]
    weights = classes.weights[by_strength]
    level_start = np.searchsorted(strength, np.arange(N_STRENGTHS + 1)).astype(np.int64)
    return PlayerClasses(players=players, weights=weights, strength=strength, level_start=level_start)


COUNTING_STAGES = 4


def count_situations(
    qualify_strength: int, *, progress: Progress | None = None
) -> SituationCounts:
    """Exact dealer counts for all 134,459 player classes x 47 up cards (see SituationCounts).

    Reports one stage "counting all deals" of COUNTING_STAGES steps to ``progress``.
    """
    with staged(progress, "counting all deals", steps=COUNTING_STAGES) as stage:
        return _count_situations(qualify_strength, lambda _label: stage.step())


def _count_situations(qualify_strength: int, step: Callable[[str], None]) -> SituationCounts:
    deck = strength_deck()
    classes = player_classes()
    step("hand table and suit classes")

    # Classes weaker than the qualifier never beat a qualifying dealer: only the qualifier
    # count matters for them, so the sweep and the tie count start at the qualifier.
    first = int(classes.level_start[qualify_strength])
    n = len(classes.players)
    below = np.zeros((n, 52), dtype=np.int32)
    stoppable(run_spans, kernel.query_each_class, n, counters_below(deck, qualify_strength), classes, below)
    step("dealer hands below the qualifier")
    weaker = below.copy()
    bounds = _balanced_bounds(classes.level_start, qualify_strength, parts=2)
    chunks = len(bounds) - 1
    stoppable(run_spans, kernel.sweep_weaker_chunks, chunks, deck, classes, bounds, weaker, chunks=chunks)
    step("dealer hands weaker than the player")
    equal = np.zeros_like(weaker)
    stoppable(run_spans, kernel.count_ties, n, deck, classes, equal, start=first)
    step("dealer hands tying the player")
    valid = np.ones((len(classes.players), 52), dtype=bool)
    np.put_along_axis(valid, classes.players, False, axis=1)
    return SituationCounts(players=classes.players, weights=classes.weights, strength=classes.strength,
                           qualify_strength=qualify_strength, below_qualifier=below, weaker=weaker,
                           equal=equal, valid=valid)


def _balanced_bounds(player_level_start: np.ndarray, lo: int, parts: int) -> np.ndarray:
    """Split strength levels lo..7461 into ``parts`` chunks with about equal numbers of queries."""
    queries = player_level_start[1:]  # classes at or below each level, cumulative
    first = player_level_start[lo]
    cuts = [lo]
    for p in range(1, parts):
        target = first + (queries[-1] - first) * p // parts
        cuts.append(max(int(np.searchsorted(queries, target)), cuts[-1]))
    cuts.append(N_STRENGTHS)
    return np.array(cuts, dtype=np.int64)
