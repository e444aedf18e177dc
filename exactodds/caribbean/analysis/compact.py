"""The whole-game count in compact form, kept in the verified cache: any paytable in a fraction of a second.

The counting (:mod:`exactodds.caribbean.analysis.counting`) depends only on the dealer's
qualifier and the deck, not on the pays. Under the optimal strategy a situation (player
hand class, up card) matters only through its player's paid category and its numbers of
dealer completions that do not qualify (b), that the player beats (w) and that tie (t): the
6,319,573 situations collapse to about 355,000 distinct (category, b, w, t) with integer
weights (hands x up cards). That table is built once per qualifier from a full count, stored
in the cache directory and checked against its pinned SHA-256 on every load
(:func:`exactodds.cache.cached_array`); evaluating a paytable on it is a few numpy passes,
with no kernel to compile or load.

The result is the same GameResult, row for row, as
:func:`exactodds.caribbean.analysis.game.analyze` (tests compare them).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from exactodds.cache import cached_array
from exactodds.caribbean.analysis.result import GameResult, build_result
from exactodds.caribbean.decision.settle import (
    DEALER_COMPLETIONS,
    DEALER_NOT_QUALIFY,
    DEALER_WINS,
    FOLD,
    PUSH,
    kernel_nets,
)
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_FLOORS, QUALIFIERS, Profile, load_profile
from exactodds.counting.layout import Net
from exactodds.progress import Progress

if TYPE_CHECKING:  # the counting loads numba: only for the type
    from exactodds.caribbean.analysis.counting import SituationCounts

_BITS = 18  # b, w and t are at most 163,185 < 2**18 (the key: 4 + 3 x 18 bits)
_MASK = (1 << _BITS) - 1
# SHA-256 of each qualifier's compact table (int64 rows: key, weight), pinned like the rank table's.
COMPACT_SHA256 = {
    "ak": "ab0709871cf9d415881a262054128bbcf874cc02e1ce41db6ac27a78e2cb6a6c",
    "pair": "6b2f852887f9fd8057a049c466737679ad261fd93aa4a0c26e9da0b8ccda3df2",
}


def _file_name(qualifier: str) -> str:
    return f"caribbean_compact_counts_{qualifier}.npy"


def build_compact(qualifier: str, *, progress: Progress | None = None) -> np.ndarray:
    """(n, 2) int64 rows (key, weight), keys ascending; a key packs (category + 1, b, w, t).

    Each valid situation becomes one int64 ``key << 5 | class weight`` (a class holds at most
    24 hands), written class block by class block; one in-place sort then groups equal keys, and
    each group's weights are summed. No full-size temporaries beyond that one array (about
    50 MB for the 6,319,573 situations), and no argsort.
    """
    from exactodds.caribbean.analysis.game import counts_for

    counts = counts_for(QUALIFIERS[qualifier], progress=progress)
    packed = _packed_situations(counts)
    packed.sort()
    weights = packed.astype(np.int8) & _WEIGHT_MASK  # the low byte, then the weight bits
    packed >>= _WEIGHT_BITS  # now the keys, ascending
    starts = np.flatnonzero(np.concatenate(([True], packed[1:] != packed[:-1])))
    table = np.stack([packed[starts], np.add.reduceat(weights, starts, dtype=np.int64)], axis=1)
    if int(table[:, 1].sum()) != int((counts.weights * counts.valid.sum(axis=1)).sum()):
        raise AssertionError("the compact count lost weight")
    return table


_WEIGHT_BITS = 5  # a suit class holds at most 4! = 24 hands
_WEIGHT_MASK = (1 << _WEIGHT_BITS) - 1
_CLASS_BLOCK = 8192  # classes per block: blocks of about 3 MB per temporary


def _packed_situations(counts: SituationCounts) -> np.ndarray:
    """int64 ``key << 5 | weight`` of every valid situation (class by class, up cards ascending)."""
    if int(counts.weights.max()) > _WEIGHT_MASK or len(PAY_FLOORS) + 1 > 15:
        raise AssertionError("a class weight or a pay category does not fit its bits")
    pay_index = np.searchsorted(np.array(PAY_FLOORS), counts.strength, side="right") - 1
    can_win = counts.strength >= counts.qualify_strength
    out = np.empty(int(counts.valid.sum()), dtype=np.int64)
    filled = 0
    for lo in range(0, len(counts.weights), _CLASS_BLOCK):
        block = slice(lo, lo + _CLASS_BLOCK)
        b = counts.below_qualifier[block].astype(np.int64)
        wins = can_win[block, None]
        key = b << (2 * _BITS)
        key |= (pay_index[block, None].astype(np.int64) + 1) << (3 * _BITS)
        key |= np.where(wins, counts.weaker[block] - b, 0) << _BITS
        key |= np.where(wins, counts.equal[block], 0)
        key <<= _WEIGHT_BITS
        key |= counts.weights[block, None].astype(np.int64)
        valid = key[counts.valid[block]]
        out[filled:filled + len(valid)] = valid
        filled += len(valid)
    return out


@lru_cache(maxsize=2)
def compact_counts(qualifier: str) -> np.ndarray:
    """The verified compact table of a qualifier (built and cached on first use)."""
    return _compact(qualifier, progress=None)


def prepare_compact(qualifier: str, *, progress: Progress | None = None) -> None:
    """Build and store a qualifier's compact table if it is not in the cache yet, reporting the
    counting to ``progress`` (then :func:`compact_counts` only reads it)."""
    _compact(qualifier, progress=progress)


def _compact(qualifier: str, *, progress: Progress | None) -> np.ndarray:
    return cached_array(_file_name(qualifier), build=lambda: build_compact(qualifier, progress=progress),
                        sha256=COMPACT_SHA256[qualifier], what=f"compact count ({qualifier} qualifier)")


def is_cached(qualifier: str) -> bool:
    """Whether a qualifier's compact table is already in the cache directory (not yet verified)."""
    from exactodds.cache import cache_dir

    return (cache_dir() / _file_name(qualifier)).exists()


def optimal_result(profile: Profile | str = "standard", *, progress: Progress | None = None) -> GameResult:
    """The exact whole-game result of ``profile`` under the optimal strategy, from the compact count
    (counted first, its progress reported to ``progress``, when the cache does not hold it yet)."""
    profile = load_profile(profile)
    if progress is not None and not is_cached(profile.qualifier):
        prepare_compact(profile.qualifier, progress=progress)
    table = compact_counts(profile.qualifier)
    key, weight = table[:, 0], table[:, 1]
    pay_index = (key >> (3 * _BITS)) - 1
    b, w, t = (key >> (2 * _BITS)) & _MASK, (key >> _BITS) & _MASK, key & _MASK
    nets, scale = kernel_nets(profile)  # the Net layout of exactodds.counting.layout
    win_scaled = np.where(pay_index >= 0, nets[Net.WIN + np.maximum(pay_index, 0)], 0)
    nq_scaled, lose_scaled = nets[Net.NOT_QUALIFY], nets[Net.DEALER_WINS]
    lose = DEALER_COMPLETIONS - b - w - t
    ev = b * nq_scaled + w * win_scaled + lose * lose_scaled
    raised = ev > -DEALER_COMPLETIONS * scale  # an exact tie folds, as in SituationOutcomes.optimal_raise
    rw = np.where(raised, weight, 0)
    combos = {f"win_{c}": int((w * rw)[pay_index == i].sum()) for i, c in enumerate(PAY_CATEGORIES)}
    combos[DEALER_NOT_QUALIFY] = int((b * rw).sum())
    combos[PUSH] = int((t * rw).sum())
    combos[DEALER_WINS] = int((lose * rw).sum())
    combos[FOLD] = int((weight - rw).sum()) * DEALER_COMPLETIONS
    raised_deals = int(rw.sum()) * DEALER_COMPLETIONS
    dealer_qualifies = int(((DEALER_COMPLETIONS - b) * weight).sum())
    return build_result(profile, combos, raised_deals, dealer_qualifies, "optimal")


def optimal_results(profiles: Iterable[Profile | str]) -> list[GameResult]:
    """Several paytables from one count per qualifier (in the order given)."""
    return [optimal_result(p) for p in profiles]
