"""Sampled stud equity: control variates against plain Monte Carlo and a conditioning estimator.

All three estimate the same pot shares from the same kind of sample; each is run here on the
same positions so that the standard errors and the costs can be compared in one run:

* plain Monte Carlo (``sampled_equity``), the previous default;
* Monte Carlo with control variates (``control_variate_equity``), the chooser's default now;
* conditioning on all but one player's last card (for one player, the last card averaged
  over every card left; numpy, only to measure its variance, not shipped).

Printed: each estimator's standard error relative to plain Monte Carlo on the same number of
deals, and the per-deal cost of the control variates' moments against the plain counting kernel.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from common import report  # noqa: E402

from exactodds.stud.equity.deals import base_cards
from exactodds.stud.equity.position import cards_to_come, parse_position
from exactodds.stud.equity.sampling import deal_chunks, sampled_equity

EIGHT = [f"? | {c}" for c in ("As", "Kd", "Qh", "Jc", "9s", "7d", "5h", "2c")]


def conditioning_factor(position, deals: int, seed: int) -> list[float]:  # noqa: ANN001
    """Per player of seats 0, 4, 7: the standard error of the last-card-averaged share over the
    plain share's, on ``deals`` sampled first-round deals (four cards to come each)."""
    from exactodds.combinatorics import colex_index_batch
    from exactodds.handrank import rank_table

    table = rank_table()
    pool = position.unseen()
    ups = [p.up[0] for p in position.players]
    rng = np.random.default_rng(seed)
    rows = pool[np.argsort(rng.random((deals, len(pool))), axis=1)]

    def strength(cards: np.ndarray) -> np.ndarray:
        return table[colex_index_batch(np.sort(cards, axis=1))]

    hands = np.stack([strength(np.hstack([np.full((deals, 1), ups[p]), rows[:, 4 * p:4 * p + 4]]))
                      for p in range(8)], axis=1)
    best = hands.max(axis=1, keepdims=True)
    shares = (hands == best) / (hands == best).sum(axis=1, keepdims=True)
    factors = []
    for seat in (0, 4, 7):
        others = np.delete(hands, seat, axis=1)
        top = others.max(axis=1)
        level = (others == top[:, None]).sum(axis=1)
        options = np.hstack([rows[:, 4 * seat + 3:4 * seat + 4], rows[:, 32:]])  # its card or any left
        mean = np.zeros(deals)
        for k in range(options.shape[1]):
            mine = strength(np.hstack([np.full((deals, 1), ups[seat]), rows[:, 4 * seat:4 * seat + 3],
                                       options[:, k:k + 1]]))
            mean += np.where(mine > top, 1.0, np.where(mine == top, 1.0 / (level + 1), 0.0))
        mean /= options.shape[1]
        factors.append(float(np.sqrt(mean.var() / shares[:, seat].var())))
    return factors


def main() -> None:
    from exactodds.combinatorics import BINOM
    from exactodds.handrank import rank_table
    from exactodds.stud.equity.controls import control_table, control_variate_equity
    from exactodds.stud.equity.kernels import deal_counts as kernel
    from exactodds.stud.equity.kernels import sampling as sampling_kernel
    from exactodds.stud.table.threeway import threeway_table

    eight = parse_position(EIGHT)
    control_variate_equity(eight, samples=1_000)  # load the kernels
    plain = sampled_equity(eight, samples=200_000, seed=3)
    ours = control_variate_equity(eight, samples=200_000, seed=3)
    ratios = [o.standard_error / p.standard_error for o, p in zip(ours.players, plain.players, strict=True)]
    print(f"eight-way first round, 200,000 deals: control-variate SE / plain SE per seat "
          f"{' '.join(f'{r:.2f}' for r in ratios)}")
    factors = conditioning_factor(eight, 20_000, 2)
    print(f"eight-way first round, 20,000 deals: last-card conditioning SE / plain SE (seats 0, 4, 7) "
          f"{' '.join(f'{f:.2f}' for f in factors)}, for 13 hand evaluations a player instead of 1")

    base, needs = base_cards(eight), np.array(cards_to_come(eight))
    g, _ = control_table(eight)
    rows = list(deal_chunks(eight, samples=400_000, seed=1))
    start = time.perf_counter()
    for chunk in rows:
        kernel.sample_counts(base, needs, chunk, rank_table(), BINOM, np.zeros((8, 9), np.int64))
    counting = time.perf_counter() - start
    start = time.perf_counter()
    for chunk in rows:
        sampling_kernel.sample_moments(base, needs, chunk, rank_table(), BINOM, g, np.zeros((8, 9), np.int64),
                                       np.zeros((2, 17, 17)))
    moments = time.perf_counter() - start
    report("400,000 eight-way deals: plain counting kernel", counting)
    report("400,000 eight-way deals: counting + control-variate moments", moments)
    extra = (moments - counting) / 400_000 * 1e6
    print(f"       extra cost of the control variates: {extra:.2f} microseconds a deal")
    start = time.perf_counter()
    control_table(eight)
    report("eight-way controls and their exact means (set-up, once a position)", time.perf_counter() - start)

    rows3 = threeway_table(classes=[0, 4321, 150_000], samples=10_000, seed=2026).rows
    plain3 = []
    for row in rows3:
        position = parse_position([f"{_card(row.hole)} | {_card(row.up)}", f"? | {_card(row.opp_ups[0])}",
                                      f"? | {_card(row.opp_ups[1])}"])
        plain3.append(sampled_equity(position, samples=10_000, seed=row.seed).players[0].standard_error)
    print("three-way table rows (10,000 deals): control-variate SE / plain SE "
          + " ".join(f"{row.standard_error / p:.2f}" for row, p in zip(rows3, plain3, strict=True)))


def _card(card: int) -> str:
    from exactodds.cards import format_card

    return format_card(card)


if __name__ == "__main__":
    main()
