"""Compiled sampling with control variates for stud equity (see :mod:`.controls`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from exactodds.stud.equity.kernels.deal_counts import score_deal


@njit(cache=True, nogil=True)
def sample_moments(base: np.ndarray, needs: np.ndarray, samples: np.ndarray, table: np.ndarray,
                   binom: np.ndarray, controls: np.ndarray, out: np.ndarray, moments: np.ndarray) -> None:
    """Add each sampled deal (a row of card ids, dealt in player order) to the outcome counts
    ``out`` (as :func:`.kernel.sample_counts`) and its products ``z z^T`` to ``moments[h]``,
    h the row's parity: ``z = (1, X_0..X_{n-1}, Y_0..Y_{n-1})`` with ``X_p`` player p's pot
    share and ``Y_p = controls[p, strength of p's hand]``. Only the upper triangle (i <= j) is
    added; :func:`symmetric` completes it."""
    n = base.shape[0]
    strengths = np.empty(n, np.int64)
    z = np.empty(2 * n + 1)
    for row in range(samples.shape[0]):
        score_deal(base, needs, samples[row], table, binom, strengths, out)
        best = strengths.max()
        tied = 0
        for p in range(n):
            if strengths[p] == best:
                tied += 1
        z[0] = 1.0
        for p in range(n):
            z[1 + p] = 1.0 / tied if strengths[p] == best else 0.0
            z[1 + n + p] = controls[p, strengths[p]]
        m = moments[row & 1]
        for i in range(2 * n + 1):
            zi = z[i]
            if zi == 0.0:  # most shares are 0: their rows add nothing
                continue
            for j in range(i, 2 * n + 1):
                m[i, j] += zi * z[j]


def symmetric(moments: np.ndarray) -> np.ndarray:
    """The full matrices from upper triangles (numpy, on the last two axes)."""
    upper = np.triu(moments)
    return upper + np.swapaxes(np.triu(moments, 1), -1, -2)
