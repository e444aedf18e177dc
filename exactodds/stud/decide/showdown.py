"""What a finished hand pays the deciding player, for many deals at once: the engine's pots (side pots
exact) awarded by each deal's showdown strengths.

Each cell of a walk is one deal of the up cards (its row) with one assignment of the other players'
hole cards; a hand that ended with a showdown pays each cell by the order of the live players'
strengths in it, a hand won by folds pays the same in every cell. ``dead_money`` (a position given
by its pot, where the chips of players no longer in the hand belong to no seat) joins the main pot.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from exactodds.handrank import evaluate_batch
from exactodds.stud.engine.settlement import Pot, award
from exactodds.stud.engine.state import StudHand


def with_dead_money(pots: tuple[Pot, ...], dead_money: int) -> tuple[Pot, ...]:
    """The pots with ``dead_money`` added to the main pot."""
    if not dead_money or not pots:
        return pots
    return (Pot(amount=pots[0].amount + dead_money, players=pots[0].players), *pots[1:])


def payoffs(node: StudHand, *, me: int, stack: int, own: np.ndarray, holes: Mapping[int, np.ndarray],
            ups: Mapping[int, np.ndarray], dead_money: int = 0) -> np.ndarray:
    """The chips ``me`` ends the finished ``node`` with minus ``stack`` (its stack at the decision), per
    cell (int64). ``own``: me's hole card per cell; ``holes[p]``: p's hole card per cell; ``ups[p]``:
    p's up cards per cell."""
    out = node.outcome
    assert out is not None
    cells = len(own)
    if not out.showdown_order:
        alone = node.in_hand[0] == me
        chips = out.finishing_stacks[me] - stack + (dead_money if alone else 0)
        return np.full(cells, chips, dtype=np.int64)
    live = node.in_hand
    strength = {}
    for p in live:
        hole = own if p == me else holes[p]
        strength[p] = evaluate_batch(np.concatenate([hole[:, None], ups[p]], axis=1)).astype(np.int64)
    beaten = {p: sum((strength[o] > strength[p]).astype(np.int64) for o in live if o != p) for p in live}
    code = sum(beaten[p] * len(live) ** i for i, p in enumerate(live))
    codes, code_of = np.unique(code, return_inverse=True)
    pots = with_dead_money(out.pots, dead_money)
    base = node.starting_stacks[me] - node.contributed[me] + out.returned[me] - stack
    won = []
    for c in codes.tolist():
        ranks = {p: -((c // len(live) ** i) % len(live)) for i, p in enumerate(live)}
        won.append(sum(share.get(me, 0) for share in award(pots, ranks).values()))
    pay: np.ndarray = base + np.array(won, dtype=np.int64)[np.ravel(code_of)]
    return pay
