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
"""

from __future__ import annotations

import numpy as np
from numba import njit

BRING_IN, CHECK_CALL, BET_RAISE, FOLD = 0, 1, 2, 3
FACING_BRING_IN, FACING_NOTHING, FACING_BET = 1, 2, 4
DONE, DEAL, BET = 0, 1, 2
MAX_TARGETS = 4


@njit(cache=True, inline="always")
def _bit(q):
    return np.int64(1) << np.int64(q)


@njit(cache=True)
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


@njit(cache=True)
def _visible_key(up, count, counts):
    """The order of ``count`` up cards for who acts first (``counts``: a scratch of 13)."""
    counts[:] = 0
    top = -1
    for i in range(count):
        r = up[i] >> 2
        counts[r] += 1
        if r > top:
            top = r
    most = 0
    pairs = 0
    for r in range(13):
        if counts[r] > most:
            most = counts[r]
        if counts[r] == 2:
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
    placed = 0
    for c in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == c and placed < 4:
                key = key * 14 + r + 1
                placed += 1
    while placed < 4:
        key = key * 14
        placed += 1
    suit = -1
    for i in range(count):
        if up[i] >> 2 == top and (up[i] & 3) > suit:
            suit = up[i] & 3
    return key * 4 + suit


@njit(cache=True)
def _own_class(cards, k, tables, counts, buf):
    """The hand class (handrank's category order) of a player's ``k`` own cards, by rank groups below
    five cards; and whether two of them pair (``counts``, ``buf``: scratch)."""
    counts[:] = 0
    for i in range(k):
        counts[cards[i] >> 2] += 1
    most = 0
    pairs = 0
    for r in range(13):
        if counts[r] > most:
            most = counts[r]
        if counts[r] == 2:
            pairs += 1
    paired = most >= 2
    if k == 5:
        buf[:5] = cards[:5]
        s = tables.rank_table[_colex(buf, 5, tables.binom)]
        category = 0
        for c in range(tables.floors.shape[0]):
            if s >= tables.floors[c]:
                category = c
        return category, paired
    if most >= 4:
        return 7, paired
    if most == 3 and pairs >= 1:
        return 6, paired
    if most == 3:
        return 3, paired
    if pairs >= 2:
        return 2, paired
    if pairs == 1:
        return 1, paired
    return 0, paired


@njit(cache=True)
def _strength(cards, k, tables, buf):
    buf[:k] = cards[:k]
    index = _colex(buf, k, tables.binom)
    if k == 5:
        return tables.percentile[tables.rank_table[index]]
    return tables.strength[tables.offsets[k] + index]


@njit(cache=True)
def _raise_targets(p, s, rules, targets):
    """The round totals player ``p`` may bet or raise to now (sorted, into ``targets``): how many."""
    n = s.stacks.shape[0]
    owe = s.level[0] - s.round_bets[p]
    if owe < 0:
        owe = 0
    if s.may_raise[0] & _bit(p) == 0:
        return 0
    if s.stacks[p] <= owe:
        return 0
    if s.capped[0] and s.wagers[0] >= 1 + rules.max_raises:
        return 0
    callable_ = False
    for q in range(n):
        if q != p and not s.folded[q] and s.round_bets[q] + s.stacks[q] > s.level[0]:
            callable_ = True
    if not callable_:
        return 0
    r = s.round_index[0]
    if r == 1 and rules.open_pair_big_bet and s.open_pair[0] and not s.big_used[0]:
        units = 2
        u0, u1 = rules.small_bet, rules.big_bet
    else:
        units = 1
        u0 = rules.big_bet if (r >= rules.small_bet_rounds or s.big_used[0]) else rules.small_bet
        u1 = u0
    most = s.round_bets[p] + s.stacks[p]
    count = 0
    top = s.full_level[0] + (u1 if units == 2 else u0)
    for j in range(units):
        t = s.full_level[0] + (u0 if j == 0 else u1)
        if t <= most:
            targets[count] = t
            count += 1
    floor = rules.bring_in if s.bring_in_due[0] else s.level[0]
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


@njit(cache=True)
def _pay(p, amount, s):
    s.stacks[p] -= amount
    s.round_bets[p] += amount
    s.contributed[p] += amount


@njit(cache=True)
def _in_hand(s):
    count = 0
    for q in range(s.stacks.shape[0]):
        if not s.folded[q]:
            count += 1
    return count


@njit(cache=True)
def _next_pending(after, s):
    n = s.stacks.shape[0]
    for k in range(1, n + 1):
        q = (after + k) % n
        if s.pending[0] & _bit(q):
            return q
    return -1


@njit(cache=True)
def _settle(showdown, s, me, dead_money, tables, strengths, pot_amount, pot_mask, cards):
    """Settle the hand; returns ``me``'s chips at the end (stack, returned excess and winnings)."""
    n = s.stacks.shape[0]
    if showdown:
        for q in range(n):
            if not s.folded[q]:
                cards[0] = s.hole[q]
                for i in range(4):
                    cards[1 + i] = s.up[q, i]
                strengths[q] = tables.rank_table[_colex(cards, 5, tables.binom)]
    finish = s.stacks[me]
    previous = 0
    pots = 0
    for _ in range(n):  # the contribution layers, lowest first; a layer one player reached is returned
        level = -1
        for q in range(n):
            c = s.contributed[q]
            if c > previous and (level < 0 or c < level):
                level = c
        if level < 0:
            break
        reached = 0
        mask = np.int64(0)
        for q in range(n):
            if s.contributed[q] >= level:
                reached += 1
                if not s.folded[q]:
                    mask |= _bit(q)
        amount = (level - previous) * reached
        previous = level
        if reached == 1:
            if s.contributed[me] >= level:
                finish += amount
            continue
        if pots > 0 and pot_mask[pots - 1] == mask:  # the same players: one pot
            pot_amount[pots - 1] += amount
        else:
            pot_amount[pots] = amount
            pot_mask[pots] = mask
            pots += 1
    if pots > 0:
        pot_amount[0] += dead_money
    for k in range(pots):
        mask = pot_mask[k]
        players = 0
        first = -1
        for q in range(n):
            if mask & _bit(q):
                players += 1
                if first < 0:
                    first = q
        if players == 1 or not showdown:
            if first == me:
                finish += pot_amount[k]
            continue
        best = -1
        winners = 0
        for q in range(n):
            if mask & _bit(q):
                if strengths[q] > best:
                    best = strengths[q]
                    winners = 1
                elif strengths[q] == best:
                    winners += 1
        share = pot_amount[k] // winners
        odd = pot_amount[k] - share * winners
        j = 0
        for q in range(n):  # the odd chips one each to the first winners from the dealer's left
            if mask & _bit(q) and strengths[q] == best:
                if q == me:
                    finish += share + (1 if j < odd else 0)
                j += 1
    s.phase[0] = DONE
    return finish


@njit(cache=True)
def _end_round(s, rules):
    """The round is over: True when it was the last (a showdown), else the next street is due."""
    if s.round_index[0] == rules.rounds - 1:
        return True  # settle with a showdown
    s.round_index[0] += 1
    s.phase[0] = DEAL
    return False


@njit(cache=True)
def _begin_round(s, rules, counts):
    """The next round after its cards are dealt: who opens, the open pair, the cap; False when fewer
    than two players can bet (the round is then over at once)."""
    n = s.stacks.shape[0]
    r = s.round_index[0]
    able = 0
    best_key = np.int64(-1)
    opener = -1
    open_pair = False
    for q in range(n):
        if s.folded[q]:
            continue
        if s.stacks[q] > 0:
            able += 1
        key = _visible_key(s.up[q], r + 1, counts)
        if key > best_key:
            best_key = key
            opener = q
        if r == 1 and (s.up[q, 0] >> 2) == (s.up[q, 1] >> 2):
            open_pair = True
    for q in range(n):
        s.round_bets[q] = 0
    s.opener[0] = opener
    s.open_pair[0] = open_pair
    s.capped[0] = able > rules.cap_above_players
    s.level[0] = 0
    s.full_level[0] = 0
    s.wagers[0] = 0
    s.big_used[0] = False
    s.bring_in_due[0] = False
    s.last_aggressor[0] = -1
    if able < 2:
        return False
    pending = np.int64(0)
    for q in range(n):
        if not s.folded[q] and s.stacks[q] > 0:
            pending |= _bit(q)
    s.pending[0] = pending
    s.may_raise[0] = pending
    s.phase[0] = BET
    s.actor[0] = _next_pending(opener - 1, s)
    return True


@njit(cache=True)
def _raise_to(p, target, s, rules):
    n = s.stacks.shape[0]
    r = s.round_index[0]
    unit = rules.big_bet if (r >= rules.small_bet_rounds or s.big_used[0]) else rules.small_bet
    increase = target - s.full_level[0]
    _pay(p, target - s.round_bets[p], s)
    s.level[0] = target
    s.bring_in_due[0] = False
    s.last_aggressor[0] = p
    if 2 * increase >= unit:
        if s.open_pair[0] and r == 1 and increase >= rules.big_bet:
            s.big_used[0] = True
        s.full_level[0] = target
        s.wagers[0] += 1
        for q in range(n):
            if q != p and not s.folded[q] and s.stacks[q] > 0:
                s.pending[0] |= _bit(q)
                s.may_raise[0] |= _bit(q)
    else:
        for q in range(n):
            if q != p and not s.folded[q] and s.stacks[q] > 0 and s.pending[0] & _bit(q) == 0:
                s.pending[0] |= _bit(q)
                s.may_raise[0] &= ~_bit(q)
    s.pending[0] &= ~_bit(p)
    s.may_raise[0] &= ~_bit(p)


@njit(cache=True)
def _act(p, kind, amount, s, rules):
    """Apply one legal action; returns 1 when the hand must settle without a showdown, 2 with one, else 0."""
    n = s.stacks.shape[0]
    if kind == BRING_IN:
        _pay(p, min(rules.bring_in, s.stacks[p]), s)
        s.level[0] = rules.bring_in
        s.bring_in_due[0] = False
        s.last_aggressor[0] = p
        s.pending[0] &= ~_bit(p)
    elif kind == CHECK_CALL:
        owe = s.level[0] - s.round_bets[p]
        if owe > 0:
            _pay(p, min(owe, s.stacks[p]), s)
        s.pending[0] &= ~_bit(p)
    elif kind == FOLD:
        s.folded[p] = True
        s.pending[0] &= ~_bit(p)
        s.may_raise[0] &= ~_bit(p)
    else:
        _raise_to(p, amount, s, rules)
    pending = np.int64(0)
    for q in range(n):
        if s.pending[0] & _bit(q) and s.stacks[q] > 0:
            pending |= _bit(q)
    s.pending[0] = pending
    if _in_hand(s) == 1:
        return 1
    if pending == 0:
        return 2 if _end_round(s, rules) else 0
    s.actor[0] = _next_pending(p, s)
    return 0


@njit(cache=True)
def _choose(p, model, s, rules, models, tables, u, work):
    """The action of player ``p`` by ``model``: (kind, amount). ``work``: scratch (own cards, raise
    targets, rank counts, a card buffer)."""
    own, targets, counts, buf = work[0:5], work[5:5 + MAX_TARGETS], work[9:22], work[22:27]
    n = s.stacks.shape[0]
    owe = s.level[0] - s.round_bets[p]
    if owe < 0:
        owe = 0
    to_call = min(owe, s.stacks[p]) if owe > 0 else 0
    if s.bring_in_due[0]:
        facing = FACING_BRING_IN
        to_call = 0
    elif owe > 0:
        facing = FACING_BET
    else:
        facing = FACING_NOTHING
    k = 1 + s.round_index[0] + 1
    own[0] = s.hole[p]
    for i in range(k - 1):
        own[1 + i] = s.up[p, i]
    others = 0
    shown = -1
    for q in range(n):
        if q != p and not s.folded[q]:
            others += 1
            for i in range(k - 1):
                if (s.up[q, i] >> 2) > shown:
                    shown = s.up[q, i] >> 2
    top = -1
    for i in range(k):
        if (own[i] >> 2) > top:
            top = own[i] >> 2
    klass = -1
    paired = False
    strength = np.int64(-1)
    chosen = -1
    first = models.first[model]
    for rule in range(first, first + models.size[model]):
        if models.facing[rule] & facing == 0:
            continue
        if models.rounds[rule] & _bit(s.round_index[0]) == 0:
            continue
        limit = models.call_max[rule]
        if limit != -1:
            most = rules.bring_in if limit == -2 else limit
            if (to_call if facing != FACING_BRING_IN else 0) > most:
                continue
        below = models.bets_below[rule]
        if below != -1:
            cap = 1 + rules.max_raises if below == -2 else below
            if s.wagers[0] >= cap:
                continue
        if models.opp_max[rule] != -1 and others > models.opp_max[rule]:
            continue
        if models.opp_min[rule] != -1 and others < models.opp_min[rule]:
            continue
        if models.paired[rule] != -1 or models.class_lo[rule] != -1 or models.class_hi[rule] != -1:
            if klass < 0:
                klass, paired = _own_class(own, k, tables, counts, buf)
            if models.paired[rule] != -1 and paired != (models.paired[rule] == 1):
                continue
            if models.class_lo[rule] != -1 and klass < models.class_lo[rule]:
                continue
            if models.class_hi[rule] != -1 and klass >= models.class_hi[rule]:
                continue
        if models.covers[rule] != -1 and (top >= shown) != (models.covers[rule] == 1):
            continue
        lo = models.strength_lo[rule, k]
        hi = models.strength_hi[rule, k]
        if lo != -1 or hi != -1:
            if strength < 0:
                strength = _strength(own, k, tables, buf)
            if lo != -1 and strength < lo:
                continue
            if hi != -1 and strength >= hi:
                continue
        chosen = rule
        break
    draw = models.p_fold[chosen]
    intent = CHECK_CALL
    if u < draw:
        intent = FOLD
    elif u >= draw + models.p_pass[chosen]:
        intent = BET_RAISE
    if intent == BET_RAISE:
        count = _raise_targets(p, s, rules, targets)
        if count > 0:
            return BET_RAISE, targets[count - 1] if models.largest[model] else targets[0]
    can_fold = (not s.bring_in_due[0]) and (owe > 0 or rules.fold_without_bet)
    if intent == FOLD and can_fold:
        return FOLD, 0
    if s.bring_in_due[0]:
        return BRING_IN, 0
    return CHECK_CALL, 0


@njit(cache=True)
def _reset(s, start, worlds, w):
    """The starting state with world ``w``'s hole cards."""
    n = s.stacks.shape[0]
    for q in range(n):
        s.stacks[q] = start.stacks[q]
        s.contributed[q] = start.contributed[q]
        s.round_bets[q] = start.round_bets[q]
        s.folded[q] = start.folded[q]
        s.hole[q] = worlds.holes[w, q]
        for i in range(4):
            s.up[q, i] = start.up[q, i]
    s.round_index[0] = start.round_index[0]
    s.level[0] = start.level[0]
    s.full_level[0] = start.full_level[0]
    s.wagers[0] = start.wagers[0]
    s.last_aggressor[0] = start.last_aggressor[0]
    s.pending[0] = start.pending[0]
    s.may_raise[0] = start.may_raise[0]
    s.opener[0] = start.opener[0]
    s.actor[0] = start.actor[0]
    s.phase[0] = start.phase[0]
    s.big_used[0] = start.big_used[0]
    s.bring_in_due[0] = start.bring_in_due[0]
    s.capped[0] = start.capped[0]
    s.open_pair[0] = start.open_pair[0]


@njit(cache=True, nogil=True)
def play_hands(lo, hi, setting, start, state, models, worlds, tables, roots, out):
    """Play worlds ``lo <= w < hi`` for each root action (``roots``: kind, amount), writing the
    player's chips from now into ``out[w, a]``. ``state`` is this span's scratch copy of ``start``."""
    n = start.stacks.shape[0]
    me = setting.me
    rules = setting.rules
    strengths = np.zeros(n, dtype=np.int64)
    pot_amount = np.zeros(n, dtype=np.int64)
    pot_mask = np.zeros(n, dtype=np.int64)
    work = np.zeros(27, dtype=np.int64)
    counts, buf = work[9:22], work[22:27]
    s = state
    stack0 = start.stacks[me]
    for w in range(lo, hi):
        for a in range(roots.shape[0]):
            if roots[a, 0] == FOLD:
                out[w, a] = 0.0
                continue
            _reset(s, start, worlds, w)
            decision = 0
            settle = _act(me, roots[a, 0], roots[a, 1], s, rules)
            while True:
                if settle != 0:
                    finish = _settle(settle == 2, s, me, setting.dead_money, tables, strengths, pot_amount,
                                     pot_mask, buf)
                    out[w, a] = finish - stack0
                    break
                if s.phase[0] == DEAL:
                    street = s.round_index[0] - setting.first_round
                    for q in range(n):
                        if not s.folded[q]:
                            s.up[q, s.round_index[0]] = worlds.cards[w, street, q]
                    if not _begin_round(s, rules, counts):
                        settle = 2 if _end_round(s, rules) else 0
                    continue
                p = s.actor[0]
                model = models.later if p == me else models.seat[p]
                u = worlds.uniforms[w, decision % worlds.uniforms.shape[1]]
                decision += 1
                kind, amount = _choose(p, model, s, rules, models, tables, u, work)
                if p == me and kind == FOLD:
                    out[w, a] = s.stacks[me] - stack0
                    break
                settle = _act(p, kind, amount, s, rules)
