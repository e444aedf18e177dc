"""Card sets as bits and as colex indices (numba kernels; import from kernel modules only).

A card set is a sorted row of card numbers (0..n-1). Its **mask** has bit c set for each
card c (uint64). Its **colex index** among the sets of its size is ``sum C(c_i, i + 1)``
(see :mod:`exactodds.combinatorics`); it does not depend on the deck size, so a flat array
of counters holds every set of size 0..r of an n-card deck at ``offsets[size] + colex``,
``offsets[k] = C(n, 0) + ... + C(n, k - 1)`` (:func:`counter_offsets`). Colex indices
read :data:`exactodds.combinatorics.BINOM`: sets of at most 7 cards.

* :func:`popcount` - number of set bits (one instruction, LLVM ctpop; :func:`count_bits` from Python).
* :func:`card_mask`, :func:`row_masks` - masks of a row / of every row.
* :func:`colex`, :func:`subset_colex` - colex index of a sorted row / of the subset picked by a bit mask.
* :func:`counter_offsets` - the offsets above.
"""

from __future__ import annotations

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from exactodds.combinatorics import BINOM


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an unsigned integer (LLVM ctpop: one instruction on x86-64)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        value = args[0]
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(value.type, [value.type]),
                                            f"llvm.ctpop.i{value.type.width}")
        return context.cast(builder, builder.call(fn, [value]), x, types.int64)

    return types.int64(x), codegen


@numba.njit(cache=True, nogil=True)
def count_bits(x):
    """:func:`popcount` callable from Python (an intrinsic compiles only inside kernels)."""
    return popcount(x)


@numba.njit(cache=True, inline="always")
def card_mask(cards):
    """uint64 mask of a row of cards."""
    m = np.uint64(0)
    for j in range(cards.shape[0]):
        m |= np.uint64(1) << np.uint64(cards[j])
    return m


@numba.njit(cache=True, nogil=True)
def row_masks(rows):
    """uint64 mask of every row of a 2-d card array."""
    masks = np.zeros(rows.shape[0], dtype=np.uint64)
    for i in range(rows.shape[0]):
        masks[i] = card_mask(rows[i])
    return masks


@numba.njit(cache=True, inline="always")
def sort_small(cards):
    """Sort a short row of cards in place: an insertion sort (``cards.sort()`` would compile a
    quicksort, seconds of a first run, to sort five cards)."""
    for i in range(1, cards.shape[0]):
        card = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > card:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = card


@numba.njit(cache=True, inline="always")
def colex(cards):
    """Colex index of a sorted row of distinct cards."""
    index = 0
    for j in range(cards.shape[0]):
        index += BINOM[cards[j], j + 1]
    return index


@numba.njit(cache=True, inline="always")
def subset_colex(items, mask):
    """(colex index, size) of the subset of the sorted row ``items`` picked by the bits of ``mask``."""
    index = 0
    size = 0
    for i in range(items.shape[0]):
        if (mask >> i) & 1:
            size += 1
            index += BINOM[items[i], size]
    return index, size


# An eager signature: kernels call it with a literal deck size (52), which would otherwise compile
# a second specialisation (numba specialises on literal arguments).
@numba.njit("int64[::1](int64, int64)", cache=True, nogil=True)
def counter_offsets(n, max_size):
    """offsets[k] = number of sets of size < k of an n-card deck (k = 0..max_size + 1)."""
    offsets = np.zeros(max_size + 2, dtype=np.int64)
    for k in range(max_size + 1):
        offsets[k + 1] = offsets[k] + BINOM[n, k]
    return offsets
