"""The compiled rank-profile primitives (stud/equity/rank_profile/kernels/primitives.py) against their
plain references (stud/equity/rank_profile/reference.py), on the classes of random players and decks."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.stud.equity.rank_profile import reference
from exactodds.stud.equity.rank_profile.kernels import primitives
from exactodds.stud.equity.rank_profile.profiles import player_profiles, rank_counts


@st.composite
def classes_and_deck(draw):
    """A player's completion classes (2..4 known cards, the rest of five to come) and a deck that some
    other cards left."""
    cards = draw(st.permutations(range(52)))
    known = sorted(cards[:draw(st.integers(2, 4))])
    need = 5 - len(known)
    unseen = np.array(sorted(cards[len(known):]), dtype=np.int64)
    gone = draw(st.integers(0, 12))
    avail = rank_counts(unseen[gone:] if gone else unseen)
    return player_profiles(known, need, unseen), avail


@settings(max_examples=30, deadline=None)
@given(classes_and_deck())
def test_class_and_pattern_weights_match_the_reference(case):
    profiles, avail = case
    for i in range(len(profiles.strength)):
        prof = profiles.prof[i]
        assert primitives.class_weight(profiles, i, avail) == reference.class_weight(prof, avail)
        assert primitives.full_mask(profiles, i) == reference.rank_mask(prof)
        for y in range(0, len(profiles.strength), 7):
            fast = primitives.pattern_weight(profiles, i, profiles, y, avail)
            assert fast == reference.pattern_weight(prof, profiles.prof[y], avail)
            for suit_p, suit_q in ((0, 0), (0, 1)):
                assert primitives.compatible(suit_p, reference.rank_mask(prof), suit_q,
                                             reference.rank_mask(profiles.prof[y])) == \
                    reference.compatible(suit_p, prof, suit_q, profiles.prof[y])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=13, max_size=13))
def test_binomials_tables_and_disjoint_pairs_match_the_reference(avail_list):
    avail = np.array(avail_list, dtype=np.int64)
    for n in range(-1, 8):
        for k in range(-1, 8):
            if n >= 0:
                assert primitives.choose(n, k) == reference.choose(n, k)
    assert primitives.disjoint_table(avail).tolist() == reference.disjoint_table(avail_list)
    expected_u = [[reference.choose(m, y) for y in range(5)] for m in avail_list]
    assert primitives.class_u(avail).tolist() == expected_u
    # The kernel tables of query type 0 factor the per-rank count of disjoint pairs:
    # C(m, x) C(m - x, y) = U[0, r, x] * C(m, y) + E[0, r, x, y].
    U, E, gen_u = primitives.kernel_tables(avail)
    for r in range(13):
        for x in range(5):
            for y in range(5):
                one_rank = [0] * 13
                other = [0] * 13
                one_rank[r], other[r] = x, y
                pairs = reference.disjoint_pairs(one_rank, other, avail_list)
                assert U[0, r, x] * gen_u[r, y] + E[0, r, x, y] == pairs
