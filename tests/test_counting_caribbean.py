"""The Caribbean Stud kernels against plain direct counting, on small random cases.

Small decks (the dealer's hands drawn from a random set of a dozen cards), random strength
tables with few levels (random thresholds and many ties), random player hands, random
seen dealer sets and random paytable nets. Each kernel's counts and return-table sums must
equal a plain count over every dealer hand or completion.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.caribbean.analysis.kernels import whole_game as ak
from exactodds.caribbean.holecard.kernels import seen_cards as hk
from exactodds.combinatorics import N_HANDS, all_subsets_colex, colex_index, colex_index_batch
from exactodds.counting.deck import StrengthDeck, row_masks
from exactodds.counting.kernels.hand_counters import counters_below
from exactodds.counting.layout import ACC_COLUMNS, NET_COLUMNS, Acc, Net
from exactodds.threaded import run_spans

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@lru_cache(maxsize=1)
def _all_hands() -> tuple[np.ndarray, np.ndarray]:
    hands = all_subsets_colex(52, 5)
    return hands, row_masks(hands)


def small_deck(cards: list[int], levels: int, rng: np.random.Generator) -> StrengthDeck:
    """A StrengthDeck of the hands within ``cards``, with random strengths 0..levels-1."""
    hands, masks = _all_hands()
    members = colex_index_batch(np.array(list(combinations(sorted(cards), 5)), dtype=np.int64))
    table = np.zeros(N_HANDS, dtype=np.uint16)
    table[members] = rng.integers(0, levels, len(members))
    order = members[np.argsort(table[members], kind="stable")].astype(np.int64)
    level_start = np.searchsorted(table[order], np.arange(levels + 1)).astype(np.int64)
    table.setflags(write=False)  # read-only as the real rank table: the kernels' one compiled signature
    return StrengthDeck(table=table, hands=hands, masks=masks, order=order, level_start=level_start)


def random_classes(rng: np.random.Generator, count: int, levels: int) -> ak.PlayerClasses:
    players = np.array([np.sort(rng.choice(52, 5, replace=False)) for _ in range(count)], dtype=np.int64)
    strength = np.sort(rng.integers(0, levels, count)).astype(np.int64)
    return ak.PlayerClasses(players=players, weights=rng.integers(1, 25, count).astype(np.int64),
                            strength=strength,
                            level_start=np.searchsorted(strength, np.arange(levels + 1)).astype(np.int64))


def dealer_hands(deck: StrengthDeck) -> list[tuple[frozenset[int], int]]:
    """Every hand of the deck as (its cards, its strength)."""
    return [(frozenset(deck.hands[h].tolist()), int(deck.table[h])) for h in deck.order]


case = st.fixed_dictionaries({
    "cards": st.lists(st.integers(0, 51), unique=True, min_size=8, max_size=12),
    "levels": st.integers(1, 8),
    "seed": st.integers(0, 2**32 - 1),
})


@SETTINGS
@given(c=case, threshold=st.integers(0, 8))
def test_whole_game_kernels_match_direct_count(c, threshold):
    rng = np.random.default_rng(c["seed"])
    levels = c["levels"]
    deck = small_deck(c["cards"], levels, rng)
    classes = random_classes(rng, 12, levels)
    threshold = min(threshold, levels)
    n = len(classes.players)
    below = np.zeros((n, 52), dtype=np.int32)
    run_spans(ak.query_each_class, n, counters_below(deck, threshold), classes, below, threads=2, chunks=5)
    weaker = below.copy()
    bounds = np.array([0, levels // 2, levels], dtype=np.int64)
    run_spans(ak.sweep_weaker_chunks, 2, deck, classes, bounds, weaker, threads=2, chunks=2)
    equal = np.zeros_like(weaker)
    run_spans(ak.count_ties, n, deck, classes, equal, threads=2, chunks=3)
    hands = dealer_hands(deck)
    for r, player in enumerate(classes.players.tolist()):
        s = classes.strength[r]
        for u in set(range(52)) - set(player):
            holding = [v for cards, v in hands if u in cards and not cards & set(player)]
            assert below[r, u] == sum(v < threshold for v in holding)
            assert weaker[r, u] == sum(v < s for v in holding)
            assert equal[r, u] == sum(v == s for v in holding)


def _decide(a, b, c, completions, contend, pay, nets):
    """The decision rule, plainly: raise iff EV(raise) > EV(fold) (scaled integers)."""
    win, push = (b - a, c) if contend else (0, 0)
    dealer_wins = completions - a - win - push
    ev = a * nets[Net.NOT_QUALIFY] + push * nets[Net.PUSH] + dealer_wins * nets[Net.DEALER_WINS]
    ev += win * nets[Net.WIN + pay] if win else 0
    return win, push, dealer_wins, ev > completions * nets[Net.FOLD]


def _settle(acc, n, a, win, push, dealer_wins, raised, completions, pay):
    acc[Acc.DEALER_QUALIFIES] += n * (completions - a)
    if raised:
        acc[Acc.WIN + pay] += n * win
        acc[Acc.NOT_QUALIFY] += n * a
        acc[Acc.PUSH] += n * push
        acc[Acc.DEALER_WINS] += n * dealer_wins
        acc[Acc.RAISED] += n * completions
    else:
        acc[Acc.FOLD] += n * completions


def random_payout(rng, levels, qualify):
    nets = rng.integers(-6, 7, NET_COLUMNS).astype(np.int64)
    pay_of = np.where(np.arange(levels) >= qualify, rng.integers(0, 10, levels), -1).astype(np.int64)
    return hk.Payout(qualify=qualify, pay_of=pay_of, nets=nets)


@SETTINGS
@given(c=case, qualify=st.integers(0, 8))
def test_all_known_sweep_matches_direct_count(c, qualify):
    rng = np.random.default_rng(c["seed"])
    levels = c["levels"]
    qualify = min(qualify, levels)
    deck = small_deck(c["cards"], levels, rng)
    classes = random_classes(rng, 10, levels)
    payout = random_payout(rng, levels, qualify)
    acc = np.zeros((2, ACC_COLUMNS), dtype=np.int64)
    bounds = np.array([0, levels // 2, levels], dtype=np.int64)
    run_spans(hk.all_known_sweep, 2, deck, classes, bounds, payout, counters_below(deck, qualify), acc,
              threads=2, chunks=2)
    expected = np.zeros(ACC_COLUMNS, dtype=np.int64)
    hands = dealer_hands(deck)
    completions = 1_533_939  # C(47, 5): the kernel's dealer-hand total per class
    for r, player in enumerate(classes.players.tolist()):
        s, weight = int(classes.strength[r]), int(classes.weights[r])
        contend = s >= qualify
        pay = int(payout.pay_of[s])
        avoiding = [v for cards, v in hands if not cards & set(player)]
        a = sum(v < qualify for v in avoiding)
        b = sum(v < s for v in avoiding) if contend else a
        t = sum(v == s for v in avoiding) if contend else 0
        win, push, lose, _ = _decide(a, b, t, completions, contend, pay, payout.nets)
        expected[Acc.DEALER_QUALIFIES] += weight * (completions - a)
        fold = payout.nets[Net.FOLD]
        for count, net, column in ((a, payout.nets[Net.NOT_QUALIFY], Acc.NOT_QUALIFY),
                                   (push, payout.nets[Net.PUSH], Acc.PUSH),
                                   (lose, payout.nets[Net.DEALER_WINS], Acc.DEALER_WINS),
                                   (win, payout.nets[Net.WIN + pay], Acc.WIN + pay)):
            if count == 0 and column == Acc.WIN + pay:
                continue
            if net > fold:
                expected[column] += weight * count
                expected[Acc.RAISED] += weight * count
            else:
                expected[Acc.FOLD] += weight * count
    assert acc.sum(axis=0).tolist() == expected.tolist()


def sorted_player_hands(hands: np.ndarray, strengths: np.ndarray, levels: int) -> hk.SortedHands:
    order = np.argsort(strengths, kind="stable")
    hands = np.ascontiguousarray(hands[order]).astype(np.int8)  # the production dtypes
    level_start = np.searchsorted(strengths[order], np.arange(levels + 1)).astype(np.int64)
    return hk.SortedHands(hands=hands, masks=row_masks(hands), index=order.astype(np.int64),
                          level_start=level_start)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(k=st.sampled_from([2, 3, 4]), levels=st.integers(1, 8), qualify=st.integers(0, 8),
       seed=st.integers(0, 2**32 - 1))
def test_seen_set_matches_direct_count(k, levels, qualify, seed):
    """K = 2..4 (counters, unrolled queries, popcount path for K = 4) with a random strength table."""
    rng = np.random.default_rng(seed)
    qualify = min(qualify, levels)
    table = rng.integers(0, levels, N_HANDS).astype(np.uint16)
    table.setflags(write=False)  # read-only as the real rank table: the kernel's one compiled signature
    seen = np.sort(rng.choice(52, k, replace=False)).astype(np.int64)
    unseen = np.setdiff1d(np.arange(52), seen)
    hands = np.array([np.sort(rng.choice(unseen, 5, replace=False)) for _ in range(10)], dtype=np.int64)
    players = sorted_player_hands(hands, table[colex_index_batch(hands)].astype(np.int64), levels)
    payout = random_payout(rng, levels, qualify)
    rec = np.zeros((4, len(hands)), dtype=np.int32)
    loc = np.zeros(ACC_COLUMNS, dtype=np.int64)
    tsubs = all_subsets_colex(52 - k, 5 - k).astype(np.int64)
    hk.seen_set(seen, table, tsubs, players, payout, loc, True, rec)

    tails = unseen[all_subsets_colex(len(unseen), 5 - k).astype(np.int64)]
    dealer = table[colex_index_batch(np.hstack([np.tile(seen, (len(tails), 1)), tails]))].astype(np.int64)
    completions = len(list(combinations(range(47 - k), 5 - k)))
    expected = np.zeros(ACC_COLUMNS, dtype=np.int64)
    for i, hand in enumerate(hands.tolist()):
        s = int(table[colex_index(hand)])
        keep = ~np.isin(tails, hand).any(axis=1)
        assert keep.sum() == completions
        contend = s >= qualify
        a = int((dealer[keep] < qualify).sum())
        b = int((dealer[keep] < s).sum()) if contend else a
        c = int((dealer[keep] == s).sum()) if contend else 0
        win, push, lose, raised = _decide(a, b, c, completions, contend, int(payout.pay_of[s]), payout.nets)
        assert rec[:, i].tolist() == [a, b, c, int(raised)]
        _settle(expected, 1, a, win, push, lose, raised, completions, int(payout.pay_of[s]) if contend else 0)
    assert loc.tolist() == expected.tolist()


@pytest.mark.parametrize("seen", [(0, 5), (3, 17, 40), (8, 9, 10, 51)])
def test_seen_set_suit_orbits_match_every_hand(seen, table):
    """The free-suit specialisation (one hand per orbit, weighted) against deciding every hand,
    on the hands from a suit-closed small deck (all suits of four ranks) with the real table."""
    from exactodds.caribbean.holecard.exact import payout_bundle
    from exactodds.caribbean.profile import load_profile
    from exactodds.handrank import N_STRENGTHS

    cards = [4 * rank + suit for rank in (0, 5, 9, 12) for suit in range(4)]
    hands = np.array(list(combinations(cards, 5)), dtype=np.int64)
    players = sorted_player_hands(hands, table[colex_index_batch(hands)].astype(np.int64), N_STRENGTHS)
    payout = payout_bundle(load_profile("standard"))
    seen_cards = np.array(seen, dtype=np.int64)
    tsubs = all_subsets_colex(52 - len(seen), 5 - len(seen)).astype(np.int64)
    every, orbits = np.zeros(ACC_COLUMNS, dtype=np.int64), np.zeros(ACC_COLUMNS, dtype=np.int64)
    hk.seen_set(seen_cards, table, tsubs, players, payout, every, True, np.zeros((4, len(hands)), np.int32))
    hk.seen_set(seen_cards, table, tsubs, players, payout, orbits, False, np.zeros((4, 1), np.int32))
    assert every.sum() > 0
    assert orbits.tolist() == every.tolist()
