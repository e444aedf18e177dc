"""Where the compiled play-out (:mod:`exactodds.stud.decide.kernels.hands`) keeps each thing in its
few arrays: the hand's state in two (the round's scalars, one row per seat), the models' rules in
one row each, and what a world's cards give each player (filled once per world, shared by every
root action).

Few arrays rather than a bundle of many: a compiled call counts a reference to every array it is
passed, and a bundle of twenty arrays made those counts most of the play-out's time.
"""

from __future__ import annotations

# The round's scalars (int64; flags 0 or 1).
ROUND, LEVEL, FULL_LEVEL, WAGERS, LAST_AGGRESSOR, PENDING, MAY_RAISE, OPENER, ACTOR, PHASE = range(10)
BIG_USED, BRING_IN_DUE, CAPPED, OPEN_PAIR = range(10, 14)
TABLE_FIELDS = 14

# One row per seat (int64): the up cards in UP .. UP + 3.
STACK, CONTRIBUTED, ROUND_BET, FOLDED, HOLE, UP = range(6)
SEAT_FIELDS = UP + 4

# One row per model rule (int64, -1 where not checked); the strength thresholds for k own cards in
# STRENGTH_LO + k and STRENGTH_HI + k (k < 6).
FACING_BITS, ROUND_BITS, PAIRED, CLASS_LO, CLASS_HI, COVERS = range(6)
CALL_MAX, BETS_BELOW, OPP_MAX, OPP_MIN = range(6, 10)
STRENGTH_LO = 10
STRENGTH_HI = 16
RULE_FIELDS = 22

# One row per model (int64).
FIRST_RULE, RULE_COUNT, LARGEST, NEEDS = range(4)
MODEL_FIELDS = 4
NEEDS_CLASS, NEEDS_STRENGTH = 1, 2  # bits of NEEDS: some rule reads the hand class, the strength

# What a world's cards give a player (memo[player, what, k], k own or up cards; -1 until read).
CLASS, PAIRED_NOW, STRENGTH, RANK, VISIBLE_KEY = range(5)
MEMO_FIELDS = 5
