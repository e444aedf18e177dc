"""The hosted game as a library object: the engine's rules through a whole evening, the clocks, the
host's controls, what each link sees, and a game read back from its records exactly as it stood."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from exactodds.cards import format_card, parse_cards
from exactodds.errors import IllegalActionError
from exactodds.stud.decide.models import model_from_dict
from exactodds.stud.engine.actions import Action, ActionKind
from exactodds.stud.engine.state import StudHand
from exactodds.stud.history.session_phh import dumps_session, parse_session, replay_session
from exactodds.stud.host.bots import BotModels, bot_choice
from exactodds.stud.host.config import GameConfig, GameSetupError
from exactodds.stud.host.game import ActionSource, GameStateError, GameStatus, HostGame, out_of_time
from exactodds.stud.host.views import Role, game_view

MODELS = BotModels.of()


def _config(**changes) -> GameConfig:
    seats = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy", "bot": "bots"}, {"name": "Dee", "bot": "bots"}]
    setup = {"seats": seats,
             "stack": 30, "hands": 6, "bot_seconds": 0, "between_seconds": 1, "act_seconds": 5, **changes}
    return GameConfig.from_dict(setup)


def _restored(game: HostGame, now: float) -> HostGame:
    assert GameConfig.from_dict(json.loads(json.dumps(game.config.to_dict()))) == game.config
    return HostGame.restore(id=game.id, config=game.config, state=json.loads(json.dumps(game.state())),
                            hands=list(game.hands), actions=list(game.actions), created=game.created, now=now)


def _strings(value) -> list[str]:
    """Every string of a JSON value, and every word of each (a card in a sentence counts too)."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, str):
        return [value, *(w.strip(".,:;()") for w in value.split())]
    return []


def _holes(game: HostGame) -> dict[int, str]:
    table = game.table
    assert table is not None
    return {seat: format_card(table.hand.down[p]) for p, seat in enumerate(table.seats)
            if table.hand.down[p] is not None}


def _check_views(game: HostGame, now: float) -> None:
    """Before the showdown a hole card is in its own seat's view only (the host and spectators see none)."""
    if game.table is None:
        return
    holes = _holes(game)
    hand = game.table.hand
    shown = game_view(game, role=Role.SPECTATOR, seat=None, now=now)["hand"]
    _, returned = hand.current_pots()  # a bet nobody can match yet is not in any pot
    assert sum(p["amount"] for p in shown["pots"]) in (shown["pot"], shown["pot"] - sum(returned))
    if not any(hand.stacks[q] == 0 for q in hand.in_hand):  # side pots only with someone all-in
        assert [p["amount"] for p in shown["pots"]] == [shown["pot"]]
    for seat in range(1, len(game.seats) + 1):
        view = game_view(game, role=Role.SEAT, seat=seat, now=now)
        seen = set(_strings({k: v for k, v in view.items() if k != "last_hand"}))
        assert {c for s, c in holes.items() if s != seat}.isdisjoint(seen), seat
        assert view["hole"] == holes.get(seat)
    for role in (Role.HOST, Role.SPECTATOR):
        view = game_view(game, role=role, seat=None, now=now)
        assert set(holes.values()).isdisjoint(_strings({k: v for k, v in view.items() if k != "last_hand"}))


def _play(game: HostGame, rng: random.Random, *, check_restore: bool) -> float:
    """Play the evening to its end: persons choose at random among the legal actions (sometimes too late)."""
    now = 10.0
    game.start(now=now)
    steps = 0
    while game.status is not GameStatus.OVER:
        steps += 1
        assert steps < 5000
        now += 0.5
        seat = game.actor_seat()
        person = seat is not None and game.seats[seat - 1].token is not None
        if person and rng.random() < 0.9:
            table = game.table
            assert table is not None
            action = rng.choice(table.hand.legal().actions())
            game.act(seat, action, turn=len(game.actions), now=now)
        else:
            now += 5.0 if person else 0.0
            game.tick(now=now, models=MODELS)
        assert game.chips_total() == game.config.stack * len(game.seats)
        _check_views(game, now)
        if check_restore and steps % 7 == 0:
            again = _restored(game, now)
            assert again.state() == game.state() and again.session.stacks == game.session.stacks
            assert game_view(again, role=Role.SEAT, seat=1, now=now) | {"version": 0} == \
                game_view(game, role=Role.SEAT, seat=1, now=now) | {"version": 0}
    return now


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_evening_through_the_engine_read_back_at_any_step(seed: int) -> None:
    game = HostGame.new(_config(), now=0.0)
    now = _play(game, random.Random(seed), check_restore=True)
    assert len(game.session.finished) == 6 or sum(1 for s in game.session.stacks if s) < 2
    assert sum(game.session.stacks) == 120
    # the evening's .phhs replays to the same stacks (stud replay reads it)
    replayed = replay_session(parse_session(dumps_session(game.session)))
    assert [r.finish for r in replayed.result.seats] == game.session.stacks
    assert [r.name for r in replayed.result.seats] == ["Ann", "Bob", "Cy", "Dee"]
    # the deal passed left, one hand after the other, and every action is recorded with who took it
    dealers = [t.dealer for t in game.session.finished]
    assert all(b == a % 4 + 1 for a, b in zip(dealers, dealers[1:], strict=False) if all(game.session.stacks))
    assert {a.source for a in game.actions} <= set(ActionSource)
    assert _restored(game, now).status is GameStatus.OVER


def test_out_of_time_brings_in_checks_when_free_else_folds() -> None:
    hand = StudHand(stacks=(20, 20, 20))
    for p, cards in enumerate(((0, 51), (1, 50), (2, 4))):
        hand.deal(p, list(cards))
    assert out_of_time(hand).kind == ActionKind.BRING_IN  # the lowest up card must bring in
    hand.act(out_of_time(hand))
    assert out_of_time(hand) == Action(player=hand.actor, kind=ActionKind.FOLD)  # facing the bring-in
    hand.act(Action(player=hand.actor, kind=ActionKind.CHECK_CALL))
    hand.act(Action(player=hand.actor, kind=ActionKind.CHECK_CALL))
    hand.deal_from([5, 6, 7])
    assert out_of_time(hand).kind == ActionKind.CHECK_CALL and hand.legal().check  # free: checks


def test_clocks_a_person_out_of_time_a_bot_after_its_pause_the_next_hand() -> None:
    game = HostGame.new(_config(bot_seconds=1.5, act_seconds=7, between_seconds=3), now=0.0)
    assert game.due() is None and game.status is GameStatus.WAITING
    game.start(now=100.0)
    seat = game.actor_seat()
    assert seat is not None
    wait = 1.5 if game.seats[seat - 1].token is None else 7
    assert game.due() == 100.0 + wait
    assert not game.tick(now=100.0 + wait - 0.01, models=MODELS)
    assert game.tick(now=100.0 + wait, models=MODELS)
    assert game.actions[-1].source is (ActionSource.BOT if wait == 1.5 else ActionSource.CLOCK)
    # pause: nothing moves, a person cannot act; resume gives the player to act the whole time again
    game.pause(now=200.0)
    assert game.due() is None and not game.tick(now=10**6, models=MODELS)
    with pytest.raises(GameStateError, match="paused"):
        game.act(game.actor_seat() or 1, Action(player=0, kind="cc"), turn=len(game.actions), now=201.0)
    game.resume(now=300.0)
    assert game.due() is not None and game.due() >= 300.0


def test_refused_actions_change_nothing_and_name_the_players() -> None:
    game = HostGame.new(_config(bot_seconds=10), now=0.0)
    game.start(now=1.0)
    now = 1.0
    while game.seats[(game.actor_seat() or 1) - 1].token is None:  # to a person's turn
        now += 10.0
        assert game.tick(now=now, models=MODELS)
    seat = game.actor_seat()
    assert seat is not None
    other = 3 - seat if seat in (1, 2) else 1
    before = (json.dumps(game.state()), game.table.hand.snapshot(), len(game.actions))  # type: ignore[union-attr]
    cases = [
        (lambda: game.act(other, Action(player=0, kind="cc"), turn=len(game.actions), now=2.0), "turn, not"),
        (lambda: game.act(seat, Action(player=0, kind="cc"), turn=len(game.actions) + 1, now=2.0),
         "turn is over"),
        (lambda: game.act(seat, Action(player=0, kind="cbr", amount=3), turn=len(game.actions), now=2.0),
         r"cannot bet or raise to 3"),
    ]
    for attempt, message in cases:
        with pytest.raises((GameStateError, IllegalActionError), match=message) as caught:
            attempt()
        assert " p1 " not in f" {caught.value} " and " p2 " not in f" {caught.value} "
        after = (json.dumps(game.state()), game.table.hand.snapshot(), len(game.actions))  # type: ignore[union-attr]
        assert after == before


def test_the_hosts_controls_late_player_bot_names_and_end() -> None:
    game = HostGame.new(_config(), now=0.0)
    old = game.seats[0].token
    token = game.seat_person(1, name="Ann B")  # before the first hand a seat may be renamed
    assert token != old and game.seats[0].config.name == "Ann B"
    with pytest.raises(GameSetupError, match="already called"):
        game.seat_person(2, name="Cy")
    game.start(now=1.0)
    with pytest.raises(GameSetupError, match="stays 'Bob' for the evening"):
        game.seat_person(2, name="Robert")
    game.seat_bot(2, model="bots")
    assert game.seats[1].token is None and game.seats[1].config.model == "bots"
    late = game.seat_person(3)  # a late player takes the bot's seat
    assert late and game.seats[2].config.kind == "person" and game.seats[2].config.name == "Cy"
    with pytest.raises(GameSetupError, match="bot model must be a model's name"):
        game.seat_bot(4, model=" ")
    game.end(now=2.0)
    assert game.status is GameStatus.PLAYING  # the hand in play is finished first
    now = 10.0
    while game.table is not None:
        now += 10.0
        assert game.tick(now=now, models=MODELS)
    assert game.status is GameStatus.OVER and len(game.session.finished) == 1


def test_an_evening_in_minutes_ends_after_the_hand_in_play_when_time_is_up() -> None:
    game = HostGame.new(_config(hands=None, minutes=1, act_seconds=3, between_seconds=0), now=0.0)
    game.start(now=0.0)
    game.pause(now=10.0)
    game.resume(now=1000.0)  # paused time is not counted
    assert 9.9 < game.played_seconds(1000.0) < 10.1
    now = 1000.0
    while game.status is not GameStatus.OVER:
        now += 3.0
        assert game.tick(now=now, models=MODELS) and now < 10**4
    assert game.played_seconds(now) >= 60 and len(game.session.finished) >= 1
    assert game.table is None


@pytest.mark.parametrize(("body", "message"), [
    ({"seats": [{"name": "A"}]}, "2 to 8 seats"),
    ({"seats": [{"name": "A"}, {"name": "A"}]}, "names must differ"),
    ({"seats": [{"name": "A"}, {"name": "B", "bot": 7}]}, "seat 2's bot model must be a model's name"),
    ({"seats": [{"name": "A"}, {"name": 'B"'}]}, "seat 2's name"),
    ({"seats": [{"name": "A"}, {"name": "B"}], "hands": 5, "minutes": 30}, "not both"),
    ({"seats": [{"name": "A"}, {"name": "B"}], "stack": 1}, "stack must be a whole number from 2"),
    ({"seats": [{"name": "A"}, {"name": "B"}], "act_seconds": 1}, "act_seconds must be a number of seconds"),
    ({"seats": [{"name": "A"}, {"name": "B"}], "coach": "yes"}, "coach must be true or false"),
    ({"seats": [{"name": "A"}, {"name": "B"}], "rake": 1}, "unknown field 'rake'"),
])
def test_a_bad_setup_is_one_clear_error(body, message) -> None:
    with pytest.raises(GameSetupError, match=message):
        GameConfig.from_dict(body)


def test_the_documented_view_has_the_keys_of_a_real_one() -> None:
    page = (Path(__file__).resolve().parents[1] / "docs" / "stud-host.md").read_text(encoding="utf-8")
    shown = json.loads(re.search(r"```json\n(.*?)```", page, flags=re.S).group(1))  # type: ignore[union-attr]
    game = HostGame.new(_config(bot_seconds=0), now=0.0)
    game.start(now=1.0)
    now = 1.0
    while game.seats[(game.actor_seat() or 1) - 1].token is None:
        now += 1.0
        game.tick(now=now, models=MODELS)
    real = game_view(game, role=Role.SEAT, seat=game.actor_seat(), now=now)
    assert list(shown) == list(real)
    assert list(shown["seats"][0]) == list(real["seats"][0]) and list(shown["hand"]) == list(real["hand"])
    assert list(shown["legal"][0]) == list(real["legal"][0])
    assert list(shown["standings"][0]) == list(real["standings"][0])


def test_a_bring_in_of_the_wrong_amount_is_refused() -> None:
    config = GameConfig.from_dict({"seats": [{"name": "Ann"}, {"name": "Bob"}], "stack": 20})
    game = HostGame.new(config, now=0.0)
    game.start(now=1.0)
    seat = game.actor_seat()
    assert seat is not None and game.table is not None and game.table.hand.legal().bring_in == 1
    before = game.table.hand.snapshot()
    with pytest.raises(IllegalActionError, match="the bring-in is 1, not 5"):
        game.act(seat, Action(player=0, kind="pb", amount=5), turn=0, now=2.0)
    assert game.table.hand.snapshot() == before and not game.actions
    game.act(seat, Action(player=0, kind="pb", amount=1), turn=0, now=2.0)
    assert game.actions[-1].action == "pb"


def test_bot_seats_play_their_models_rock_folds_to_bets_maniac_raises_the_most() -> None:
    """Rocky plays ``rock`` (brings in when forced, folds to any bet, else checks), Manny ``maniac`` (the
    largest bet or raise whenever one is allowed, else calls); Ann checks or calls."""
    setup = {"seats": [{"name": "Ann"}, {"name": "Rocky", "bot": "rock"}, {"name": "Manny", "bot": "maniac"}],
             "stack": 30, "hands": 4, "bot_seconds": 0, "between_seconds": 0}
    game = HostGame.new(GameConfig.from_dict(setup), now=0.0)
    now = 1.0
    game.start(now=now)
    seen: dict[int, list[str]] = {2: [], 3: []}
    while game.status is not GameStatus.OVER:
        now += 10.0
        seat, table = game.actor_seat(), game.table
        if seat is None or table is None:
            game.tick(now=now, models=MODELS)
            continue
        legal = table.hand.legal()
        if seat == 1:
            game.act(1, Action(player=0, kind="pb" if legal.bring_in is not None else "cc"),
                     turn=len(game.actions), now=now)
            continue
        if seat == 2:
            expected = "pb" if legal.bring_in is not None else ("f" if legal.call else "cc")
        else:
            expected = f"cbr {max(legal.raise_to)}" if legal.raise_to else \
                ("pb" if legal.bring_in is not None else "cc")
        assert game.tick(now=now, models=MODELS)
        record = game.actions[-1]
        assert (record.seat, record.action, record.source) == (seat, expected, ActionSource.BOT)
        seen[seat].append(expected)
    assert "f" in seen[2] and any(a.startswith("cbr") for a in seen[3])
    assert sum(game.session.stacks) == 90


def test_a_mixed_model_draws_both_of_its_actions_from_the_os_randomness() -> None:
    """A bot whose model checks or bets half the time each: 400 draws on one position, both actions,
    the bets within six standard deviations of 200."""
    model = model_from_dict({"name": "coin", "rule": [{"check": 0.5, "bet": 0.5}]})
    hand = StudHand(stacks=(20, 20))
    hand.deal(0, parse_cards("Kh 9c"))
    hand.deal(1, parse_cards("Qc Qh"))
    hand.act(Action(player=0, kind="pb"))
    hand.act(Action(player=1, kind="cc"))
    hand.deal_from([parse_cards("2d")[0], parse_cards("3d")[0]])
    assert hand.legal().check and hand.legal().raise_to
    bets = sum(bot_choice(model, hand).kind == ActionKind.BET_RAISE for _ in range(400))
    assert abs(bets - 200) <= 6 * 10
