"""Exact three- and four-way stud equity against an independent evaluator.

The reference here shares nothing with the package but the position objects: every complete
deal is enumerated from scratch and each five-card hand is scored by phevaluator (lower is
stronger), never by our hand-rank table. Outcome counts ``out[p, t]`` (player p holds the top
hand with t - 1 others, :mod:`exactodds.stud.equity.kernels.deal_counts`) must be identical to
``fourway_counts`` (four players) and ``rank_profile_counts`` (three players).

Two enumerators: a plain itertools recursion (positions up to ~20,000 deals) and a bitmask join
in numpy for the few positions that cannot be made that small (four players on the first
street, where a player receives four cards; four draws to one suit); the second is checked
against the first.
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phevaluator import evaluate_cards

from exactodds.stud.equity import StudPlayer, StudPosition
from exactodds.stud.equity.rank_profile.fourway import fourway_counts
from exactodds.stud.equity.rank_profile.multiway import rank_profile_counts

MAX_DEALS = 20_000


def _known(position: StudPosition) -> list[list[int]]:
    return [([] if p.hole is None else [p.hole]) + list(p.up) for p in position.players]


def _pool(position: StudPosition) -> list[int]:
    seen = {c for cards in _known(position) for c in cards} | set(position.dead)
    return [c for c in range(52) if c not in seen]


def _needs(position: StudPosition) -> list[int]:
    return [5 - len(cards) for cards in _known(position)]


def _deals(position: StudPosition) -> int:
    """The number of complete deals, from the pool size alone."""
    n, total = len(_pool(position)), 1
    for need in _needs(position):
        total *= math.comb(n, need)
        n -= need
    return total


def _share(out: np.ndarray, scores: list[int]) -> None:
    best = min(scores)  # phevaluator: lower is stronger
    tied = scores.count(best)
    for p, s in enumerate(scores):
        if s == best:
            out[p, tied] += 1


def plain_counts(position: StudPosition) -> tuple[np.ndarray, list[int]]:
    """``(out, flushes)`` over every complete deal by itertools: the outcome counts, and per
    player the deals in which their five cards are all of one suit."""
    known, needs = _known(position), _needs(position)
    n = len(known)
    out = np.zeros((n, n + 1), np.int64)
    flushes = [0] * n
    score: list[dict[tuple[int, ...], int]] = [{} for _ in known]

    def deal(remaining: tuple[int, ...], p: int, scores: list[int], suited: list[int]) -> None:
        if p == n:
            _share(out, scores)
            for q in suited:
                flushes[q] += 1
            return
        for chosen in itertools.combinations(remaining, needs[p]):
            if chosen not in score[p]:
                score[p][chosen] = evaluate_cards(*known[p], *chosen)
            hand = known[p] + list(chosen)
            flush = [p] if len({c % 4 for c in hand}) == 1 else []
            rest = tuple(c for c in remaining if c not in chosen)
            deal(rest, p + 1, [*scores, score[p][chosen]], suited + flush)

    deal(tuple(_pool(position)), 0, [], [])
    return out, flushes


def bitmask_counts(position: StudPosition) -> np.ndarray:
    """The outcome counts over every complete deal, built as a join in numpy: each player's
    completions as bitmasks over the pool with their phevaluator scores, joined player by
    player on disjoint masks."""
    known, needs, pool = _known(position), _needs(position), _pool(position)
    n = len(known)
    masks, scores = [], []
    for p in range(n):
        combos = list(itertools.combinations(range(len(pool)), needs[p]))
        masks.append(np.array([sum(1 << i for i in c) for c in combos], np.int64))
        scores.append(np.array([evaluate_cards(*known[p], *(pool[i] for i in c)) for c in combos], np.int64))
    used = np.zeros(1, np.int64)
    dealt = np.zeros((1, 0), np.int64)
    for p in range(n):
        step = max(1, 4_000_000 // len(masks[p]))  # rows joined at a time (memory)
        parts_used, parts_dealt = [], []
        for lo in range(0, len(used), step):
            rows, cols = np.nonzero((used[lo:lo + step, None] & masks[p][None, :]) == 0)
            parts_used.append(used[lo + rows] | masks[p][cols])
            parts_dealt.append(np.column_stack([dealt[lo + rows], scores[p][cols]]))
        used, dealt = np.concatenate(parts_used), np.concatenate(parts_dealt)
    best = dealt.min(axis=1)
    top = dealt == best[:, None]
    tied = top.sum(axis=1)
    out = np.zeros((n, n + 1), np.int64)
    for p in range(n):
        out[p] = np.bincount(tied[top[:, p]], minlength=n + 1)
    return out


def exact_counts(position: StudPosition) -> np.ndarray:
    """Ours, on two threads whatever the machine (the kernels' spans summed, as on a big position)."""
    if len(position.players) == 4:
        return fourway_counts(position, threads=2)
    return rank_profile_counts(position, threads=2)


def _check(position: StudPosition, reference: np.ndarray) -> None:
    # Each deal has t holders of the top hand, counted once by each of them.
    assert sum(int(reference[:, t].sum()) // t for t in range(1, reference.shape[1])) == _deals(position)
    ours = exact_counts(position)
    if len(position.players) == 4:  # Python integers: the four-way first round passes 2**63
        assert ours.dtype == object and all(type(x) is int for x in ours.ravel())
    else:
        assert ours.dtype == np.int64
    assert np.array_equal(ours, reference), f"{position!r}\nours\n{ours}\nphevaluator\n{reference}"


# ----------------------------------------------------------------------------- random positions
def _kill(players: tuple[StudPlayer, ...], rest: list[int], max_deals: int) -> StudPosition:
    """Dead cards taken from the end of ``rest`` until at most ``max_deals`` deals."""
    dead: list[int] = []
    position = StudPosition(players=players)
    while _deals(position) > max_deals:
        dead.append(rest.pop())
        position = StudPosition(players=players, dead=tuple(dead))
    return position


def _smallest(needs: list[int]) -> int:
    """The fewest deals any dead cards can leave: the pool exactly as large as the deal."""
    return math.factorial(sum(needs)) // math.prod(math.factorial(k) for k in needs)


@st.composite
def positions(draw: st.DrawFn) -> StudPosition:
    """Three or four players on streets 1-3 (four players: 2-3, the first street is in
    test_larger_positions_match_phevaluator), holes known or not, with dead cards so that at most
    12,000 deals are left (holes are made known where even an exact-size pool would leave more)."""
    n = draw(st.sampled_from([3, 4]))
    street = draw(st.integers(1, 3) if n == 3 else st.integers(2, 3))
    cards = iter(draw(st.permutations(range(52))))
    holes = [draw(st.booleans()) for _ in range(n)]
    while _smallest([4 - street + (not h) for h in holes]) > 12_000:
        holes[holes.index(False)] = True
    players = tuple(StudPlayer(hole=next(cards) if h else None, up=tuple(next(cards) for _ in range(street)))
                    for h in holes)
    return _kill(players, list(cards), 12_000)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_random_positions_match_phevaluator(position: StudPosition) -> None:
    out, _ = plain_counts(position)
    _check(position, out)


# ----------------------------------------------------------------------------- flush draws
def _drawing(seed: int, street: int, suits: list[int | None], holes: list[bool], *,
             max_deals: int = MAX_DEALS, dead_suit: int | None = None) -> StudPosition:
    """Players whose known cards are all of ``suits[p]`` (None: of two suits at least), holes
    known where ``holes[p]``; dead cards, other suits first, leave at most ``max_deals`` deals
    while every drawing suit keeps enough live cards for each of its players' flushes
    (``dead_suit``: that suit's unseen cards all die first, so its draws are dead)."""
    rng = random.Random(seed)
    used: set[int] = set()
    players = []
    for suit, hole in zip(suits, holes, strict=True):
        count = street + hole
        if suit is None:
            first = rng.choice([c for c in range(52) if c not in used])
            other = [c for c in range(52) if c not in used and c % 4 != first % 4]
            picked = [first, *rng.sample(other, count - 1)]
        else:
            picked = rng.sample([c for c in range(52) if c % 4 == suit and c not in used], count)
        used.update(picked)
        players.append(StudPlayer(hole=picked[0] if hole else None, up=tuple(picked[hole:])))
    position = StudPosition(players=tuple(players))
    needs = _needs(position)
    keep = {s: max(k for k, t in zip(needs, suits, strict=True) if t == s) for s in suits if s is not None}
    if dead_suit is not None:
        keep[dead_suit] = 0
    rest = [c for c in range(52) if c not in used]
    rng.shuffle(rest)
    rest.sort(key=lambda c: (c % 4 != dead_suit, c % 4 in keep))  # the dead suit, then other suits die first
    dead: list[int] = []
    for card in rest:
        if _deals(position) <= max_deals and (dead_suit is None or all(c % 4 != dead_suit or c in dead
                                                                       for c in rest)):
            break
        live = sum(1 for c in _pool(position) if c % 4 == card % 4)
        if live <= keep.get(card % 4, 0):
            continue
        dead.append(card)
        position = StudPosition(players=position.players, dead=tuple(dead))
    assert 0 < _deals(position) <= max_deals, _deals(position)
    return position


U, K = False, True  # hole unknown, known
# (street, each player's suit or None, holes known): 0 to 4 draws, two or more to one suit.
FOUR_WAY = [
    (3, [None, None, None, None], [K, U, K, U]),
    (2, [None, None, None, None], [K, K, K, U]),
    (3, [0, None, None, None], [U, K, U, K]),
    (3, [None, None, 2, None], [K, K, U, U]),
    (3, [1, 3, None, None], [U, U, K, K]),
    (2, [None, 2, None, 2], [K, K, U, K]),
    (3, [3, None, 3, None], [U, U, U, U]),
    (3, [0, 1, 2, None], [U, K, U, K]),
    (3, [0, 0, 1, None], [U, U, K, U]),
    (2, [2, 2, 2, None], [K, U, K, K]),
    (3, [0, 1, 2, 3], [U, U, U, U]),
    (3, [0, 1, 2, 3], [K, U, K, U]),
    (3, [3, 3, 1, 1], [U, K, U, K]),
    (2, [1, 1, 0, 2], [K, K, U, K]),
    (3, [2, 2, 2, 0], [U, U, U, K]),
]
THREE_WAY = [
    (1, [None, None, None], [K, K, K]),
    (1, [0, 0, None], [U, K, K]),
    (1, [0, 1, 2], [U, U, K]),
    (2, [None, 3, None], [U, U, U]),
    (2, [1, 1, 1], [U, U, U]),
    (2, [0, 2, None], [U, K, U]),
    (3, [2, 2, 0], [U, U, U]),
    (3, [None, None, None], [K, U, U]),
]


@pytest.mark.parametrize(("street", "suits", "holes"), FOUR_WAY + THREE_WAY)
def test_flush_draws_match_phevaluator(street: int, suits: list[int | None], holes: list[bool]) -> None:
    position = _drawing(street * 97 + 7 * sum(s or 0 for s in suits) + sum(holes), street, suits, holes)
    known = _known(position)
    assert [len({c % 4 for c in cards}) == 1 for cards in known] == [s is not None for s in suits]
    out, flushes = plain_counts(position)
    # Each draw is live (made in some deal), and no one else makes a flush.
    assert [f > 0 for f in flushes] == [s is not None for s in suits], flushes
    _check(position, out)


@pytest.mark.parametrize(("suits", "dead_suit"), [([0, 0, None, 1], 0), ([2, 1, 2, 3], 2)])
def test_dead_flush_draws_match_phevaluator(suits: list[int | None], dead_suit: int) -> None:
    # Players whose known cards share a suit with every unseen card of it dead: no flush sets.
    holes = [U, K, U, K]
    position = _drawing(11 + dead_suit, 3, suits, holes, dead_suit=dead_suit)
    assert not any(c % 4 == dead_suit for c in _pool(position))
    out, flushes = plain_counts(position)
    assert [f > 0 for f in flushes] == [s is not None and s != dead_suit for s in suits]
    _check(position, out)


@pytest.mark.parametrize(("street", "suits", "holes", "max_deals"), [
    # Four players on the first street: a hole unknown is four cards to come (1,201,200 deals).
    (1, [0, 1, None, 2], [U, K, K, K], 1_300_000),
    # All four drawing to one suit (8 of it known, 5 live; 369,600 deals).
    (2, [2, 2, 2, 2], [U, U, U, U], 400_000),
])
def test_larger_positions_match_phevaluator(street: int, suits: list[int | None], holes: list[bool],
                                            max_deals: int) -> None:
    position = _drawing(street + 5 * sum(holes), street, suits, holes, max_deals=max_deals)
    assert max(_needs(position)) == (4 if street == 1 else 3)
    _check(position, bitmask_counts(position))


@pytest.mark.parametrize(("street", "suits", "holes"), [FOUR_WAY[0], FOUR_WAY[12], THREE_WAY[5]])
def test_bitmask_enumeration_matches_itertools(street: int, suits: list[int | None],
                                               holes: list[bool]) -> None:
    position = _drawing(3, street, suits, holes, max_deals=5_000)
    assert len(position.players) == len(holes)
    assert np.array_equal(bitmask_counts(position), plain_counts(position)[0])


# ----------------------------------------------------------------------------- ties
# Everyone holds K Q 5 in different suits and draws two cards from a few twos, threes and fours:
# outright wins and splits of every size, for every player.
TIED = [StudPlayer(hole=4 * 11 + s, up=(4 * 10 + (s + 1) % 4, 4 * 3 + (s + 2) % 4)) for s in range(4)]
LIVE = {4: [0, 1, 2, 3, 4, 8, 9, 10, 11], 3: [0, 1, 2, 4, 5, 6, 7]}  # 22,680 and 630 deals


@pytest.mark.parametrize("players", [4, 3])
def test_identical_ranks_many_ties_match_phevaluator(players: int) -> None:
    seated = tuple(TIED[:players])
    seen = {c for p in seated for c in (p.hole, *p.up)}
    live = seen | set(LIVE[players])
    position = StudPosition(players=seated, dead=tuple(c for c in range(52) if c not in live))
    out, _ = plain_counts(position)
    assert (out[:, 1:] > 0).all()
    _check(position, out)
