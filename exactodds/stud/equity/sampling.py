"""Monte Carlo stud equity: the budget, sample size and seed and their checks, the seeded uniform
sample of complete deals and the plain sample mean over it."""

from __future__ import annotations

import math
from collections.abc import Iterator
from types import ModuleType

import numpy as np

from exactodds.combinatorics import BINOM
from exactodds.errors import ExactOddsError
from exactodds.handrank import rank_table
from exactodds.progress import Progress, staged
from exactodds.stopping import stoppable
from exactodds.stud.equity.deals import base_cards
from exactodds.stud.equity.position import StudPosition, cards_to_come
from exactodds.stud.equity.results import SampledEquity, sampled_result

DEFAULT_BUDGET = 10.0
MAX_BUDGET = 86_400.0  # a day: a mistyped budget cannot start an exact count of years
DEFAULT_SAMPLES = 200_000
DEFAULT_SEED = 2026
MAX_SAMPLES = 100_000_000  # about a minute of sampling
_CHUNK = 20_000


class SamplingError(ExactOddsError):
    """A budget (seconds), sample size or seed that is not a number in range."""


def _kernel() -> ModuleType:
    """The compiled kernels, imported on first use (numba costs ~0.2 s to import)."""
    from exactodds.stud.equity.kernels import deal_counts as kernel

    return kernel


def deal_chunks(position: StudPosition, *, samples: int, seed: int) -> Iterator[np.ndarray]:
    """``samples`` uniformly random complete deals drawn with ``seed``, in chunks: rows of the
    unseen cards dealt in player order (each player's ``cards_to_come`` in turn)."""
    pool = position.unseen()
    total = sum(cards_to_come(position))
    rng = np.random.default_rng(seed)
    done = 0
    while done < samples:
        size = min(_CHUNK, samples - done)
        # Each row: the first `total` cards of an independent uniform shuffle of the pool.
        rows = np.argsort(rng.random((size, len(pool))), axis=1)[:, :total]
        yield np.ascontiguousarray(pool[rows])
        done += size


def sampled_equity(
    position: StudPosition, *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
    progress: Progress | None = None,
) -> SampledEquity:
    """Estimated odds from ``samples`` uniformly random complete deals drawn with ``seed`` (plain
    Monte Carlo): a :class:`SampledEquity` (not exact; each player's ``standard_error`` beside the
    equity). :func:`exactodds.stud.equity.controls.control_variate_equity` is the same sample
    with a smaller standard error."""
    check_sampling(samples=samples, seed=seed)
    needs = np.array(cards_to_come(position), dtype=np.int64)
    out = np.zeros((len(needs), len(needs) + 1), dtype=np.int64)
    table, base = rank_table(), base_cards(position)
    with staged(progress, "sampling deals", steps=samples) as stage:
        for rows in deal_chunks(position, samples=samples, seed=seed):
            stoppable(_kernel().sample_counts, base, needs, rows, table, BINOM, out)
            stage.step(len(rows))
    return sampled_result(out, samples=samples, seed=seed)


def _whole(value: object, name: str, minimum: int, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise SamplingError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise SamplingError(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise SamplingError(f"{name} must be at most {maximum:,}, got {value:,}")
    return int(value)


def _seconds(value: object, name: str, maximum: float = MAX_BUDGET) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not math.isfinite(value):
        raise SamplingError(f"{name} must be a number of seconds, got {value!r}")
    if value < 0:
        raise SamplingError(f"{name} must be at least 0 seconds, got {value}")
    if value > maximum:
        raise SamplingError(f"{name} must be at most {maximum:,.0f} seconds (a day), got {value:,}")
    return float(value)


def check_sampling(*, budget: float = DEFAULT_BUDGET, samples: int = DEFAULT_SAMPLES,
                   seed: int = DEFAULT_SEED) -> None:
    """Raise SamplingError unless budget >= 0 seconds, 2 <= samples <= MAX_SAMPLES (two for a
    standard error; the bound keeps a mistyped count from running for hours) and seed >= 0 (whole
    numbers). stud_equity checks them all before any work, whichever method."""
    _seconds(budget, "budget")
    _whole(samples, "samples", 2, MAX_SAMPLES)
    _whole(seed, "seed", 0)
