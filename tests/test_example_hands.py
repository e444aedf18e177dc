"""The example hand files say what their hands hold: a header comment describing a player's action
("the bot bets the last round") is checked against the hand replayed by the engine."""

from __future__ import annotations

import pathlib
import re

import pytest

from exactodds.stud.history.phh import load_phh, replay

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples" / "hands"
ROUNDS = {"first": 0, "second": 1, "third": 2, "last": 3}
CLAIM = re.compile(r"the bot (\w+)\s+(?:#\s*)?the (first|second|third|last) round")


def _claims() -> list[tuple[str, str, str]]:
    found = []
    for path in sorted(EXAMPLES.glob("*.phh")):
        header = " ".join(line for line in path.read_text(encoding="utf-8").splitlines()
                          if line.startswith("#"))
        found += [(path.name, verb, street) for verb, street in CLAIM.findall(header)]
    return found


def test_the_bot_example_makes_a_claim():
    assert ("heads_up_against_bots.phh", "bets", "last") in _claims()


@pytest.mark.parametrize(("name", "verb", "street"), _claims())
def test_a_claimed_action_is_the_hands(name, verb, street):
    history = load_phh(EXAMPLES / name)
    hand = replay(history)
    bot = history.players.index(next(p for p in history.players if p.startswith("bot")))
    done = [e.description.split()[1] for e in hand.events
            if e.round_index == ROUNDS[street] and e.player == bot and e.kind != "deal"]
    assert verb in done, f"{name} says the bot {verb} the {street} round; it {', '.join(done)}"
