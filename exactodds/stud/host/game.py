"""One hosted game of five-card stud as the server deals it: the evening, the seats, the clocks.

The evening is a :class:`~exactodds.stud.history.session.StudSession` (the deal passing left,
stacks carried over, its length) and every hand its :class:`~exactodds.stud.engine.state.StudHand`:
the rules are the engine's, never written again here. The server is the dealer: each hand's deck
is shuffled from the operating system's randomness and kept here; cards are dealt as soon as
they are owed. What this module adds is who plays each seat (a person with the seat's link, or a
bot), the host's controls (start, pause, end, seat a late player, replace an absent one by a
bot), and the clocks: a person who does not act within ``act_seconds`` checks when that is
free, else folds (and brings in when the bring-in is due); a bot acts after ``bot_seconds``; the
next hand starts ``between_seconds`` after the last one ended.

Every change is a step the store writes in one transaction: the game's state, and the rows of
any hand started (its deck) and any action taken. A game read back replays its hands through
the engine (:meth:`HostGame.restore`), so it stands exactly where it stood.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.stud.engine.actions import Action, ActionKind
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.history.session import StudSession, TableHand
from exactodds.stud.host.bots import BotModels, bot_choice
from exactodds.stud.host.config import GameConfig, GameSetupError, SeatConfig, SeatKind, bot_model, seat_name
from exactodds.web.tokens import new_token


class GameStatus(StrEnum):
    """Where the evening stands."""

    WAITING = "waiting"  # set up; the host has not started it
    PLAYING = "playing"
    PAUSED = "paused"    # by the host: no clock runs, no action is taken
    OVER = "over"


class ActionSource(StrEnum):
    """Who took an action."""

    PLAYER = "player"  # a person, with their seat's link
    BOT = "bot"
    CLOCK = "clock"    # a person out of time: check when free, else fold (bring in when due)


class GameStateError(ExactOddsError):
    """A step the game cannot take now (not started, paused, over, not this seat's turn...): 409."""


@dataclass(frozen=True, kw_only=True)
class HandStart:
    """A hand as it started: its number, dealer, seats dealt in and the whole deck (dealt from the end)."""

    number: int
    dealer: int
    seats: tuple[int, ...]
    deck: tuple[int, ...]
    at: float


@dataclass(frozen=True, kw_only=True)
class ActionRecord:
    """One action of the evening: the hand, the seat (1-based), the PHH action and who took it."""

    hand: int
    seat: int
    action: str
    source: ActionSource
    at: float


@dataclass(frozen=True, kw_only=True)
class Seat:
    """A seat now: its set-up and, for a person, the token of its link."""

    config: SeatConfig
    token: str | None

    def to_dict(self) -> dict[str, Any]:
        return {**self.config.to_dict(), "token": self.token}


_PLAYER = re.compile(r"\bp([1-9])\b")


class HostGame:
    """A hosted game (see the module's docstring). ``now`` arguments are unix times (seconds)."""

    def __init__(self, *, id: str, config: GameConfig, seats: list[Seat], spectator: str,
                 first_dealer: int | None = None, created: float) -> None:
        self.id, self.config, self.seats, self.spectator = id, config, seats, spectator
        self.created = created
        self.session = StudSession(players=[s.config.name for s in seats], reserve=config.stack,
                                   hands=config.hands, first_dealer=first_dealer)
        self.hands: list[HandStart] = []
        self.actions: list[ActionRecord] = []
        self.started_at: float | None = None
        self.paused_at: float | None = None
        self.paused_total = 0.0
        self.ending = False  # the host ended the evening: it is over once the hand in play is
        self.turn_since = created  # when the player to act (or the pause between hands) began waiting
        self.version = 0  # bumped by every change (the live pages follow it)
        self.derived: dict[str, Any] = {}  # what the views work out once and reuse (e.g. the last hand)

    @classmethod
    def new(cls, config: GameConfig, *, now: float) -> HostGame:
        """A new game: an id, a link per person's seat and one for spectators, the first dealer by lot."""
        seats = [Seat(config=s, token=new_token() if s.kind is SeatKind.PERSON else None)
                 for s in config.seats]
        return cls(id=new_token(), config=config, seats=seats, spectator=new_token(), created=now)

    # ------------------------------------------------------------------ state
    def state(self) -> dict[str, Any]:
        """What the store keeps beside the hands and actions (a JSON object)."""
        return {"seats": [s.to_dict() for s in self.seats], "spectator": self.spectator,
                "first_dealer": self.session.first_dealer, "started_at": self.started_at,
                "paused_at": self.paused_at, "paused_total": self.paused_total, "ending": self.ending}

    @classmethod
    def restore(cls, *, id: str, config: GameConfig, state: dict[str, Any], hands: list[HandStart],
                actions: list[ActionRecord], created: float, now: float) -> HostGame:
        """A stored game read back: its hands replayed through the engine, action by action
        (ValueError or an ExactOddsError if the rows do not hold together)."""
        seats = [Seat(config=SeatConfig(name=s["name"], kind=SeatKind(s["kind"]), model=s["model"]),
                      token=s["token"]) for s in state["seats"]]
        game = cls(id=id, config=config, seats=seats, spectator=state["spectator"],
                   first_dealer=int(state["first_dealer"]), created=created)
        game.started_at, game.paused_at = state["started_at"], state["paused_at"]
        game.paused_total, game.ending = float(state["paused_total"]), bool(state["ending"])
        by_hand: dict[int, list[ActionRecord]] = {}
        for record in actions:
            by_hand.setdefault(record.hand, []).append(record)
        for start in hands:
            table = game._begin(start)
            for record in by_hand.pop(start.number, []):
                if table.hand.phase is not Phase.BET:
                    raise ValueError(f"hand {start.number}: an action after the hand ended")
                game._take(table, record)
        if by_hand:
            raise ValueError(f"actions of hands never started: {sorted(by_hand)}")
        game.turn_since = now  # the player to act gets the whole time again
        return game

    # ------------------------------------------------------------------ queries
    @property
    def status(self) -> GameStatus:
        if self.started_at is None:
            return GameStatus.WAITING
        if self.over:
            return GameStatus.OVER
        return GameStatus.PAUSED if self.paused_at is not None else GameStatus.PLAYING

    @property
    def table(self) -> TableHand | None:
        """The hand in play, or None between hands."""
        return self.session.current

    @property
    def over(self) -> bool:
        """Whether the evening is over: no hand in play and none may start (ended by the host, the
        length reached, or fewer than two players with chips)."""
        if self.started_at is None or self.session.current is not None:
            return False
        return self.ending or self.session.over or self._time_up()

    def played_seconds(self, now: float) -> float:
        """Seconds played since the start, paused time not counted."""
        if self.started_at is None:
            return 0.0
        paused = self.paused_total + (now - self.paused_at if self.paused_at is not None else 0.0)
        return max(0.0, now - self.started_at - paused)

    def _time_up(self, now: float | None = None) -> bool:
        if self.config.minutes is None:
            return False
        moment = now if now is not None else (self.hands[-1].at if self.hands else 0.0)
        return self.played_seconds(max(moment, self._last_step())) >= 60 * self.config.minutes

    def _last_step(self) -> float:
        return max([self.actions[-1].at if self.actions else 0.0, self.hands[-1].at if self.hands else 0.0])

    def actor_seat(self) -> int | None:
        """The seat to act now, or None."""
        table = self.table
        if table is None or table.hand.phase is not Phase.BET or table.hand.actor is None:
            return None
        return table.seats[table.hand.actor]

    def chips_total(self) -> int:
        """All chips at the table (stacks and pot): the seats' starting stacks, always."""
        return self.session.chips_total()

    def name(self, seat: int) -> str:
        return self.seats[seat - 1].config.name

    def named(self, text: str, table: TableHand) -> str:
        """An engine message with its players (p1, p2...) named by their seats' names."""
        def name(match: re.Match[str]) -> str:
            index = int(match.group(1)) - 1
            return self.name(table.seats[index]) if index < len(table.seats) else match.group(0)
        return _PLAYER.sub(name, text)

    def due(self) -> float | None:
        """When the game next moves on its own (a bot, a clock, the next hand), or None."""
        status = self.status
        if status is not GameStatus.PLAYING:
            return None
        seat = self.actor_seat()
        if seat is not None:
            kind = self.seats[seat - 1].config.kind
            wait = self.config.bot_seconds if kind is SeatKind.BOT else self.config.act_seconds
            return self.turn_since + wait
        if self.table is None:
            return self.turn_since + self.config.between_seconds
        return None

    # ------------------------------------------------------------------ the host's controls
    def start(self, *, now: float) -> None:
        if self.started_at is not None:
            raise GameStateError("the game has already started")
        self.started_at = now
        self._next_hand(now)

    def pause(self, *, now: float) -> None:
        self._check_running()
        if self.paused_at is not None:
            raise GameStateError("the game is already paused")
        self.paused_at = now
        self.version += 1

    def resume(self, *, now: float) -> None:
        if self.paused_at is None:
            raise GameStateError("the game is not paused")
        self.paused_total += now - self.paused_at
        self.paused_at = None
        self.turn_since = now  # the player to act gets the whole time again
        self.version += 1

    def end(self, *, now: float) -> None:
        """End the evening once the hand in play is over (at once between hands)."""
        self._check_running()
        self.ending = True
        self.version += 1

    def seat_person(self, seat: int, *, name: str | None = None) -> str:
        """Give ``seat`` to a person (a late player, or a new link for one who lost theirs): a new link,
        the old one refused from now on. A new name only before the first hand. Returns the token."""
        current = self._seat(seat)
        new_name = current.config.name if name is None else seat_name(name, seat)
        if new_name != current.config.name:
            if self.hands:
                raise GameSetupError(f"seat {seat}'s name stays {current.config.name!r} for the evening (the "
                                     "hand histories name each seat once)")
            if new_name in (s.config.name for s in self.seats):
                raise GameSetupError(f"another seat is already called {new_name!r}")
        token = new_token()
        self._set_seat(seat, Seat(config=SeatConfig(name=new_name, kind=SeatKind.PERSON), token=token))
        return token

    def seat_bot(self, seat: int, *, model: str) -> None:
        """Give ``seat`` to a bot playing ``model`` (an absent player): its link is refused from now on.
        Whether the server offers the model is the caller's check."""
        current = self._seat(seat)
        config = SeatConfig(name=current.config.name, kind=SeatKind.BOT, model=bot_model(model, seat))
        self._set_seat(seat, Seat(config=config, token=None))

    def _set_seat(self, seat: int, value: Seat) -> None:
        if self.status is GameStatus.OVER:
            raise GameStateError("the evening is over")
        self.seats[seat - 1] = value
        self.config = replace(self.config, seats=tuple(s.config for s in self.seats))
        if self.actor_seat() == seat:
            self.turn_since = max(self.turn_since, self._last_step())
        self.version += 1

    def _seat(self, seat: Any) -> Seat:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= len(self.seats):
            raise GameSetupError(f"seat must be 1 to {len(self.seats)}, got {str(seat)[:20]}")
        return self.seats[seat - 1]

    def _check_running(self) -> None:
        status = self.status
        if status is GameStatus.WAITING:
            raise GameStateError("the game has not started")
        if status is GameStatus.OVER:
            raise GameStateError("the evening is over")

    # ------------------------------------------------------------------ play
    def act(self, seat: int, action: Action, *, turn: int, now: float) -> None:
        """A person's action for ``seat`` (``action.player`` is ignored), at ``turn`` (the number of
        actions of the evening so far, as the page last saw it). GameStateError or IllegalActionError
        (the engine's reason, players named) when it cannot be taken; nothing changes then."""
        status = self.status
        if status is not GameStatus.PLAYING:
            raise GameStateError({GameStatus.WAITING: "the game has not started",
                                  GameStatus.PAUSED: "the game is paused by the host",
                                  GameStatus.OVER: "the evening is over"}[status])
        if turn != len(self.actions):
            raise GameStateError(f"that turn is over: the game is at turn {len(self.actions)}, not {turn}")
        actor = self.actor_seat()
        table = self.table
        if actor is None or table is None:
            raise GameStateError("nobody is to act now: the next hand is about to start")
        if actor != seat:
            raise GameStateError(f"it is {self.name(actor)}'s turn, not {self.name(seat)}'s")
        player = table.seats.index(seat)
        bring_in = table.hand.legal().bring_in  # the record keeps "pb" alone: its amount is checked here
        if action.kind == ActionKind.BRING_IN and bring_in is not None and action.amount not in (
                None, bring_in):
            raise IllegalActionError(f"the bring-in is {bring_in}, not {action.amount}")
        record = ActionRecord(hand=table.number, seat=seat, action=replace(action, player=player).text(),
                              source=ActionSource.PLAYER, at=now)
        try:
            self._take(table, record)
        except IllegalActionError as exc:
            raise IllegalActionError(self.named(str(exc), table)) from None
        self._after(now)

    def tick(self, *, now: float, models: BotModels) -> bool:
        """Take the step that is due (a bot's action by its model among ``models``, a clock's, the next
        hand); whether one was."""
        due = self.due()
        if due is None or due > now:
            return False
        table, seat = self.table, self.actor_seat()
        if table is None:
            self._next_hand(now)
            return True
        assert seat is not None
        config = self.seats[seat - 1].config
        hand = table.hand
        if config.kind is SeatKind.BOT:
            assert config.model is not None
            action, source = bot_choice(models.model(config.model, seat=seat), hand), ActionSource.BOT
        else:
            action, source = out_of_time(hand), ActionSource.CLOCK
        self._take(table, ActionRecord(hand=table.number, seat=seat, action=action.text(), source=source,
                                       at=now))
        self._after(now)
        return True

    def _take(self, table: TableHand, record: ActionRecord) -> None:
        """Apply one recorded action through the engine, deal what is owed, settle a finished hand."""
        hand = table.hand
        action = Action.parse(table.seats.index(record.seat), record.action)
        hand.act(action)
        self.actions.append(record)
        hand.deal_from(table.deck)
        if hand.phase is Phase.DONE:
            self.session.finish_hand()

    def _after(self, now: float) -> None:
        self.turn_since = now
        if self.table is None and self.over:
            self.turn_since = now
        self.version += 1

    def _next_hand(self, now: float) -> None:
        """Start the next hand (shuffled from the OS's randomness), or end the evening."""
        if self.ending or self.session.over or self._time_up(now):
            self.ending = self.ending or self._time_up(now)
            self.turn_since = now
            self.version += 1
            return
        number = len(self.session.finished) + 1
        dealer = self.session.next_dealer()
        table = self.session.start_hand()
        start = HandStart(number=number, dealer=dealer, seats=table.seats, deck=tuple(table.deck), at=now)
        self.session.abandon_hand()
        self._begin(start)
        self.turn_since = now
        self.version += 1

    def _begin(self, start: HandStart) -> TableHand:
        table = self.session.start_hand(deck=start.deck)
        if (table.number, table.dealer, table.seats) != (start.number, start.dealer, start.seats):
            raise ValueError(f"hand {start.number}: dealer {start.dealer}, seats {list(start.seats)} stored, "
                             f"the session deals {table.dealer}, {list(table.seats)}")
        self.hands.append(start)
        table.hand.deal_from(table.deck)
        if table.hand.phase is Phase.DONE:  # every player all-in from the antes
            self.session.finish_hand()
        return table


def out_of_time(hand: StudHand) -> Action:
    """The action of a person out of time: bring in when due, check when free, else fold."""
    legal = hand.legal()
    if legal.bring_in is not None:
        return Action(player=legal.player, kind=ActionKind.BRING_IN)
    if legal.check:
        return Action(player=legal.player, kind=ActionKind.CHECK_CALL)
    return Action(player=legal.player, kind=ActionKind.FOLD)
