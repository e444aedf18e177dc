"""Compiled play-out of sampled hands: each world (the other players' hole cards and a run of the
cards to come) played from the decision to the end for each of the player's legal actions, every
player acting by its model (rule tables), the player's later decisions by its own later model.

The betting follows :class:`exactodds.stud.engine.state.StudHand` step by step (the bring-in, the
completion, full and short all-in raises and who may raise again, the raise cap, the open-pair big
bet, who opens each round by the up cards) and the settlement :mod:`exactodds.stud.engine.settlement`
(side pots by contribution layers, the odd chip to the first winner from the dealer's left,
uncalled chips returned); the models read their cards as :mod:`exactodds.stud.decide.policy` does.
The tests play the same worlds through the engine (the walk of :mod:`exactodds.stud.decide.walk`)
and compare every payoff. A mixed choice is drawn from the world's own uniforms, the same for
every root action (paired samples). The bundles are built by :mod:`exactodds.stud.decide.hands`.

The state lives in two arrays laid out by :mod:`exactodds.stud.decide.hand_layout` (``table``: the
round's scalars; ``seats``: a row per player), so a call passes two arrays, not twenty (each array
passed is reference-counted). What a world's cards give each player (hand class, strength,
showdown rank, the order of its up cards) depends on the world alone: it is read once per world
into ``memo`` and shared by every root action. The helpers under :func:`play_hands` are compiled
without numba's reference counts (``_nrt=False``: they allocate nothing and return no array; numba
refuses to compile one that does): counting a reference to each array passed, atomically, at every
call took half the remaining time. ``_nrt`` is an option of numba's compiler that its own tests use
but its documentation does not promise: with a release without it the helpers keep their reference
counts (the same payoffs, about twice the time). Only
:func:`play_hands` allocates, its scratch once per span.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit
from numba.core.cpu import CPUTargetOptions

from exactodds.stud.decide.hand_layout import (
    ACTOR,
    BETS_BELOW,
    BIG_USED,
    BRING_IN_DUE,
    CALL_MAX,
    CAPPED,
    CLASS,
    CLASS_HI,
    CLASS_LO,
    CONTRIBUTED,
    COVERS,
    FACING_BITS,
    FIRST_RULE,
    FOLDED,
    FULL_LEVEL,
    HOLE,
    LARGEST,
    LAST_AGGRESSOR,
    LEVEL,
    MAY_RAISE,
    NEEDS,
    NEEDS_CLASS,
    NEEDS_STRENGTH,
    OPEN_PAIR,
    OPENER,
    OPP_MAX,
    OPP_MIN,
    PAIRED,
    PAIRED_NOW,
    PENDING,
    PHASE,
    RANK,
    ROUND,
    ROUND_BET,
    ROUND_BITS,
    RULE_COUNT,
    STACK,
    STRENGTH,
    STRENGTH_HI,
    STRENGTH_LO,
    UP,
    VISIBLE_KEY,
    WAGERS,
)

BRING_IN, CHECK_CALL, BET_RAISE, FOLD = 0, 1, 2, 3
FACING_BRING_IN, FACING_NOTHING, FACING_BET = 1, 2, 4
DONE, DEAL, BET = 0, 1, 2
MAX_TARGETS = 4
# numba's option for code that allocates no array; a numba without it compiles them with reference
# counts (about twice slower, the same payoffs) instead of failing to import
NO_REFCOUNTS: dict[str, Any] = {"_nrt": False} if hasattr(CPUTargetOptions, "_nrt") else {}


@njit(cache=True, inline="always")
def _bit(q):
    return np.int64(1) << np.int64(q)


@njit(cache=True, **NO_REFCOUNTS)
def _colex(cards, k, binom):
    """The colex index of the first ``k`` entries of ``cards`` (sorted in place)."""
    for i in range(1, k):
        c = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > c:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = c
    index = 0
    for i in range(k):
        index += binom[cards[i], i + 1]
    return index


@njit(cache=True, **NO_REFCOUNTS)
def _own_cards(seats, p, k, buf):
    """Player ``p``'s ``k`` own cards (the hole card, then the up cards) into ``buf``."""
    buf[0] = seats[p, HOLE]
    for i in range(k - 1):
        buf[1 + i] = seats[p, UP + i]


@njit(cache=True, **NO_REFCOUNTS)
def _groups(counts):
    """From the cards of each rank: the most of one rank and how many ranks pair."""
    most = 0
    pairs = 0
    for r in range(13):
        if counts[r] > most:
            most = counts[r]
        if counts[r] == 2:
            pairs += 1
    return most, pairs


@njit(cache=True, **NO_REFCOUNTS)
def _visible_key(seats, q, count, scratch):
    """The order of player ``q``'s ``count`` up cards for who acts first: the category (quads, trips,
    two pair, a pair, high card), the ranks by group size then rank, the top card's suit
    (``scratch``: 12 or more, the ranks in 0..3, the rank groups in 4..7 and their sizes in 8..11)."""
    for i in range(count):  # the ranks, highest first
        r = seats[q, UP + i] >> 2
        j = i - 1
        while j >= 0 and scratch[j] < r:
            scratch[j + 1] = scratch[j]
            j -= 1
        scratch[j + 1] = r
    groups = 0
    for i in range(count):
        if groups > 0 and scratch[4 + groups - 1] == scratch[i]:
            scratch[8 + groups - 1] += 1
        else:
            scratch[4 + groups] = scratch[i]
            scratch[8 + groups] = 1
            groups += 1
    most = 0
    pairs = 0
    for g in range(groups):
        most = max(most, scratch[8 + g])
        if scratch[8 + g] == 2:
            pairs += 1
    category = 0
    if most == 4:
        category = 4
    elif most == 3:
        category = 3
    elif pairs >= 2:
        category = 2
    elif pairs == 1:
        category = 1
    key = np.int64(category)
    for size in range(4, 0, -1):
        for g in range(groups):
            if scratch[8 + g] == size:
                key = key * 14 + scratch[4 + g] + 1
    for _ in range(groups, 4):
        key = key * 14
    top = scratch[0]
    suit = -1
    for i in range(count):
        card = seats[q, UP + i]
        if card >> 2 == top and (card & 3) > suit:
            suit = card & 3
    return key * 4 + suit


@njit(cache=True, **NO_REFCOUNTS)
def _five_card_rank(seats, p, memo, tables, buf):
    """Player ``p``'s five-card rank (handrank's order, higher better), read once per world."""
    if memo[p, RANK, 5] < 0:
        _own_cards(seats, p, 5, buf)
        memo[p, RANK, 5] = tables.rank_table[_colex(buf, 5, tables.binom)]
    return memo[p, RANK, 5]


@njit(cache=True, **NO_REFCOUNTS)
def _read_class(seats, p, k, memo, tables, counts, buf):
    """Into ``memo``: the hand class (handrank's category order) of player ``p``'s ``k`` own cards, by
    rank groups below five cards, and whether two of them pair."""
    counts[:] = 0
    for i in range(k):
        card = seats[p, HOLE] if i == 0 else seats[p, UP + i - 1]
        counts[card >> 2] += 1
    most, pairs = _groups(counts)
    memo[p, PAIRED_NOW, k] = 1 if most >= 2 else 0
    if k == 5:
        s = _five_card_rank(seats, p, memo, tables, buf)
        category = 0
        for c in range(tables.floors.shape[0]):
            if s >= tables.floors[c]:
                category = c
    elif most >= 4:
        category = 7
    elif most == 3 and pairs >= 1:
        category = 6
    elif most == 3:
        category = 3
    elif pairs >= 2:
        category = 2
    elif pairs == 1:
        category = 1
    else:
        category = 0
    memo[p, CLASS, k] = category


@njit(cache=True, **NO_REFCOUNTS)
def _read_strength(seats, p, k, memo, tables, buf):
    """Into ``memo``: the strength numerator of player ``p``'s ``k`` own cards."""
    if k == 5:
        memo[p, STRENGTH, k] = tables.percentile[_five_card_rank(seats, p, memo, tables, buf)]
        return
    _own_cards(seats, p, k, buf)
    memo[p, STRENGTH, k] = tables.strength[tables.offsets[k] + _colex(buf, k, tables.binom)]


@njit(cache=True, **NO_REFCOUNTS)
def _raise_targets(p, table, seats, rules, targets):
    """The round totals player ``p`` may bet or raise to now (sorted, into ``targets``): how many."""
    n = seats.shape[0]
    owe = table[LEVEL] - seats[p, ROUND_BET]
    if owe < 0:
        owe = 0
    if table[MAY_RAISE] & _bit(p) == 0:
        return 0
    if seats[p, STACK] <= owe:
        return 0
    if table[CAPPED] and table[WAGERS] >= 1 + rules.max_raises:
        return 0
    callable_ = False
    for q in range(n):
        if q != p and not seats[q, FOLDED] and seats[q, ROUND_BET] + seats[q, STACK] > table[LEVEL]:
            callable_ = True
    if not callable_:
        return 0
    r = table[ROUND]
    if r == 1 and rules.open_pair_big_bet and table[OPEN_PAIR] and not table[BIG_USED]:
        units = 2
        u0, u1 = rules.small_bet, rules.big_bet
    else:
        units = 1
        u0 = rules.big_bet if (r >= rules.small_bet_rounds or table[BIG_USED]) else rules.small_bet
        u1 = u0
    most = seats[p, ROUND_BET] + seats[p, STACK]
    count = 0
    top = table[FULL_LEVEL] + (u1 if units == 2 else u0)
    for j in range(units):
        t = table[FULL_LEVEL] + (u0 if j == 0 else u1)
        if t <= most:
            targets[count] = t
            count += 1
    floor = rules.bring_in if table[BRING_IN_DUE] else table[LEVEL]
    if floor < most < top:
        present = False
        for j in range(count):
            if targets[j] == most:
                present = True
        if not present:
            targets[count] = most
            count += 1
    for i in range(1, count):  # sort the few targets
        v = targets[i]
        j = i - 1
        while j >= 0 and targets[j] > v:
            targets[j + 1] = targets[j]
            j -= 1
        targets[j + 1] = v
    return count


@njit(cache=True, inline="always")
def _pay(p, amount, seats):
    seats[p, STACK] -= amount
    seats[p, ROUND_BET] += amount
    seats[p, CONTRIBUTED] += amount


@njit(cache=True, **NO_REFCOUNTS)
def _in_hand(seats):
    count = 0
    for q in range(seats.shape[0]):
        if not seats[q, FOLDED]:
            count += 1
    return count


@njit(cache=True, **NO_REFCOUNTS)
def _next_pending(after, table, n):
    for k in range(1, n + 1):
        q = (after + k) % n
        if table[PENDING] & _bit(q):
            return q
    return -1


@njit(cache=True, **NO_REFCOUNTS)
def _settle(showdown, table, seats, me, dead_money, memo, pots):
    """Settle the hand; returns ``me``'s chips at the end (stack, returned excess and winnings). With a
    showdown, ``memo`` holds every player still in's five-card rank; ``pots``: a scratch n x 2."""
    n = seats.shape[0]
    finish = seats[me, STACK]
    previous = 0
    count = 0
    for _ in range(n):  # the contribution layers, lowest first; a layer one player reached is returned
        level = -1
        for q in range(n):
            c = seats[q, CONTRIBUTED]
            if c > previous and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        reached = 0
        mask = np.int64(0)
        for q in range(n):
            if seats[q, CONTRIBUTED] >= level:
                reached += 1
                if not seats[q, FOLDED]:
                    mask |= _bit(q)
        amount = (level - previous) * reached
        previous = level
        if reached == 1:
            if seats[me, CONTRIBUTED] >= level:
                finish += amount
            continue
        if count > 0 and pots[count - 1, 1] == mask:  # the same players: one pot
            pots[count - 1, 0] += amount
        else:
            pots[count, 0] = amount
            pots[count, 1] = mask
            count += 1
    if count > 0:
        pots[0, 0] += dead_money
    for k in range(count):
        mask = pots[k, 1]
        players = 0
        first = -1
        for q in range(n):
            if mask & _bit(q):
                players += 1
                if first < 0:
                    first = q
        if players == 1 or not showdown:
            if first == me:
                finish += pots[k, 0]
            continue
        best = -1
        winners = 0
        for q in range(n):
            if mask & _bit(q):
                strength = memo[q, RANK, 5]
                if strength > best:
                    best = strength
                    winners = 1
                elif strength == best:
                    winners += 1
        share = pots[k, 0] // winners
        odd = pots[k, 0] - share * winners
        j = 0
        for q in range(n):  # the odd chips one each to the first winners from the dealer's left
            if mask & _bit(q) and memo[q, RANK, 5] == best:
                if q == me:
                    finish += share + (1 if j < odd else 0)
                j += 1
    table[PHASE] = DONE
    return finish


@njit(cache=True, **NO_REFCOUNTS)
def _end_round(table, rules):
    """The round is over: True when it was the last (a showdown), else the next street is due."""
    if table[ROUND] == rules.rounds - 1:
        return True  # settle with a showdown
    table[ROUND] += 1
    table[PHASE] = DEAL
    return False


@njit(cache=True, **NO_REFCOUNTS)
def _begin_round(table, seats, rules, memo, counts):
    """The next round after its cards are dealt: who opens, the open pair, the cap; False when fewer
    than two players can bet (the round is then over at once)."""
    n = seats.shape[0]
    r = table[ROUND]
    able = 0
    best_key = np.int64(-1)
    opener = -1
    open_pair = False
    for q in range(n):
        if seats[q, FOLDED]:
            continue
        if seats[q, STACK] > 0:
            able += 1
        key = memo[q, VISIBLE_KEY, r + 1]
        if key < 0:
            key = _visible_key(seats, q, r + 1, counts)
            memo[q, VISIBLE_KEY, r + 1] = key
        if key > best_key:
            best_key = key
            opener = q
        if r == 1 and (seats[q, UP] >> 2) == (seats[q, UP + 1] >> 2):
            open_pair = True
    for q in range(n):
        seats[q, ROUND_BET] = 0
    table[OPENER] = opener
    table[OPEN_PAIR] = open_pair
    table[CAPPED] = able > rules.cap_above_players
    table[LEVEL] = 0
    table[FULL_LEVEL] = 0
    table[WAGERS] = 0
    table[BIG_USED] = 0
    table[BRING_IN_DUE] = 0
    table[LAST_AGGRESSOR] = -1
    if able < 2:
        return False
    pending = np.int64(0)
    for q in range(n):
        if not seats[q, FOLDED] and seats[q, STACK] > 0:
            pending |= _bit(q)
    table[PENDING] = pending
    table[MAY_RAISE] = pending
    table[PHASE] = BET
    table[ACTOR] = _next_pending(opener - 1, table, n)
    return True


@njit(cache=True, **NO_REFCOUNTS)
def _raise_to(p, target, table, seats, rules):
    n = seats.shape[0]
    r = table[ROUND]
    unit = rules.big_bet if (r >= rules.small_bet_rounds or table[BIG_USED]) else rules.small_bet
    increase = target - table[FULL_LEVEL]
    _pay(p, target - seats[p, ROUND_BET], seats)
    table[LEVEL] = target
    table[BRING_IN_DUE] = 0
    table[LAST_AGGRESSOR] = p
    if 2 * increase >= unit:
        if table[OPEN_PAIR] and r == 1 and increase >= rules.big_bet:
            table[BIG_USED] = 1
        table[FULL_LEVEL] = target
        table[WAGERS] += 1
        for q in range(n):
            if q != p and not seats[q, FOLDED] and seats[q, STACK] > 0:
                table[PENDING] |= _bit(q)
                table[MAY_RAISE] |= _bit(q)
    else:
        for q in range(n):
            if q != p and not seats[q, FOLDED] and seats[q, STACK] > 0 and table[PENDING] & _bit(q) == 0:
                table[PENDING] |= _bit(q)
                table[MAY_RAISE] &= ~_bit(q)
    table[PENDING] &= ~_bit(p)
    table[MAY_RAISE] &= ~_bit(p)


@njit(cache=True, **NO_REFCOUNTS)
def _act(p, kind, amount, table, seats, rules):
    """Apply one legal action; returns 1 when the hand must settle without a showdown, 2 with one, else 0."""
    n = seats.shape[0]
    if kind == BRING_IN:
        _pay(p, min(rules.bring_in, seats[p, STACK]), seats)
        table[LEVEL] = rules.bring_in
        table[BRING_IN_DUE] = 0
        table[LAST_AGGRESSOR] = p
        table[PENDING] &= ~_bit(p)
    elif kind == CHECK_CALL:
        owe = table[LEVEL] - seats[p, ROUND_BET]
        if owe > 0:
            _pay(p, min(owe, seats[p, STACK]), seats)
        table[PENDING] &= ~_bit(p)
    elif kind == FOLD:
        seats[p, FOLDED] = 1
        table[PENDING] &= ~_bit(p)
        table[MAY_RAISE] &= ~_bit(p)
    else:
        _raise_to(p, amount, table, seats, rules)
    pending = np.int64(0)
    for q in range(n):
        if table[PENDING] & _bit(q) and seats[q, STACK] > 0:
            pending |= _bit(q)
    table[PENDING] = pending
    if _in_hand(seats) == 1:
        return 1
    if pending == 0:
        return 2 if _end_round(table, rules) else 0
    table[ACTOR] = _next_pending(p, table, n)
    return 0


@njit(cache=True, **NO_REFCOUNTS)
def _choose(p, model, table, seats, rules, models, memo, u, targets):
    """The action of player ``p`` by ``model``: (kind, amount). ``memo`` holds the player's hand class
    and strength where the model reads them; ``targets``: a scratch of MAX_TARGETS."""
    n = seats.shape[0]
    owe = table[LEVEL] - seats[p, ROUND_BET]
    if owe < 0:
        owe = 0
    to_call = min(owe, seats[p, STACK]) if owe > 0 else 0
    if table[BRING_IN_DUE]:
        facing = FACING_BRING_IN
        to_call = 0
    elif owe > 0:
        facing = FACING_BET
    else:
        facing = FACING_NOTHING
    r = table[ROUND]
    k = 1 + r + 1
    others = 0
    shown = -1
    for q in range(n):
        if q != p and not seats[q, FOLDED]:
            others += 1
            for i in range(k - 1):
                if (seats[q, UP + i] >> 2) > shown:
                    shown = seats[q, UP + i] >> 2
    top = seats[p, HOLE] >> 2
    for i in range(k - 1):
        if (seats[p, UP + i] >> 2) > top:
            top = seats[p, UP + i] >> 2
    rules_of = models.rules
    chosen = -1
    first = models.heads[model, FIRST_RULE]
    for rule in range(first, first + models.heads[model, RULE_COUNT]):
        if rules_of[rule, FACING_BITS] & facing == 0:
            continue
        if rules_of[rule, ROUND_BITS] & _bit(r) == 0:
            continue
        limit = rules_of[rule, CALL_MAX]
        if limit != -1:
            most = rules.bring_in if limit == -2 else limit
            if (to_call if facing != FACING_BRING_IN else 0) > most:
                continue
        below = rules_of[rule, BETS_BELOW]
        if below != -1:
            cap = 1 + rules.max_raises if below == -2 else below
            if table[WAGERS] >= cap:
                continue
        if rules_of[rule, OPP_MAX] != -1 and others > rules_of[rule, OPP_MAX]:
            continue
        if rules_of[rule, OPP_MIN] != -1 and others < rules_of[rule, OPP_MIN]:
            continue
        if rules_of[rule, PAIRED] != -1 and (memo[p, PAIRED_NOW, k] == 1) != (rules_of[rule, PAIRED] == 1):
            continue
        if rules_of[rule, CLASS_LO] != -1 and memo[p, CLASS, k] < rules_of[rule, CLASS_LO]:
            continue
        if rules_of[rule, CLASS_HI] != -1 and memo[p, CLASS, k] >= rules_of[rule, CLASS_HI]:
            continue
        if rules_of[rule, COVERS] != -1 and (top >= shown) != (rules_of[rule, COVERS] == 1):
            continue
        lo = rules_of[rule, STRENGTH_LO + k]
        if lo != -1 and memo[p, STRENGTH, k] < lo:
            continue
        hi = rules_of[rule, STRENGTH_HI + k]
        if hi != -1 and memo[p, STRENGTH, k] >= hi:
            continue
        chosen = rule
        break
    draw = models.chances[chosen, 0]
    intent = CHECK_CALL
    if u < draw:
        intent = FOLD
    elif u >= draw + models.chances[chosen, 1]:
        intent = BET_RAISE
    if intent == BET_RAISE:
        count = _raise_targets(p, table, seats, rules, targets)
        if count > 0:
            return BET_RAISE, targets[count - 1] if models.heads[model, LARGEST] else targets[0]
    can_fold = (not table[BRING_IN_DUE]) and (owe > 0 or rules.fold_without_bet)
    if intent == FOLD and can_fold:
        return FOLD, 0
    if table[BRING_IN_DUE]:
        return BRING_IN, 0
    return CHECK_CALL, 0


@njit(cache=True, **NO_REFCOUNTS)
def _read_cards(p, k, needs, seats, memo, tables, counts, buf):
    """What a model reads of player ``p``'s ``k`` cards (``needs``: class, strength) into ``memo``."""
    if needs & NEEDS_CLASS and memo[p, CLASS, k] < 0:
        _read_class(seats, p, k, memo, tables, counts, buf)
    if needs & NEEDS_STRENGTH and memo[p, STRENGTH, k] < 0:
        _read_strength(seats, p, k, memo, tables, buf)


@njit(cache=True, nogil=True)
def play_hands(lo, hi, setting, start, models, worlds, tables, roots, out):
    """Play worlds ``lo <= w < hi`` for each root action (``roots``: kind, amount), writing the
    player's chips from now into ``out[w, a]``."""
    n = start.seats.shape[0]
    me = setting.me
    rules = setting.rules
    table = start.table.copy()
    seats = start.seats.copy()
    memo = np.empty((n, 5, 6), dtype=np.int64)
    pots = np.zeros((n, 2), dtype=np.int64)
    targets = np.zeros(MAX_TARGETS, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    buf = np.zeros(5, dtype=np.int64)
    stack0 = start.seats[me, STACK]
    for w in range(lo, hi):
        memo[:] = -1
        for a in range(roots.shape[0]):
            if roots[a, 0] == FOLD:
                out[w, a] = 0.0
                continue
            table[:] = start.table
            seats[:] = start.seats
            for q in range(n):
                seats[q, HOLE] = worlds.holes[w, q]
            decision = 0
            settle = _act(me, roots[a, 0], roots[a, 1], table, seats, rules)
            while True:
                if settle != 0:
                    if settle == 2:
                        for q in range(n):
                            if not seats[q, FOLDED] and memo[q, RANK, 5] < 0:
                                _five_card_rank(seats, q, memo, tables, buf)
                    finish = _settle(settle == 2, table, seats, me, setting.dead_money, memo, pots)
                    out[w, a] = finish - stack0
                    break
                if table[PHASE] == DEAL:
                    street = table[ROUND] - setting.first_round
                    for q in range(n):
                        if not seats[q, FOLDED]:
                            seats[q, UP + table[ROUND]] = worlds.cards[w, street, q]
                    if not _begin_round(table, seats, rules, memo, counts):
                        settle = 2 if _end_round(table, rules) else 0
                    continue
                p = table[ACTOR]
                model = models.later if p == me else models.seat[p]
                u = worlds.uniforms[w, decision % worlds.uniforms.shape[1]]
                decision += 1
                k = table[ROUND] + 2
                needs = models.heads[model, NEEDS]
                if (needs & NEEDS_CLASS and memo[p, CLASS, k] < 0
                        or needs & NEEDS_STRENGTH and memo[p, STRENGTH, k] < 0):
                    _read_cards(p, k, needs, seats, memo, tables, counts, buf)
                kind, amount = _choose(p, model, table, seats, rules, models, memo, u, targets)
                if p == me and kind == FOLD:
                    out[w, a] = seats[me, STACK] - stack0
                    break
                settle = _act(p, kind, amount, table, seats, rules)
