"""The examples of docs/table.md are real: the terminal transcript and the API's figures are replayed."""

from __future__ import annotations

import json
import pathlib
import re

from click.testing import CliRunner

from exactodds.cards import format_cards
from exactodds.caribbean.table.forms import session_view
from exactodds.caribbean.table.game import TableSession
from exactodds.cli.main import cli

PAGE = (pathlib.Path(__file__).resolve().parents[1] / "docs" / "table.md").read_text(encoding="utf-8")


def _block_after(marker: str) -> list[str]:
    start = PAGE.index(marker)
    block = re.search(r"```[a-z]*\n(.*?)```", PAGE[start:], flags=re.S)
    assert block is not None
    return block.group(1).splitlines()


def test_the_terminal_transcript_is_real() -> None:
    shown = _block_after("plays the same table one command a line")
    typed = "".join(line[2:] + "\n" for line in shown if line.startswith("> "))
    result = CliRunner().invoke(cli, ["caribbean", "play", "--seed", "2026"], input=typed)
    assert result.exit_code == 0, result.output
    actual = []
    for line in result.output.splitlines():
        while line.startswith("> "):
            line = line[2:]
        actual.append(line.rstrip())
    position = 0
    for line in shown:
        if line.startswith("> "):
            continue
        position = actual.index(line.rstrip(), position) + 1  # ValueError: the page shows a line not printed


def _shown(key: str, value) -> None:
    assert f'"{key}": {json.dumps(value)}' in PAGE, (key, value)


def test_the_api_examples_are_the_sessions_figures() -> None:
    s = TableSession(bankroll=1000, hands=20, seed=2026)
    assert '"deck": "practice deck (seed 2026): reproducible, not a fair random shuffle"' in PAGE
    s.add_chip(25)
    view = session_view(s)
    _shown("spot", view["spot"])
    _shown("legal_actions", view["legal_actions"])
    s.add_chip(5)
    s.undo()
    s.deal()
    hand = session_view(s)["hand"]
    for key in ("player", "player_hand", "dealer_up", "raise_amount"):
        _shown(key, hand[key])
    for key in ("ev_raise", "ev_raise_float", "margin", "optimal"):
        _shown(key, hand["coach"][key])
    s.raise_()
    view = session_view(s)
    for key in ("dealer", "dealer_hand", "event", "net", "cost", "expected_net"):
        _shown(key, view["last_hand"][key])
    for key in ("ev_given_up_chips", "ev_given_up_chips_float", "mistakes"):
        _shown(key, view["session"][key])
    _shown("bankroll", view["bankroll"])
    s.rebet()
    assert json.dumps(session_view(s)["hand"]["player"]) in PAGE and s.hand.coach.optimal == "raise"
    s.fold()
    _shown("cost", session_view(s)["last_hand"]["cost"])
    s.deposit(500)
    _shown("bankroll", session_view(s)["bankroll"])
    csv_rows = [line for line in PAGE.splitlines() if re.match(r"\d,\d,25,", line)]
    assert [row.split(",")[3] for row in csv_rows] == [format_cards(h.player) for h in s.history]
