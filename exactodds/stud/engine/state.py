"""One hand of five-card stud as a state machine (the home fixed-limit profile by default).

The hand accepts one step at a time: ``deal(player, cards)`` while cards are owed,
``act(Action(...))`` while someone is to act. Action kinds use the PHH codes:
``pb`` (post the bring-in), ``cc`` (check or call), ``cbr`` (complete, bet or raise
*to* a round total) and ``f`` (fold). An illegal step raises
:class:`~exactodds.errors.IllegalActionError` naming the reason and leaves the hand
unchanged. Players are numbered 0..n-1 from the dealer's left (PHH ``p1`` is 0).

The worked example of the home rules:

>>> from exactodds.cards import parse_cards
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> hand.actor, hand.legal().bring_in
(0, 1)
>>> for step in ("cbr 2", "cc"):
...     hand.act(Action.parse(hand.actor, step))
>>> hand.deal(0, parse_cards("4d")); hand.deal(1, parse_cards("Js"))
>>> for step in ("cc", "cc"):
...     hand.act(Action.parse(hand.actor, step))
>>> hand.deal(0, parse_cards("Ks")); hand.deal(1, parse_cards("7d"))
>>> hand.actor   # K-9-4 showing beats Q-J-7
0
>>> for step in ("cbr 4", "cc"):
...     hand.act(Action.parse(hand.actor, step))
>>> hand.deal(0, parse_cards("2h")); hand.deal(1, parse_cards("3c"))
>>> for step in ("cc", "cc"):
...     hand.act(Action.parse(hand.actor, step))
>>> out = hand.outcome
>>> [(p.amount, p.players) for p in out.pots], out.payoffs
([(14, (0, 1))], (7, -7))
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from exactodds.cards import DECK_SIZE, format_card, parse_cards
from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.handrank import evaluate
from exactodds.stud.engine.actions import (
    Action,
    ActionKind,
    Legal,
    bring_in_message,
    player_name,
    raise_message,
)
from exactodds.stud.engine.rules import HOME_RULES, StudProfile, round_opener, shows_open_pair
from exactodds.stud.engine.settlement import Outcome, Pot, build_pots, settle
from exactodds.wording import counted

__all__ = ["BettingRound", "Event", "Phase", "StudHand", "TableSetupError"]


class TableSetupError(ExactOddsError):
    """A hand that cannot start: wrong number of players or a non-positive stack."""


@dataclass(kw_only=True)
class BettingRound:
    """The state of the betting round in progress (the hand keeps it in ``round``)."""

    index: int
    opener: int
    capped: bool
    open_pair: bool
    level: int = 0
    full_level: int = 0
    wagers: int = 0
    big_used: bool = False
    bring_in_due: bool = False
    last_aggressor: int | None = None
    pending: set[int] = field(default_factory=set)
    may_raise: set[int] = field(default_factory=set)


class Phase(StrEnum):
    """What the hand waits for."""

    DEAL = "deal"
    BET = "bet"
    DONE = "done"


@dataclass(frozen=True, kw_only=True)
class Event:
    """One step of the hand, for replays and hand histories."""

    round_index: int
    player: int
    kind: str  # "deal" or an action kind
    cards: tuple[int, ...] = ()
    amount: int | None = None
    paid: int = 0
    description: str = ""


class StudHand:
    """A hand of five-card stud from the antes to the settlement."""

    def __init__(self, *, stacks: Sequence[int], profile: StudProfile = HOME_RULES) -> None:
        if isinstance(stacks, str) or not isinstance(stacks, Sequence):
            raise TableSetupError(f"stacks must be a list of whole numbers, got {type(stacks).__name__}")
        if not isinstance(profile, StudProfile):
            raise TableSetupError(f"profile must be a StudProfile, got {type(profile).__name__}")
        n = len(stacks)
        if not profile.min_players <= n <= profile.max_players:
            raise TableSetupError(
                f"five-card stud needs {profile.min_players} to {profile.max_players} players, got {n}"
            )
        for i, s in enumerate(stacks):
            if not isinstance(s, int) or isinstance(s, bool) or s <= 0:
                raise TableSetupError(f"{player_name(i)}'s stack must be a positive whole number, got {s!r}")
        self.profile = profile
        self.n = n
        self.starting_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.contributed = [0] * n
        self.antes = [min(profile.ante, s) for s in stacks]
        for i, a in enumerate(self.antes):
            self.stacks[i] -= a
            self.contributed[i] += a
        self.round_bets = [0] * n
        self.folded = [False] * n
        self.down: list[int | None] = [None] * n
        self.up: list[list[int]] = [[] for _ in range(n)]
        self.used: set[int] = set()
        self.round_index = 0
        self.phase = Phase.DEAL
        self.deal_due: list[int] = list(range(n))
        self.round: BettingRound | None = None
        self.actor: int | None = None
        self.openers: list[int] = []
        self.show_first: int | None = None
        self.events: list[Event] = []
        self.outcome: Outcome | None = None

    # ------------------------------------------------------------------ queries
    @property
    def in_hand(self) -> list[int]:
        """Players who have not folded."""
        return [i for i in range(self.n) if not self.folded[i]]

    def cards_of(self, player: int) -> tuple[int, ...]:
        """A player's cards so far, hole card first."""
        down = self.down[player]
        return (() if down is None else (down,)) + tuple(self.up[player])

    @property
    def pot_total(self) -> int:
        """All chips put in so far (antes included)."""
        return sum(self.contributed)

    def chips_total(self) -> int:
        """Stacks plus chips in the pot: constant through a hand."""
        return sum(self.stacks) + (0 if self.phase is Phase.DONE else self.pot_total)

    def snapshot(self) -> dict[str, Any]:
        """A deep copy of every field, to check that a refused step changed nothing."""
        return {k: copy.deepcopy(v) for k, v in vars(self).items()}

    def copy(self) -> StudHand:
        """An independent copy that later steps of either hand leave the other unchanged (the frozen
        events, the profile and a settled outcome are shared; a walk over the rest of a hand copies a
        hand at every node, so this is much cheaper than ``copy.deepcopy``)."""
        other = copy.copy(self)
        for name in ("starting_stacks", "stacks", "contributed", "antes", "round_bets", "folded", "down",
                     "deal_due", "openers", "events"):
            setattr(other, name, list(getattr(self, name)) if isinstance(getattr(self, name), list)
                    else getattr(self, name))
        other.up = [list(u) for u in self.up]
        other.used = set(self.used)
        if self.round is not None:
            other.round = copy.copy(self.round)
            other.round.pending = set(self.round.pending)
            other.round.may_raise = set(self.round.may_raise)
        return other

    def current_pots(self) -> tuple[tuple[Pot, ...], tuple[int, ...]]:
        """Pots and uncalled excess if the hand were settled now."""
        return build_pots(contributions=self.contributed, folded=self.folded)

    def legal(self) -> Legal:
        """The choices of the player to act."""
        if self.phase is not Phase.BET or self.round is None or self.actor is None:
            raise IllegalActionError(self._not_betting_reason())
        r, p = self.round, self.actor
        owe = max(0, r.level - self.round_bets[p])
        stack = self.stacks[p]
        targets, reason = self._raise_targets(p)
        if r.bring_in_due:
            return Legal(player=p, bring_in=min(self.profile.bring_in, stack), check=False, call=None,
                         fold=False, raise_to=targets, no_raise_reason=reason)
        return Legal(
            player=p, bring_in=None, check=owe == 0, call=min(owe, stack) if owe else None,
            fold=owe > 0 or self.profile.fold_without_bet, raise_to=targets, no_raise_reason=reason,
        )

    def _raise_targets(self, p: int) -> tuple[tuple[int, ...], str]:
        """The round totals player ``p`` may bet or raise to now (sorted; an all-in short of a full
        raise included), or none and the reason why."""
        r = self.round
        assert r is not None
        name = player_name(p)
        owe = max(0, r.level - self.round_bets[p])
        if p not in r.may_raise:
            return (), f"{name} already answered the last full bet and a short all-in does not reopen raising"
        if self.stacks[p] <= owe:
            return (), f"{name} has no chips beyond the call"
        if r.capped and r.wagers >= 1 + self.profile.max_raises:
            return (), f"the cap of a bet and {self.profile.max_raises} raises is reached"
        if not any(q != p and self.round_bets[q] + self.stacks[q] > r.level for q in self.in_hand):
            return (), "no opponent can call a raise"
        units = self.profile.units(round_index=r.index, open_pair=r.open_pair, big_bet_used=r.big_used)
        full = [r.full_level + u for u in units]
        most = self.round_bets[p] + self.stacks[p]
        targets = [t for t in full if t <= most]
        floor = self.profile.bring_in if r.bring_in_due else r.level  # an all-in must top the bring-in
        if floor < most < max(full) and most not in targets:
            targets.append(most)  # an incomplete all-in raise
        return tuple(sorted(targets)), ""

    def _not_betting_reason(self) -> str:
        if self.phase is Phase.DONE:
            return "the hand is over"
        due = ", ".join(player_name(i) for i in self.deal_due)
        return f"cards are still owed to {due}"

    # ------------------------------------------------------------------ dealing
    def deal(self, player: int, cards: Sequence[int]) -> None:
        """Deal the cards owed this street to one player (round 1: hole card then up card)."""
        if self.phase is not Phase.DEAL:
            raise IllegalActionError(
                "the hand is over" if self.phase is Phase.DONE else "no cards are due: a player must act"
            )
        if isinstance(player, bool) or not isinstance(player, int) or player not in self.deal_due:
            raise IllegalActionError(f"no card is owed to {player!r} now" if not isinstance(player, int)
                                     else f"no card is owed to {player_name(player)} now")
        want = 2 if self.round_index == 0 else 1
        cards = parse_cards(cards, what=f"the cards dealt to {player_name(player)}")
        if len(cards) != want:
            raise IllegalActionError(
                f"{player_name(player)} must get {counted(want, 'card')} now, got {len(cards)}")
        seen = set(self.used)
        for c in cards:
            if not 0 <= c < DECK_SIZE:
                raise IllegalActionError(f"card number {c} is outside 0..51")
            if c in seen:
                raise IllegalActionError(f"{format_card(c)} has already been dealt")
            seen.add(c)
        self.used.update(cards)
        if self.round_index == 0:
            self.down[player] = cards[0]
            self.up[player].append(cards[1])
        else:
            self.up[player].append(cards[0])
        self.deal_due.remove(player)
        shown = (f"{format_card(cards[0])} down, {format_card(cards[1])} up" if self.round_index == 0
                 else format_card(cards[0]))
        self.events.append(Event(round_index=self.round_index, player=player, kind="deal", cards=cards,
                                 description=f"{player_name(player)} gets {shown}"))
        if not self.deal_due:
            self._begin_round()

    def deal_from(self, deck: list[int]) -> None:
        """Deal owed cards from the end of ``deck``, from the dealer's left, until someone must act."""
        while self.phase is Phase.DEAL:
            want = 2 if self.round_index == 0 else 1
            self.deal(self.deal_due[0], [deck.pop() for _ in range(want)])

    # ------------------------------------------------------------------ rounds
    def _opener(self) -> int:
        return round_opener(self.up, self.in_hand, round_index=self.round_index)

    def _begin_round(self) -> None:
        live = self.in_hand
        able = [i for i in live if self.stacks[i] > 0]
        opener = self._opener()
        self.openers.append(opener)
        open_pair = shows_open_pair(self.up, live, round_index=self.round_index)
        r = BettingRound(index=self.round_index, opener=opener, capped=self.profile.capped(len(able)),
                   open_pair=open_pair)
        self.round = r
        self.round_bets = [0] * self.n
        if len(able) < 2:  # nobody left to bet against: deal on
            self._end_round(betting=False)
            return
        if self.round_index == 0:
            if self.stacks[opener] > 0:
                r.bring_in_due = True
            else:  # all-in from the ante: the others still owe the nominal bring-in
                r.level = self.profile.bring_in
        r.pending = set(able)
        r.may_raise = set(able)
        self.phase = Phase.BET
        self.actor = self._next_pending(opener - 1)

    def _next_pending(self, after: int) -> int:
        r = self.round
        assert r is not None
        for k in range(1, self.n + 1):
            q = (after + k) % self.n
            if q in r.pending:
                return q
        raise AssertionError("no pending player")

    def _end_round(self, *, betting: bool) -> None:
        r = self.round
        assert r is not None
        if betting:
            self.show_first = r.last_aggressor if r.last_aggressor is not None else r.opener
        self.actor = None
        if self.round_index == self.profile.rounds - 1:
            self._settle(showdown=True)
            return
        self.round_index += 1
        self.phase = Phase.DEAL
        self.deal_due = self.in_hand

    # ------------------------------------------------------------------ actions
    def act(self, action: Action) -> None:
        """Apply one player action, or raise IllegalActionError and change nothing."""
        if not isinstance(action, Action):
            raise IllegalActionError(f"expected an Action, got {type(action).__name__}")
        legal = self.legal()
        p = legal.player
        name = player_name(action.player)
        if action.player != p:
            raise IllegalActionError(f"it is {player_name(p)}'s turn, not {name}'s")
        r = self.round
        assert r is not None
        kind = action.kind
        if kind == ActionKind.BRING_IN:
            if legal.bring_in is None:
                raise IllegalActionError(f"{name} cannot post a bring-in now")
            if action.amount is not None and action.amount != legal.bring_in:
                raise IllegalActionError(f"the bring-in is {legal.bring_in}, not {action.amount}")
            self._pay(p, legal.bring_in)
            r.level = self.profile.bring_in
            r.bring_in_due = False
            r.last_aggressor = p
            r.pending.discard(p)
            self._log(p, kind, paid=legal.bring_in, text=f"brings in {legal.bring_in}")
        elif kind == ActionKind.CHECK_CALL:
            if r.bring_in_due:
                raise IllegalActionError(bring_in_message(legal))
            paid = legal.call or 0
            self._pay(p, paid)
            r.pending.discard(p)
            self._log(p, kind, paid=paid, text=f"calls {paid}" if paid else "checks")
        elif kind == ActionKind.FOLD:
            if r.bring_in_due:
                raise IllegalActionError(bring_in_message(legal))
            if not legal.fold:
                raise IllegalActionError(f"{name} may not fold with no bet to call (check instead)")
            self.folded[p] = True
            r.pending.discard(p)
            r.may_raise.discard(p)
            self._log(p, kind, text="folds")
        elif kind == ActionKind.BET_RAISE:
            if action.amount not in legal.raise_to:
                raise IllegalActionError(raise_message(action, legal))
            self._raise_to(p, action.amount)
        else:
            raise IllegalActionError(f'unknown action kind "{kind}"')
        self._after_action(p)


    def _raise_to(self, p: int, target: int) -> None:
        r = self.round
        assert r is not None
        unit = self.profile.unit(round_index=r.index, big_bet_used=r.big_used)
        increase = target - r.full_level
        first = r.wagers == 0
        completing = r.index == 0 and first  # opening the first round at the full bet completes too
        paid = target - self.round_bets[p]
        self._pay(p, paid)
        r.level = target
        r.bring_in_due = False
        r.last_aggressor = p
        others = [q for q in self.in_hand if q != p and self.stacks[q] > 0]
        if self.profile.half_unit_reopens(increase, unit=unit):
            if r.open_pair and r.index == 1 and increase >= self.profile.big_bet:
                r.big_used = True
            r.full_level = target
            r.wagers += 1
            r.pending.update(others)
            r.may_raise.update(others)
        else:  # a short all-in: those who answered the last full bet may only call or fold
            for q in others:
                if q not in r.pending:
                    r.pending.add(q)
                    r.may_raise.discard(q)
        r.pending.discard(p)
        r.may_raise.discard(p)
        verb = "completes to" if completing else ("bets" if first else "raises to")
        self._log(p, ActionKind.BET_RAISE, amount=target, paid=paid, text=f"{verb} {target}")

    def _pay(self, p: int, amount: int) -> None:
        self.stacks[p] -= amount
        self.round_bets[p] += amount
        self.contributed[p] += amount

    def _log(self, p: int, kind: str, *, paid: int = 0, amount: int | None = None, text: str) -> None:
        if kind != ActionKind.FOLD and self.stacks[p] == 0:
            text += " (all-in)"
        self.events.append(Event(round_index=self.round_index, player=p, kind=kind, amount=amount,
                                 paid=paid, description=f"{player_name(p)} {text}"))

    def _after_action(self, p: int) -> None:
        r = self.round
        assert r is not None
        r.pending = {q for q in r.pending if self.stacks[q] > 0}
        if len(self.in_hand) == 1:
            self.actor = None
            self._settle(showdown=False)
        elif not r.pending:
            self._end_round(betting=True)
        else:
            self.actor = self._next_pending(p)

    # ------------------------------------------------------------------ settlement
    def _settle(self, *, showdown: bool) -> None:
        """Settle now: by showdown of the players still in (in showing order, from the last aggressor
        of the last betting round, or the first opener), or to the one left."""
        strengths: dict[int, int] = {}
        order: tuple[int, ...] = ()
        if showdown:
            strengths = {i: evaluate(self.cards_of(i)) for i in self.in_hand}
            first = self.show_first if self.show_first is not None else self.openers[0]
            order = tuple(q for k in range(self.n) if not self.folded[q := (first + k) % self.n])
        outcome = settle(contributed=self.contributed, folded=self.folded, stacks=self.stacks,
                         starting_stacks=self.starting_stacks, strengths=strengths, showdown_order=order)
        finishing = list(outcome.finishing_stacks)
        self.stacks = finishing
        self.phase = Phase.DONE
        self.deal_due = []
        self.outcome = outcome
        if sum(finishing) != sum(self.starting_stacks):  # pragma: no cover - invariant
            raise AssertionError("chips not conserved")
