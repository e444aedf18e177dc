"""Compiled best-response walk of the last betting round, one chance outcome (a pair of classes of last
up cards) at a time: the arithmetic of :func:`exactodds.stud.solve.best_response.walk` (the numpy walk
the tests compare it with) on the flat subtree of :mod:`exactodds.stud.solve.last_round`."""

from __future__ import annotations

import numpy as np
from numba import njit

from exactodds.stud.solve.kernels.cfr_walk import DECISION, leaf


@njit(cache=True)
def best_response_last_round(tree, oc, r0, r1, strategy):
    """Both players' profile values and best-response values (4 x K x m: v0, v1, b0, b1) at the
    subtree's root, before the outcome's weight and the chance weight, given the strategy (K x m x A,
    the actions of every decision laid end to end) and the reaches per card arriving at the deal."""
    mask = oc.mask
    k_count, n_cards = mask.shape
    m_count = tree.kind.shape[0]
    out = np.zeros((4, k_count, n_cards))
    reach = np.zeros((2, m_count, n_cards))  # scratch, reused by every outcome
    values = np.zeros((4, m_count, n_cards))
    cum = np.empty(n_cards + 1)
    for k in range(k_count):
        for n in range(n_cards):
            reach[0, 0, n] = r0[n] * mask[k, n]
            reach[1, 0, n] = r1[n] * mask[k, n]
        for j in range(m_count):
            if tree.kind[j] != DECISION:
                continue
            p = tree.player[j]
            off, first = tree.offset[j], tree.first[j]
            for a in range(tree.actions[j]):
                child = tree.children[first + a]
                for n in range(n_cards):
                    reach[p, child, n] = reach[p, j, n] * strategy[k, n, off + a]
                    reach[1 - p, child, n] = reach[1 - p, j, n]
        for j in range(m_count - 1, -1, -1):
            if tree.kind[j] != DECISION:
                for p in range(2):
                    leaf(tree, oc, j, k, p, reach[1 - p, j], cum, values[p, j])
                    for n in range(n_cards):
                        values[2 + p, j, n] = values[p, j, n]
                continue
            p = tree.player[j]
            off, first = tree.offset[j], tree.first[j]
            for n in range(n_cards):
                v_own, b_own, v_other, b_other = 0.0, -np.inf, 0.0, 0.0
                for a in range(tree.actions[j]):
                    child = tree.children[first + a]
                    v_own += strategy[k, n, off + a] * values[p, child, n]
                    b = values[2 + p, child, n]
                    b_own = b if b > b_own else b_own
                    v_other += values[1 - p, child, n]
                    b_other += values[3 - p, child, n]
                values[p, j, n] = v_own
                values[2 + p, j, n] = b_own
                values[1 - p, j, n] = v_other
                values[3 - p, j, n] = b_other
        for t in range(4):
            for n in range(n_cards):
                out[t, k, n] = values[t, 0, n]
    return out
