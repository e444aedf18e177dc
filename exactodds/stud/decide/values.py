"""Values of the cells of a walk (one per deal and hole-card assignment), exact or in floats.

Exact values are whole numbers over one denominator shared by the array (``num / den``): sums align
the denominators, a chance node or a mixed choice multiplies the denominator, and the numerators move
to Python integers (numpy object arrays) before int64 could overflow. Sampled walks use floats
(``den`` stays 1).

>>> a = Values(num=np.array([1, 2]), den=3)
>>> b = divided(Values(num=np.array([1, 1]), den=1), 2)
>>> total = scatter_add(a, np.array([0, 1]), b)
>>> [Fraction(int(n), total.den) for n in total.num]
[Fraction(5, 6), Fraction(7, 6)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

_SAFE = 2**62


@dataclass(frozen=True)
class Values:
    """Per-cell values ``num / den`` (``num``: int64, object of Python ints, or float64)."""

    num: np.ndarray
    den: int = 1

    @property
    def exact(self) -> bool:
        return self.num.dtype != np.float64

    def total(self) -> Fraction | float:
        """The sum over the cells (a Fraction when exact)."""
        if not self.exact:
            return float(self.num.sum())
        return Fraction(int(sum(int(x) for x in self.num.tolist())), self.den)


def zeros(size: int, *, exact: bool) -> Values:
    """Zero values for ``size`` cells."""
    return Values(num=np.zeros(size, dtype=np.int64 if exact else np.float64))


def _widen(num: np.ndarray, factor: int) -> np.ndarray:
    """``num * factor``, as Python integers when int64 could overflow."""
    if factor == 1:
        return num
    if num.dtype == np.int64 and len(num) and int(np.abs(num).max()) >= _SAFE // factor:
        num = num.astype(object)
    out: np.ndarray = num * factor
    return out


def at_den(values: Values, den: int) -> np.ndarray:
    """The numerators of ``values`` over ``den`` (a multiple of its denominator)."""
    return _widen(values.num, den // values.den)


def common(*parts: Values) -> int:
    """The least common denominator of ``parts``."""
    return math.lcm(*(p.den for p in parts))


def scatter_add(target: Values, index: np.ndarray, source: Values) -> Values:
    """``target`` with ``source`` added into the cells ``index`` (a new Values)."""
    if not target.exact:
        out = target.num.copy()
        np.add.at(out, index, source.num)
        return Values(num=out)
    den = common(target, source)
    num = at_den(target, den)
    add = at_den(source, den)
    if num.dtype != add.dtype:
        num, add = num.astype(object), add.astype(object)
    num = num.copy()
    np.add.at(num, index, add)
    return Values(num=num, den=den)


def divided(values: Values, by: int) -> Values:
    """``values / by`` (exact: the denominator grows)."""
    if by == 1:
        return values
    if not values.exact:
        return Values(num=values.num / by)
    return Values(num=values.num, den=values.den * by)


def times(values: Values, factor: int) -> Values:
    """``values * factor`` for a whole number ``factor``."""
    if not values.exact:
        return Values(num=values.num * factor)
    return Values(num=_widen(values.num, factor), den=values.den)


def row_sums(values: Values, rows: np.ndarray, count: int, den: int) -> np.ndarray:
    """The sum of the numerators (over ``den``) of the cells of each of ``count`` rows."""
    num = at_den(values, den) if values.exact else values.num
    out = np.zeros(count, dtype=num.dtype)
    np.add.at(out, rows, num)
    return out
