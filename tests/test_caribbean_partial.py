"""Partial information (edge sorting, a flashed rank): the kernel against brute force on a reduced
deck, against the hole-carding kernel where the two meet, and the identities between the games."""

from itertools import combinations
from math import comb

import numpy as np
import pytest

from exactodds.caribbean.holecard.exact import (
    game_from_sums,
    payout_bundle,
    seen_set_situations,
    strength_ordered_hands,
)
from exactodds.caribbean.holecard.kernels import partial_signals as pk
from exactodds.caribbean.holecard.partial import (
    PartialInfo,
    PartialInfoError,
    SignalKind,
    edge_sort,
    parse_rank_set,
    rank_seen,
)
from exactodds.caribbean.profile import load_profile
from exactodds.combinatorics import N_HANDS, all_subsets_colex, colex_index
from exactodds.counting.deck import strength_deck
from exactodds.counting.layout import ACC_COLUMNS
from tests.cli_checks import one_line_error, run

PROFILE = load_profile("standard")
# A reduced deck: ranks 8..A in two suits (14 cards), so flushes, straights and A-K hands occur.
REDUCED = [4 * r + s for r in range(6, 13) for s in (0, 1)]


def _mask(cards):
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def positions():
    """The strength-order position of every hand, by colex index."""
    index = strength_ordered_hands().index
    out = np.empty(len(index), dtype=np.int64)
    out[index] = np.arange(len(index))
    return out


def run_task(seen, info, *, live_cards=None, record=(), symmetric=False):
    """The kernel on one seen set over every strength; (sums, records of the ``record`` hands)."""
    live_cards = list(range(52)) if live_cards is None else live_cards
    seen = np.array(sorted(seen), dtype=np.int64)
    n = len(set(live_cards) - set(seen.tolist()))
    tsubs = all_subsets_colex(n, 5 - len(seen)).astype(np.int64)
    slot_of = np.full(N_HANDS, -1, dtype=np.int64)
    where = positions()
    for i, hand in enumerate(record):
        slot_of[where[colex_index(sorted(hand))]] = i
    rec = np.zeros((max(len(record), 1), info.signals, pk.RECORD_FIELDS), dtype=np.int64)
    loc = np.zeros(pk.PARTIAL_COLUMNS, dtype=np.int64)
    signal = pk.Signal(mode=pk.COUNT_SIGNAL if info.kind is SignalKind.EDGE_SORT else pk.ONE_CARD_SIGNAL,
                       card_class=info.card_class(), classes=info.signals, only=-1)
    deal = pk.Deal(live=_mask(live_cards), table=strength_deck().table, tsubs=tsubs)
    pk.partial_task(seen, 0, 7462, deal, strength_ordered_hands(), payout_bundle(PROFILE), signal, symmetric,
                    loc,
                    pk.Recording(slot_of=slot_of, base=np.int64(0), rec=rec))
    return loc, rec


def brute(seen, hand, info, live_cards):
    """Per signal: (below qualifier, below player, equal, completions) by enumerating completions."""
    table = strength_deck().table
    qualify = PROFILE.qualify_strength
    mine = int(table[colex_index(sorted(hand))])
    contend = mine >= qualify
    rest = [c for c in live_cards if c not in seen and c not in hand]
    out = np.zeros((info.signals, 4), dtype=np.int64)
    cls = info.card_class()
    for h in combinations(rest, 5 - len(seen)):
        dealer = int(table[colex_index(sorted(list(seen) + list(h)))])
        if info.kind is SignalKind.EDGE_SORT:
            weights = {int(sum(cls[c] for c in h)): 1}
        else:
            weights = {}
            for c in h:
                weights[int(cls[c])] = weights.get(int(cls[c]), 0) + 1
        for j, w in weights.items():
            out[j, 3] += w
            if dealer < qualify:
                out[j, 0] += w
            if (dealer < mine) if contend else dealer < qualify:
                out[j, 1] += w
            if contend and dealer == mine:
                out[j, 2] += w
    return out


SEEN = {1: [REDUCED[-1]], 2: [REDUCED[0], REDUCED[-1]], 3: [REDUCED[0], REDUCED[6], REDUCED[-1]],
        4: [REDUCED[0], REDUCED[3], REDUCED[8], REDUCED[-1]]}


@pytest.mark.parametrize("info", [edge_sort("AK"), edge_sort("Q", dealer_known=2),
                                  edge_sort("T9", dealer_known=2), rank_seen(), rank_seen(dealer_known=2),
                                  edge_sort("AK", dealer_known=3), edge_sort("J9", dealer_known=3),
                                  edge_sort("AK", dealer_known=4), edge_sort("T", dealer_known=4),
                                  rank_seen(dealer_known=3), rank_seen(dealer_known=4)])
def test_kernel_counts_every_situation_of_a_reduced_deck_like_brute_force(info):
    seen = SEEN[info.dealer_known]
    hands = [h for h in combinations([c for c in REDUCED if c not in seen], 5)][::7]
    _, rec = run_task(seen, info, live_cards=REDUCED, record=hands)
    for i, hand in enumerate(hands):
        assert rec[i, :, :4].tolist() == brute(seen, hand, info, REDUCED).tolist(), hand


def test_kernel_on_the_full_deck_for_a_few_hands_like_brute_force():
    info = edge_sort("AK", dealer_known=2)
    seen = [51, 20]
    rng = np.random.default_rng(3)
    hands = []
    while len(hands) < 6:
        h = sorted(rng.choice(52, 5, replace=False).tolist())
        if not set(h) & set(seen):
            hands.append(h)
    _, rec = run_task(seen, info, record=hands)
    for i, hand in enumerate(hands):
        assert rec[i, :, :4].tolist() == brute(seen, hand, info, list(range(52))).tolist()


@pytest.mark.parametrize("ranks, seen", [("", [3, 44]), ("AKQJT98765432", [3, 44]), ("", [3, 17, 44]),
                                         ("AKQJT98765432", [3, 17, 44]), ("", [3, 17, 30, 44]),
                                         ("AKQJT98765432", [3, 17, 30, 44])])
def test_no_information_is_the_hole_carding_game_situation_by_situation(ranks, seen):
    """S empty or every rank: one signal, every completion; the counts and decisions of the
    K = 2, 3, 4 hole-carding kernel, hand by hand."""
    k = len(seen)
    reference = seen_set_situations(seen, PROFILE)
    hands = [h for h in combinations(range(52), 5) if not set(h) & set(seen)][::40_000]
    info = edge_sort(ranks, dealer_known=k)
    _, rec = run_task(seen, info, record=hands)
    j = 0 if not ranks else info.hidden
    completions = comb(47 - k, 5 - k)
    for i, hand in enumerate(hands):
        a, b, c, raised = reference.counts(hand)
        assert rec[i, j].tolist() == [a, b, c, completions, int(raised), 1]
        assert rec[i, :, 3].sum() == completions


def test_a_flashed_rank_is_the_next_hole_card_with_its_suit_forgotten():
    """Counts of (hand, up card, flashed rank) = sums over the rank's suits of the K = 2 counts."""
    up, rank = 12, 9  # the 5 of clubs seen; a jack flashes
    hands = [(0, 9, 22, 37, 50), (33, 34, 38, 42, 51), (1, 2, 47, 48, 49)]
    _, rec = run_task([up], rank_seen(), record=hands)
    for i, hand in enumerate(hands):
        total = np.zeros(4, dtype=np.int64)
        for suit in range(4):
            h = 4 * rank + suit
            if h in hand:
                continue
            a, b, c, _ = seen_set_situations([up, h], PROFILE).counts(hand)
            total += [a, b, c, comb(45, 3)]
        assert rec[i, rank, :4].tolist() == total.tolist()


def test_a_sorted_set_and_its_complement_give_the_same_game():
    live = REDUCED
    a, _ = run_task([REDUCED[3]], edge_sort("AK"), live_cards=live)
    b, _ = run_task([REDUCED[3]], edge_sort("QJT98765432"), live_cards=live)
    assert a.tolist() == b.tolist()


def test_the_return_table_sums_to_the_deals_and_information_never_hurts():
    """Events sum to the deals of the reduced deck; more information never lowers the return."""
    seen = [REDUCED[5]]
    n_hands = comb(13, 5)

    def game(info):
        loc, _ = run_task(seen, info, live_cards=REDUCED)
        total = n_hands * info.deals_per_completion * comb(8, 4)
        assert loc[:14].sum() == total  # the events: wins by category, not qualified, push, fold, dealer wins
        return loc, game_from_sums(PROFILE, loc[:ACC_COLUMNS].tolist(), total=total, strategy="test")

    none_loc, none = game(edge_sort(""))
    assert none_loc[pk.SITUATIONS] == n_hands
    one, two = game(edge_sort("A"))[1], game(edge_sort("AK"))[1]
    assert none.total_return <= one.total_return
    assert none.total_return <= two.total_return
    rank_loc, rank = game(rank_seen())
    assert none.total_return <= rank.total_return
    assert rank_loc[pk.SITUATIONS] >= n_hands and rank_loc[pk.RAISED_SITUATIONS] <= rank_loc[pk.SITUATIONS]


def test_bad_information_is_refused():
    with pytest.raises(PartialInfoError, match="'X' is not a rank"):
        parse_rank_set("AX")
    with pytest.raises(PartialInfoError, match="1..4 dealer cards"):
        edge_sort("AK", dealer_known=5)
    with pytest.raises(PartialInfoError, match="no sorted ranks"):
        PartialInfo(kind=SignalKind.RANK_SEEN, sorted_ranks=(12,))
    assert parse_rank_set("a,k") == parse_rank_set("KA") == (11, 12)


@pytest.mark.parametrize("args, fragments", [
    (["--edge-sort", "AX"], ["--edge-sort 'AX'", "'X' is not a rank"]),
    (["--edge-sort", "AK", "--dealer-known", "5"], ["1..4 dealer cards seen", "nothing is hidden"]),
    (["--edge-sort", "AK", "--dealer-rank-seen"], ["two different games"]),
    (["--dealer-rank-seen", "--samples", "10"], ["no --samples"]),
    (["--edge-sort", "AK", "--paytable", "standard", "--paytable", "betmgm"], ["one --paytable"]),
])
def test_cli_refuses_bad_partial_information(args, fragments):
    one_line_error(run("caribbean", "analyze", *args), *fragments)


@pytest.mark.parametrize("args, fragments", [
    (["--edge-sort", "AK", "--out", "x.json"], ["csv or parquet", "'json'"]),
    (["--edge-sort", "AK", "--dealer-rank-seen", "--out", "x.csv"], ["two different games"]),
    (["--edge-sort", "AK", "--only", "ak", "--out", "x.csv"], ["--only ak"]),
    (["--dealer-known", "2", "--out", "x.csv"], ["--dealer-known goes with --edge-sort"]),
    (["--edge-sort", "AX", "--out", "x.csv"], ["'X' is not a rank"]),
])
def test_strategy_cli_refuses_bad_partial_information(tmp_path, args, fragments):
    out = str(tmp_path / args[-1])
    one_line_error(run("caribbean", "strategy", *args[:-1], out), *fragments)
    assert not list(tmp_path.iterdir())
