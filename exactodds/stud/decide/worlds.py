"""Random draws of a sampled decision: runs of the cards to come, whole sampled hands (the other
players' hole cards from the Bayes belief and a run), and the seed streams they come from.

Two streams never share a draw: the main samples, which value the actions, come from
``(seed, chunk)``; the pilot, which chooses the player's later play
(:mod:`exactodds.stud.decide.later`), from ``(seed, PILOT_STREAM, chunk)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from exactodds.cards import DECK_SIZE
from exactodds.stud.decide.belief import Belief
from exactodds.stud.decide.hands import UNIFORMS
from exactodds.stud.engine.state import StudHand
from exactodds.stud.engine.view import node_hole

PILOT_STREAM = 0x50494C54  # "PILT": the pilot's words of entropy differ from every main chunk's


class HandDraws(NamedTuple):
    """Sampled hands: each hand's hole cards (count x players, the player's own in its column), its run
    of the cards to come (count x streets x players) and its numbers for mixed choices."""

    holes: np.ndarray
    cards: np.ndarray
    uniforms: np.ndarray


def stream(seed: int, chunk: int, *, pilot: bool = False) -> np.random.Generator:
    """The generator of one chunk: the main samples' or the pilot's (disjoint streams)."""
    return np.random.default_rng([seed, PILOT_STREAM, chunk] if pilot else [seed, chunk])


def draw_runs(rng: np.random.Generator, unseen: np.ndarray, count: int, hand: StudHand,
              holes: np.ndarray | None = None) -> np.ndarray:
    """``count`` runs of the cards to come, (count, streets, players): each a uniform ordered draw of the
    unseen cards (not ``holes``, each run's own hole cards, when given)."""
    streets = hand.profile.rounds - 1 - hand.round_index
    keys = rng.random((count, len(unseen)))
    if holes is not None and holes.shape[1]:
        where = np.full(DECK_SIZE, -1, dtype=np.int64)  # each unseen card's column
        where[unseen] = np.arange(len(unseen))
        columns = where[holes]
        rows = np.broadcast_to(np.arange(count)[:, None], columns.shape)
        held = columns >= 0
        keys[rows[held], columns[held]] = 2.0
    order = np.argsort(keys, axis=1)[:, : streets * hand.n]
    out: np.ndarray = unseen[order].reshape(count, streets, hand.n)
    return out


def draw_hands(hand: StudHand, player: int, belief: Belief, count: int,
               rng: np.random.Generator) -> HandDraws:
    """``count`` sampled hands: the other players' hole cards from the belief, then a run of the cards
    to come that avoids them, and the numbers for mixed choices."""
    states = belief.sample(count, rng)
    unseen = np.array(belief.unseen, dtype=np.int64)
    cards = draw_runs(rng, unseen, count, hand, states)
    holes = np.zeros((count, hand.n), dtype=np.int64)
    for j, q in enumerate(belief.others):
        holes[:, q] = states[:, j]
    holes[:, player] = node_hole(hand, player)
    return HandDraws(holes=holes, cards=cards, uniforms=rng.random((count, UNIFORMS)))
