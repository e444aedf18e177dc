"""A sampled estimate of the hole-carding game, each sampled situation decided by full enumeration.

The independent cross-check of :mod:`exactodds.caribbean.holecard.exact`'s exact counts, and a
fast alternative (``analyze --dealer-known K --samples N``). Seeded: the same seed gives
the same estimate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exactodds.caribbean.decision.decide import Choice, decide
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.errors import ExactOddsError
from exactodds.progress import Progress, staged
from exactodds.wording import counted

MIN_KNOWN, MAX_KNOWN = 1, 5
MAX_SAMPLES = 10_000_000  # each is one exact decision: about an hour at the most
SAMPLE_STEP = 100  # progress is reported every SAMPLE_STEP situations


def check_known(dealer_known: int) -> None:
    """Raise ExactOddsError unless 1 <= dealer_known <= 5."""
    if not MIN_KNOWN <= dealer_known <= MAX_KNOWN:
        raise ExactOddsError(f"dealer_known must be {MIN_KNOWN}..{MAX_KNOWN}, got {dealer_known}")


@dataclass(frozen=True, kw_only=True)
class SampledEstimate:
    """A sampled estimate of the total return per ante (situations drawn uniformly, seeded)."""

    samples: int
    seed: int
    total_return: Fraction        # mean of the sampled situations' exact optimal returns
    standard_error: float
    raised: int                   # sampled situations where the optimal play raises

    @property
    def raise_frequency(self) -> Fraction:
        """The share of sampled situations that raise."""
        return Fraction(self.raised, self.samples)

    @property
    def interval_95(self) -> tuple[float, float]:
        """95% normal interval of the total return per ante."""
        mean = float(self.total_return)
        return (mean - 1.96 * self.standard_error, mean + 1.96 * self.standard_error)


def sample_known(
    profile: Profile | str = "standard", *, dealer_known: int, samples: int, seed: int = 2026,
    progress: Progress | None = None,
) -> SampledEstimate:
    """Estimate the whole game by sampling situations uniformly and deciding each exactly.

    A situation is a player hand and K seen dealer cards (uniform over all of them); each is
    settled by :func:`decide`, which enumerates every completion of the dealer's hand. The
    estimate is the mean of the optimal returns max(EV(raise), -1); the standard error is
    the sample standard deviation over sqrt(samples). Reports one stage of ``samples`` steps.
    """
    check_known(dealer_known)
    if not 2 <= samples <= MAX_SAMPLES:
        raise ExactOddsError(f"samples must be 2 to {MAX_SAMPLES:,}, got {samples:,}")
    profile = load_profile(profile)
    rng = np.random.default_rng(seed)
    values: list[Fraction] = []
    raised = 0
    label = f"sampling {samples:,} situations, {counted(dealer_known, 'dealer card')} seen"
    reported = 0
    with staged(progress, label, steps=samples) as stage:
        for i in range(samples):
            cards = rng.choice(52, 5 + dealer_known, replace=False)
            d = decide([int(c) for c in cards[:5]], up=int(cards[5]), hole=[int(c) for c in cards[6:]],
                       profile=profile)
            values.append(max(d.ev_raise, d.ev_fold))
            raised += d.decision == Choice.RAISE
            if (i + 1) % SAMPLE_STEP == 0 or i + 1 == samples:
                stage.step(i + 1 - reported)
                reported = i + 1
    mean = sum(values, Fraction(0)) / samples
    floats = np.array([float(v) for v in values])
    se = float(floats.std(ddof=1)) / math.sqrt(samples)
    return SampledEstimate(samples=samples, seed=seed, total_return=mean, standard_error=se,
                           raised=raised)
