"""Suit classes: a key per card set that is equal exactly for sets equal up to a renaming of suits (kernel).

Card c has rank c >> 2 and suit c & 3. The key packs the set's four per-suit rank masks
in increasing order: renaming suits permutes the masks and leaves the sorted tuple alone,
and the sorted tuple gives the set back up to a renaming. :mod:`exactodds.symmetry`
builds the hand classes on it.
"""

from __future__ import annotations

import numba
import numpy as np


@numba.njit(cache=True, nogil=True)
def suit_signatures(hands):
    """Per row of a card array: the four per-suit rank masks (13 bits each), sorted, packed in an int64."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        m0 = m1 = m2 = m3 = 0
        for j in range(hands.shape[1]):
            bit = 1 << (hands[i, j] >> 2)
            suit = hands[i, j] & 3
            if suit == 0:
                m0 |= bit
            elif suit == 1:
                m1 |= bit
            elif suit == 2:
                m2 |= bit
            else:
                m3 |= bit
        # sorting network: m0 <= m1 <= m2 <= m3
        if m0 > m1:
            m0, m1 = m1, m0
        if m2 > m3:
            m2, m3 = m3, m2
        if m0 > m2:
            m0, m2 = m2, m0
        if m1 > m3:
            m1, m3 = m3, m1
        if m1 > m2:
            m1, m2 = m2, m1
        out[i] = (np.int64(m3) << 39) | (np.int64(m2) << 26) | (np.int64(m1) << 13) | np.int64(m0)
    return out
