"""The stud equity kernels (sweeps on the shared subset counters) against direct counting.

Small random cases: a pool of a few unseen cards, players needing 0..3 of them, every
completion of a player given a random strength (random thresholds, many ties). The
kernels' outcome counts must equal a plain enumeration of every deal.
"""

from __future__ import annotations

from itertools import product
from math import comb

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.combinatorics import all_subsets_colex
from exactodds.counting.deck import SlottedRows, StackedRows, rows_by_strength
from exactodds.counting.kernels.subset_counters import new_subset_counters, subset_slots
from exactodds.stud.equity.kernels import deal_counts as kernel

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def players(draw, *, min_players=2, max_players=4, max_pool=9):
    """(pool size n, per player: StrengthRows of all its completions with random strengths)."""
    count = draw(st.integers(min_players, max_players))
    needs = sorted(draw(st.lists(st.integers(0, 2), min_size=count, max_size=count)))
    n = draw(st.integers(max(sum(needs), 1), max(sum(needs), max_pool)))
    levels = draw(st.integers(1, 6))
    result = []
    for need in needs:
        rows = all_subsets_colex(n, need).astype(np.int64)
        strengths = draw(st.lists(st.integers(0, levels - 1), min_size=len(rows), max_size=len(rows)))
        result.append(rows_by_strength(rows, np.array(strengths, dtype=np.int64)))
    return n, result


def direct_counts(completions):
    """out[p, t]: deals where p holds the top strength with t - 1 others, by plain enumeration."""
    out = np.zeros((len(completions), len(completions) + 1), dtype=np.int64)
    for choice in product(*(range(len(c.rows)) for c in completions)):
        sets = [set(c.rows[i].tolist()) for c, i in zip(completions, choice, strict=True)]
        if sum(len(s) for s in sets) != len(set().union(*sets)):
            continue
        values = [int(c.strengths[i]) for c, i in zip(completions, choice, strict=True)]
        best = max(values)
        tied = values.count(best)
        for p, v in enumerate(values):
            if v == best:
                out[p, tied] += 1
    return out


@SETTINGS
@given(case=players(min_players=2, max_players=2, max_pool=11))
def test_headsup_sweep_matches_direct_count(case):
    n, (a, b) = case
    less, leq = kernel.headsup_sweep(a, b, n)
    for i, x in enumerate(a.rows):
        disjoint = [j for j, y in enumerate(b.rows) if not set(x.tolist()) & set(y.tolist())]
        assert less[i] == sum(1 for j in disjoint if b.strengths[j] < a.strengths[i])
        assert leq[i] == sum(1 for j in disjoint if b.strengths[j] <= a.strengths[i])


def stacked(completions):
    offsets = np.concatenate([[0], np.cumsum([len(c.rows) for c in completions])]).astype(np.int64)
    if not completions:
        return StackedRows(masks=np.zeros(0, np.int64), strengths=np.zeros(0, np.int64), offsets=offsets)
    return StackedRows(masks=np.concatenate([c.masks for c in completions]),
                       strengths=np.concatenate([c.strengths for c in completions]), offsets=offsets)


@SETTINGS
@given(case=players())
def test_nested_counts_match_direct_count(case):
    n, completions = case
    out = np.zeros((len(completions), len(completions) + 1), dtype=np.int64)
    first = len(completions[0].rows)
    kernel.nested_counts(stacked(completions), 0, first // 2, out)  # in two chunks, as the caller does
    kernel.nested_counts(stacked(completions), first // 2, first, out)
    assert out.tolist() == direct_counts(completions).tolist()


@SETTINGS
@given(case=players())
def test_prefix_pair_counts_match_direct_count(case):
    n, completions = case
    *prefix, b, c = completions
    counters = new_subset_counters(n, c.rows.shape[1])
    b_rows = SlottedRows(slots=subset_slots(b.rows, counters.offsets), strengths=b.strengths,
                         masks=b.masks)
    c_rows = SlottedRows(slots=subset_slots(c.rows, counters.offsets), strengths=c.strengths,
                         masks=c.masks)
    taken = sum(p.rows.shape[1] for p in prefix)
    width_b, width_c = b.rows.shape[1], c.rows.shape[1]
    pairs = comb(n - taken, width_b) * comb(n - taken - width_b, width_c)
    out = np.zeros((len(completions), len(completions) + 1), dtype=np.int64)
    first = len(prefix[0].rows) if prefix else 1
    kernel.prefix_pair_counts(stacked(prefix), 0, first, b_rows, c_rows, counters, pairs, out)
    assert out.tolist() == direct_counts(completions).tolist()
    assert not counters.counts.any()  # the counters are left empty for the next prefix
