"""EV(raise) of any deal by lookup, once the whole-game count of a profile is done.

The whole-game analysis counts every (player hand class, up card) situation exactly; its
``ev_raise_scaled`` table holds EV(raise) x 163,185 x scale as integers. A deal maps to its
situation by renaming suits to the class's canonical form (as
:func:`exactodds.caribbean.strategy.strategies.situation_index` does), so the table gives the
same exact Fraction as :func:`~exactodds.caribbean.decision.decide.decide`, in microseconds
instead of milliseconds. The coach uses it when ready and ``decide`` before.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from exactodds.caribbean.analysis.game import SituationOutcomes
from exactodds.caribbean.decision.settle import DEALER_COMPLETIONS
from exactodds.symmetry import canonical_suit_maps, suit_signature


@dataclass(frozen=True)
class SituationTable:
    """EV(raise) of every situation of one profile, found by a deal's suit signature."""

    ev_raise_scaled: np.ndarray  # (classes, 52) int64
    denominator: int             # DEALER_COMPLETIONS x the profile's scale
    signatures: np.ndarray       # sorted suit signatures of the class representatives
    rows: np.ndarray             # class row of each sorted signature

    @classmethod
    def from_outcomes(cls, outcomes: SituationOutcomes) -> SituationTable:
        signatures = suit_signature(outcomes.counts.players)
        order = np.argsort(signatures, kind="stable")
        return cls(ev_raise_scaled=outcomes.ev_raise_scaled, denominator=DEALER_COMPLETIONS * outcomes.scale,
                   signatures=signatures[order], rows=order)

    def ev_raise(self, player: tuple[int, ...], up: int) -> Fraction | None:
        """EV(raise) in antes of ``player`` (5 cards) against ``up``, or None if the hand is not found."""
        hands = np.array([sorted(player)], dtype=np.int64)
        signature = suit_signature(hands)[0]
        position = int(np.searchsorted(self.signatures, signature))
        if position >= len(self.signatures) or self.signatures[position] != signature:
            return None
        suit_map = canonical_suit_maps(hands)
        canonical_up = (up >> 2) * 4 + int(suit_map[0, up & 3])
        return Fraction(int(self.ev_raise_scaled[self.rows[position], canonical_up]), self.denominator)
