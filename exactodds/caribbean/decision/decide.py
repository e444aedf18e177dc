"""The exact Caribbean Stud decision for one situation: raise or fold, and by how much.

Given the player's five cards, the dealer's known cards (the up card, plus any seen
hole cards) and any dead cards, every completion of the dealer's hand from the unseen
cards is enumerated; all completions are equally likely. With only the up card known
there are C(46, 4) = 163,185 of them.

The counts come from one vectorised pass: completion -> colex index -> hand-rank table
-> a histogram of dealer strengths. The payout is never restated here: each outcome
class is settled by :func:`exactodds.caribbean.decision.settle.settle`.

**EV tie rule**: raise only when EV(raise) > EV(fold) = -1 strictly; an exact tie
folds (the same rule as the whole-game analysis).

>>> d = decide("Qh Qs 9d 6c 2h", up="Jh")
>>> d.decision, d.completions, d.ev_raise
('raise', 163185, Fraction(42797, 32637))
>>> d.dealer_not_qualify, d.player_wins, d.tie, d.dealer_wins
(70801, 70056, 0, 22328)
>>> decide("Ks Qd 9h 5c 2s", up="8c", hole="3d 3h 7s Ac").completions
1
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from math import comb
from types import MappingProxyType

import numpy as np

from exactodds import display
from exactodds.cards import DECK_SIZE, format_card, parse_cards
from exactodds.caribbean.decision.settle import DEALER_NOT_QUALIFY, DEALER_WINS, PUSH, Event, settle
from exactodds.caribbean.profile import Profile, load_profile
from exactodds.combinatorics import BINOM, all_subsets_colex, colex_index
from exactodds.errors import DuplicateCardError, HandSizeError, NotEnoughCardsError
from exactodds.handrank import N_STRENGTHS, rank_table
from exactodds.jsonable import JSONDict, card_list, exact, with_float

MAX_HOLE = 4


class Choice(StrEnum):
    """The player's choice once the cards are seen: raise (put up the call bet) or fold (lose the
    ante). Every raise/fold of the package is one of these; it shows as its plain string, ``repr``
    included (``'raise'``), as in the JSON."""

    RAISE = "raise"
    FOLD = "fold"

    def __repr__(self) -> str:
        return repr(self.value)


RAISE, FOLD = Choice.RAISE, Choice.FOLD  # the names caribbean/table/ imports (to move to Choice)

Cards = str | int | Iterable[str] | Iterable[int]


@dataclass(frozen=True, kw_only=True)
class Outcome:
    """One outcome class of a raise: its settlement event, number of completions and net (antes)."""

    event: Event
    count: int
    net: Fraction


@dataclass(frozen=True, kw_only=True)
class Decision:
    """The exact decision for one situation. Counts are numbers of dealer completions."""

    hand: tuple[int, ...]
    up: int
    hole: tuple[int, ...]
    dead: tuple[int, ...]
    profile: Profile
    player_strength: int
    completions: int
    dealer_not_qualify: int
    player_wins: int
    tie: int
    dealer_wins: int
    win_category: str | None  # the player's paid category; None below A-K high (it never wins)
    outcomes: tuple[Outcome, ...]  # classes with at least one completion, as settled
    ev_raise: Fraction
    ev_fold: Fraction

    @property
    def decision(self) -> Choice:
        """Raise when EV(raise) > EV(fold) strictly, else fold (an exact tie folds)."""
        return Choice.RAISE if self.ev_raise > self.ev_fold else Choice.FOLD

    @property
    def margin(self) -> Fraction:
        """EV(raise) - EV(fold) in antes: positive favours raising."""
        return self.ev_raise - self.ev_fold

    @property
    def ev_raise_float(self) -> float:
        """EV(raise) as a float, for display."""
        return float(self.ev_raise)

    @property
    def wins_by_payout(self) -> Mapping[str, int]:
        """Player-win completions by the paid category (the hand is fixed: one entry at most)."""
        if not self.player_wins:
            return MappingProxyType({})
        assert self.win_category is not None  # a hand below A-K high never wins
        return MappingProxyType({self.win_category: self.player_wins})

    @property
    def dealer_known(self) -> tuple[int, ...]:
        """The dealer's known cards: the up card first, then the seen hole cards."""
        return (self.up,) + self.hole

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): exact values as "p/q", floats beside for display."""
        from exactodds.handrank import describe  # noqa: PLC0415  (the description table loads lazily)

        return {
            "decision": self.decision,
            **with_float("ev_raise", self.ev_raise),
            "ev_fold": exact(self.ev_fold),
            **with_float("margin", self.margin),
            "combinations": self.completions,
            "dealer_not_qualify": self.dealer_not_qualify,
            "player_wins": self.player_wins,
            "tie": self.tie,
            "dealer_wins": self.dealer_wins,
            "wins_by_payout": dict(self.wins_by_payout),
            "outcomes": [{"event": o.event, "count": o.count, "net": exact(o.net)} for o in self.outcomes],
            "hand": card_list(self.hand),
            "hand_strength": self.player_strength,
            "hand_description": describe(self.player_strength),
            "up": format_card(self.up),
            "hole": card_list(self.hole),
            "dead": card_list(self.dead),
            "paytable": self.profile.name,
        }
    def __repr__(self) -> str:
        return display.decision_repr(self)

    def __str__(self) -> str:
        return display.decision_str(self)

    def _repr_html_(self) -> str:
        return display.decision_html(self)


def decide(
    hand: Cards,
    *,
    up: Cards,
    hole: Cards = (),
    dead: Cards = (),
    profile: str | os.PathLike[str] | Profile = "standard",
) -> Decision:
    """Raise or fold with ``hand`` (5 cards) against the dealer's ``up`` card.

    ``hole``: 0-4 seen dealer hole cards; ``dead``: cards known to be out of play.
    Cards are strings ("Ks Qd", "KsQd") or card integers. ``profile`` is a shipped
    profile name, a TOML path, or a :class:`Profile`.

    Returns a :class:`Decision`: the dealer completions in each outcome, ``ev_raise`` and
    ``ev_fold`` in antes as exact fractions (higher is better for the player), and
    ``decision``: "raise" only when EV(raise) > EV(fold) strictly.

    Raises HandSizeError, DuplicateCardError (naming the card and both places),
    NotEnoughCardsError (fewer unseen cards than the dealer still needs), CardError,
    or ProfileError.

    >>> d = decide("Ks Qd 9h 5c 2s", up="8c", hole="3d", dead="Ah Ac", profile="betmgm")
    >>> d  # doctest: +NORMALIZE_WHITESPACE
    Decision(hand='Ks Qd 9h 5c 2s', up='8c', hole='3d', dead='Ah Ac', paytable='betmgm', decision='fold',
             ev_raise=Fraction(-12951, 12341), ev_fold=Fraction(-1, 1), completions=12341)
    """
    hand_cards = _read(hand, what="the player's hand", count=5)
    up_cards = _read(up, what="the dealer's up card")
    if len(up_cards) != 1:
        raise HandSizeError(f"the dealer's up card must be exactly one card, got {len(up_cards)}")
    hole_cards = _read(hole, what="the dealer's hole cards")
    dead_cards = _read(dead, what="the dead cards")
    if len(hole_cards) > MAX_HOLE:
        raise HandSizeError(f"the dealer's hole cards: at most {MAX_HOLE} cards, got {len(hole_cards)}")
    _ensure_disjoint(
        ("the player's hand", hand_cards), ("the dealer's up card", up_cards),
        ("the dealer's hole cards", hole_cards), ("the dead cards", dead_cards),
    )
    prof = load_profile(profile)

    known = np.array(sorted(up_cards + hole_cards), dtype=np.int64)
    missing = 5 - len(known)
    unseen = np.setdiff1d(
        np.arange(DECK_SIZE), np.array(hand_cards + up_cards + hole_cards + dead_cards, dtype=np.int64)
    )
    if len(unseen) < missing:
        raise NotEnoughCardsError(
            f"only {len(unseen)} unseen cards are left, but the dealer needs {missing} more"
        )

    table = rank_table()
    player = int(table[colex_index(hand_cards)])
    hist = np.bincount(table[_dealer_colex(unseen, known)], minlength=N_STRENGTHS)
    q = prof.qualify_strength
    # Outcome classes as half-open ranges of dealer strength [lo, hi).
    classes = {
        DEALER_NOT_QUALIFY: (0, q),
        "win": (q, max(q, player)),
        PUSH: (player, player + 1) if player >= q else (0, 0),
        DEALER_WINS: (max(q, player + 1), N_STRENGTHS),
    }
    counts = {name: int(hist[lo:hi].sum()) for name, (lo, hi) in classes.items()}

    outcomes = []
    for name, (lo, hi) in classes.items():
        if counts[name]:
            # Every dealer strength of a class settles alike: settle one that occurs.
            dealer = lo + int(np.argmax(hist[lo:hi] > 0))
            result = settle(player, dealer, raised=True, profile=prof)
            outcomes.append(Outcome(event=result.event, count=counts[name], net=result.net))
    completions = comb(len(unseen), missing)
    ev_raise = Fraction(sum(o.count * o.net for o in outcomes), completions)
    ev_fold = settle(player, 0, raised=False, profile=prof).net

    return Decision(
        hand=hand_cards, up=up_cards[0], hole=hole_cards, dead=dead_cards, profile=prof,
        player_strength=player, completions=completions,
        dealer_not_qualify=counts[DEALER_NOT_QUALIFY], player_wins=counts["win"],
        tie=counts[PUSH], dealer_wins=counts[DEALER_WINS],
        win_category=prof.pay_category(player), outcomes=tuple(outcomes),
        ev_raise=ev_raise, ev_fold=ev_fold,
    )


def _read(cards: Cards, *, what: str, count: int | None = None) -> tuple[int, ...]:
    if isinstance(cards, (int, np.integer)):
        cards = (int(cards),)
    return parse_cards(cards, count=count, what=what)


def _ensure_disjoint(*groups: tuple[str, tuple[int, ...]]) -> None:
    """Raise DuplicateCardError for a card in two groups, naming the card and both groups."""
    where: dict[int, str] = {}
    for name, cards in groups:
        for card in cards:
            if card in where:
                raise DuplicateCardError(f"card {format_card(card)} is in both {where[card]} and {name}")
            where[card] = name


@lru_cache(maxsize=16)
def _subset_columns(n: int, k: int) -> tuple[np.ndarray, ...]:
    """The columns (contiguous, intp) of all k-subsets of 0..n-1, rows sorted ascending."""
    subsets = all_subsets_colex(n, k)
    columns = tuple(np.ascontiguousarray(subsets[:, j], dtype=np.intp) for j in range(k))
    for column in columns:
        column.setflags(write=False)
    return columns


def _dealer_colex(unseen: np.ndarray, known: np.ndarray) -> np.ndarray:
    """Colex indices of every dealer hand: ``known`` (sorted) plus each (5 - len(known))-subset of
    ``unseen`` (sorted).

    Same result as ``colex_index_batch`` on the merged hands, without sorting rows:
    a card's colex term is C(card, its position in the sorted hand + 1), and positions
    follow from counting the cards of the other group below it.
    """
    k = 5 - len(known)
    columns = _subset_columns(len(unseen), k)
    rows = comb(len(unseen), k)
    index = np.zeros(rows, dtype=np.int64)
    known_below = np.searchsorted(known, unseen)  # known cards below each unseen card
    for j, column in enumerate(columns):
        index += BINOM[unseen, j + known_below + 1][column]
    for t, card in enumerate(known):
        limit = np.searchsorted(unseen, card)  # unseen positions below this known card
        drawn_below = np.zeros(rows, dtype=np.intp)
        for column in columns:
            drawn_below += column < limit
        index += BINOM[card, t + 1 : t + k + 2][drawn_below]
    return index
