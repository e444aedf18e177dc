"""Compiled walks of a section of a second-round solve (:mod:`exactodds.stud.solve.third_round`): the
third round after one deal of the third up cards at a time, and at each deal of the fourth up cards,
the last round after each of its rows.

The arithmetic is that of :mod:`exactodds.stud.solve.cfr` and
:mod:`exactodds.stud.solve.best_response` (the numpy walks of
:mod:`exactodds.stud.solve.reference` the tests compare them with): a forward pass in tree order pushes
both reaches down (the actor's reach times their current strategy), a backward pass brings the values
up. The CFR walk updates the updating player's regrets (floored at zero: CFR+) and average strategy;
the best-response walk brings up both players' profile values and best-response values, reading the
strategy as rows of probabilities or of average-strategy sums (normalised as read). Storage is float32,
arithmetic float64.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from exactodds.stud.solve.kernels.cfr_walk import DECISION, FOLD, SHOWDOWN, leaf

CHANCE = 3


@njit(cache=True, inline="always")
def _matched(regret, at, count, out):
    """Regret matching of the ``count`` regrets from ``regret[at]`` into ``out`` (uniform when none is
    positive)."""
    total = 0.0
    for a in range(count):
        r = regret[at + a]
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
def _normalised(sums, at, count, out):
    """The ``count`` strategy sums from ``sums[at]`` as probabilities (uniform when they sum to 0)."""
    total = 0.0
    for a in range(count):
        out[a] = sums[at + a]
        total += out[a]
    if total > 0.0:
        for a in range(count):
            out[a] /= total
    else:
        for a in range(count):
            out[a] = 1.0 / count


@njit(cache=True)
def _scratch(sec, m):
    third_nodes = sec.third.kind.shape[0]
    last_nodes = 1
    for s in range(sec.start.shape[0]):
        last_nodes = max(last_nodes, sec.stop[s] - sec.start[s])
    widest = max(1, sec.third.width, sec.last.width)
    return (np.zeros((2, third_nodes, m)), np.zeros((4, third_nodes, m)), np.zeros((m, widest)),
            np.zeros((2, last_nodes, m)), np.zeros((4, last_nodes, m)), np.zeros((m, widest)),
            np.empty(widest), np.empty(m + 1))


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
    scratch = _scratch(sec, m)
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
                _matched(flat3, (k3 * m + n) * width3 + off, count, probs)
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
                _decision_cfr(third, j, 0, me, (reach, values[0], sigma), (flat3, avg3),
                              ((k3 * m) * width3, width3), (learner.keep, weight), True)
        for n in range(m):
            out[k3, n] = values[0, 0, n]


@njit(cache=True, inline="always")
def _decision_cfr(tree, i, start, me, state, store, cursor, step, met):
    """The backward step of decision ``i`` (scratch rows local to ``start``; ``state``: reach, values and
    strategy scratch): its values from its children's and, at the updating player's decision, the regret
    and average updates (``store``: regrets and averages, the row's storage from ``cursor`` = (first
    index, width per class); ``step``: (kept of positive and negative regrets, the average's weight)).
    ``met``: whether the opponent can be here at all; when not, every value below is 0 and only the
    average moves."""
    reach, values, sigma = state
    regret, average = store
    row_at, width = cursor
    keep, weight = step
    p, off, count, first = tree.player[i], tree.offset[i], tree.actions[i], tree.first[i]
    j = i - start
    m = values.shape[1]
    if not met:
        for n in range(m):
            values[j, n] = 0.0
        if p == me:
            for n in range(m):
                own = weight * reach[me, j, n]
                if own != 0.0:
                    at = row_at + n * width + off
                    for a in range(count):
                        average[at + a] += own * sigma[n, off + a]
        return
    if p != me:
        for n in range(m):
            v = 0.0
            for a in range(count):
                v += values[tree.children[first + a] - start, n]
            values[j, n] = v
        return
    for n in range(m):
        v = 0.0
        for a in range(count):
            v += sigma[n, off + a] * values[tree.children[first + a] - start, n]
        values[j, n] = v
        own = weight * reach[me, j, n]
        at = row_at + n * width + off
        for a in range(count):
            r = regret[at + a] + values[tree.children[first + a] - start, n] - v
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
def _averages_only(last, start, stop, me, state, learner, cursor, weight):
    """A last-round row the opponent never reaches: ``me``'s reach pushed down and ``me``'s averages
    updated by it (the regrets do not move: every value is 0)."""
    reach, sigma, probs = state
    row_at, width = cursor
    m = reach.shape[2]
    for i in range(start, stop):
        if last.kind[i] != DECISION:
            continue
        p, off, count = last.player[i], last.offset[i], last.actions[i]
        for n in range(m):
            here = reach[p, i - start, n]
            if p == me and here != 0.0:
                _matched(learner.regret4, row_at + n * width + off, count, probs)
                at = row_at + n * width + off
                for a in range(count):
                    learner.average4[at + a] += weight * here * probs[a]
                    reach[p, last.children[last.first[i] + a] - start, n] = here * probs[a]
            elif p == me:
                for a in range(count):
                    reach[p, last.children[last.first[i] + a] - start, n] = 0.0
            else:  # the opponent's decision: its reach is 0 and stays 0, me's passes through
                for a in range(count):
                    child = last.children[last.first[i] + a] - start
                    reach[me, child, n] = reach[me, i - start, n]


@njit(cache=True)
def _deal_cfr(walk, learner, me, weight, j, k3, scratch):
    """The values at deal node ``j`` of the third round for the deal ``k3`` of the third up cards: every
    row of the fourth up cards after it, walked through its last-round subtree."""
    sec, oc4, deals = walk.section, walk.last, walk.deals
    reach3, values3 = scratch[0], scratch[1][0]
    reach, values, sigma, probs, cum = scratch[3], scratch[4][0], scratch[5], scratch[6], scratch[7]
    last = sec.last
    m = values3.shape[1]
    for n in range(m):
        values3[j, n] = 0.0
    met, own = _reached(reach3, j, me)
    if not own and not met:  # neither player gets here: nothing below moves
        return
    for g in range(2):
        s = sec.deals[j, g]
        if s < 0:
            continue
        start, stop, width = sec.start[s], sec.stop[s], sec.width[s]
        for k4 in range(deals.span[g, k3, 0], deals.span[g, k3, 1]):
            row_at = sec.store[s] + (k4 - deals.base[g]) * m * width
            for n in range(m):
                reach[0, 0, n] = reach3[0, j, n] * oc4.mask[k4, n]
                reach[1, 0, n] = reach3[1, j, n] * oc4.mask[k4, n]
            if not met:  # the opponent never gets here: every value is 0, only the averages move
                _averages_only(last, start, stop, me, (reach, sigma, probs), learner, (row_at, width), weight)
                continue
            for i in range(start, stop):  # forward
                if last.kind[i] != DECISION:
                    continue
                p, off, count = last.player[i], last.offset[i], last.actions[i]
                for n in range(m):
                    _matched(learner.regret4, row_at + n * width + off, count, probs)
                    for a in range(count):
                        child = last.children[last.first[i] + a] - start
                        reach[p, child, n] = reach[p, i - start, n] * probs[a]
                        reach[1 - p, child, n] = reach[1 - p, i - start, n]
                        sigma[n, off + a] = probs[a]
            for i in range(stop - 1, start - 1, -1):  # backward
                if last.kind[i] != DECISION:
                    leaf(last, oc4, i, k4, me, reach[1 - me, i - start], cum, values[i - start])
                    continue
                alive = False  # whether the opponent can be at this decision (else every value below is 0)
                for n in range(m):
                    if reach[1 - me, i - start, n] != 0.0:
                        alive = True
                        break
                _decision_cfr(last, i, start, me, (reach, values, sigma), (learner.regret4, learner.average4),
                              (row_at, width), (learner.keep, weight), alive)
            for n in range(m):
                values3[j, n] += deals.mult[k4, n] * values[0, n]
    for n in range(m):
        values3[j, n] *= deals.chance[0]


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
    scratch = _scratch(sec, m)
    reach, values, probs, cum = scratch[0], scratch[1], scratch[6], scratch[7]
    flat3 = strategy.third.reshape(-1)
    width3 = strategy.third.shape[2]
    for k3 in range(lo, hi):
        for n in range(m):
            reach[0, 0, n] = r0[n] * oc3.mask[k3, n]
            reach[1, 0, n] = r1[n] * oc3.mask[k3, n]
        for j in range(third.kind.shape[0]):
            if third.kind[j] == DECISION:
                _push(third, j, 0, reach, flat3, (k3 * m) * width3, width3, probs)
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
                _pull(third, j, 0, values, flat3, (k3 * m) * width3, width3, probs)
        for t in range(4):
            for n in range(m):
                out[t, k3, n] = values[t, 0, n]


@njit(cache=True, inline="always")
def _push(tree, i, start, reach, strategy, row_at, width, probs):
    """Forward step of decision ``i``: the actor's reach times their strategy down to each child."""
    p, off, count = tree.player[i], tree.offset[i], tree.actions[i]
    m = reach.shape[2]
    for n in range(m):
        _normalised(strategy, row_at + n * width + off, count, probs)
        for a in range(count):
            child = tree.children[tree.first[i] + a] - start
            reach[p, child, n] = reach[p, i - start, n] * probs[a]
            reach[1 - p, child, n] = reach[1 - p, i - start, n]


@njit(cache=True, inline="always")
def _pull(tree, i, start, values, strategy, row_at, width, probs):
    """Backward step of decision ``i``: the actor's profile value (their mix) and best response (their
    best action), the other player's two values summed over the actor's actions."""
    p, off, count, first = tree.player[i], tree.offset[i], tree.actions[i], tree.first[i]
    j = i - start
    m = values.shape[2]
    for n in range(m):
        _normalised(strategy, row_at + n * width + off, count, probs)
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
    """The four values at deal node ``j`` of the third round for the deal ``k3`` of the third up cards."""
    sec, oc4, deals = walk.section, walk.last, walk.deals
    reach3, values3 = scratch[0], scratch[1]
    reach, values, probs, cum = scratch[3], scratch[4], scratch[6], scratch[7]
    last = sec.last
    m = values3.shape[2]
    for t in range(4):
        for n in range(m):
            values3[t, j, n] = 0.0
    met, own = _reached(reach3, j, 0)
    if not met and not own:  # neither player gets here: every value below is 0
        return
    for g in range(2):
        s = sec.deals[j, g]
        if s < 0:
            continue
        start, stop, width = sec.start[s], sec.stop[s], sec.width[s]
        for k4 in range(deals.span[g, k3, 0], deals.span[g, k3, 1]):
            row_at = sec.store[s] + (k4 - deals.base[g]) * m * width
            for n in range(m):
                reach[0, 0, n] = reach3[0, j, n] * oc4.mask[k4, n]
                reach[1, 0, n] = reach3[1, j, n] * oc4.mask[k4, n]
            for i in range(start, stop):
                if last.kind[i] == DECISION:
                    _push(last, i, start, reach, strategy4, row_at, width, probs)
            for i in range(stop - 1, start - 1, -1):
                if last.kind[i] == DECISION:
                    _pull(last, i, start, values, strategy4, row_at, width, probs)
                    continue
                for p in range(2):
                    leaf(last, oc4, i, k4, p, reach[1 - p, i - start], cum, values[p, i - start])
                    for n in range(m):
                        values[2 + p, i - start, n] = values[p, i - start, n]
            for t in range(4):
                for n in range(m):
                    values3[t, j, n] += deals.mult[k4, n] * values[t, 0, n]
    for t in range(4):
        for n in range(m):
            values3[t, j, n] *= deals.chance[0]
