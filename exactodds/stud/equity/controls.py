"""Monte Carlo stud equity with control variates: the same sampled deals, a smaller standard error.

A player's pot share X_p in a random deal is estimated by its sample mean. Each player's own
final hand, alone, has an exactly known distribution: their completions are uniform over the
subsets of the unseen cards, whatever the others hold. So any function Y_q = g_q(S_q) of one
player's strength S_q has a mean mu_q that is counted exactly (in floating point) from that
player's completions alone, and

    X_p - sum_q beta_pq (Y_q - mu_q)

has the same expectation as X_p for any fixed coefficients beta, and a smaller variance when
the Y are correlated with X_p. The control of player q is the chance that q's hand beats each
other player's marginal hand, independently: g_q(s) = prod over the others j of
(P(S_j < s) + P(S_j = s) / 2). The coefficients are the least-squares regression of X_p on
all the controls, *cross-fitted*: the deals are split in two halves (even and odd rows), each
half is corrected with the coefficients fitted on the other, so the estimate is unbiased.
The standard error comes from each half's variance of the residual under the other half's
coefficients. Samples under :func:`min_samples` (50 deals per regressor) are not corrected.

Since the pot shares of a deal add up to 1 and the regression is linear, the corrections add
up to zero; they are rounded to 1e-12 (far below any standard error) and balanced so that the
estimated equities add up to exactly 1. Win, tie and lose are the plain sample frequencies.
"""

from __future__ import annotations

from fractions import Fraction
from types import ModuleType

import numpy as np

from exactodds.combinatorics import BINOM
from exactodds.handrank import N_STRENGTHS, rank_table
from exactodds.progress import Progress, staged
from exactodds.stopping import stoppable
from exactodds.stud.equity.deals import base_cards, player_cards, player_completions
from exactodds.stud.equity.position import StudPosition, cards_to_come
from exactodds.stud.equity.results import EquityMethod, SampledEquity, SampledPlayerEquity, sampled_result
from exactodds.stud.equity.sampling import DEFAULT_SAMPLES, DEFAULT_SEED, check_sampling, deal_chunks

ROUNDING = 10**12  # corrections are rounded to 1 / ROUNDING
# Fewer deals than this per regressor (the n controls and the constant) and the fitted
# coefficients are too noisy to help: the plain sample mean is returned instead.
DEALS_PER_REGRESSOR = 50


def min_samples(players: int) -> int:
    """The smallest sample corrected by control variates (smaller ones: plain Monte Carlo)."""
    return DEALS_PER_REGRESSOR * (players + 1)


def _kernel() -> ModuleType:  # the compiled module, imported on first use
    from exactodds.stud.equity.kernels import sampling as sampling_kernel

    return sampling_kernel


def control_table(position: StudPosition) -> tuple[np.ndarray, np.ndarray]:
    """``(g, mu)``: ``g[q, s]`` the control of player q holding strength s (module doc) and
    ``mu[q]`` its exact mean over q's completions (float64)."""
    pool = position.unseen()
    needs = cards_to_come(position)
    strengths = [player_completions(player_cards(p), pool, need)[1]
                 for p, need in zip(position.players, needs, strict=True)]
    levels = np.arange(N_STRENGTHS)
    # below[j, s] = P(S_j < s) + P(S_j = s) / 2 over j's completions.
    below = np.array([(np.searchsorted(s, levels, "left") + np.searchsorted(s, levels, "right"))
                      / (2 * len(s)) for s in strengths])
    n = len(needs)
    g = np.ones((n, N_STRENGTHS))
    for q in range(n):
        for j in range(n):
            if j != q:
                g[q] *= below[j]
    mu = np.array([g[q][strengths[q]].mean() for q in range(n)])
    return g, mu


def _covariance(moments: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
    """``(count, means, covariance)`` of z from its moment matrix (sums of z z^T, z[0] = 1)."""
    count = float(moments[0, 0])
    mean = moments[0] / count
    return count, mean[1:], moments[1:, 1:] / count - np.outer(mean[1:], mean[1:])


def _residual(cov: np.ndarray, beta: np.ndarray, n: int) -> np.ndarray:
    """Per player, the variance of ``X_p - beta[:, p] . Y`` under the covariance ``cov``."""
    cxx, cyy, cyx = cov[:n, :n], cov[n:, n:], cov[n:, :n]
    residual = np.diag(cxx) - 2 * np.einsum("qp,qp->p", beta, cyx) + np.einsum("qp,qr,rp->p", beta, cyy, beta)
    clipped: np.ndarray = np.maximum(residual, 0.0)
    return clipped


def corrections(moments: np.ndarray, mu: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(correction, standard_error)`` per player from the two halves' moments (2, 2n+1, 2n+1):
    the cross-fitted control-variate correction to subtract from the sample mean, and the
    standard error of the corrected estimate: each half's own variance of the residual under
    the other half's coefficients (so the coefficients' noise is counted). Needs at least two
    deals in each half."""
    n = len(mu)
    halves = [_covariance(moments[h]) for h in range(2)]
    if min(count for count, _, _ in halves) < 2:
        raise ValueError("the control-variate fit needs at least two deals in each half")
    betas = [np.linalg.lstsq(cov[n:, n:], cov[n:, :n], rcond=1e-12)[0] for _, _, cov in halves]
    total = sum(count for count, _, _ in halves)
    correction = np.zeros(n)
    variance = np.zeros(n)
    for h, (count, mean, cov) in enumerate(halves):
        beta = betas[1 - h]
        share = count / total
        correction += share * (beta.T @ (mean[n:] - mu))
        variance += share**2 * _residual(cov, beta, n) / (count - 1)
    return correction, np.sqrt(variance)


def _balanced(correction: np.ndarray) -> list[Fraction]:
    """The corrections rounded to 1/ROUNDING and made to add up to exactly zero (the rounding
    residue goes to the largest)."""
    units = [round(float(c) * ROUNDING) for c in correction]
    units[int(np.argmax(np.abs(correction)))] -= sum(units)
    return [Fraction(u, ROUNDING) for u in units]


def control_variate_equity(
    position: StudPosition, *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
) -> SampledEquity:
    """Estimated odds from the deals :func:`.sampling.sampled_equity` draws with ``seed``, the
    equities corrected by control variates (module doc): a :class:`SampledEquity` whose method is
    ``monte carlo with control variates``; win, tie and lose are the sample frequencies, the
    equity the corrected estimate (higher is better) and ``standard_error`` its standard error.
    Below :func:`min_samples` deals the plain sample mean is returned (method ``monte carlo``)."""
    check_sampling(samples=samples, seed=seed)
    needs = np.array(cards_to_come(position), dtype=np.int64)
    n = len(needs)
    g, mu = control_table(position)
    out = np.zeros((n, n + 1), dtype=np.int64)
    moments = np.zeros((2, 2 * n + 1, 2 * n + 1))
    table, base = rank_table(), base_cards(position)
    with staged(progress, "sampling deals", steps=samples) as stage:
        for rows in deal_chunks(position, samples=samples, seed=seed):
            stoppable(_kernel().sample_moments, base, needs, rows, table, BINOM, g, out, moments)
            stage.step(len(rows))
    plain = sampled_result(out, samples=samples, seed=seed)
    if samples < min_samples(n):
        return plain
    correction, errors = corrections(_kernel().symmetric(moments), mu)
    players = tuple(
        SampledPlayerEquity(win=p.win, tie=p.tie, lose=p.lose, split=p.split, equity=p.equity - c,
                            standard_error=float(e))
        for p, c, e in zip(plain.players, _balanced(correction), errors, strict=True))
    return SampledEquity(players=players, method=EquityMethod.CONTROL_VARIATES, samples=samples, seed=seed)
