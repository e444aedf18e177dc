"""Ranges: a weight for each hole card a player may hold, over the cards no one has seen.

A range is written ``"Ah:2,Kd:1,Qs"`` (a card without a weight weighs 1; unlisted cards weigh 0)
or read from a file holding the same entries, separated by commas, spaces or new lines. The
default range is uniform over the unseen cards: it assumes nothing about what the betting so far
revealed.

>>> parse_range("Ah:2, Kd:1 Qs")
{50: 2.0, 45: 1.0, 43: 1.0}
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from exactodds.cards import format_card, parse_cards
from exactodds.errors import CardError
from exactodds.stud.solve.start import SolveError


class RangeError(SolveError):
    """A range that cannot be used: an unreadable entry, a seen card, no positive weight."""


RangeInput = str | Mapping[int, float] | Mapping[str, float] | None


def parse_range(text: str) -> dict[int, float]:
    """Card -> weight from ``"Ah:2,Kd:1"`` text, or from the file the text names."""
    if not isinstance(text, str):
        raise RangeError(f'a range must be text such as "Ah:2,Kd:1", got {type(text).__name__}')
    if text.strip() and Path(text.strip()).is_file():
        text = Path(text.strip()).read_text(encoding="utf-8")
    weights: dict[int, float] = {}
    for entry in text.replace(",", " ").split():
        card_text, _, weight_text = entry.partition(":")
        try:
            (card,) = parse_cards(card_text, what="a range card")
        except (CardError, ValueError):
            raise RangeError(f'range entry "{entry}": expected CARD or CARD:WEIGHT, e.g. "Ah:2"') from None
        weight = _weight(weight_text or "1", entry)
        if card in weights:
            raise RangeError(f"range lists {format_card(card)} twice")
        weights[card] = weight
    if not weights:
        raise RangeError('a range needs at least one card, e.g. "Ah:2,Kd:1"')
    return weights


def _weight(text: str, entry: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise RangeError(f'range entry "{entry}": the weight "{text}" is not a number') from None
    if not math.isfinite(value) or value < 0:
        raise RangeError(f'range entry "{entry}": a weight must be a finite number >= 0')
    return value


def range_weights(spec: RangeInput, *, unseen: Sequence[int], seen: Sequence[int], player: int) -> np.ndarray:
    """The weight vector over ``unseen`` (float64, summing to 1) of a range; uniform when ``spec`` is None.

    A card of the range that is seen (an up card or a dead card) is refused, as is a range whose
    weights are all zero."""
    who = f"player {player + 1}'s range"
    if spec is None:
        return np.full(len(unseen), 1.0 / len(unseen))
    if isinstance(spec, str | os.PathLike):
        weights = parse_range(str(spec))
    elif isinstance(spec, Mapping):
        weights = {}
        for card, weight in spec.items():
            (number,) = parse_cards(str(card) if isinstance(card, str) else [card], what=f"a card of {who}")
            weights[number] = _weight(str(weight), f"{format_card(number)}:{weight}")
    else:
        raise RangeError(f'{who} must be text such as "Ah:2,Kd:1" or a card -> weight mapping')
    seen_set = set(seen)
    shown = sorted(c for c in weights if c in seen_set)
    if shown:
        listed = " ".join(format_card(c) for c in shown)
        raise RangeError(f"{who} holds seen cards ({listed}); a hole card can only be an unseen card")
    index = {c: i for i, c in enumerate(unseen)}
    vector = np.zeros(len(unseen))
    for card, weight in weights.items():
        vector[index[card]] = weight
    total = vector.sum()
    if total <= 0:
        raise RangeError(f"{who} has no card with a positive weight")
    out: np.ndarray = vector / total
    return out
