"""A home session of five-card stud: many hands, the deal moving left, stacks carried over.

The home rules describe an evening, not one hand: draw lots for the first dealer, the deal
then passes to the left; every player starts with the same reserve; no chip is added or
removed during a hand; the length of the session is agreed beforehand. Every hand is played
by :class:`~exactodds.stud.engine.state.StudHand`, so the rules of a hand live in one place.

Seats are numbered 1..N clockwise; "to the left" is the next seat number (after N comes 1).
Rules the home rules leave open, and the choices made here:

* **Who sits out**: a player with no chips is dealt out; the others play on.
* **The button past an empty seat**: the deal passes to the next player to the left who has
  chips; seats with no chips are skipped, there is no dead button.
* **A player who busts while dealing**: the deal still passes to the next player to the left
  with chips, as after any other hand.
* **Rebuys**: none by default. A policy may allow a number of rebuys per player; a rebuy is
  only between hands, only for a player with no chips, and always of a fixed amount (the
  starting reserve unless the policy says otherwise). Every rebuy is recorded.
* **The end**: after the agreed number of hands, or, whatever the length, once fewer than two
  players have chips and nobody who is out may rebuy (one player has all the chips).

>>> s = StudSession(players=("Ann", "Bob", "Cy"), reserve=20, hands=2, seed=1)
>>> s.first_dealer
1
>>> table = s.start_hand()
>>> table.number, table.dealer, table.seats   # seat 1 deals: seat 2 is first to its left
(1, 1, (2, 3, 1))
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from exactodds.cards import DECK_SIZE
from exactodds.errors import ExactOddsError
from exactodds.stud.engine.actions import Action, Legal
from exactodds.stud.engine.rules import HOME_RULES, StudProfile
from exactodds.stud.engine.state import Phase, StudHand

MAX_NAME = 40


class SessionError(ExactOddsError):
    """A session that cannot be set up, or a step taken at the wrong time (e.g. a rebuy during a hand)."""


@dataclass(frozen=True, kw_only=True)
class RebuyPolicy:
    """How many times each player may buy chips again after busting, and how many chips a rebuy is.

    ``amount`` None means the session's starting reserve. The default allows no rebuy.
    """

    max_rebuys: int = 0
    amount: int | None = None

    def __post_init__(self) -> None:
        if isinstance(self.max_rebuys, bool) or not isinstance(self.max_rebuys, int) or self.max_rebuys < 0:
            raise SessionError(f"rebuys per player must be a whole number >= 0, got {self.max_rebuys!r}")
        if self.amount is not None and (isinstance(self.amount, bool) or not isinstance(self.amount, int)
                                        or self.amount <= 0):
            raise SessionError(f"the rebuy amount must be a positive whole number, got {self.amount!r}")

    def to_dict(self) -> dict[str, int | None]:
        return {"max_rebuys": self.max_rebuys, "amount": self.amount}


NO_REBUYS = RebuyPolicy()


@dataclass(frozen=True, kw_only=True)
class Rebuy:
    """One recorded rebuy: before which hand, by which seat (1-based), for how many chips."""

    before_hand: int
    seat: int
    amount: int


@dataclass(kw_only=True)
class TableHand:
    """A hand of the session in play: ``hand`` is the state machine, ``deck`` what is left to deal.

    ``seats[i]`` is the seat (1-based) of the hand's player ``i``; player 0 sits to the dealer's
    left and the dealer is the last player.
    """

    number: int
    dealer: int
    seats: tuple[int, ...]
    hand: StudHand
    deck: list[int] = field(repr=False)
    rebuys: tuple[int, ...] = ()  # chips rebought by each player just before this hand

    def player_of(self, seat: int) -> int | None:
        """The hand's player index of a seat, or None when that seat sits out."""
        return self.seats.index(seat) if seat in self.seats else None


@dataclass(frozen=True, kw_only=True)
class SeatResult:
    """One seat at the end of a session. ``net`` > 0 is a win."""

    seat: int
    name: str
    start: int
    rebuys: int
    finish: int
    net: int

    def to_dict(self) -> dict[str, int | str]:
        return {"seat": self.seat, "player": self.name, "start": self.start, "rebuys": self.rebuys,
                "finish": self.finish, "net": self.net}


@dataclass(frozen=True, kw_only=True)
class SessionResult:
    """Every seat's net result (``finish - start - rebuys``); the nets sum to 0 (checked)."""

    hands_played: int
    seats: tuple[SeatResult, ...]

    def __post_init__(self) -> None:
        if sum(s.net for s in self.seats) != 0:  # pragma: no cover - chips are conserved hand by hand
            raise AssertionError("a session's net results must sum to 0")

    def to_dict(self) -> dict[str, object]:
        return {"hands_played": self.hands_played, "results": [s.to_dict() for s in self.seats],
                "net_total": sum(s.net for s in self.seats)}


def _check_names(players: Sequence[str], profile: StudProfile) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise SessionError(f"players must be a list of names, got {type(players).__name__}")
    names = tuple(players)
    if not profile.min_players <= len(names) <= profile.max_players:
        raise SessionError(f"a session needs {profile.min_players} to {profile.max_players} players, "
                           f"got {len(names)}")
    for k, name in enumerate(names, 1):
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME or '"' in name \
                or "\\" in name or any(not ch.isprintable() for ch in name):
            raise SessionError(f"seat {k}'s name must be 1 to {MAX_NAME} printable characters "
                               f"without quotes or backslashes, got {name!r}")
    if len(set(names)) != len(names):
        raise SessionError(f"player names must differ, got {list(names)}")
    return names


def _whole(value: object, what: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise SessionError(f"{what} must be a whole number >= {minimum}, got {value!r}")
    return value


def next_dealer(previous: int, stacks: Sequence[int]) -> int:
    """The seat (1-based) that deals after ``previous``: the next one to the left with chips.

    >>> next_dealer(2, [5, 0, 0, 7])   # seat 3 has no chips: the deal skips it
    4
    >>> next_dealer(4, [5, 0, 0, 7])
    1
    """
    n = len(stacks)
    for k in range(1, n + 1):
        seat = (previous - 1 + k) % n + 1
        if stacks[seat - 1] > 0:
            return seat
    raise SessionError("no player has chips")


def seats_in_hand(dealer: int, stacks: Sequence[int]) -> tuple[int, ...]:
    """The seats dealt in, clockwise from the dealer's left, the dealer last (those with chips).

    >>> seats_in_hand(2, [5, 0, 9, 7])
    (3, 4, 1)
    """
    n = len(stacks)
    order = [(dealer + k) % n + 1 for k in range(n)]  # dealer's left first, the dealer last
    return tuple(s for s in order if stacks[s - 1] > 0)


class StudSession:
    """A home session: the players (seat 1..N), their stacks, the dealer and every hand played.

    ``hands`` is the agreed number of hands, or None for "until one player has all the chips".
    ``seed`` makes the draw for the first dealer and every shuffle reproducible; None draws from
    the operating system's CSPRNG. Use :meth:`start_hand`, play the returned hand to its end,
    then :meth:`finish_hand`; :meth:`rebuy` between hands; :meth:`result` at any time between
    hands.
    """

    def __init__(self, *, players: Sequence[str], reserve: int, hands: int | None,
                 rebuys: RebuyPolicy = NO_REBUYS, seed: int | None = None,
                 profile: StudProfile = HOME_RULES, first_dealer: int | None = None) -> None:
        if not isinstance(profile, StudProfile):
            raise SessionError(f"profile must be a StudProfile, got {type(profile).__name__}")
        self.profile = profile
        self.names = _check_names(players, profile)
        self.reserve = _whole(reserve, "the starting reserve", 1)
        self.length = None if hands is None else _whole(hands, "the number of hands", 1)
        if not isinstance(rebuys, RebuyPolicy):
            raise SessionError(f"rebuys must be a RebuyPolicy, got {type(rebuys).__name__}")
        self.rebuy_policy = rebuys
        self.seed = None if seed is None else _whole(seed, "the seed", 0)
        self._rng: random.Random = random.SystemRandom() if seed is None else random.Random(seed)
        self.first_dealer = self._rng.randrange(len(self.names)) + 1  # the draw by lot
        if first_dealer is not None:  # drawn before (a stored session read back)
            self.first_dealer = _whole(first_dealer, "the first dealer", 1)
            if first_dealer > len(self.names):
                raise SessionError(f"the first dealer must be seat 1..{len(self.names)}, got {first_dealer}")
        self.stacks = [self.reserve] * len(self.names)
        self.rebuys: list[Rebuy] = []
        self.finished: list[TableHand] = []
        self.current: TableHand | None = None
        self._pending_rebuys = [0] * len(self.names)

    # ------------------------------------------------------------------ queries
    @property
    def n(self) -> int:
        return len(self.names)

    def chips_total(self) -> int:
        """All chips at the table, in the stacks and in the current hand's pot."""
        if self.current is not None:
            in_hand = set(self.current.seats)
            outside = sum(s for k, s in enumerate(self.stacks, 1) if k not in in_hand)
            return outside + self.current.hand.chips_total()
        return sum(self.stacks)

    def rebuys_left(self, seat: int) -> int:
        """How many more rebuys the player at ``seat`` may take."""
        used = sum(1 for r in self.rebuys if r.seat == seat)
        return max(0, self.rebuy_policy.max_rebuys - used)

    def may_rebuy(self) -> list[int]:
        """The seats that may rebuy now: no chips, rebuys left, between hands of a session not over."""
        if self.current is not None or self.over:
            return []
        return [k for k, s in enumerate(self.stacks, 1) if s == 0 and self.rebuys_left(k)]

    @property
    def over(self) -> bool:
        """Whether no further hand can start: the length is reached, or fewer than two players have
        chips and nobody without chips may rebuy."""
        if self.current is not None:
            return False
        if self.length is not None and len(self.finished) >= self.length:
            return True
        with_chips = sum(1 for s in self.stacks if s > 0)
        could_rebuy = sum(1 for k, s in enumerate(self.stacks, 1) if s == 0 and self.rebuys_left(k))
        return with_chips + could_rebuy < 2

    def next_dealer(self) -> int:
        """The seat that deals the next hand."""
        if not self.finished:
            return self.first_dealer
        return next_dealer(self.finished[-1].dealer, self.stacks)

    # ------------------------------------------------------------------ between hands
    def rebuy(self, seat: int) -> Rebuy:
        """Buy chips again for a busted player between hands (as the rebuy policy allows)."""
        _whole(seat, "the seat", 1)
        if seat > self.n:
            raise SessionError(f"seat must be 1..{self.n}, got {seat}")
        name = f"seat {seat} ({self.names[seat - 1]})"
        if self.current is not None:
            raise SessionError(f"{name} cannot rebuy during a hand: chips never change while hand "
                               f"{self.current.number} is played; rebuy between hands")
        if self.over:
            raise SessionError(f"the session is over; {name} cannot rebuy")
        if self.rebuy_policy.max_rebuys == 0:
            raise SessionError(f"{name} cannot rebuy: the session allows no rebuys")
        if self.stacks[seat - 1] > 0:
            raise SessionError(f"{name} cannot rebuy with {self.stacks[seat - 1]} chips left: "
                               "only a player with no chips may rebuy")
        if not self.rebuys_left(seat):
            raise SessionError(f"{name} has used all {self.rebuy_policy.max_rebuys} rebuy(s) allowed")
        amount = self.rebuy_policy.amount or self.reserve
        record = Rebuy(before_hand=len(self.finished) + 1, seat=seat, amount=amount)
        self.stacks[seat - 1] += amount
        self._pending_rebuys[seat - 1] += amount
        self.rebuys.append(record)
        return record

    # ------------------------------------------------------------------ hands
    def start_hand(self, *, deck: Sequence[int] | None = None) -> TableHand:
        """Seat the players with chips, shuffle, and start the next hand (antes posted). ``deck``: the
        52 cards in the order they are dealt from the end, shuffled before (a stored hand read back);
        None shuffles."""
        if self.current is not None:
            raise SessionError(f"hand {self.current.number} is still being played")
        if self.over:
            raise SessionError(f"the session is over after {len(self.finished)} hand(s)")
        if sum(1 for s in self.stacks if s > 0) < 2:
            raise SessionError("fewer than two players have chips: a busted player must rebuy first "
                               f"(seats {self.may_rebuy()} may)")
        dealer = self.next_dealer()
        seats = seats_in_hand(dealer, self.stacks)
        if deck is None:
            cards = list(range(DECK_SIZE))
            self._rng.shuffle(cards)
        elif sorted(deck) != list(range(DECK_SIZE)):
            raise SessionError("a deck must hold each of the 52 cards once")
        else:
            cards = list(deck)
        hand = StudHand(stacks=[self.stacks[s - 1] for s in seats], profile=self.profile)
        rebought = tuple(self._pending_rebuys[s - 1] for s in seats)
        self._pending_rebuys = [0] * self.n
        self.current = TableHand(number=len(self.finished) + 1, dealer=dealer, seats=seats, hand=hand,
                                 deck=cards, rebuys=rebought)
        return self.current

    def finish_hand(self) -> TableHand:
        """Carry the finished hand's stacks back to the seats; returns the finished hand."""
        table = self.current
        if table is None:
            raise SessionError("no hand is being played")
        if table.hand.phase is not Phase.DONE or table.hand.outcome is None:
            raise SessionError(f"hand {table.number} is not over yet")
        for seat, stack in zip(table.seats, table.hand.outcome.finishing_stacks, strict=True):
            self.stacks[seat - 1] = stack
        self.finished.append(table)
        self.current = None
        return table

    def abandon_hand(self) -> None:
        """Drop the hand in play (e.g. the player quit): the seats keep the stacks they had before it."""
        self.current = None

    def play_hand(self, choose: Callable[[StudHand, Legal], Action]) -> TableHand:
        """Start, play and finish one hand; ``choose`` picks every action."""
        table = self.start_hand()
        hand = table.hand
        while hand.phase is not Phase.DONE:
            if hand.phase is Phase.DEAL:
                hand.deal_from(table.deck)
            else:
                hand.act(choose(hand, hand.legal()))
        return self.finish_hand()

    def result(self) -> SessionResult:
        """Every seat's net result so far (between hands)."""
        if self.current is not None:
            raise SessionError(f"hand {self.current.number} is being played: results come between hands")
        return session_result(names=self.names, reserve=self.reserve, stacks=self.stacks,
                              rebuys=self.rebuys, hands_played=len(self.finished))


def session_result(*, names: Sequence[str], reserve: int, stacks: Sequence[int], rebuys: Sequence[Rebuy],
                   hands_played: int) -> SessionResult:
    """Net results from the final stacks, the reserve and the rebuys."""
    rows = []
    for seat, (name, finish) in enumerate(zip(names, stacks, strict=True), 1):
        bought = sum(r.amount for r in rebuys if r.seat == seat)
        rows.append(SeatResult(seat=seat, name=name, start=reserve, rebuys=bought, finish=finish,
                               net=finish - reserve - bought))
    return SessionResult(hands_played=hands_played, seats=tuple(rows))
