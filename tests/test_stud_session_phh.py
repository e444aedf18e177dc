"""Multi-hand PHH session files (.phhs): round trip through replay, and every corruption reported
with the hand number and the line, at the command line as one "Error:" line with exit 2."""

import json
import re

import pytest

from exactodds.stud.bots.policy import bot_action
from exactodds.stud.history.phh import parse_phh, replay
from exactodds.stud.history.session import RebuyPolicy, StudSession
from exactodds.stud.history.session_phh import (
    SessionHistoryError,
    dumps_hand,
    dumps_session,
    load_session,
    parse_session,
    replay_session,
    write_session,
)

from .cli_checks import one_line_error, run


def played(n=3, hands=4, seed=21, reserve=100, rebuys=0):
    s = StudSession(players=("Ann", "Bob", "Cy", "Dee")[:n], reserve=reserve, hands=hands, seed=seed,
                    rebuys=RebuyPolicy(max_rebuys=rebuys))
    while not s.over:
        for seat in range(1, n + 1):
            if s.stacks[seat - 1] == 0 and s.rebuys_left(seat) and not s.over:
                s.rebuy(seat)
        s.play_hand(bot_action)
    return s


def table_span(text: str, number: int) -> tuple[int, int]:
    start = text.index(f"\n[{number}]\n")
    nxt = text.find(f"\n[{number + 1}]\n")
    return start, len(text) if nxt < 0 else nxt


def replace_in_hand(text: str, number: int, old: str, new: str) -> tuple[str, int]:
    """Replace the first ``old`` inside hand ``number``'s table; return the text and that line."""
    start, end = table_span(text, number)
    at = text.index(old, start, end)
    return text[:at] + new + text[at + len(old):], text.count("\n", 0, at) + 1


def test_round_trip_through_replay():
    for seed in range(6):
        s = played(n=3 + seed % 2, hands=5, seed=seed)
        text = dumps_session(s)
        again = replay_session(parse_session(text, source="s.phhs"))
        assert again.result == s.result()
        assert [t.dealer for t in again.hands] == [t.dealer for t in s.finished]
        assert [t.seats for t in again.hands] == [t.seats for t in s.finished]
        assert [t.hand.events for t in again.hands] == [t.hand.events for t in s.finished]
        assert text.count("\n[") == len(s.finished) and f"hand = {len(s.finished)}" in text
        for t in s.finished:  # each table is also a stand-alone PHH hand with its number and dealer
            body = dumps_hand(t, s.names)
            assert f"hand = {t.number}\n" in body and f"_dealer = {t.dealer}\n" in body
            assert replay(parse_phh(body)).events == t.hand.events


def test_round_trip_with_rebuys(tmp_path):
    s = played(n=3, hands=25, seed=3, reserve=3, rebuys=2)
    assert s.rebuys, "this seed must produce rebuys"
    path = tmp_path / "rebuys.phhs"
    write_session(path, s)
    assert "_rebuys = [" in path.read_text()
    again = replay_session(load_session(path))
    assert again.result == s.result()
    assert sorted((r.before_hand, r.seat, r.amount) for r in again.rebuys) == \
        sorted((r.before_hand, r.seat, r.amount) for r in s.rebuys)


def test_corrupt_actions_are_reported_with_hand_and_line(tmp_path):
    text = dumps_session(played(hands=4, seed=21))
    path = tmp_path / "bad.phhs"
    cases = 0
    for number in (1, 2, 4):
        start, end = table_span(text, number)
        action = re.search(r'"(p\d) (cc|f)"', text[start:end])
        if action is None:
            continue
        bad, line = replace_in_hand(text, number, action.group(0), f'"{action.group(1)} cbr 99"')
        with pytest.raises(SessionHistoryError) as info:
            replay_session(parse_session(bad, source="bad.phhs"))
        assert str(info.value).startswith(f'bad.phhs hand {number} line {line}: "{action.group(1)} cbr 99"')
        path.write_text(bad)
        one_line_error(run("stud", "replay", str(path)), f"hand {number} line {line}")
        cases += 1
    assert cases >= 2


def test_corrupt_stacks_are_reported_with_hand_and_line(tmp_path):
    s = played(hands=4, seed=21)
    text = dumps_session(s)
    path = tmp_path / "stacks.phhs"
    for number in (2, 3, 4):
        starts = list(s.finished[number - 1].hand.starting_stacks)
        wrong = [starts[0] + 1, *starts[1:]]  # chips appear from nowhere between hands
        bad, line = replace_in_hand(text, number, f"starting_stacks = {starts}", f"starting_stacks = {wrong}")
        path.write_text(bad)
        result = run("stud", "replay", str(path))
        one_line_error(result, f"stacks.phhs hand {number} line {line}: starting_stacks {wrong}",
                       f"starts with {wrong[0]} but finished hand {number - 1} with {starts[0]}")
    finish = list(s.finished[1].hand.outcome.finishing_stacks)
    bad, line = replace_in_hand(text, 2, f"finishing_stacks = {finish}",
                                f"finishing_stacks = {[finish[0] - 1, finish[1] + 1, *finish[2:]]}")
    path.write_text(bad)
    one_line_error(run("stud", "replay", str(path)), f"hand 2 line {line}: finishing_stacks",
                   "disagree with the replay")


def test_the_deal_and_the_seats_are_checked():
    s = played(hands=3, seed=21)
    text = dumps_session(s)
    table = s.finished[1]
    wrong = table.dealer % 3 + 1
    bad, line = replace_in_hand(text, 2, f"_dealer = {table.dealer}", f"_dealer = {wrong}")
    with pytest.raises(SessionHistoryError, match=rf"hand 2 line {line}: the dealer \(seat {wrong}\)"):
        replay_session(parse_session(bad))
    seats = list(table.seats)
    swapped = [seats[1], seats[0], seats[2]]
    bad, line = replace_in_hand(text, 2, f"seats = {seats}", f"seats = {swapped}")
    names = [s.names[k - 1] for k in seats]
    bad, _ = replace_in_hand(bad, 2, f"players = {json.dumps(names)}",
                             f"players = {json.dumps([names[1], names[0], names[2]])}")
    expected = re.escape(f"hand 2 line {line}: seats {swapped} should be")
    with pytest.raises(SessionHistoryError, match=expected):
        replay_session(parse_session(bad))
    bad, line = replace_in_hand(text, 3, "hand = 3", "hand = 7")
    with pytest.raises(SessionHistoryError, match=rf"hand 3 line {line}: hand = 7 but the table is \[3\]"):
        parse_session(bad)
    bad = text.replace("\n[3]\n", "\n[4]\n")
    with pytest.raises(SessionHistoryError, match=r"table \[4\] should be \[3\]"):
        parse_session(bad)
    bad, line = replace_in_hand(text, 2, "_dealer", "_rebuys = [0, 5, 0]\n_dealer")
    with pytest.raises(SessionHistoryError, match=rf"hand 2 line {line}: seat \d rebuys 5 with \d+ chips"):
        replay_session(parse_session(bad))


@pytest.mark.parametrize("text, words", [
    ("", "no hands"),
    ("# only a comment\n", "no hands"),
    ('variant = "F5S"\n', "field variant stands outside the hand tables"),
    ("[1]\n", "hand 1: missing fields variant, antes"),
    ("[1]\nvariant = 'F5S'\n[1]\n", "not valid TOML"),
    ("[a]\nx = 1\n", "table [a] should be [1]"),
])
def test_bad_session_files(tmp_path, text, words):
    with pytest.raises(SessionHistoryError, match=re.escape(words)):
        replay_session(parse_session(text))
    path = tmp_path / "x.phhs"
    path.write_text(text)
    one_line_error(run("stud", "replay", str(path)), words)


def test_a_byte_order_mark_is_accepted(tmp_path):
    s = played(hands=2, seed=2)
    path = tmp_path / "bom.phhs"
    path.write_bytes(b"\xef\xbb\xbf" + dumps_session(s).encode())
    assert replay_session(load_session(path)).result == s.result()


def test_cli_replay_prints_every_hand_and_the_net_results(tmp_path):
    s = played(n=4, hands=6, seed=8)
    path = tmp_path / "evening.phhs"
    write_session(path, s)
    result = run("stud", "replay", str(path))
    assert result.exit_code == 0, result.output
    rows = [line.split() for line in result.output.splitlines()]
    for t in s.finished:
        dealer = s.names[t.dealer - 1].split()
        assert any(r[:1 + len(dealer)] == [str(t.number), *dealer] for r in rows)
    for r in s.result().seats:
        assert [str(r.seat), r.name, str(r.start), str(r.rebuys), str(r.finish), f"{r.net:+d}"] in rows
    assert ["total", "+0"] in rows
    data = json.loads(run("stud", "replay", str(path), "--json").output)
    assert data["hands_played"] == 6 and data["net_total"] == 0
    assert [h["dealer_seat"] for h in data["hands"]] == [t.dealer for t in s.finished]
    assert [r["net"] for r in data["results"]] == [r.net for r in s.result().seats]


def test_a_session_is_recognised_whatever_its_file_name(tmp_path):
    s = played(hands=2, seed=4)
    for name in ("evening.phh", "evening.toml", "evening"):
        path = tmp_path / name
        write_session(path, s)
        result = run("stud", "replay", str(path), "--json")
        assert result.exit_code == 0, result.output
        assert json.loads(result.output)["hands_played"] == len(s.finished)
