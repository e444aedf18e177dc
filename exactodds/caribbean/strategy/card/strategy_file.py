"""A card as a strategy file that ``exactodds caribbean strategies --strategy`` reads back.

The file is Python defining ``raise_batch(hands, ups)``: it holds the card as JSON data and
applies it hand by hand from the cards themselves (strength from the rank table, ranks, suits),
not through the cells, so reading it back re-derives the card's exact cost independently.
"""

from __future__ import annotations

import json
import os

import numpy as np

from exactodds.cache import atomic_write_text
from exactodds.caribbean.strategy.card.grammar import Card, features_of_cards
from exactodds.handrank import evaluate_batch

_TEMPLATE = '''"""Strategy card for the paytable {paytable} (written by exactodds caribbean card).

{lines}
"""

from exactodds.caribbean.strategy.card.grammar import Card
from exactodds.caribbean.strategy.card.strategy_file import decide_cards

CARD = Card.from_dict({data})


def raise_batch(hands, ups):
    return decide_cards(CARD, hands, ups)
'''


def decide_cards(card: Card, hands: np.ndarray, ups: np.ndarray) -> np.ndarray:
    """The card's decisions (True = raise) for hands (n, 5) and up cards (n,) given as card integers."""
    hands = np.asarray(hands, dtype=np.int64)
    return card.decide(features_of_cards(hands, ups, evaluate_batch(hands)))


def strategy_source(card: Card, *, paytable: str) -> str:
    """The Python text of the strategy file."""
    lines = "\n".join(card.lines())
    return _TEMPLATE.format(paytable=paytable, lines=lines, data=json.dumps(card.to_dict(), indent=4))


def write_strategy_file(card: Card, path: str | os.PathLike[str], *, paytable: str) -> None:
    """Write the card as a .py strategy file, atomically."""
    atomic_write_text(path, strategy_source(card, paytable=paytable))
