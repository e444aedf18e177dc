"""The host's coach is ``stud decide``'s coach, worded as the terminal's, on the player's own view: the
advice of a real game's turn equals the advice on the full hand (so the other hole cards, replaced
by placeholders in the job, play no part), it names each opponent's model (a person taken as the
bots), and neither its words nor its JSON hold another seat's hole card."""

from __future__ import annotations

import json
import re

from exactodds.cards import format_card
from exactodds.stud.decide.coach import COACH_BUDGET, COACH_SAMPLES, coach_advice
from exactodds.stud.decide.models import load_model
from exactodds.stud.decide.words import coach_lines
from exactodds.stud.engine.actions import Action
from exactodds.stud.host.bots import BotModels
from exactodds.stud.host.coach import CoachJob, coach_words, opponents_in_words
from exactodds.stud.host.config import GameConfig
from exactodds.stud.host.game import HostGame

MODELS = BotModels.of()


def _turn_of(game: HostGame, seat: int, *, decisions: int) -> None:
    """Move the game on (bots by their models, the other persons checking or calling) until ``seat`` is
    to act for the ``decisions``-th time in the first hand, or the hand is over."""
    now, seen = 1.0, 0
    game.start(now=now)
    while game.table is not None and game.table.number == 1:
        actor = game.actor_seat()
        if actor == seat:
            seen += 1
            if seen == decisions:
                return
        now += 100.0
        if actor == seat or (actor is not None and game.seats[actor - 1].token is not None):
            legal = game.table.hand.legal()
            kind = "pb" if legal.bring_in is not None else "cc"
            game.act(actor, Action(player=0, kind=kind), turn=len(game.actions), now=now)
        else:
            game.tick(now=now, models=MODELS)


def test_the_coach_on_the_players_view_is_stud_decides_advice_on_the_hand_and_leaks_nothing() -> None:
    setup = {"seats": [{"name": "Ann"}, {"name": "Bob", "bot": "calling-station"}, {"name": "Cy"}],
             "stack": 30, "hands": 1, "bot_seconds": 0}
    for _ in range(6):  # the deck is the OS's: play hands until Ann's second decision comes
        game = HostGame.new(GameConfig.from_dict(setup), now=0.0)
        _turn_of(game, 1, decisions=2)
        if game.actor_seat() == 1:
            break
    assert game.actor_seat() == 1, "Ann never had a second decision in six hands"
    table = game.table
    assert table is not None
    job = CoachJob.at(game=game.id, turn=len(game.actions), seat=1, table=table,
                      seats=[s.config for s in game.seats], models=MODELS)
    hand, me = table.hand, table.seats.index(1)
    assert {q: m.name for q, m in job.models.items()} == {table.seats.index(2): "calling-station",
                                                         table.seats.index(3): "bots"}
    note = coach_words(job)
    # the same advice computed on the real hand, every hole card in it
    models = {table.seats.index(2): load_model("calling-station"), table.seats.index(3): load_model("bots")}
    advice = coach_advice(hand, me, models=models, budget=COACH_BUDGET, samples=COACH_SAMPLES,
                          seed=job.turn + 1)
    live = [n for q, n in ((table.seats.index(2), "Bob"), (table.seats.index(3), "Cy")) if not hand.folded[q]]
    expected = coach_lines(advice, opponents=opponents_in_words(live, [{"Bob": "calling-station"}.get(n)
                                                                       for n in live]),
                           said=set(), details=False)
    assert list(note.lines) == expected
    assert note.best == advice.decision.best.action.text()
    assert [a["action"] for a in note.actions] == [a.action.text() for a in advice.decision.ranked]
    # the words: the recommendation first (naming the opponents), a row per legal action, pot odds after
    assert note.lines[0].startswith(note.actions[0]["words"][0].upper())
    assert "Bob playing calling-station" in note.lines[0] or "Bob" not in live
    rows = [line for line in note.lines if line.startswith("  ")]
    assert len(rows) == len(hand.legal().actions())
    assert next(k for k, line in enumerate(note.lines) if line.startswith("Pot odds")) > len(rows)
    assert note.exact or any("random deals" in line for line in note.lines)
    # nothing of another seat's hole card, in the words or the JSON
    others = {format_card(c) for q, c in enumerate(hand.down) if q != me and c is not None}
    text = json.dumps(note.to_dict())
    assert others and not any(re.search(rf"(?<![\w-]){c}(?![\w-])", text) for c in others)


def test_people_are_described_as_taken_to_play_like_the_bots() -> None:
    assert opponents_in_words(["Bob"], [None]) == "Bob taken to play like bots"
    assert opponents_in_words(["Bob", "Cy", "Dee"], ["rock", "rock", "maniac"]) == \
        "Bob and Cy playing rock, Dee playing maniac"
