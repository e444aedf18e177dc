"""Suit symmetry: 5-card hands grouped into classes that differ only by a renaming of suits.

Two hands are in the same class when a permutation of the four suits maps one onto the
other; every exact count is the same for both. There are 134,459 classes of 5-card hands.

>>> classes = hand_classes()
>>> len(classes.representatives), int(classes.weights.sum())
(134459, 2598960)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from exactodds.cache import cached_array
from exactodds.combinatorics import all_subsets_colex, colex_index_batch


@dataclass(frozen=True)
class HandClasses:
    """Suit-permutation classes of all 5-card hands, numbered in order of their signature.

    ``representatives[i]`` is the colex index of one hand of class i (its canonical form:
    the suit holding the most cards, by rank bitmask, is clubs, then diamonds, hearts,
    spades), ``weights[i]`` the number of hands in the class, ``signatures[i]`` its key.
    """

    representatives: np.ndarray
    weights: np.ndarray
    signatures: np.ndarray

    def class_of(self, hands: np.ndarray) -> np.ndarray:
        """Class number of each row of an (n, 5) card array."""
        return np.searchsorted(self.signatures, suit_signature(hands))


def suit_signature(hands: np.ndarray) -> np.ndarray:
    """A key (int64) per hand that is equal exactly for hands in the same suit class.

    The key packs the four per-suit rank bitmasks (13 bits each) in decreasing order,
    which is invariant under any renaming of suits and fixes the hand up to one.
    """
    from exactodds.counting.kernels.suits import suit_signatures  # numba, loaded on first use

    # int8 cards, C order: one compiled signature whatever the caller's array
    signatures: np.ndarray = suit_signatures(np.ascontiguousarray(hands, dtype=np.int8))
    return signatures


def canonical_hands(signatures: np.ndarray) -> np.ndarray:
    """The canonical (n, 5) sorted hands of signatures: the largest rank mask in clubs, and so on."""
    signatures = np.asarray(signatures, dtype=np.int64)
    masks = np.stack([(signatures >> shift) & 0x1FFF for shift in (39, 26, 13, 0)], axis=1)
    present = ((masks[:, :, None] >> np.arange(13)) & 1).reshape(len(signatures), 52)
    _, position = np.nonzero(present)  # position = suit * 13 + rank, five per row in row order
    cards = (position % 13) * 4 + position // 13
    return np.sort(cards.reshape(len(signatures), 5), axis=1)


CLASSES_FILE = "hand-classes-v1.npy"
CLASSES_SHA256 = "461bbd1339805fe691731e353b6101b431405ec26a8451f71cfc859073f41b78"


def build_class_table() -> np.ndarray:
    """(3, 134459) int64: signatures (sorted), representatives' colex indices, weights."""
    signatures, weights = np.unique(suit_signature(all_subsets_colex(52, 5)), return_counts=True)
    representatives = colex_index_batch(canonical_hands(signatures))
    return np.stack([signatures, representatives, weights.astype(np.int64)])


@lru_cache(maxsize=1)
def hand_classes() -> HandClasses:
    """The 134,459 suit classes of the 2,598,960 five-card hands (cached on disk, verified)."""
    table = cached_array(CLASSES_FILE, build=build_class_table, sha256=CLASSES_SHA256,
                         what="hand-class table")
    return HandClasses(representatives=table[1], weights=table[2], signatures=table[0])


def canonical_suit_maps(hands: np.ndarray) -> np.ndarray:
    """For each hand, the map (n, 4) from its suits to the suits of its canonical form.

    ``canonical_hands(suit_signature(hands))`` equals the hands with every card's suit s
    replaced by ``map[s]``. Suits with equal rank masks are interchangeable, so any order
    among them gives the same canonical hand.
    """
    hands = np.asarray(hands, dtype=np.int64)
    masks = np.zeros((hands.shape[0], 4), dtype=np.int64)
    rows = np.arange(hands.shape[0])
    for j in range(hands.shape[1]):
        np.bitwise_or.at(masks, (rows, hands[:, j] & 3), np.int64(1) << (hands[:, j] >> 2))
    order = np.argsort(-masks, axis=1, kind="stable")  # order[:, i] = original suit that becomes i
    suit_map = np.empty_like(order)
    np.put_along_axis(suit_map, order, np.arange(4)[None, :].repeat(len(order), axis=0), axis=1)
    return suit_map
