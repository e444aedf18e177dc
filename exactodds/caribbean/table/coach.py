"""The exact coach of the table: one decision's EVs, and the exact odds of the whole session.

* :func:`coach_for`: EV(raise) and EV(fold) of the hand in play, from
  :func:`~exactodds.caribbean.decision.decide.decide` (every dealer completion counted, a few
  milliseconds).
* :func:`session_odds`: P(player ahead / draw / bank ahead) after ``hands`` hands of optimal
  play at a constant ante, and the session's exact expectation, from
  :mod:`exactodds.caribbean.studies.session` (the optimal return table, read from the compact
  count in the cache, convolved exactly). Computed once per (profile, hands) per process.

>>> c = coach_for((42, 43, 29, 17, 2), 38, load_profile("standard"))  # Qh Qs 9d 6c 2h, up Jh
>>> c.optimal, c.ev_raise, c.cost("fold")
('raise', Fraction(42797, 32637), Fraction(75434, 32637))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.caribbean.decision.decide import FOLD, RAISE, decide
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.jsonable import exact
from exactodds.memo import BoundedCache


@dataclass(frozen=True, kw_only=True)
class Coach:
    """The exact figures of one decision, in antes (ante = 1). Higher EV is better for the player."""

    ev_raise: Fraction
    ev_fold: Fraction

    @property
    def optimal(self) -> str:
        """ "raise" when EV(raise) > EV(fold) strictly, else "fold" (the tie rule of ``decide``)."""
        return RAISE if self.ev_raise > self.ev_fold else FOLD

    def cost(self, choice: str) -> Fraction:
        """EV given up by ``choice`` in antes: 0 when optimal, else the positive gap (lower is better)."""
        best = max(self.ev_raise, self.ev_fold)
        return best - (self.ev_raise if choice == RAISE else self.ev_fold)


def coach_for(player: tuple[int, ...], up: int, profile: Profile) -> Coach:
    """EV(raise) and EV(fold) of a hand against the up card, exactly (``decide``: every dealer
    completion enumerated)."""
    d = decide(player, up=up, profile=profile)
    return Coach(ev_raise=d.ev_raise, ev_fold=d.ev_fold)


@dataclass(frozen=True, kw_only=True)
class SessionOdds:
    """Exact odds of a session of ``hands`` hands of optimal play at a constant ante of 1."""

    paytable: str
    hands: int
    p_player: Fraction   # net > 0
    p_draw: Fraction     # net = 0
    p_bank: Fraction     # net < 0
    per_hand_ev: Fraction  # antes per hand (negative: the house's edge)

    @property
    def expected_net(self) -> Fraction:
        """The session's exact expectation in antes (``hands x per-hand EV``)."""
        return self.hands * self.per_hand_ev

    def to_dict(self) -> dict[str, Any]:
        """JSON form: exact "p/q" strings with floats beside."""
        out: dict[str, Any] = {"paytable": self.paytable, "hands": self.hands, "exact": True,
                               "method": "exact convolution of the optimal strategy's return table"}
        for key in ("p_player", "p_draw", "p_bank", "per_hand_ev", "expected_net"):
            value = getattr(self, key)
            out[key] = exact(value)
            out[f"{key}_float"] = float(value)
        return out


ODDS_MAX_HANDS = 100  # the exact convolution's limit (studies.session.MAX_HANDS)


def session_odds(profile: Profile | str, hands: int) -> SessionOdds | None:
    """The exact odds of a session, or None beyond ODDS_MAX_HANDS hands.

    Cached per profile and length. The optimal return table comes from the compact count in the
    cache (a few MB, read in a fraction of a second; counted once per machine when missing), not
    from the full situation count, whose arrays would stay in the server's memory.
    """
    if not 1 <= hands <= ODDS_MAX_HANDS:
        return None
    from exactodds.caribbean.analysis.compact import optimal_result
    from exactodds.caribbean.studies.session import session_distribution

    prof = load_profile(profile)

    def compute() -> SessionOdds:
        result = session_distribution(optimal_result(prof), hands=hands, quantiles=())
        d = result.session
        return SessionOdds(paytable=prof.name, hands=hands, p_player=d.p_ahead, p_draw=d.p_even,
                           p_bank=d.p_behind, per_hand_ev=result.per_hand.mean)

    return _ODDS.get((prof, hands), compute)


def session_odds_ready(profile: Profile, hands: int) -> SessionOdds | None:
    """The cached odds if already computed, else None (never blocks on the computation)."""
    return _ODDS.peek((profile, hands))


# Per process: a table serves a few paytables and session lengths.
_ODDS = BoundedCache[tuple[Profile, int], SessionOdds](maxsize=64, name="table session odds")
