"""Every fast subset counter of exactodds.counting against the plain reference, on small random cases.

Random small decks (a few cards), random counted sets (the sets a sweep has passed, i.e.
those below a random threshold) and random query sets: the counters must equal the
reference's int64 counters entry by entry, and every inclusion-exclusion query must equal
the reference's direct count.
"""

from __future__ import annotations

from math import comb

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.combinatorics import all_subsets_colex, colex_index
from exactodds.counting.kernels import bits, hand_counters, subset_counters
from exactodds.counting.reference import ReferenceCounters

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def counted_sets(draw, *, n_min=5, n_max=12, size_max=3):
    """(n, r, counted rows of r cards, query rows of 0..5 cards) on an n-card deck."""
    n = draw(st.integers(n_min, n_max))
    r = draw(st.integers(0, min(size_max, n)))
    universe = all_subsets_colex(n, r).astype(np.int64)
    chosen = draw(st.lists(st.integers(0, len(universe) - 1), max_size=40))
    q = draw(st.integers(0, min(5, n)))
    queries = all_subsets_colex(n, q).astype(np.int64)
    picks = draw(st.lists(st.integers(0, len(queries) - 1), min_size=1, max_size=10))
    return n, r, universe[chosen], queries[picks]


@SETTINGS
@given(case=counted_sets(), small=st.booleans())
def test_subset_counters_match_reference(case, small):
    n, r, counted, queries = case
    new = subset_counters.new_small_subset_counters if small else subset_counters.new_subset_counters
    counters = new(n, r)
    ref = ReferenceCounters(n=n, max_size=r)
    for row in counted:
        subset_counters.add_subsets(counters, row, 1)
        ref.add(row)
    assert counters.counts.dtype == (np.int16 if small else np.int64)
    assert counters.counts.tolist() == ref.flat().tolist()
    for row in queries:
        assert subset_counters.count_avoiding(counters, row) == ref.avoiding(row)
    # Removing sets undoes them exactly.
    for row in counted[: len(counted) // 2]:
        subset_counters.add_subsets(counters, row, -1)
        ref.add(row, -1)
    assert counters.counts.tolist() == ref.flat().tolist()


@SETTINGS
@given(case=counted_sets())
def test_slots_specialisation_matches_reference(case):
    n, r, counted, queries = case
    counters = subset_counters.new_subset_counters(n, r)
    ref = ReferenceCounters(n=n, max_size=r)
    slots = subset_counters.subset_slots(np.ascontiguousarray(counted.reshape(len(counted), r)),
                                         counters.offsets)
    for row, row_slots in zip(counted, slots, strict=True):
        subset_counters.add_slots(row_slots, counters.counts, 1)
        ref.add(row)
    assert counters.counts.tolist() == ref.flat().tolist()
    query_slots = subset_counters.subset_slots(queries, counters.offsets)
    for row, row_slots in zip(queries, query_slots, strict=True):
        assert subset_counters.count_avoiding_slots(row_slots, counters.counts) == ref.avoiding(row)
        for mask, slot in enumerate(row_slots):
            subset = [int(c) for j, c in enumerate(row) if (mask >> j) & 1]
            assert slot == (ref.slot(subset) if len(subset) <= r else -1)


@SETTINGS
@given(n=st.integers(6, 14), r=st.integers(1, 3), data=st.data())
def test_unrolled_five_card_queries_match_reference(n, r, data):
    universe = all_subsets_colex(n, r).astype(np.int64)
    players = all_subsets_colex(n, 5).astype(np.int64)
    ref_q, ref_s = ReferenceCounters(n=n, max_size=r), ReferenceCounters(n=n, max_size=r)
    first = subset_counters.new_small_subset_counters(n, r)
    second = subset_counters.new_small_subset_counters(n, r)
    for i in data.draw(st.lists(st.integers(0, len(universe) - 1), max_size=40)):
        subset_counters.add_subsets(first, universe[i], 1)
        ref_q.add(universe[i])
    for i in data.draw(st.lists(st.integers(0, len(universe) - 1), max_size=40)):
        subset_counters.add_subsets(second, universe[i], 1)
        ref_s.add(universe[i])
    for i in data.draw(st.lists(st.integers(0, len(players) - 1), min_size=1, max_size=10)):
        p = players[i]
        assert subset_counters.count_avoiding5(first, p) == ref_q.avoiding(p)
        pair = subset_counters.count_avoiding5_pair(first, second, p)
        assert pair == (ref_q.avoiding(p), ref_s.avoiding(p))


@SETTINGS
@given(cards=st.lists(st.integers(0, 51), unique=True, max_size=20), other=st.lists(st.integers(0, 51)))
def test_popcount_path_and_masks(cards, other):
    mask = bits.card_mask(np.array(cards, dtype=np.int64))
    assert int(mask) == sum(1 << c for c in cards)
    assert bits.count_bits(mask) == len(cards)
    other_mask = sum(1 << c for c in set(other))
    # r = 1: completions below the threshold avoiding X = counted - popcount(counted cards & X).
    assert len(cards) - bits.count_bits(mask & np.uint64(other_mask)) == len(set(cards) - set(other))
    if 0 < len(cards) <= 7:  # colex indices use BINOM, sets of up to 7 cards
        row = np.array(sorted(cards), dtype=np.int64)
        assert bits.colex(row) == colex_index(cards)
        for m in (0, 1, (1 << len(cards)) - 1, 0b1011 & ((1 << len(cards)) - 1)):
            picked = [int(c) for j, c in enumerate(row) if (m >> j) & 1]
            assert bits.subset_colex(row, m) == (colex_index(picked), len(picked))
    shuffled = np.array(cards, dtype=np.int64)
    bits.sort_small(shuffled)
    assert shuffled.tolist() == sorted(cards)


def test_counter_offsets():
    pairs, triples = comb(52, 2), comb(52, 3)
    assert bits.counter_offsets(52, 3).tolist() == [0, 1, 53, 53 + pairs, 53 + pairs + triples]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deck_cards=st.lists(st.integers(0, 51), unique=True, min_size=10, max_size=13), data=st.data())
def test_hand_counters_match_reference(deck_cards, data):
    """The cache-sized 5-card counters on hands from a small deck (a random set of the 52 cards)."""
    deck_cards = sorted(deck_cards)
    hands = np.array(deck_cards, dtype=np.int64)[all_subsets_colex(len(deck_cards), 5).astype(np.int64)]
    chosen = data.draw(st.lists(st.integers(0, len(hands) - 1), unique=True, max_size=60))
    counters = hand_counters.new_hand_counters()
    ref = ReferenceCounters(n=52, max_size=4)
    for i in chosen:
        hand_counters.add_hand(counters, colex_index(hands[i]), hands[i])
        ref.add(hands[i])
    assert counters.c1.tolist() == ref.counts[1].tolist()
    for size, array in ((2, counters.c2), (3, counters.c3), (4, counters.c4)):
        nonzero = np.flatnonzero(ref.counts[size])
        assert np.array_equal(np.flatnonzero(array), nonzero)
        assert array[nonzero].tolist() == ref.counts[size][nonzero].tolist()
    counted = {colex_index(hands[i]) for i in chosen}
    assert np.flatnonzero(np.unpackbits(counters.bits, bitorder="little")).tolist() == sorted(counted)
    players = data.draw(st.lists(st.sampled_from(range(len(hands))), min_size=1, max_size=6))
    base = np.zeros((32, 6), dtype=np.int64)
    for i in players:
        p = hands[i]
        assert hand_counters.count_avoiding(counters, p, len(chosen)) == ref.avoiding(p)
        empty = hand_counters.new_hand_counters()
        assert hand_counters.count_avoiding_pair(counters, empty, p, len(chosen), 0) == (ref.avoiding(p), 0)
        out = np.full(52, -1, dtype=np.int32)  # int32 as in the whole game: its one compiled signature
        hand_counters.count_avoiding_with_each(counters, p, base, out)
        for u in range(52):
            expected = -1 if u in p else ref.holding_avoiding(u, p)
            assert out[u] == expected
