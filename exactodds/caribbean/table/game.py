"""One Caribbean Stud table session: the online table flow as a state machine.

The phases (:class:`~exactodds.caribbean.table.hand.Phase`) of the online table flow, with the
20-hand home session around it:

* ``betting``: chips go on the Ante spot (``add_chip``, ``undo``, ``clear``), then ``deal``;
* ``decision``: the player holds 5 cards and sees the dealer's up card: ``raise_`` or ``fold``
  (a raise needs ``call x ante`` in the bankroll; short of it the hand waits for a ``deposit``,
  unless the session plays ``paper``: then, as in the home rules, play goes on below zero
  without changing the bets);
* ``settled``: the dealer has revealed and the hand is paid: ``rebet`` (same chips, deal) or
  ``new_game`` (an empty Ante spot);
* ``complete``: the session's hands are all played; the result is player, bank or draw.

Money: chips placed on the spot leave the bankroll at once, so at every moment
``bankroll + on_table == starting bankroll + deposits + net of the settled hands`` (exact
fractions: a custom paytable can pay fractions of an ante). Every action is checked first:
an illegal one raises :class:`~exactodds.errors.IllegalActionError` (or a
:class:`TableLimitError`) and changes nothing. Settlement is the one payout rule,
:func:`~exactodds.caribbean.decision.settle.settle`, scaled by the ante.

The deck is shuffled by the operating system's CSPRNG (``secrets.SystemRandom``) unless a
practice ``seed`` is given; then deal ``k`` uses ``random.Random(f"{seed}:{k}")``, which is
reproducible and says so (``practice`` in the session's view,
:func:`~exactodds.caribbean.table.forms.session_view`).

>>> s = TableSession(profile="standard", bankroll=100, hands=2, seed=7)
>>> s.add_chip(5); s.add_chip(5); s.undo(); s.deal()
>>> str(s.phase), s.ante, s.bankroll
('decision', 5, Fraction(95, 1))
>>> s.legal_actions()
('raise', 'fold', 'deposit')
>>> s.fold(); str(s.phase), s.bankroll, s.history[-1].net
('settled', Fraction(95, 1), Fraction(-5, 1))
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.decision.settle import settle
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.caribbean.table.coach import coach_for
from exactodds.caribbean.table.hand import CoachFn, Hand, Phase
from exactodds.caribbean.table.limits import (
    DEFAULT_MAX_BET,
    DEFAULT_MIN_BET,
    MAX_AMOUNT,
    MAX_HANDS,
    DepositError,
    TableLimitError,
    _whole,
)
from exactodds.caribbean.table.records import HandRecord
from exactodds.display import money
from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.handrank import evaluate
from exactodds.jsonable import exact

__all__ = ["TableSession"]


@dataclass
class _Totals:
    """Sums over the counted hands of ``history[:upto]`` (chips, or antes for the EV given up)."""

    upto: int = 0
    hands: int = 0
    mistakes: int = 0
    net: Fraction = Fraction(0)
    given_up: Fraction = Fraction(0)
    given_up_chips: Fraction = Fraction(0)
    expected: Fraction = Fraction(0)


class TableSession:
    """A table session: profile, table limits, bankroll, session length and the hand in play.

    Built by keyword; ``id`` defaults to ``secrets.token_urlsafe(16)``. Actions are the methods
    ``add_chip``, ``undo``, ``clear``, ``deal``, ``raise_``, ``fold``, ``rebet``, ``new_game``,
    ``deposit`` and ``set_hide_coach``.
    """

    def __init__(
        self, *, profile: Profile | str = "standard", bankroll: int | Fraction = 1000, hands: int = 20,
        min_bet: int = DEFAULT_MIN_BET, max_bet: int = DEFAULT_MAX_BET, seed: int | None = None,
        hide_coach: bool = False, paper: bool = False, id: str | None = None,
        starting_bankroll: Fraction | None = None,
        deposits: list[int] | None = None, spot: list[int] | None = None, last_bet: list[int] | None = None,
        phase: Phase | str = Phase.BETTING, hand: Hand | None = None, deals: int = 0,
        history: list[HandRecord] | None = None,
        coach_fn: CoachFn = coach_for,
    ) -> None:
        self.profile: Profile = load_profile(profile)
        self.hands = _whole(hands, what="hands", low=1, high=MAX_HANDS, error=TableLimitError)
        self.min_bet = _whole(min_bet, what="min_bet", low=1, high=MAX_AMOUNT, error=TableLimitError)
        self.max_bet = _whole(max_bet, what="max_bet", low=1, high=MAX_AMOUNT, error=TableLimitError)
        if self.min_bet > self.max_bet:
            raise TableLimitError(f"min_bet {self.min_bet:,} is above max_bet {self.max_bet:,}")
        if seed is not None:
            _whole(seed, what="seed", low=0, high=2**63 - 1, error=TableLimitError)
        self.seed = seed
        self.bankroll: Fraction = (bankroll if isinstance(bankroll, Fraction) else Fraction(
            _whole(bankroll, what="bankroll", low=0, high=MAX_AMOUNT, error=DepositError)))
        self.starting_bankroll: Fraction = self.bankroll if starting_bankroll is None else starting_bankroll
        for name, flag in (("hide_coach", hide_coach), ("paper", paper)):
            if not isinstance(flag, bool):
                raise TableLimitError(f"{name} must be true or false, got {flag!r}")
        self.paper = paper
        self.hide_coach = hide_coach
        self.id = id if id is not None else secrets.token_urlsafe(16)
        self.deposits: list[int] = list(deposits or [])
        self.spot: list[int] = list(spot or [])
        self.last_bet: list[int] = list(last_bet or [])
        if phase not in tuple(Phase):
            raise IllegalActionError(f"unknown phase {phase!r} (known: {', '.join(Phase)})")
        self.phase = Phase(phase)
        self.hand = hand
        self.deals = deals
        self.history: list[HandRecord] = list(history or [])
        self.coach_fn = coach_fn
        self._totals = _Totals()

    # ------------------------------------------------------------------ derived figures
    @property
    def ante(self) -> int:
        """Chips on the Ante spot (the hand's ante once dealt)."""
        return self.hand.ante if self.hand is not None else sum(self.spot)

    @property
    def on_table(self) -> Fraction:
        """Chips of the player's on the table: the ante spot, or the ante of the hand in play."""
        return Fraction(self.ante)

    @property
    def counted(self) -> list[HandRecord]:
        """The settled hands that count (void deals excluded)."""
        return [h for h in self.history if h.decision != "void"]

    def _sums(self) -> _Totals:
        """Running totals of the counted hands, brought up to date with the (append-only) history."""
        totals = self._totals
        if totals.upto > len(self.history):  # the history was replaced: start again
            totals = self._totals = _Totals()
        for h in self.history[totals.upto:]:
            if h.decision != "void":
                totals.hands += 1
                totals.net += h.net
                totals.given_up += h.cost
                totals.given_up_chips += h.cost * h.ante
                totals.expected += h.expected_net
                totals.mistakes += h.cost > 0
        totals.upto = len(self.history)
        return totals

    @property
    def hands_played(self) -> int:
        return self._sums().hands

    @property
    def net(self) -> Fraction:
        """The session's net result in chips (positive: the player is ahead)."""
        return self._sums().net

    @property
    def call_amount(self) -> Fraction:
        """The raise of the hand in play (or of the ante on the spot): ``call x ante`` chips."""
        return self.profile.call * self.ante

    @property
    def practice(self) -> bool:
        """True when the deck follows a practice seed (reproducible, not a fair random shuffle)."""
        return self.seed is not None

    def legal_actions(self) -> tuple[str, ...]:
        """The actions allowed now, in the order the page shows them."""
        if self.phase == Phase.BETTING:
            acts = ["chips"]
            if self.spot:
                acts += ["undo", "clear"]
                if self._deal_problem(self.ante) is None:
                    acts.append("deal")
            return (*acts, "deposit")
        if self.phase == Phase.DECISION:
            return ("raise", "fold", "deposit") if self._covers(self.call_amount) else ("fold", "deposit")
        if self.phase == Phase.SETTLED:
            acts = ["new_game"]
            if self._deal_problem(sum(self.last_bet)) is None:
                acts.append("rebet")
            return (*acts, "deposit")
        return ()

    # ------------------------------------------------------------------ actions
    def add_chip(self, value: int) -> None:
        """Put one chip of ``value`` on the Ante spot."""
        self._need(Phase.BETTING, action="placing chips")
        value = _whole(value, what="a chip", low=1, high=MAX_AMOUNT, error=TableLimitError)
        total = sum(self.spot) + value
        if total > self.max_bet:
            raise TableLimitError(f"an ante of {total:,} is above the table maximum of {self.max_bet:,}")
        if not self._covers(value):
            raise IllegalActionError(f"a chip of {value:,} is more than the bankroll of "
                                     f"{money(self.bankroll)}; deposit first")
        self.spot.append(value)
        self.bankroll -= value

    def undo(self) -> None:
        """Take the last chip off the Ante spot."""
        self._need(Phase.BETTING, action="undo")
        if not self.spot:
            raise IllegalActionError("undo: there is no chip on the Ante spot")
        self.bankroll += self.spot.pop()

    def clear(self) -> None:
        """Take every chip off the Ante spot."""
        self._need(Phase.BETTING, action="clear")
        if not self.spot:
            raise IllegalActionError("clear: there is no chip on the Ante spot")
        self.bankroll += sum(self.spot)
        self.spot = []

    def deal(self) -> None:
        """Deal the hand for the chips on the Ante spot: 5 cards each, the dealer's first face up."""
        self._need(Phase.BETTING, action="deal")
        problem = self._deal_problem(self.ante)
        if problem is not None:
            raise problem
        self._deal_now()

    def rebet(self) -> None:
        """Repeat the last hand's bet and deal."""
        self._need(Phase.SETTLED, action="rebet")
        problem = self._deal_problem(sum(self.last_bet))
        if problem is not None:
            raise problem
        self.spot = list(self.last_bet)
        self.bankroll -= sum(self.spot)
        self.phase = Phase.BETTING
        self._deal_now()

    def new_game(self) -> None:
        """Start a new bet after a hand: an empty Ante spot."""
        self._need(Phase.SETTLED, action="new game")
        self.phase = Phase.BETTING
        self.spot = []

    def raise_(self) -> None:
        """Raise (call ``call x ante``), then the dealer reveals and the hand settles."""
        self._need(Phase.DECISION, action="raise")
        if not self._covers(self.call_amount):
            raise IllegalActionError(
                f"raise needs {money(self.call_amount)} but the bankroll holds {money(self.bankroll)}; "
                "deposit more funds and come back to this hand")
        self._settle(Choice.RAISE)

    def fold(self) -> None:
        """Fold: the ante is lost and the dealer reveals."""
        self._need(Phase.DECISION, action="fold")
        self._settle(Choice.FOLD)

    def deposit(self, amount: int) -> None:
        """Add funds to the bankroll (allowed at any time before the session is complete)."""
        if self.phase == Phase.COMPLETE:
            raise IllegalActionError("deposit: the session is complete")
        amount = _whole(amount, what="a deposit", low=1, high=MAX_AMOUNT, error=DepositError)
        if self.bankroll + amount > MAX_AMOUNT * 10:
            raise DepositError(f"a deposit of {amount:,} would take the bankroll past {MAX_AMOUNT * 10:,}")
        self.deposits.append(amount)
        self.bankroll += amount

    def set_hide_coach(self, hide: bool) -> None:
        """Hide the coach's figures until the decision is made ("show after I decide")."""
        if not isinstance(hide, bool):
            raise IllegalActionError(f"hide_coach must be true or false, got {hide!r}")
        self.hide_coach = hide

    def void_hand(self) -> HandRecord:
        """Void the hand in play (an incomplete or wrong deal): the ante returns, nothing counts."""
        self._need(Phase.DECISION, action="void")
        assert self.hand is not None
        hand = self.hand
        record = HandRecord(number=0, deal=hand.deal, ante=hand.ante, player=hand.player, dealer=hand.dealer,
                            decision="void", optimal=hand.coach.optimal, ev_raise=hand.coach.ev_raise,
                            ev_fold=hand.coach.ev_fold, event="void", net=Fraction(0))
        self.bankroll += hand.ante
        self.history.append(record)
        self.hand = None
        self.spot = []
        self.phase = Phase.BETTING
        return record

    # ------------------------------------------------------------------ internals
    def _need(self, *phases: Phase, action: str) -> None:
        if self.phase not in phases:
            if self.phase == Phase.COMPLETE:
                raise IllegalActionError(f"{action}: the session of {self.hands} hands is complete")
            raise IllegalActionError(f"{action} is not allowed now (the hand is in the {self.phase} phase; "
                                     f"allowed: {', '.join(self.legal_actions())})")

    def _deal_problem(self, ante: int) -> ExactOddsError | None:
        """Why a deal with this ante cannot happen (chips already on the spot count as funds)."""
        if ante <= 0:
            return IllegalActionError("deal: place an ante on the Ante spot first")
        if not self.min_bet <= ante <= self.max_bet:
            return TableLimitError(f"an ante of {ante:,} is outside the table limits "
                                   f"{self.min_bet:,} to {self.max_bet:,}")
        funds = self.bankroll + (sum(self.spot) if self.phase == Phase.BETTING else 0)
        if ante > funds and not self.paper:
            return IllegalActionError(f"an ante of {ante:,} is more than the bankroll of {money(funds)}; "
                                      "deposit first")
        return None

    def _covers(self, amount: Fraction | int) -> bool:
        """Whether the bankroll can put ``amount`` on the table (always, on paper)."""
        return self.paper or self.bankroll >= amount

    def _shuffle(self, deal: int) -> list[int]:
        rng: random.Random = (random.Random(f"{self.seed}:{deal}") if self.seed is not None
                              else secrets.SystemRandom())
        return rng.sample(range(52), 10)

    def _deal_now(self) -> None:
        deal = self.deals + 1
        cards = self._shuffle(deal)
        player, dealer = tuple(cards[:5]), tuple(cards[5:])
        coach = self.coach_fn(player, dealer[0], self.profile)
        self.hand = Hand(deal=deal, ante=self.ante, player=player, dealer=dealer, coach=coach)
        self.deals = deal
        self.last_bet = list(self.spot)
        self.spot = []
        self.phase = Phase.DECISION

    def _settle(self, choice: str) -> None:
        assert self.hand is not None
        hand = self.hand
        result = settle(evaluate(hand.player), evaluate(hand.dealer), raised=choice == Choice.RAISE,
                        profile=self.profile)
        net = hand.ante * result.net
        # The ante left the bankroll when placed; a raise's call leaves and comes back with the rest:
        # either way the bankroll gets the ante back plus the net.
        self.bankroll += hand.ante + net
        record = HandRecord(number=self.hands_played + 1, deal=hand.deal, ante=hand.ante, player=hand.player,
                            dealer=hand.dealer, decision=choice, optimal=hand.coach.optimal,
                            ev_raise=hand.coach.ev_raise, ev_fold=hand.coach.ev_fold, event=result.event,
                            net=net)
        self.history.append(record)
        self.hand = None
        self.phase = Phase.COMPLETE if self.hands_played >= self.hands else Phase.SETTLED

    # ------------------------------------------------------------------ coach and views
    def coach_totals(self) -> dict[str, Any]:
        """Session figures of the coach: hands, net, mistakes, EV given up (antes and chips)."""
        t = self._sums()
        out: dict[str, Any] = {"hands": t.hands, "mistakes": t.mistakes}
        figures = (("net", t.net), ("ev_given_up", t.given_up), ("ev_given_up_chips", t.given_up_chips),
                   ("expected_net", t.expected))
        for key, value in figures:
            out[key] = exact(value)
            out[f"{key}_float"] = float(value)
        return out

    def outcome(self) -> str | None:
        """At the end of the session: "player", "bank" or "draw" by the sign of the net; else None."""
        if self.phase != Phase.COMPLETE:
            return None
        return "player" if self.net > 0 else "bank" if self.net < 0 else "draw"


