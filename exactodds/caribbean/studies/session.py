"""Session odds: the exact distribution of the net result of a session of hands (the 20-hand home session).

A session is ``hands`` independent deals (the deck is reshuffled after every hand) played
under one strategy. One hand's net result takes the values of the strategy's return table
with integer weights over the 19,933,230,517,200 deals; the session's net is their sum, so
its distribution is the ``hands``-fold convolution of those integer count vectors, done
exactly with Python integers (numpy object arrays). Nets that are fractions of an ante
(custom profiles) are scaled to integers by their common denominator first.

Positive total: the player is ahead; negative: the bank; 0: a draw.

>>> d = NetDistribution.from_counts({Fraction(-1): 1, Fraction(1): 1}).convolve_power(2)
>>> [(str(v), p) for v, p in d.pmf()]
[('-2', Fraction(1, 4)), ('0', Fraction(1, 2)), ('2', Fraction(1, 4))]
>>> d.quantile(Fraction(1, 2)), d.variance
(Fraction(0, 1), Fraction(2, 1))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from math import gcd, lcm

import numpy as np

from exactodds.caribbean.analysis.result import GameResult
from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict, exact, with_float
from exactodds.progress import Progress, staged

SESSION_HANDS = 20  # the 20-hand home session
DEFAULT_QUANTILES = tuple(Fraction(p, 100) for p in (1, 5, 25, 50, 75, 95, 99))
MAX_HANDS = 100  # exact big-integer convolution costs about hands**3: 20 hands 0.1 s, 100 hands ~10 s
MAX_SUPPORT = 5_000_000  # grid points of the session distribution we are willing to hold


class SessionError(ExactOddsError):
    """A session that cannot be computed as asked (e.g. fewer than one hand)."""


@dataclass(frozen=True, kw_only=True)
class NetDistribution:
    """An exact distribution of a net result on a regular grid.

    Value ``(low + step * i) / scale`` has weight ``counts[i]`` (a Python int) out of ``total``.
    """

    low: int
    step: int
    scale: int
    counts: np.ndarray  # object dtype, Python ints, read-only
    total: int

    @classmethod
    def from_counts(cls, weights: Mapping[Fraction, int]) -> NetDistribution:
        """The distribution giving each net value its integer weight (zero weights dropped)."""
        weights = {Fraction(v): int(n) for v, n in weights.items() if n}
        if not weights or any(n < 0 for n in weights.values()):
            raise ValueError("a distribution needs positive integer weights")
        scale = lcm(*(v.denominator for v in weights))
        scaled = {int(v * scale): n for v, n in weights.items()}
        low = min(scaled)
        step = reduce(gcd, (v - low for v in scaled), 0) or 1
        counts = np.zeros((max(scaled) - low) // step + 1, dtype=object)
        for v, n in scaled.items():
            counts[(v - low) // step] = n
        return cls._make(low=low, step=step, scale=scale, counts=counts)

    @classmethod
    def _make(cls, *, low: int, step: int, scale: int, counts: np.ndarray) -> NetDistribution:
        counts.setflags(write=False)
        return cls(low=low, step=step, scale=scale, counts=counts, total=int(counts.sum()))

    # ------------------------------------------------------------------ convolution
    def convolve_power(self, n: int, *, progress: Progress | None = None) -> NetDistribution:
        """The distribution of the sum of ``n`` independent draws from this one (exact).

        Each step adds one draw: one shifted, scaled add per point of this distribution's support.
        Reports one stage of ``n - 1`` steps.
        """
        if n < 1:
            raise SessionError(f"a session needs at least 1 hand, got {n}")
        if (len(self.counts) - 1) * n + 1 > MAX_SUPPORT:
            raise SessionError(f"{n} hands would need more than {MAX_SUPPORT:,} grid points; use fewer hands")
        support = [(i, c) for i, c in enumerate(self.counts) if c]
        acc = self.counts
        with staged(progress, f"convolving {n:,} hands", steps=n - 1) as stage:
            for _ in range(1, n):
                out = np.zeros(len(acc) + len(self.counts) - 1, dtype=object)
                for offset, count in support:
                    out[offset:offset + len(acc)] += acc * count
                acc = out
                stage.step()
        return NetDistribution._make(low=self.low * n, step=self.step, scale=self.scale, counts=acc.copy())

    # ------------------------------------------------------------------ exact summaries
    def value(self, i: int) -> Fraction:
        return Fraction(self.low + self.step * i, self.scale)

    def pmf(self) -> list[tuple[Fraction, Fraction]]:
        """(value, probability) for every value of positive probability, ascending."""
        return [(self.value(i), Fraction(int(c), self.total)) for i, c in enumerate(self.counts) if c]

    def _grid(self) -> np.ndarray:
        """The scaled values ``low + step * i`` as Python ints (object array)."""
        return self.low + self.step * np.arange(len(self.counts), dtype=object)

    def _weight(self, mask: np.ndarray) -> Fraction:
        return Fraction(int(self.counts[mask].sum()), self.total)

    @property
    def p_ahead(self) -> Fraction:
        """P(net > 0): the player wins the session."""
        return self._weight(self._grid() > 0)

    @property
    def p_even(self) -> Fraction:
        """P(net = 0): a draw."""
        return self._weight(self._grid() == 0)

    @property
    def p_behind(self) -> Fraction:
        """P(net < 0): the bank wins the session."""
        return self._weight(self._grid() < 0)

    def _moment(self, power: int) -> Fraction:
        return Fraction(int((self.counts * self._grid()**power).sum()), self.total * self.scale**power)

    @property
    def mean(self) -> Fraction:
        return self._moment(1)

    @property
    def variance(self) -> Fraction:
        return self._moment(2) - self.mean**2

    @property
    def standard_deviation(self) -> float:
        """Square root of the exact variance (display only)."""
        deviation: float = float(self.variance) ** 0.5  # typed Any (a negative base gives a complex)
        return deviation

    def quantile(self, q: Fraction) -> Fraction:
        """The smallest value x with P(net <= x) >= q, for 0 < q <= 1 (exact)."""
        q = Fraction(q)
        if not 0 < q <= 1:
            raise SessionError(f"a quantile level must be in (0, 1], got {q}")
        target = q * self.total
        running = 0
        for i, c in enumerate(self.counts):
            running += c
            if c and running >= target:
                return self.value(i)
        raise AssertionError("cumulative weight never reached the total")


@dataclass(frozen=True, kw_only=True)
class SessionResult:
    """The exact distribution of a session's net and the per-hand figures it was built from."""

    profile: str
    strategy: str
    hands: int
    per_hand: NetDistribution
    session: NetDistribution
    quantile_levels: tuple[Fraction, ...]

    @property
    def quantiles(self) -> tuple[tuple[Fraction, Fraction], ...]:
        """(level, exact value) for each requested level."""
        return tuple((q, self.session.quantile(q)) for q in self.quantile_levels)

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): exact probabilities, mean, variance and quantiles."""
        d, h = self.session, self.per_hand
        support = ((h.value(i), int(c)) for i, c in enumerate(h.counts) if c)
        return {
            "exact": True, "method": "exact convolution",
            "paytable": self.profile, "strategy": self.strategy, "hands": self.hands,
            "per_hand": {**with_float("expected_return", h.mean), "variance": exact(h.variance),
                         "distribution": [[exact(v), c] for v, c in support], "combinations": h.total},
            **with_float("p_ahead", d.p_ahead), **with_float("p_even", d.p_even),
            **with_float("p_behind", d.p_behind), **with_float("mean", d.mean),
            **with_float("variance", d.variance), "standard_deviation_float": d.standard_deviation,
            "quantiles": [{**with_float("level", q), "value": exact(v)} for q, v in self.quantiles],
        }


def check_session_hands(hands: int) -> None:
    """Raise SessionError unless 1 <= hands <= MAX_HANDS."""
    if not 1 <= hands <= MAX_HANDS:
        raise SessionError(f"a session has 1 to {MAX_HANDS} hands, got {hands}")


def hand_distribution(result: GameResult) -> NetDistribution:
    """One hand's net under a strategy: its return-table rows as integer weights over all deals."""
    weights: dict[Fraction, int] = {}
    for row in result.rows:
        weights[row.net_units] = weights.get(row.net_units, 0) + row.combinations
    return NetDistribution.from_counts(weights)


def session_distribution(
    result: GameResult,
    *,
    hands: int = SESSION_HANDS,
    quantiles: tuple[Fraction, ...] = DEFAULT_QUANTILES,
    progress: Progress | None = None,
) -> SessionResult:
    """The exact distribution of the net over ``hands`` independent hands played as in ``result``.

    Reports the convolution as one stage of ``hands - 1`` steps to ``progress``.
    """
    check_session_hands(hands)
    for q in quantiles:
        if not 0 < q <= 1:
            raise SessionError(f"a quantile level must be in (0, 1], got {q}")
    per_hand = hand_distribution(result)
    return SessionResult(profile=result.profile.name, strategy=result.strategy, hands=hands,
                         per_hand=per_hand, session=per_hand.convolve_power(hands, progress=progress),
                         quantile_levels=tuple(Fraction(q) for q in quantiles))
