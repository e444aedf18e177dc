"""Column layouts shared across the numba boundary, named once.

Plain Python (no numba): the library builds arrays in these layouts and the kernels index
them with the same names (numba compiles an ``IntEnum`` member as an integer constant).

* :class:`Net` - the scaled integer nets of a Caribbean Stud profile, one per outcome
  (``Net.WIN + pay`` for a win paid in pay category ``pay``; see
  :func:`exactodds.caribbean.decision.settle.kernel_nets`).
* :class:`Acc` - the hole-carding return-table accumulators (deal counts, int64).
* :class:`ClassSum` - the whole-game per-class sums of :mod:`exactodds.caribbean.analysis.kernels.whole_game`.

>>> int(Net.WIN), NET_COLUMNS, ACC_COLUMNS
(4, 14, 16)
"""

from __future__ import annotations

from enum import IntEnum

# Paid categories (A-K high .. royal flush): the length of exactodds.caribbean.profile.PAY_CATEGORIES.
PAID_CATEGORIES = 10


class Net(IntEnum):
    """Columns of the nets array (integers over a common scale): one per outcome of a call."""

    NOT_QUALIFY = 0
    PUSH = 1
    DEALER_WINS = 2
    FOLD = 3
    WIN = 4  # first of PAID_CATEGORIES columns: WIN + pay index (0 = A-K high)


NET_COLUMNS = Net.WIN + PAID_CATEGORIES


class Acc(IntEnum):
    """Columns of the hole-carding accumulators: deal counts by event, then two totals."""

    WIN = 0  # first of PAID_CATEGORIES columns, by pay index
    NOT_QUALIFY = 10
    PUSH = 11
    FOLD = 12
    DEALER_WINS = 13
    RAISED = 14            # deals where the player raised
    DEALER_QUALIFIES = 15  # deals where the dealer qualifies, raised or not


ACC_COLUMNS = 16


class ClassSum(IntEnum):
    """Columns of the whole-game per-class sums over a class's up cards (int64)."""

    RAISED = 0           # raised situations
    FOLDED = 1           # folded situations
    NOT_QUALIFY = 2      # completions of the raised situations, by event
    WIN = 3
    PUSH = 4
    DEALER_WINS = 5
    ALL_NOT_QUALIFY = 6  # not-qualify completions of every situation, raised or not


CLASS_SUM_COLUMNS = 7
