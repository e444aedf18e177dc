"""What one player may know about the bots' hole cards: the hand as that player sees it, and the
hole cards each bot can hold given its actions so far (Bayes over a uniform prior, with a
deterministic policy: a card is possible exactly when the policy takes every observed action with it).

The hand as the player sees it (:func:`player_view`) is the hand replayed with every other hole
card replaced by a placeholder that no one can see, so the view never carries a hidden card.

>>> from exactodds.cards import format_cards, parse_cards
>>> from exactodds.stud.engine.actions import Action
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> hand.act(Action(player=0, kind="pb")); hand.act(Action(player=1, kind="cbr", amount=2))
>>> possible = hole_candidates(hand, 0)[1]  # p2 completed showing Qh: it holds a pair, so a queen
>>> len(possible), format_cards(possible)
(3, 'Qc Qd Qs')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.cards import DECK_SIZE
from exactodds.errors import ExactOddsError
from exactodds.stud.bots.policy import best_shown, decide, read_own
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand

MAX_HIDDEN_STATES = 100_000


class BeliefError(ExactOddsError):
    """A best response asked for where it is not defined, e.g. for a player who is not to act."""


@dataclass(frozen=True, kw_only=True)
class Deal:
    """One card dealt face up to a player (a step of a walk beyond the hand's history)."""

    player: int
    card: int


Step = Action | Deal


def seen_cards(hand: StudHand, player: int) -> frozenset[int]:
    """The cards ``player`` has seen: its own hole card and every up card (folded hands' included)."""
    down = hand.down[player]
    ups = frozenset(c for q in range(hand.n) for c in hand.up[q])
    return ups | frozenset(() if down is None else (down,))


def _replay(hand: StudHand, player: int, view: StudHand, stand_in: dict[int, int]) -> Iterator[Action]:
    """Replay ``hand`` onto the fresh ``view`` with the other hole cards replaced by ``stand_in``;
    yields each action just before the view takes it."""
    for event in hand.events:
        if event.kind == "deal":
            cards = event.cards
            if event.round_index == 0 and event.player != player:
                cards = (stand_in[event.player], cards[1])
            view.deal(event.player, cards)
            continue
        amount = event.amount if event.kind == "cbr" else None
        action = Action(player=event.player, kind=event.kind, amount=amount)
        yield action
        view.act(action)


def _stand_ins(hand: StudHand, player: int, taken: Iterable[int]) -> dict[int, int]:
    busy = set(seen_cards(hand, player)) | set(taken)
    free = iter(c for c in range(DECK_SIZE) if c not in busy)
    return {q: next(free) for q in range(hand.n) if q != player}


def player_view(hand: StudHand, player: int, *, steps: Sequence[Step] = (),
                avoid: Iterable[int] = (), holes: Mapping[int, int] | None = None) -> StudHand:
    """The hand replayed as ``player`` sees it, then ``steps`` applied; the other players' hole cards
    are placeholders avoiding every card seen, the cards of ``steps`` and ``avoid`` (or, given
    ``holes``, these cards: other player -> hole card)."""
    taken = {s.card for s in steps if isinstance(s, Deal)} | set(avoid)
    view = StudHand(stacks=hand.starting_stacks, profile=hand.profile)
    stand_in = dict(holes) if holes is not None else _stand_ins(hand, player, taken)
    for _ in _replay(hand, player, view, stand_in):
        pass
    for step in steps:
        if isinstance(step, Deal):
            view.deal(step.player, (step.card,))
        else:
            view.act(step)
    return view


def hole_candidates(hand: StudHand, player: int, *, dead: Iterable[int] = (),
                    before_round: int | None = None) -> dict[int, tuple[int, ...]]:
    """For every other player (folded or not), the hole cards it may hold as ``player`` sees the hand:
    the cards ``player`` has not seen (nor knows to be ``dead``, out of play) with which the bot policy
    takes every action that player took (before round ``before_round``, 0-based, when given: the bots
    played another policy from there)."""
    out = seen_cards(hand, player) | frozenset(dead)
    unseen = [c for c in range(DECK_SIZE) if c not in out]
    alive = {q: list(unseen) for q in range(hand.n) if q != player}
    view = StudHand(stacks=hand.starting_stacks, profile=hand.profile)
    for taken in _replay(hand, player, view, _stand_ins(hand, player, ())):
        q = taken.player
        if q == player or (before_round is not None and view.round_index >= before_round):
            continue
        legal = view.legal()
        wagers = view.round.wagers if view.round is not None else 0
        shown = best_shown([view.up[o] for o in view.in_hand if o != q])
        alive[q] = [h for h in alive[q] if decide(legal, own=read_own((h, *view.up[q])), shown=shown,
                                                  wagers=wagers, profile=view.profile) == taken]
    return {q: tuple(cards) for q, cards in alive.items()}


def hidden_states(candidates: dict[int, tuple[int, ...]]) -> tuple[tuple[int, ...], np.ndarray]:
    """The other players (in order) and every assignment of distinct hole cards to them that their
    candidates allow, one row each (all equally likely under the uniform prior)."""
    others = tuple(sorted(candidates))
    size = 1
    for q in others:
        size *= max(1, len(candidates[q]))
    if size > MAX_HIDDEN_STATES:
        raise BeliefError(f"{len(others)} opponents' hole cards make about {size:,} combinations; "
                          f"the best response handles at most {MAX_HIDDEN_STATES:,} (fewer players)")
    combos = itertools.product(*(candidates[q] for q in others))
    rows = [combo for combo in combos if len(set(combo)) == len(combo)]
    if not rows:
        raise BeliefError("no hole cards are consistent with the bots' actions: the hand was not played "
                          "by the documented bot policy")
    return others, np.array(rows, dtype=np.int64).reshape(len(rows), len(others))


def check_decision_point(hand: StudHand, player: int) -> None:
    """Refuse a best response for a player who is not the one to act now."""
    if hand.phase is not Phase.BET or hand.actor != player:
        raise BeliefError(f"the best response is for the player to act; player {player!r} is not to act now")
