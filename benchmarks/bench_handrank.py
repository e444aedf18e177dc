"""Hand-rank table: build and load times; batch lookups against phevaluator and treys."""

from __future__ import annotations

import os
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402


def main() -> None:
    from phevaluator import evaluate_cards
    from treys import Card, Evaluator

    from exactodds import handrank
    from exactodds.cache import CACHE_ENV
    from exactodds.combinatorics import N_HANDS, all_subsets_colex

    with tempfile.TemporaryDirectory() as tmp:
        os.environ[CACHE_ENV] = tmp
        handrank.rank_table.cache_clear()
        build = best_time(lambda: (handrank.rank_table.cache_clear(), handrank.build_table()), 2)
        handrank.rank_table()  # writes the cache

        def load():
            handrank.rank_table.cache_clear()
            handrank.rank_table()

        load_time = best_time(load, 5)
    report("table build (numpy, from scratch)", build)
    report("table load from cache (with SHA-256 check)", load_time)

    rng = np.random.default_rng(1)
    n = 200_000
    idx = rng.integers(0, N_HANDS, n)
    hands = rng.permuted(all_subsets_colex(52, 5)[idx], axis=1)
    hand_lists = hands.tolist()

    t_idx = best_time(lambda: handrank.evaluate_batch(idx))
    t_cards = best_time(lambda: handrank.evaluate_batch(hands))
    t_phe = best_time(lambda: [evaluate_cards(*h) for h in hand_lists], 1)
    treys_cards = [Card.new(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    ev = Evaluator()
    t_treys = best_time(
        lambda: [ev.evaluate([treys_cards[h[0]], treys_cards[h[1]]],
                             [treys_cards[c] for c in h[2:]]) for h in hand_lists], 1)
    report("exactodds batch lookup from colex indices", t_idx, n, "hands")
    report("exactodds batch lookup from (n, 5) cards", t_cards, n, "hands")
    report("phevaluator evaluate_cards (Python API)", t_phe, n, "hands")
    report("treys Evaluator.evaluate (Python API)", t_treys, n, "hands")
    ratio("lookup from indices", t_idx, t_phe, "phevaluator")
    ratio("lookup from cards", t_cards, t_phe, "phevaluator")
    ratio("lookup from indices", t_idx, t_treys, "treys")
    ratio("lookup from cards", t_cards, t_treys, "treys")


if __name__ == "__main__":
    main()
