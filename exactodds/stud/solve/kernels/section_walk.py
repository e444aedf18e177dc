"""Compiled walks of a section of a second-round solve (:mod:`exactodds.stud.solve.third_round`): the
third round after one deal of the third up cards at a time, and at each deal of the fourth up cards,
the last round after all of its rows at once.

The arithmetic is that of :mod:`exactodds.stud.solve.cfr` and
:mod:`exactodds.stud.solve.best_response` (the numpy walks of
:mod:`exactodds.stud.solve.reference` the tests compare them with): a forward pass in tree order pushes
both reaches down (the actor's reach times their current strategy), a backward pass brings the values
up. The CFR walk updates the updating player's regrets (floored at zero: CFR+) and average strategy;
the best-response walk brings up both players' profile values and best-response values, reading the
strategy as rows of probabilities or of average-strategy sums (normalised as read). Storage is float32,
arithmetic float64.

The last round's storage is laid out action by action, each action's block holding every row of the
subtree's context and every class (``store + ((offset + a) * rows + row) * m + class``), so that the
CFR walk takes all the rows after one deal of the third up cards node by node, its inner loops running
over (row, class) pairs end to end, which the compiler vectorises; a leaf's showdown is still one row
at a time (its strength order differs by row).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exactodds.stud.solve.kernels.cfr_walk import DECISION, FOLD, SHOWDOWN, leaf

CHANCE = 3


@njit(cache=True, inline="always")
def _matched(regret, at, count, step, out):
    """Regret matching of the ``count`` regrets ``regret[at + a * step]`` into ``out`` (uniform when
    none is positive)."""
    total = 0.0
    for a in range(count):
        r = regret[at + a * step]
        r = r if r > 0.0 else 0.0
        out[a] = r
        total += r
    if total > 0.0:
        for a in range(count):
            out[a] /= total
    else:
        for a in range(count):
            out[a] = 1.0 / count


@njit(cache=True, inline="always")
def _normalised(sums, at, count, step, out):
    """The ``count`` strategy sums ``sums[at + a * step]`` as probabilities (uniform when they sum
    to 0)."""
    total = 0.0
    for a in range(count):
        out[a] = sums[at + a * step]
        total += out[a]
    if total > 0.0:
        for a in range(count):
            out[a] /= total
    else:
        for a in range(count):
            out[a] = 1.0 / count


@njit(cache=True)
def _scratch(walk, m):
    sec, deals = walk.section, walk.deals
    third_nodes = sec.third.kind.shape[0]
    last_nodes = 1
    for s in range(sec.start.shape[0]):
        last_nodes = max(last_nodes, sec.stop[s] - sec.start[s])
    rows = 1
    for g in range(2):
        for k in range(deals.span.shape[1]):
            rows = max(rows, deals.span[g, k, 1] - deals.span[g, k, 0])
    widest = max(1, sec.third.width, sec.last.width)
    return (np.zeros((2, third_nodes, m)), np.zeros((4, third_nodes, m)), np.zeros((m, widest)),
            np.zeros((2, last_nodes, rows * m)), np.zeros((4, last_nodes, rows * m)),
            np.zeros((widest, rows * m)), np.empty(widest), np.empty(m + 1))


@njit(cache=True, inline="always")
def _rows_of(deals, total, g):
    """The rows of context ``g`` (0 or 1) of a section, of ``total`` rows end to end."""
    return (deals.base[1] if g == 0 else total) - deals.base[g]


# ---------------------------------------------------------------------------------------------- CFR+
@njit(cache=True, nogil=True)
def cfr_section(lo, hi, walk, learner, me, weight, out):
    """One CFR+ walk for player ``me`` of the deals ``lo <= k3 < hi`` of the third up cards of the
    section (``walk``: a :class:`~exactodds.stud.solve.third_round.SectionWalk`): writes their K3 x m
    values at the section's root into ``out`` (before the deal's weight and chance); updates the
    learner's regrets and averages of those deals in place, the averages weighted by ``weight``. Runs
    without the GIL: threads may walk disjoint spans at once."""
    sec, oc3 = walk.section, walk.third
    third = sec.third
    m = oc3.mask.shape[1]
    scratch = _scratch(walk, m)
    reach, values, sigma = scratch[0], scratch[1], scratch[2]
    probs, cum = scratch[6], scratch[7]
    flat3 = learner.regret3.reshape(-1)
    avg3 = learner.average3.reshape(-1)
    width3 = learner.regret3.shape[2]
    for k3 in range(lo, hi):
        for n in range(m):
            reach[0, 0, n] = learner.r0[n] * oc3.mask[k3, n]
            reach[1, 0, n] = learner.r1[n] * oc3.mask[k3, n]
        for j in range(third.kind.shape[0]):  # forward
            if third.kind[j] != DECISION:
                continue
            p, off, count = third.player[j], third.offset[j], third.actions[j]
            for n in range(m):
                _matched(flat3, (k3 * m + n) * width3 + off, count, 1, probs)
                for a in range(count):
                    child = third.children[third.first[j] + a]
                    reach[p, child, n] = reach[p, j, n] * probs[a]
                    reach[1 - p, child, n] = reach[1 - p, j, n]
                    sigma[n, off + a] = probs[a]
        for j in range(third.kind.shape[0] - 1, -1, -1):  # backward
            kind = third.kind[j]
            if kind == FOLD or kind == SHOWDOWN:
                leaf(third, oc3, j, k3, me, reach[1 - me, j], cum, values[0, j])
            elif kind == CHANCE:
                _deal_cfr(walk, learner, me, weight, j, k3, scratch)
            else:
                _third_decision(third, j, me, (reach, values[0], sigma), (flat3, avg3),
                                (k3 * m * width3, width3), (learner.keep, weight))
        for n in range(m):
            out[k3, n] = values[0, 0, n]


@njit(cache=True, inline="always")
def _third_decision(tree, j, me, state, store, cursor, step):
    """The backward step of third-round decision ``j`` (``state``: reach, values and strategy scratch):
    its values from its children's and, at the updating player's decision, the regret and average
    updates (``store``: regrets and averages, the deal's storage from ``cursor`` = (first index, width
    per class); ``step``: (kept of positive and negative regrets, the average's weight))."""
    reach, values, sigma = state
    regret, average = store
    row_at, width = cursor
    keep, weight = step
    p, off, count, first = tree.player[j], tree.offset[j], tree.actions[j], tree.first[j]
    m = values.shape[1]
    if p != me:
        for n in range(m):
            v = 0.0
            for a in range(count):
                v += values[tree.children[first + a], n]
            values[j, n] = v
        return
    for n in range(m):
        v = 0.0
        for a in range(count):
            v += sigma[n, off + a] * values[tree.children[first + a], n]
        values[j, n] = v
        own = weight * reach[me, j, n]
        at = row_at + n * width + off
        for a in range(count):
            r = regret[at + a] + values[tree.children[first + a], n] - v
            regret[at + a] = r * (keep[0] if r > 0.0 else keep[1])
            average[at + a] += own * sigma[n, off + a]


@njit(cache=True, inline="always")
def _reached(reach, j, me):
    """Whether the opponent's reach at node ``j`` is positive on some card, and whether ``me``'s is."""
    met, own = False, False
    for n in range(reach.shape[2]):
        met = met or reach[1 - me, j, n] != 0.0
        own = own or reach[me, j, n] != 0.0
    return met, own


@njit(cache=True)
def _deal_cfr(walk, learner, me, weight, j, k3, scratch):
    """The values at deal node ``j`` of the third round for the deal ``k3`` of the third up cards: all the
    rows of the fourth up cards after it at once, walked through each last-round subtree node by node."""
    sec, oc4, deals = walk.section, walk.last, walk.deals
    reach3, values3 = scratch[0], scratch[1][0]
    reach, values, sigma, cum = scratch[3], scratch[4][0], scratch[5], scratch[7]
    last = sec.last
    m = values3.shape[1]
    total_rows = oc4.mask.shape[0]
    for n in range(m):
        values3[j, n] = 0.0
    met, own = _reached(reach3, j, me)
    if not own and not met:  # neither player gets here: nothing below moves
        return
    for g in range(2):
        s = sec.deals[j, g]
        lo, hi = deals.span[g, k3, 0], deals.span[g, k3, 1]
        if s < 0 or hi == lo:
            continue
        start, stop = sec.start[s], sec.stop[s]
        block = (hi - lo) * m  # the (row, class) pairs after this deal, end to end
        rows = _rows_of(deals, total_rows, g)
        base = sec.store[s] + (lo - deals.base[g]) * m  # first (row, class) of action 0's block
        stride = rows * m  # from one action's block to the next
        for r in range(hi - lo):
            for n in range(m):
                reach[0, 0, r * m + n] = reach3[0, j, n] * oc4.mask[lo + r, n]
                reach[1, 0, r * m + n] = reach3[1, j, n] * oc4.mask[lo + r, n]
        for i in range(start, stop):  # forward
            if last.kind[i] == DECISION:
                _push_block(last, i, start, reach, (learner.regret4, base, stride), sigma, block)
        for i in range(stop - 1, start - 1, -1):  # backward
            if last.kind[i] == FOLD:
                _fold_block(last, i, start, me, (reach, values), oc4.avail, (lo, hi, m))
                continue
            if last.kind[i] == SHOWDOWN:
                _showdown_block(last, i, start, me, (reach, values, cum), oc4, (lo, hi, m))
                continue
            if met:
                _pull_block(last, i, start, me, (reach, values, sigma), (learner.regret4, learner.average4),
                            (base, stride, block), (learner.keep, weight))
            else:  # the opponent never gets here: every value is 0, only the averages move
                _averages_only(last, i, start, me, (reach, values, sigma), learner.average4,
                               (base, stride, block), weight)
        for r in range(hi - lo):
            for n in range(m):
                values3[j, n] += deals.mult[lo + r, n] * values[0, r * m + n]
    for n in range(m):
        values3[j, n] *= deals.chance[0]


@njit(cache=True, inline="always")
def _fold_block(tree, i, start, me, state, avail, rows):
    """``me``'s values at fold leaf ``i`` over a block of rows ``lo <= k4 < hi`` (m classes each): the
    chips won or lost times the opponent's reach on every card left but ``me``'s own."""
    reach, values = state
    lo, hi, m = rows
    j = i - start
    own = tree.added[i, me]
    gain = tree.final_pot[i] - own if tree.winner[i] == me else -own
    for r in range(hi - lo):
        mass = 0.0
        for n in range(m):
            mass += reach[1 - me, j, r * m + n] * avail[lo + r, n]
        for n in range(m):
            values[j, r * m + n] = gain * (mass - reach[1 - me, j, r * m + n])


@njit(cache=True, inline="always")
def _showdown_block(tree, i, start, me, state, oc, rows):
    """``me``'s values at showdown leaf ``i`` over a block of rows (the arithmetic of
    :func:`~exactodds.stud.solve.kernels.cfr_walk.leaf`, one row at a time: each row has its own
    order of strengths)."""
    reach, values, cum = state
    lo, hi, m = rows
    j = i - start
    own = tree.added[i, me]
    pot = tree.final_pot[i]
    share = tree.share[i, me]
    for r in range(hi - lo):
        k, at = lo + r, r * m
        mass = 0.0
        for n in range(m):
            mass += reach[1 - me, j, at + n] * oc.avail[k, n]
        if mass == 0.0:  # the opponent never gets here
            for n in range(m):
                values[j, at + n] = 0.0
            continue
        cum[0] = 0.0
        for x in range(m):
            y = oc.order[me, k, x]
            cum[x + 1] = cum[x] + reach[1 - me, j, at + y] * oc.avail[k, y]
        for n in range(m):
            opp = reach[1 - me, j, at + n]
            s = oc.self_sign[me, k, n]
            below = cum[oc.below[me, k, n]]
            win = below - (opp if s > 0 else 0.0)
            tie = cum[oc.at_most[me, k, n]] - below - (opp if s == 0 else 0.0)
            values[j, at + n] = win * pot + tie * share - own * (mass - opp)


@njit(cache=True, inline="always")
def _push_block(tree, i, start, reach, store, sigma, block):
    """Forward step of decision ``i`` over a block of (row, class) pairs: regret matching of each pair
    (``store``: regrets, the block's first index for action 0, the step to the next action) and the
    actor's reach times it down to each child."""
    regret, base, stride = store
    p, off, count, first = tree.player[i], tree.offset[i], tree.actions[i], tree.first[i]
    j = i - start
    for x in range(block):
        total = 0.0
        for a in range(count):
            r = regret[base + (off + a) * stride + x]
            r = r if r > 0.0 else 0.0
            sigma[off + a, x] = r
            total += r
        if total > 0.0:
            inverse = 1.0 / total
            for a in range(count):
                sigma[off + a, x] *= inverse
        else:
            for a in range(count):
                sigma[off + a, x] = 1.0 / count
    for a in range(count):
        child = tree.children[first + a] - start
        for x in range(block):
            reach[p, child, x] = reach[p, j, x] * sigma[off + a, x]
            reach[1 - p, child, x] = reach[1 - p, j, x]


@njit(cache=True, inline="always")
def _pull_block(tree, i, start, me, state, store, cursor, step):
    """Backward step of decision ``i`` over a block: its values from its children's and, at the updating
    player's decision, the regret and average updates of every (row, class) pair."""
    reach, values, sigma = state
    regret, average = store
    base, stride, block = cursor
    keep, weight = step
    p, off, count, first = tree.player[i], tree.offset[i], tree.actions[i], tree.first[i]
    j = i - start
    for x in range(block):
        values[j, x] = 0.0
    if p != me:
        for a in range(count):
            child = tree.children[first + a] - start
            for x in range(block):
                values[j, x] += values[child, x]
        return
    for a in range(count):
        child = tree.children[first + a] - start
        for x in range(block):
            values[j, x] += sigma[off + a, x] * values[child, x]
    for a in range(count):
        child = tree.children[first + a] - start
        at = base + (off + a) * stride
        for x in range(block):
            r = regret[at + x] + values[child, x] - values[j, x]
            regret[at + x] = r * (keep[0] if r > 0.0 else keep[1])
            average[at + x] += weight * reach[me, j, x] * sigma[off + a, x]


@njit(cache=True, inline="always")
def _averages_only(tree, i, start, me, state, average, cursor, weight):
    """Backward step of decision ``i`` where the opponent never gets: values 0, and at the updating
    player's decision their averages moved by their reach."""
    reach, values, sigma = state
    base, stride, block = cursor
    p, off, count = tree.player[i], tree.offset[i], tree.actions[i]
    j = i - start
    for x in range(block):
        values[j, x] = 0.0
    if p != me:
        return
    for a in range(count):
        at = base + (off + a) * stride
        for x in range(block):
            average[at + x] += weight * reach[me, j, x] * sigma[off + a, x]


# ------------------------------------------------------------------------------------ best response
@njit(cache=True, nogil=True)
def best_response_section(lo, hi, walk, r0, r1, strategy, out):
    """Both players' profile values and best-response values (into ``out``, 4 x K3 x m: v0, v1, b0, b1)
    at the section's root for the deals ``lo <= k3 < hi`` of the third up cards, before the deal's weight
    and chance, given the reaches per card arriving at the deal (m each) and the profile (a
    :class:`~exactodds.stud.solve.third_round.SectionStrategy`). Runs without the GIL."""
    sec, oc3 = walk.section, walk.third
    third = sec.third
    m = oc3.mask.shape[1]
    scratch = _scratch(walk, m)
    reach, values, probs, cum = scratch[0], scratch[1], scratch[6], scratch[7]
    flat3 = strategy.third.reshape(-1)
    width3 = strategy.third.shape[2]
    for k3 in range(lo, hi):
        for n in range(m):
            reach[0, 0, n] = r0[n] * oc3.mask[k3, n]
            reach[1, 0, n] = r1[n] * oc3.mask[k3, n]
        for j in range(third.kind.shape[0]):
            if third.kind[j] == DECISION:
                _push(third, j, 0, reach, (flat3, k3 * m * width3, width3, 1), probs)
        for j in range(third.kind.shape[0] - 1, -1, -1):
            kind = third.kind[j]
            if kind == FOLD or kind == SHOWDOWN:
                for p in range(2):
                    leaf(third, oc3, j, k3, p, reach[1 - p, j], cum, values[p, j])
                    for n in range(m):
                        values[2 + p, j, n] = values[p, j, n]
            elif kind == CHANCE:
                _deal_best_response(walk, strategy.last, j, k3, scratch)
            else:
                _pull(third, j, 0, values, (flat3, k3 * m * width3, width3, 1), probs)
        for t in range(4):
            for n in range(m):
                out[t, k3, n] = values[t, 0, n]


@njit(cache=True, inline="always")
def _push(tree, i, start, reach, strategy, probs):
    """Forward step of decision ``i``: the actor's reach times their strategy down to each child
    (``strategy``: the sums, the row's first index, the step from one class to the next and from one
    action to the next)."""
    sums, row_at, class_step, action_step = strategy
    p, off, count = tree.player[i], tree.offset[i], tree.actions[i]
    m = reach.shape[2]
    for n in range(m):
        _normalised(sums, row_at + n * class_step + off * action_step, count, action_step, probs)
        for a in range(count):
            child = tree.children[tree.first[i] + a] - start
            reach[p, child, n] = reach[p, i - start, n] * probs[a]
            reach[1 - p, child, n] = reach[1 - p, i - start, n]


@njit(cache=True, inline="always")
def _pull(tree, i, start, values, strategy, probs):
    """Backward step of decision ``i``: the actor's profile value (their mix) and best response (their
    best action), the other player's two values summed over the actor's actions."""
    sums, row_at, class_step, action_step = strategy
    p, off, count, first = tree.player[i], tree.offset[i], tree.actions[i], tree.first[i]
    j = i - start
    m = values.shape[2]
    for n in range(m):
        _normalised(sums, row_at + n * class_step + off * action_step, count, action_step, probs)
        v_own, b_own, v_other, b_other = 0.0, -np.inf, 0.0, 0.0
        for a in range(count):
            child = tree.children[first + a] - start
            v_own += probs[a] * values[p, child, n]
            b = values[2 + p, child, n]
            b_own = b if b > b_own else b_own
            v_other += values[1 - p, child, n]
            b_other += values[3 - p, child, n]
        values[p, j, n] = v_own
        values[2 + p, j, n] = b_own
        values[1 - p, j, n] = v_other
        values[3 - p, j, n] = b_other


@njit(cache=True)
def _deal_best_response(walk, strategy4, j, k3, scratch):
    """The four values at deal node ``j`` of the third round for the deal ``k3`` of the third up cards:
    all the rows of the fourth up cards after it at once, node by node."""
    sec, oc4, deals = walk.section, walk.last, walk.deals
    reach3, values3 = scratch[0], scratch[1]
    reach, values, sigma, cum = scratch[3], scratch[4], scratch[5], scratch[7]
    last = sec.last
    m = values3.shape[2]
    total_rows = oc4.mask.shape[0]
    for t in range(4):
        for n in range(m):
            values3[t, j, n] = 0.0
    met, own = _reached(reach3, j, 0)
    if not met and not own:  # neither player gets here: every value below is 0
        return
    for g in range(2):
        s = sec.deals[j, g]
        lo, hi = deals.span[g, k3, 0], deals.span[g, k3, 1]
        if s < 0 or hi == lo:
            continue
        start, stop = sec.start[s], sec.stop[s]
        block = (hi - lo) * m
        stride = _rows_of(deals, total_rows, g) * m
        base = sec.store[s] + (lo - deals.base[g]) * m
        for r in range(hi - lo):
            for n in range(m):
                reach[0, 0, r * m + n] = reach3[0, j, n] * oc4.mask[lo + r, n]
                reach[1, 0, r * m + n] = reach3[1, j, n] * oc4.mask[lo + r, n]
        for i in range(start, stop):
            if last.kind[i] == DECISION:
                _strategy_block(last, i, start, reach, (strategy4, base, stride), sigma, block)
        for i in range(stop - 1, start - 1, -1):
            kind = last.kind[i]
            if kind == DECISION:
                _best_block(last, i, start, values, sigma, block)
                continue
            for p in range(2):
                if kind == FOLD:
                    _fold_block(last, i, start, p, (reach, values[p]), oc4.avail, (lo, hi, m))
                else:
                    _showdown_block(last, i, start, p, (reach, values[p], cum), oc4, (lo, hi, m))
                for x in range(block):
                    values[2 + p, i - start, x] = values[p, i - start, x]
        for t in range(4):
            for r in range(hi - lo):
                for n in range(m):
                    values3[t, j, n] += deals.mult[lo + r, n] * values[t, 0, r * m + n]
    for t in range(4):
        for n in range(m):
            values3[t, j, n] *= deals.chance[0]


@njit(cache=True, inline="always")
def _strategy_block(tree, i, start, reach, store, sigma, block):
    """Forward step of decision ``i`` of a profile over a block: each (row, class)'s strategy from the
    sums (normalised as read) and the actor's reach times it down to each child."""
    sums, base, stride = store
    p, off, count, first = tree.player[i], tree.offset[i], tree.actions[i], tree.first[i]
    j = i - start
    for x in range(block):
        total = 0.0
        for a in range(count):
            sigma[off + a, x] = sums[base + (off + a) * stride + x]
            total += sigma[off + a, x]
        if total > 0.0:
            inverse = 1.0 / total
            for a in range(count):
                sigma[off + a, x] *= inverse
        else:
            for a in range(count):
                sigma[off + a, x] = 1.0 / count
    for a in range(count):
        child = tree.children[first + a] - start
        for x in range(block):
            reach[p, child, x] = reach[p, j, x] * sigma[off + a, x]
            reach[1 - p, child, x] = reach[1 - p, j, x]


@njit(cache=True, inline="always")
def _best_block(tree, i, start, values, sigma, block):
    """Backward step of decision ``i`` of the best response over a block: the actor's profile value and
    best action, the other player's two values summed over the actor's actions."""
    p, off, count, first = tree.player[i], tree.offset[i], tree.actions[i], tree.first[i]
    j = i - start
    for x in range(block):
        v_own, b_own, v_other, b_other = 0.0, -np.inf, 0.0, 0.0
        for a in range(count):
            child = tree.children[first + a] - start
            v_own += sigma[off + a, x] * values[p, child, x]
            b = values[2 + p, child, x]
            b_own = b if b > b_own else b_own
            v_other += values[1 - p, child, x]
            b_other += values[3 - p, child, x]
        values[p, j, x] = v_own
        values[2 + p, j, x] = b_own
        values[1 - p, j, x] = v_other
        values[3 - p, j, x] = b_other
