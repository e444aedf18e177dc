"""What one player may infer about the other players' hole cards from their actions: Bayes over the
unseen cards, each player weighed by its own model.

The prior is uniform over the cards the player has not seen (nor knows to be dead). Each other
player's policy reads only its own hole card and what is public, so the likelihood of its actions
is a product over the players, each a function of that player's hole card alone: a hole card's
weight is the product of the probabilities its model gives each action the player took (a whole
number over the model's denominator, so weights stay exact integers). The joint belief is that
product over the players, restricted to distinct cards.

An action a model gives probability 0 with every hole card (a "rock" that raised) cannot be
weighed: it is left out (the weights stay as they were before it) and reported as a
:class:`Surprise`, never a division by zero. If no assignment of distinct cards keeps a positive
weight, the joint belief falls back to uniform over distinct assignments (also reported).

>>> from exactodds.cards import format_cards, parse_cards
>>> from exactodds.stud.decide.models import load_model
>>> from exactodds.stud.engine.actions import Action
>>> from exactodds.stud.engine.state import StudHand
>>> hand = StudHand(stacks=(20, 20))
>>> hand.deal(0, parse_cards("Kh 9c")); hand.deal(1, parse_cards("Qc Qh"))
>>> hand.act(Action(player=0, kind="pb")); hand.act(Action(player=1, kind="cbr", amount=2))
>>> belief = weigh_holes(hand, 0, models={1: load_model("bots")})
>>> format_cards(belief.seats[0].cards)   # the bots complete only with a pair: a queen
'Qc Qd Qs'
>>> weigh_holes(hand, 0, models={1: load_model("rock")}).surprises[0].text()[:55]
'p2 raised to 2 on round 1, which rock never does with a'
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

import numpy as np

from exactodds.cards import DECK_SIZE
from exactodds.errors import ExactOddsError
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.policy import Situation, action_weights
from exactodds.stud.decide.reading import shown_high
from exactodds.stud.engine.actions import Action, action_words, player_name
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.engine.view import replay, seen_cards, stand_ins

INT64_SAFE = 2**62


class BeliefError(ExactOddsError):
    """A belief asked for where it is not defined, e.g. for a player who is not to act."""


class TooManyStates(BeliefError):
    """The joint hole cards of the other players are too many to enumerate (they are then sampled)."""


@dataclass(frozen=True, kw_only=True)
class Surprise:
    """An action a player took that its model gives probability 0 with every hole card."""

    player: int
    round_index: int
    action: str  # the PHH text
    to_call: int
    model: str

    def text(self) -> str:
        """The surprise in words."""
        words = action_words(self.action, to_call=self.to_call)
        verb = {"check": "checked", "fold": "folded", "bring in": "brought in"}.get(words)
        if verb is None:
            head, _, rest = words.partition(" ")
            verb = {"call": "called", "bet": "bet", "raise": "raised"}.get(head, head) + f" {rest}"
        return (f"{player_name(self.player)} {verb} on round {self.round_index + 1}, which {self.model} "
                "never does with any hole card: that action is left out of what their hole card reveals")

    def to_dict(self) -> dict[str, object]:
        return {"player": self.player + 1, "round": self.round_index + 1, "action": self.action,
                "model": self.model, "text": self.text()}


@dataclass(frozen=True, kw_only=True)
class SeatBelief:
    """One other player's possible hole cards and their whole-number weights (only cards above 0)."""

    player: int
    model: str
    cards: tuple[int, ...]
    weights: tuple[int, ...]

    def probabilities(self) -> dict[int, Fraction]:
        """Each possible hole card's probability (ignoring the other players' cards)."""
        total = sum(self.weights)
        return {c: Fraction(w, total) for c, w in zip(self.cards, self.weights, strict=True)}


@dataclass(frozen=True, kw_only=True)
class Belief:
    """The belief of ``player`` about every other player's hole card (folded players' included: their
    hole cards are out of the deck)."""

    player: int
    seats: tuple[SeatBelief, ...]
    unseen: tuple[int, ...]  # cards neither seen by the player nor dead
    surprises: tuple[Surprise, ...] = ()

    @property
    def others(self) -> tuple[int, ...]:
        return tuple(s.player for s in self.seats)

    def joint_size(self) -> int:
        """The number of hole-card combinations before removing clashes (a bound on the states)."""
        return math.prod(max(1, len(s.cards)) for s in self.seats)

    def states(self, *, limit: int) -> tuple[np.ndarray, np.ndarray, bool]:
        """Every assignment of distinct hole cards with a positive weight: (states (S, k) int64 in the
        order of :attr:`others`, weights (S,) whole numbers, int64 or Python ints, and whether the
        fallback to uniform was needed). Raises TooManyStates above ``limit`` combinations."""
        size = self.joint_size()
        if size > limit:
            raise TooManyStates(f"{len(self.seats)} other players' hole cards make about {size:,} "
                                f"combinations (at most {limit:,} are enumerated)")
        rows: list[tuple[int, ...]] = []
        weights: list[int] = []
        for combo in itertools.product(*(zip(s.cards, s.weights, strict=True) for s in self.seats)):
            cards = tuple(c for c, _ in combo)
            if len(set(cards)) == len(cards):
                rows.append(cards)
                weights.append(math.prod(w for _, w in combo))
        fallback = not rows
        if fallback:  # each player's cards fit alone, never together: uniform over the unseen cards
            if math.perm(len(self.unseen), len(self.seats)) > limit:
                raise TooManyStates("the other players' hole cards cannot all be what their actions say, and "
                                    "every assignment of the unseen cards is too many to enumerate")
            rows = list(itertools.permutations(self.unseen, len(self.seats)))
            weights = [1] * len(rows)
        common = math.gcd(*weights)
        reduced = [w // common for w in weights]
        array = np.array(reduced, dtype=np.int64 if max(reduced) < INT64_SAFE else object)
        return np.array(rows, dtype=np.int64).reshape(len(rows), len(self.seats)), array, fallback

    @cached_property
    def _draw_tables(self) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
        """Each seat's possible cards and their probabilities as floats (read by every sample)."""
        out = []
        for s in self.seats:
            total = sum(s.weights)
            out.append((np.array(s.cards, dtype=np.int64),
                        np.array([float(Fraction(w, total)) for w in s.weights])))
        return tuple(out)

    def sample(self, count: int, rng: np.random.Generator) -> np.ndarray:
        """``count`` assignments of distinct hole cards drawn from the belief ((count, k) int64): each
        player's card from its weights, redrawn when two players' cards clash."""
        k = len(self.seats)
        if k == 0:
            return np.zeros((count, 0), dtype=np.int64)
        out = np.zeros((0, k), dtype=np.int64)
        for _ in range(1000):
            draw = np.stack([cards[rng.choice(len(cards), size=2 * count, p=p)]
                             for cards, p in self._draw_tables], axis=1)
            ok = np.ones(len(draw), dtype=bool)
            for i in range(k):
                for j in range(i + 1, k):
                    ok &= draw[:, i] != draw[:, j]
            out = np.concatenate([out, draw[ok]])
            if len(out) >= count:
                return out[:count]
        raise BeliefError("the other players' possible hole cards almost always clash: too few to sample")


def _seat_step(model: OpponentModel, view: StudHand, q: int, cards: list[int],
               taken: Action) -> list[int] | None:
    """Each candidate's probability numerator of ``taken`` (None when the model never takes it here)."""
    legal = view.legal()
    own = np.array([[c, *view.up[q]] for c in cards], dtype=np.int64)
    ups = {p: np.array([view.up[p]], dtype=np.int64) for p in range(view.n)}
    shown = np.repeat(shown_high(ups, [p for p in view.in_hand if p != q], 1), len(cards))
    actions, weights = action_weights(model, Situation.of(view, legal), own=own, shown=shown)
    if taken not in actions:
        return None
    return [int(x) for x in weights[:, actions.index(taken)]]


def weigh_holes(hand: StudHand, player: int, *, models: Mapping[int, OpponentModel], dead: Iterable[int] = (),
                from_round: int = 0, before_round: int | None = None,
                known: Mapping[int, int] | None = None) -> Belief:
    """The belief of ``player`` about every other player's hole card in ``hand``: ``models`` gives each
    other player's model; ``dead`` are cards known to be out of play; only actions of rounds
    ``from_round`` (0-based) on, and before ``before_round`` when given, are weighed (the others were
    not played by the model, e.g. a position whose earlier betting is not known); ``known`` gives the
    other players whose hole card the player knows (player -> card)."""
    out = seen_cards(hand, player) | frozenset(dead)
    unseen = [c for c in range(DECK_SIZE) if c not in out]
    others = [q for q in range(hand.n) if q != player]
    missing = [q for q in others if q not in models]
    if missing:
        raise BeliefError(f"no opponent model for {player_name(missing[0])}")
    known = dict(known or {})
    cards = {q: [known[q]] if q in known else list(unseen) for q in others}
    weights = {q: [1] * len(cards[q]) for q in others}
    surprises: list[Surprise] = []
    view = StudHand(stacks=hand.starting_stacks, profile=hand.profile)
    for taken in replay(hand, player, view, stand_ins(hand, player, ())):
        q = taken.player
        if q == player or view.round_index < from_round or (before_round is not None
                                                            and view.round_index >= before_round):
            continue
        step = _seat_step(models[q], view, q, cards[q], taken)
        new = None if step is None else [w * p for w, p in zip(weights[q], step, strict=True)]
        if new is None or not any(new):
            surprises.append(Surprise(player=q, round_index=view.round_index, action=taken.text(),
                                      to_call=view.legal().call or 0, model=models[q].name))
            continue
        keep = [i for i, w in enumerate(new) if w]
        common = math.gcd(*(new[i] for i in keep))
        cards[q] = [cards[q][i] for i in keep]
        weights[q] = [new[i] // common for i in keep]
    seats = tuple(SeatBelief(player=q, model=models[q].name, cards=tuple(cards[q]), weights=tuple(weights[q]))
                  for q in others)
    return Belief(player=player, seats=seats, unseen=tuple(unseen), surprises=tuple(surprises))


def check_decision_point(hand: StudHand, player: int) -> None:
    """Refuse a decision for a player who is not the one to act now."""
    if hand.phase is not Phase.BET or hand.actor != player:
        raise BeliefError(f"a decision is for the player to act; player {player!r} is not to act now")
