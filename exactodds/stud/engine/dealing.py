"""Dealing five-card stud: a seeded shuffled deck (:func:`shuffled_deck`), and a hand dealt out to
the end (all five cards, as if nobody folds) for ``exactodds stud deal`` (:func:`deal_hand`).

>>> d = deal_hand(players=3, seed=7)
>>> d.to_dict()["players"][0], d.bring_in
({'player': 1, 'hole': '7c', 'up': ['4d', 'Th', 'Jd', '5d']}, 2)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from exactodds.cards import DECK_SIZE, format_card
from exactodds.jsonable import card_list
from exactodds.stud.engine.actions import Action, ActionKind
from exactodds.stud.engine.state import Phase, StudHand, TableSetupError


def shuffled_deck(seed: int | None) -> list[int]:
    """The 52 cards shuffled by a seeded generator (the same seed gives the same deck).

    ``seed`` is a whole number >= 0 (random.Random would silently treat -5 as 5), or None.
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise TableSetupError(f"the seed must be a whole number >= 0, got {seed!r}")
    deck = list(range(DECK_SIZE))
    random.Random(seed).shuffle(deck)
    return deck


@dataclass(frozen=True, kw_only=True)
class DealtHand:
    """Every player's hole card and four up cards; seats are 0-based here, 1-based in JSON.

    ``bring_in`` is the seat that brings it in (lowest first up card); ``openers`` the first to
    act in each round if everyone stays.
    """

    seed: int
    holes: tuple[int, ...]
    ups: tuple[tuple[int, ...], ...]
    openers: tuple[int, ...]

    @property
    def players(self) -> int:
        return len(self.holes)

    @property
    def bring_in(self) -> int:
        return self.openers[0]

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "players": [{"player": p + 1, "hole": format_card(self.holes[p]), "up": card_list(self.ups[p])}
                        for p in range(self.players)],
            "bring_in": self.bring_in + 1,
            "first_to_act": [o + 1 for o in self.openers],
        }


def deal_hand(*, players: int, seed: int) -> DealtHand:
    """Deal a hand of ``players`` from the deck shuffled by ``seed`` and play it out: everyone checks
    or calls the bring-in, so every card is dealt. Returns the :class:`DealtHand`."""
    hand = StudHand(stacks=(100,) * players)
    deck = shuffled_deck(seed)
    for _ in range(hand.profile.rounds):
        while hand.phase is Phase.DEAL:
            hand.deal_from(deck)
        while hand.phase is Phase.BET:
            legal = hand.legal()
            kind = ActionKind.BRING_IN if legal.bring_in is not None else ActionKind.CHECK_CALL
            hand.act(Action(player=legal.player, kind=kind))
    holes = []
    for p in range(players):
        down = hand.down[p]
        assert down is not None  # every card is dealt
        holes.append(down)
    return DealtHand(seed=seed, holes=tuple(holes), ups=tuple(tuple(u) for u in hand.up),
                     openers=tuple(hand.openers))
