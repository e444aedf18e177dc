"""One Caribbean Stud table session: the online table flow as a state machine.

Phases of a session (the online table flow, with the 20-hand home session around it):

* ``betting``: chips go on the Ante spot (``add_chip``, ``undo``, ``clear``), then ``deal``;
* ``decision``: the player holds 5 cards and sees the dealer's up card: ``raise_`` or ``fold``
  (a raise needs ``call x ante`` in the bankroll; short of it the hand waits for a ``deposit``);
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
reproducible and says so (``practice`` in :meth:`TableSession.view`).

>>> s = TableSession(profile="standard", bankroll=100, hands=2, seed=7)
>>> s.add_chip(5); s.add_chip(5); s.undo(); s.deal()
>>> s.phase, s.ante, s.bankroll
('decision', 5, Fraction(95, 1))
>>> s.legal_actions()
('raise', 'fold', 'deposit')
>>> s.fold(); s.phase, s.bankroll, s.history[-1].net
('settled', Fraction(95, 1), Fraction(-5, 1))
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from exactodds.cards import format_card
from exactodds.caribbean.decision.decide import FOLD, RAISE
from exactodds.caribbean.decision.settle import EVENT_LABELS, settle
from exactodds.caribbean.profile import PAY_CATEGORIES, PAY_LABELS, Profile, load_profile
from exactodds.caribbean.table.coach import Coach, coach_for
from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.handrank import describe, evaluate

BETTING, DECISION, SETTLED, COMPLETE = "betting", "decision", "settled", "complete"
PHASES = (BETTING, DECISION, SETTLED, COMPLETE)
CHIP_VALUES = (1, 5, 25, 100)  # the chip choices the page offers; the API takes any whole chip
MAX_AMOUNT = 10**9  # a deposit or a bankroll beyond this is a typo
MAX_HANDS = 1000  # longer play is allowed; the exact session odds exist up to coach.ODDS_MAX_HANDS
DEFAULT_MIN_BET, DEFAULT_MAX_BET = 1, 100


class TableLimitError(ExactOddsError):
    """A bet outside the table's minimum and maximum, or a table set up with impossible limits."""


class DepositError(ExactOddsError):
    """A deposit that is not a positive whole amount within bounds."""


def _whole(value: Any, *, what: str, low: int, high: int, error: type[ExactOddsError]) -> int:
    """``value`` as an int in [low, high], or ``error`` naming it (booleans and floats refused)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{what} must be a whole number, got {value!r}")
    if not low <= value <= high:
        shown = f"{value:,}" if abs(value) < 10**15 else f"a number of {len(str(abs(value)))} digits"
        raise error(f"{what} must be between {low:,} and {high:,}, got {shown}")
    return value


@dataclass(frozen=True, kw_only=True)
class HandRecord:
    """One settled (or void) hand. Money in chips; EVs and cost in antes."""

    number: int           # 1-based among the session's counted hands (0 for a void hand)
    deal: int             # 1-based among all deals, void ones included
    ante: int
    player: tuple[int, ...]
    dealer: tuple[int, ...]  # the up card first
    decision: str         # "raise", "fold" or "void"
    optimal: str
    ev_raise: Fraction
    ev_fold: Fraction
    event: str            # a settle() event, or "void"
    net: Fraction         # chips won (+) or lost (-)

    @cached_property
    def cost(self) -> Fraction:
        """EV (antes) the decision gave up: 0 when optimal or void."""
        if self.decision not in (RAISE, FOLD):
            return Fraction(0)
        return Coach(ev_raise=self.ev_raise, ev_fold=self.ev_fold).cost(self.decision)

    @property
    def expected_net(self) -> Fraction:
        """The chips the decision was worth on average, given the cards: ante x EV(choice)."""
        if self.decision == RAISE:
            return self.ante * self.ev_raise
        if self.decision == FOLD:
            return self.ante * self.ev_fold
        return Fraction(0)

    def to_dict(self) -> dict[str, Any]:
        """JSON form: cards as strings, exact values "p/q" with floats beside."""
        return {k: list(v) if isinstance(v, list) else v for k, v in self._dict.items()}

    @cached_property
    def _dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "number": self.number, "deal": self.deal, "ante": self.ante,
            "player": [format_card(c) for c in self.player],
            "dealer": [format_card(c) for c in self.dealer],
            "player_hand": _describe(self.player), "dealer_hand": _describe(self.dealer),
            "decision": self.decision, "optimal": self.optimal, "event": self.event,
            "event_label": EVENT_LABELS.get(self.event, "void deal: bets returned"),
        }
        for key in ("ev_raise", "ev_fold", "net", "cost", "expected_net"):
            value = getattr(self, key)
            out[key] = _exact(value)
            out[f"{key}_float"] = float(value)
        return out


@dataclass(kw_only=True)
class Hand:
    """The hand in play (decision phase). ``dealer[1:]`` are the hole cards: never shown before reveal."""

    deal: int
    ante: int
    player: tuple[int, ...]
    dealer: tuple[int, ...]
    coach: Coach


def _describe(cards: tuple[int, ...]) -> str:
    """The hand's name, or "" for the incomplete hand of a void deal."""
    return describe(cards) if len(set(cards)) == 5 else ""


def _exact(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def _fraction(text: str) -> Fraction:
    return Fraction(text)


@dataclass(kw_only=True)
class TableSession:
    """A table session: profile, table limits, bankroll, session length and the hand in play.

    Built by keyword; ``id`` defaults to ``secrets.token_urlsafe(16)``. Actions are the methods
    ``add_chip``, ``undo``, ``clear``, ``deal``, ``raise_``, ``fold``, ``rebet``, ``new_game``,
    ``deposit`` and ``set_hide_coach``.
    """

    profile: Profile | str = "standard"
    bankroll: Fraction | int = 1000
    hands: int = 20
    min_bet: int = DEFAULT_MIN_BET
    max_bet: int = DEFAULT_MAX_BET
    seed: int | None = None
    hide_coach: bool = False
    id: str = field(default_factory=lambda: secrets.token_urlsafe(16))
    starting_bankroll: Fraction = field(default=Fraction(-1))
    deposits: list[int] = field(default_factory=list)
    spot: list[int] = field(default_factory=list)
    last_bet: list[int] = field(default_factory=list)
    phase: str = BETTING
    hand: Hand | None = None
    deals: int = 0
    history: list[HandRecord] = field(default_factory=list)
    coach_fn: Callable[[tuple[int, ...], int, Profile], Coach] = field(default=coach_for, repr=False)

    def __post_init__(self) -> None:
        self.profile = load_profile(self.profile)
        self.hands = _whole(self.hands, what="hands", low=1, high=MAX_HANDS, error=TableLimitError)
        self.min_bet = _whole(self.min_bet, what="min_bet", low=1, high=MAX_AMOUNT, error=TableLimitError)
        self.max_bet = _whole(self.max_bet, what="max_bet", low=1, high=MAX_AMOUNT, error=TableLimitError)
        if self.min_bet > self.max_bet:
            raise TableLimitError(f"min_bet {self.min_bet:,} is above max_bet {self.max_bet:,}")
        if self.seed is not None:
            _whole(self.seed, what="seed", low=0, high=2**63 - 1, error=TableLimitError)
        if not isinstance(self.bankroll, Fraction):
            self.bankroll = Fraction(_whole(self.bankroll, what="bankroll", low=0, high=MAX_AMOUNT,
                                            error=DepositError))
        if self.starting_bankroll < 0:
            self.starting_bankroll = self.bankroll

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

    @property
    def hands_played(self) -> int:
        return len(self.counted)

    @property
    def net(self) -> Fraction:
        """The session's net result in chips (positive: the player is ahead)."""
        return sum((h.net for h in self.counted), Fraction(0))

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
        if self.phase == BETTING:
            acts = ["chips"]
            if self.spot:
                acts += ["undo", "clear"]
                if self._deal_problem(self.ante) is None:
                    acts.append("deal")
            return (*acts, "deposit")
        if self.phase == DECISION:
            return ("raise", "fold", "deposit") if self.bankroll >= self.call_amount else ("fold", "deposit")
        if self.phase == SETTLED:
            acts = ["new_game"]
            if self._deal_problem(sum(self.last_bet)) is None:
                acts.append("rebet")
            return (*acts, "deposit")
        return ()

    # ------------------------------------------------------------------ actions
    def add_chip(self, value: int) -> None:
        """Put one chip of ``value`` on the Ante spot."""
        self._need(BETTING, action="placing chips")
        value = _whole(value, what="a chip", low=1, high=MAX_AMOUNT, error=TableLimitError)
        total = sum(self.spot) + value
        if total > self.max_bet:
            raise TableLimitError(f"an ante of {total:,} is above the table maximum of {self.max_bet:,}")
        if value > self.bankroll:
            raise IllegalActionError(f"a chip of {value:,} is more than the bankroll of "
                                     f"{_money(self.bankroll)}; deposit first")
        self.spot.append(value)
        self.bankroll -= value

    def undo(self) -> None:
        """Take the last chip off the Ante spot."""
        self._need(BETTING, action="undo")
        if not self.spot:
            raise IllegalActionError("undo: there is no chip on the Ante spot")
        self.bankroll += self.spot.pop()

    def clear(self) -> None:
        """Take every chip off the Ante spot."""
        self._need(BETTING, action="clear")
        if not self.spot:
            raise IllegalActionError("clear: there is no chip on the Ante spot")
        self.bankroll += sum(self.spot)
        self.spot = []

    def deal(self) -> None:
        """Deal the hand for the chips on the Ante spot: 5 cards each, the dealer's first face up."""
        self._need(BETTING, action="deal")
        problem = self._deal_problem(self.ante)
        if problem is not None:
            raise problem
        self._deal_now()

    def rebet(self) -> None:
        """Repeat the last hand's bet and deal."""
        self._need(SETTLED, action="rebet")
        problem = self._deal_problem(sum(self.last_bet))
        if problem is not None:
            raise problem
        self.spot = list(self.last_bet)
        self.bankroll -= sum(self.spot)
        self.phase = BETTING
        self._deal_now()

    def new_game(self) -> None:
        """Start a new bet after a hand: an empty Ante spot."""
        self._need(SETTLED, action="new game")
        self.phase = BETTING
        self.spot = []

    def raise_(self) -> None:
        """Raise (call ``call x ante``), then the dealer reveals and the hand settles."""
        self._need(DECISION, action="raise")
        if self.bankroll < self.call_amount:
            raise IllegalActionError(
                f"raise needs {_money(self.call_amount)} but the bankroll holds {_money(self.bankroll)}; "
                "deposit more funds and come back to this hand")
        self._settle(RAISE)

    def fold(self) -> None:
        """Fold: the ante is lost and the dealer reveals."""
        self._need(DECISION, action="fold")
        self._settle(FOLD)

    def deposit(self, amount: int) -> None:
        """Add funds to the bankroll (allowed at any time before the session is complete)."""
        if self.phase == COMPLETE:
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
        self._need(DECISION, action="void")
        assert self.hand is not None
        hand = self.hand
        record = HandRecord(number=0, deal=hand.deal, ante=hand.ante, player=hand.player, dealer=hand.dealer,
                            decision="void", optimal=hand.coach.optimal, ev_raise=hand.coach.ev_raise,
                            ev_fold=hand.coach.ev_fold, event="void", net=Fraction(0))
        self.bankroll += hand.ante
        self.history.append(record)
        self.hand = None
        self.spot = []
        self.phase = BETTING
        return record

    # ------------------------------------------------------------------ internals
    def _need(self, *phases: str, action: str) -> None:
        if self.phase not in phases:
            if self.phase == COMPLETE:
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
        funds = self.bankroll + (sum(self.spot) if self.phase == BETTING else 0)
        if ante > funds:
            return IllegalActionError(f"an ante of {ante:,} is more than the bankroll of {_money(funds)}; "
                                      "deposit first")
        return None

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
        self.phase = DECISION

    def _settle(self, choice: str) -> None:
        assert self.hand is not None
        hand = self.hand
        result = settle(evaluate(hand.player), evaluate(hand.dealer), raised=choice == RAISE,
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
        self.phase = COMPLETE if self.hands_played >= self.hands else SETTLED

    # ------------------------------------------------------------------ coach and views
    def coach_totals(self) -> dict[str, Any]:
        """Session figures of the coach: hands, net, mistakes, EV given up (antes and chips)."""
        counted = self.counted
        given_up = sum((h.cost for h in counted), Fraction(0))
        given_up_chips = sum((h.cost * h.ante for h in counted), Fraction(0))
        expected = sum((h.expected_net for h in counted), Fraction(0))
        out: dict[str, Any] = {"hands": len(counted), "mistakes": sum(1 for h in counted if h.cost > 0)}
        figures = (("net", self.net), ("ev_given_up", given_up), ("ev_given_up_chips", given_up_chips),
                   ("expected_net", expected))
        for key, value in figures:
            out[key] = _exact(value)
            out[f"{key}_float"] = float(value)
        return out

    def outcome(self) -> str | None:
        """At the end of the session: "player", "bank" or "draw" by the sign of the net; else None."""
        if self.phase != COMPLETE:
            return None
        return "player" if self.net > 0 else "bank" if self.net < 0 else "draw"

    def view(self) -> dict[str, Any]:
        """What the player may see now (JSON-ready). The dealer's hole cards appear only once settled."""
        out: dict[str, Any] = {
            "id": self.id, "paytable": self.profile.name, "phase": self.phase,
            "hands": self.hands, "hands_played": self.hands_played, "deals": self.deals,
            "min_bet": self.min_bet, "max_bet": self.max_bet, "chip_values": list(CHIP_VALUES),
            "bankroll": _exact(self.bankroll), "bankroll_float": float(self.bankroll),
            "starting_bankroll": _exact(self.starting_bankroll),
            "deposits": list(self.deposits), "deposited": sum(self.deposits),
            "spot": list(self.spot) if self.phase == BETTING else [],
            "ante": self.ante if self.phase in (BETTING, DECISION) else 0,
            "last_bet": list(self.last_bet),
            "call": _exact(self.profile.call), "hide_coach": self.hide_coach,
            "practice": self.practice, "seed": self.seed,
            "deck": (f"practice deck (seed {self.seed}): reproducible, not a fair random shuffle"
                     if self.practice else "shuffled by the operating system's CSPRNG"),
            "legal_actions": list(self.legal_actions()), "hand": None,
            "last_hand": self.history[-1].to_dict() if self.history and self.phase != DECISION else None,
            "session": self.coach_totals(), "outcome": self.outcome(),
            "pays": [[c, PAY_LABELS[c], _exact(self.profile.pays[c])] for c in reversed(PAY_CATEGORIES)],
        }
        if self.hand is not None:
            hand = self.hand
            out["hand"] = {
                "deal": hand.deal, "ante": hand.ante,
                "player": [format_card(c) for c in hand.player], "player_hand": describe(hand.player),
                "dealer_up": format_card(hand.dealer[0]),
                "raise_amount": _exact(self.call_amount), "raise_amount_float": float(self.call_amount),
                "can_afford_raise": self.bankroll >= self.call_amount,
                "coach": None if self.hide_coach else _coach_view(hand.coach),
            }
        return out

    # ------------------------------------------------------------------ persistence form
    def to_state(self) -> dict[str, Any]:
        """Everything needed to rebuild this session (hole cards included: server side only)."""
        hand = None
        if self.hand is not None:
            hand = {"deal": self.hand.deal, "ante": self.hand.ante, "player": list(self.hand.player),
                    "dealer": list(self.hand.dealer), "ev_raise": _exact(self.hand.coach.ev_raise),
                    "ev_fold": _exact(self.hand.coach.ev_fold)}
        return {
            "id": self.id, "profile": asdict_profile(self.profile), "bankroll": _exact(self.bankroll),
            "starting_bankroll": _exact(self.starting_bankroll), "hands": self.hands,
            "min_bet": self.min_bet, "max_bet": self.max_bet, "seed": self.seed,
            "hide_coach": self.hide_coach,
            "deposits": list(self.deposits), "spot": list(self.spot), "last_bet": list(self.last_bet),
            "phase": self.phase, "deals": self.deals, "hand": hand,
            "history_length": len(self.history),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any], history: list[HandRecord], *,
                   coach_fn: Callable[[tuple[int, ...], int, Profile], Coach] = coach_for) -> TableSession:
        """Rebuild a session from :meth:`to_state` and its hand records."""
        from exactodds.caribbean.profile import profile_from_dict

        hand = None
        if state["hand"] is not None:
            h = state["hand"]
            hand = Hand(deal=h["deal"], ante=h["ante"], player=tuple(h["player"]), dealer=tuple(h["dealer"]),
                        coach=Coach(ev_raise=_fraction(h["ev_raise"]), ev_fold=_fraction(h["ev_fold"])))
        return cls(
            id=state["id"], profile=profile_from_dict(state["profile"], origin="the stored session"),
            bankroll=_fraction(state["bankroll"]), starting_bankroll=_fraction(state["starting_bankroll"]),
            hands=state["hands"], min_bet=state["min_bet"], max_bet=state["max_bet"], seed=state["seed"],
            hide_coach=state["hide_coach"], deposits=list(state["deposits"]), spot=list(state["spot"]),
            last_bet=list(state["last_bet"]), phase=state["phase"], deals=state["deals"], hand=hand,
            history=list(history), coach_fn=coach_fn,
        )


def asdict_profile(profile: Profile) -> dict[str, Any]:
    """A profile as the dict :func:`profile_from_dict` reads back (exact amounts as "p/q")."""
    out: dict[str, Any] = {"name": profile.name, "description": profile.description, "source": profile.source,
                           "pays": {k: _exact(v) for k, v in profile.pays.items()},
                           "call": _exact(profile.call), "qualifier": profile.qualifier}
    if profile.cap is not None:
        out["cap"] = _exact(profile.cap)
    return out


def _coach_view(coach: Coach) -> dict[str, Any]:
    return {"ev_raise": _exact(coach.ev_raise), "ev_raise_float": float(coach.ev_raise),
            "ev_fold": _exact(coach.ev_fold), "ev_fold_float": float(coach.ev_fold),
            "optimal": coach.optimal, "margin": _exact(coach.ev_raise - coach.ev_fold),
            "margin_float": float(coach.ev_raise - coach.ev_fold)}


def _money(value: Fraction) -> str:
    return f"{value.numerator:,}" if value.denominator == 1 else f"{float(value):,.2f}"


def record_from_dict(d: dict[str, Any]) -> HandRecord:
    """Inverse of the stored form of a hand record (cards as integers, exact values "p/q")."""
    return HandRecord(number=d["number"], deal=d["deal"], ante=d["ante"], player=tuple(d["player"]),
                      dealer=tuple(d["dealer"]), decision=d["decision"], optimal=d["optimal"],
                      ev_raise=_fraction(d["ev_raise"]), ev_fold=_fraction(d["ev_fold"]), event=d["event"],
                      net=_fraction(d["net"]))


def record_to_stored(r: HandRecord) -> dict[str, Any]:
    """A hand record in stored form (see :func:`record_from_dict`)."""
    d = asdict(r)
    d["player"], d["dealer"] = list(r.player), list(r.dealer)
    for key in ("ev_raise", "ev_fold", "net"):
        d[key] = _exact(getattr(r, key))
    return d
