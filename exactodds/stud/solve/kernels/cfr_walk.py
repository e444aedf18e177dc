"""Compiled CFR walks of the last betting round, one chance outcome (a pair of classes of last up cards)
at a time over all the outcomes of a context.

For one outcome k the subtree below the deal is small (M public nodes, m hole-card classes): a forward
pass in tree order pushes both players' reach down (the acting player's reach times their current
strategy), a backward pass in reverse order brings the updating player's counterfactual values up,
updating that player's regrets (floored at zero: CFR+) and average strategy at their decisions. The
arithmetic is that of :mod:`exactodds.stud.solve.cfr` and :mod:`exactodds.stud.solve.cards_to_come` (the
numpy walk the tests compare it with); the subtree, the outcomes and the learner's state arrive as
typed bundles (:class:`~exactodds.stud.solve.last_round.Subtree`,
:class:`~exactodds.stud.solve.last_round.Outcomes`, :class:`~exactodds.stud.solve.last_round.Learner`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

DECISION = 0
FOLD = 1
SHOWDOWN = 2


@njit(cache=True, inline="always")
def _strategy(regret, k, n, off, count, out):
    """Regret matching of one information set into ``out[0:count]`` (uniform when no regret is positive)."""
    total = 0.0
    for a in range(count):
        r = regret[k, n, off + a]
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
def leaf(tree, oc, j, k, player, opp, cum, out):
    """``player``'s counterfactual values of leaf ``j`` for outcome ``k`` given the opponent's reach per
    card (``opp``, m classes of ``oc.avail[k]`` cards each, one of the player's own class being theirs)."""
    n_cards = opp.shape[0]
    mass = 0.0
    for m in range(n_cards):
        mass += opp[m] * oc.avail[k, m]
    if mass == 0.0:  # the opponent never gets here (its reach is 0 on every card left): nothing to win
        for n in range(n_cards):
            out[n] = 0.0
        return
    own = tree.added[j, player]
    pot = tree.final_pot[j]
    if tree.kind[j] == FOLD:
        gain = pot - own if tree.winner[j] == player else -own
        for n in range(n_cards):
            out[n] = gain * (mass - opp[n])
        return
    cum[0] = 0.0
    for i in range(n_cards):
        m = oc.order[player, k, i]
        cum[i + 1] = cum[i] + opp[m] * oc.avail[k, m]
    share = tree.share[j, player]
    for n in range(n_cards):
        s = oc.self_sign[player, k, n]
        lo = cum[oc.below[player, k, n]]
        hi = cum[oc.at_most[player, k, n]]
        win = lo - (opp[n] if s > 0 else 0.0)
        tie = hi - lo - (opp[n] if s == 0 else 0.0)
        out[n] = win * pot + tie * share - own * (mass - opp[n])


@njit(cache=True)
def cfr_last_round(tree, oc, learner, me, weight):
    """One CFR+ walk for player ``me`` of every outcome of the context: returns the K x m values at the
    subtree's root (before the outcome's weight and the chance weight); updates the learner's regrets
    and average (K x m x A, the actions of every decision laid end to end) in place, the average
    weighted by ``weight``."""
    k_count, n_cards = oc.mask.shape
    m_count = tree.kind.shape[0]
    out = np.zeros((k_count, n_cards))
    width = max(tree.width, 1)
    scratch = (np.zeros((2, m_count, n_cards)), np.zeros((n_cards, width)), np.zeros((m_count, n_cards)),
               np.empty(width), np.empty(n_cards + 1))  # reach, sigma, values, probs, cum: reused
    for k in range(k_count):
        _outcome(tree, oc, learner, me, weight, k, scratch)
        values = scratch[2]
        for n in range(n_cards):
            out[k, n] = values[0, n]
    return out


@njit(cache=True)
def _outcome(tree, oc, learner, me, weight, k, scratch):
    """The walk of outcome ``k``: leaves ``values[0]`` (the subtree root's values) filled."""
    reach, sigma, values, probs, cum = scratch
    regret, keep = learner.regret, learner.keep
    m_count = tree.kind.shape[0]
    n_cards = oc.mask.shape[1]
    for n in range(n_cards):
        reach[0, 0, n] = learner.r0[n] * oc.mask[k, n]
        reach[1, 0, n] = learner.r1[n] * oc.mask[k, n]
    for j in range(m_count):  # forward: tree order, parents first
        if tree.kind[j] != DECISION:
            continue
        p = tree.player[j]
        off, count = tree.offset[j], tree.actions[j]
        for n in range(n_cards):
            _strategy(regret, k, n, off, count, probs)
            for a in range(count):
                child = tree.children[tree.first[j] + a]
                reach[p, child, n] = reach[p, j, n] * probs[a]
                reach[1 - p, child, n] = reach[1 - p, j, n]
                sigma[n, off + a] = probs[a]
    for j in range(m_count - 1, -1, -1):  # backward: children first
        if tree.kind[j] != DECISION:
            leaf(tree, oc, j, k, me, reach[1 - me, j], cum, values[j])
            continue
        p = tree.player[j]
        off, count, first = tree.offset[j], tree.actions[j], tree.first[j]
        if p != me:
            for n in range(n_cards):
                v = 0.0
                for a in range(count):
                    v += values[tree.children[first + a], n]
                values[j, n] = v
            continue
        for n in range(n_cards):
            v = 0.0
            for a in range(count):
                v += sigma[n, off + a] * values[tree.children[first + a], n]
            values[j, n] = v
            own = reach[me, j, n]
            for a in range(count):
                r = regret[k, n, off + a] + values[tree.children[first + a], n] - v
                regret[k, n, off + a] = r * (keep[0] if r > 0.0 else keep[1])
                learner.average[k, n, off + a] += weight * own * sigma[n, off + a]
