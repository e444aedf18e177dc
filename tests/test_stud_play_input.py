"""What a new user meets in ``stud play`` and in PHH files: keys that mean one thing each, messages that
name the keys (not the file codes), end of input that saves, and PHH messages that name the real fault."""

import re

import pytest

from exactodds.cli.stud.keys import options_text, read_choice
from exactodds.errors import IllegalActionError
from exactodds.stud.engine.actions import Legal
from exactodds.stud.history.phh import EXAMPLE, HandHistoryError, load_phh, parse_phh, replay
from exactodds.stud.history.session_phh import load_session, replay_session

from .cli_checks import one_line_error, run

CODES = re.compile(r"\b(pb|cc|cbr)\b")


BRING_IN = Legal(player=0, bring_in=1, check=False, call=None, fold=False, raise_to=(2,))
FACING_BET = Legal(player=0, bring_in=None, check=False, call=4, fold=True, raise_to=(8,))
FREE = Legal(player=0, bring_in=None, check=True, call=None, fold=False, raise_to=(2, 4))
SHORT = Legal(player=1, bring_in=None, check=False, call=3, fold=True, raise_to=(),
              no_raise_reason="p2 has no chips beyond the call")
REOPEN = Legal(player=2, bring_in=None, check=False, call=1, fold=True, raise_to=(),
               no_raise_reason="p3 already answered the last full bet and a short all-in does not "
                               "reopen raising")
CAPPED = Legal(player=0, bring_in=None, check=False, call=2, fold=True, raise_to=(),
               no_raise_reason="the cap of a bet and 3 raises is reached")


@pytest.mark.parametrize("legal, typed, kind, amount", [
    (BRING_IN, "p", "pb", None), (BRING_IN, "r", "cbr", 2), (BRING_IN, " R 2 ", "cbr", 2),
    (FACING_BET, "c", "cc", None), (FACING_BET, "call", "cc", None), (FACING_BET, "f", "f", None),
    (FACING_BET, "r", "cbr", 8), (FREE, "k", "cc", None), (FREE, "check", "cc", None),
    (FREE, "r 4", "cbr", 4), (FREE, "bet 2", "cbr", 2), (CAPPED, "c", "cc", None),
])
def test_each_key_means_its_own_action(legal, typed, kind, amount):
    action = read_choice(legal, typed)
    assert (action.kind, action.amount) == (kind, amount)


@pytest.mark.parametrize("legal, typed, words", [
    (FACING_BET, "k", "you cannot check: there is a bet: call 4 (c)"),  # k no longer calls
    (FREE, "c", "you cannot call: there is no bet to call: check (k)"),  # c no longer checks
    (FREE, "f", "you cannot fold: there is no bet to call: check (k)"),
    (BRING_IN, "k", "you must post the bring-in (p) or complete (r 2)"),
    (BRING_IN, "c", "you must post the bring-in (p) or complete (r 2)"),
    (BRING_IN, "f", "you must post the bring-in (p) or complete (r 2)"),
    (FACING_BET, "p", "you have no bring-in to post"),
    (FACING_BET, "r 6", "you cannot raise to 6; allowed: r 8"),
    (FREE, "r", "say how much: r 2 or r 4"),
    (FREE, "r 3", "allowed: r 2 or r 4"),
    (CAPPED, "r", "you cannot bet or raise: the cap of a bet and 3 raises is reached"),
    (SHORT, "r", "you cannot bet or raise: you have no chips beyond the call"),
    (REOPEN, "r 8", "you cannot bet or raise: you already answered the last full bet"),
    (FREE, "cc", 'unknown key "cc"'), (BRING_IN, "pb", 'unknown key "pb"'), (FREE, "cbr 2", 'unknown key'),
    (FREE, "k now", 'unexpected words after "k"'), (FREE, "", "type one of the keys"),
])
def test_refusals_name_the_keys_not_the_file_codes(legal, typed, words):
    with pytest.raises(IllegalActionError) as info:
        read_choice(legal, typed)
    message = str(info.value)
    assert words in message
    assert not CODES.search(message.replace(f'"{typed.strip()}"', "")), message
    assert not re.search(r"\bp\d\b", message), message  # the player is "you", not a file's p1..p8


def test_options_show_keys():
    assert options_text(BRING_IN) == "p = post the bring-in 1, r = complete to 2"
    assert options_text(FACING_BET) == "c = call 4, r = bet/raise to 8, f = fold"
    assert options_text(FREE) == "k = check, r N = bet/raise to N (2 or 4)"
    assert options_text(FREE, completing=True) == "k = check, r N = complete to N (2 or 4)"


def test_the_terminal_session_never_shows_file_codes():
    keys = "k\nc\np\n" * 40  # the wrong key first, every time
    result = run("stud", "play", "--players", "3", "--hands", "2", "--seed", "3", input=keys)
    assert result.exit_code == 0, result.output
    refusals = [line for line in result.output.splitlines() if "Not allowed:" in line]
    assert refusals and not any(CODES.search(line) for line in refusals)


def test_end_of_input_saves_the_finished_hands(tmp_path):
    save = tmp_path / "s.phhs"
    seen = set()
    for decisions in (3, 12, 25):
        keys = "p\nk\nc\n" * decisions
        result = run("stud", "play", "--players", "3", "--hands", "50", "--seed", "6", "--stack", "500",
                     "--save", str(save), input=keys)
        assert result.exit_code == 0, result.output
        assert "Aborted" not in result.output
        match = re.search(r"End of input: the session stops after (\d+) finished hand", result.output)
        assert match, result.output
        finished = int(match.group(1))
        seen.add(finished)
        if finished:
            assert f"{finished} hand(s) saved to" in result.output
            assert len(replay_session(load_session(save)).hands) == finished
        else:
            assert "nothing written" in result.output and not save.exists()
    assert 0 in seen and max(seen) >= 2  # input ended in the first hand and later


@pytest.mark.parametrize("args, words", [
    (["--hands", "0"], "'--hands': 0 is not in the range 1<=x<=1000"),
    (["--hands", "-2"], "'--hands'"),
    (["--hands", "1001"], "'--hands'"),
    (["--hands", "ten"], "'--hands'"),
    (["--hands", "3", "--until-one-has-all"], "either --hands N or --until-one-has-all"),
    (["--seat", "0"], "--seat must be 1..3, got 0"),
    (["--seat", "4"], "--seat must be 1..3, got 4"),
    (["--stack", "0"], "'--stack'"),
    (["--rebuys", "-1"], "'--rebuys'"),
    (["--seed", "-1"], "'--seed'"),
    (["--save", "/nonexistent-folder/s.phhs"], "does not exist"),
])
def test_play_bad_options(args, words):
    one_line_error(run("stud", "play", "--players", "3", *args, input="c\n"), words)


# ---------------------------------------------------------------------- PHH messages
@pytest.mark.parametrize("field, value, words", [
    ("small_bet", "-2", "small_bet must be positive, got -2"),
    ("small_bet", "0", "small_bet must be positive, got 0"),
    ("big_bet", "-4", "big_bet must be positive, got -4"),
    ("bring_in", "-1", "bring_in must be positive, got -1"),
    ("bring_in", "0", "bring_in must be positive, got 0"),
    ("small_bet", "2.5", "small_bet must be a whole number, got 2.5"),
    ("small_bet", '"2"', "small_bet must be a whole number, got '2'"),
])
def test_amounts_say_positive_when_negative(field, value, words):
    text = re.sub(rf"^{field} = .*$", f"{field} = {value}", EXAMPLE, flags=re.MULTILINE)
    with pytest.raises(HandHistoryError, match=re.escape(words)):
        parse_phh(text)


def test_max_raises_may_be_zero_but_not_negative():
    assert parse_phh(EXAMPLE + "max_raises = 0\n").profile.max_raises == 0
    with pytest.raises(HandHistoryError, match="max_raises must be at least 0, got -1"):
        parse_phh(EXAMPLE + "max_raises = -1\n")


@pytest.mark.parametrize("stacks, antes, words", [
    ("[20]", "[1, 1]", "starting_stacks must list 2 to 8 players (one stack each), got 1"),
    ("[]", "[1, 1]", "starting_stacks must list 2 to 8 players (one stack each), got 0"),
    ("[20, 20, 20]", "[1, 1]", "antes lists 2 value(s) but starting_stacks lists 3 players"),
    ("[20, 20]", "[1, 1, 1]", "antes lists 3 value(s) but starting_stacks lists 2 players"),
    ("[20, 20]", "[1, 2]", "antes must be equal for every player, got [1, 2]"),
    ("[20, -3]", "[1, 1]", "starting_stacks must not hold negative numbers"),
])
def test_short_stacks_are_blamed_not_the_antes(stacks, antes, words):
    text = EXAMPLE.replace("starting_stacks = [20, 20]", f"starting_stacks = {stacks}")
    text = text.replace("antes = [1, 1]", f"antes = {antes}")
    with pytest.raises(HandHistoryError, match=re.escape(words)):
        parse_phh(text)


def test_a_byte_order_mark_is_not_invalid_toml(tmp_path):
    path = tmp_path / "bom.phh"
    path.write_bytes(b"\xef\xbb\xbf" + EXAMPLE.encode())
    assert replay(load_phh(path)).outcome.payoffs == (7, -7)
    assert replay(parse_phh("\ufeff" + EXAMPLE)).outcome.payoffs == (7, -7)
    assert run("stud", "replay", str(path)).exit_code == 0


@pytest.mark.parametrize("text, words", [
    ("", "missing fields variant, antes, bring_in, small_bet, big_bet, starting_stacks, actions"),
    ("\n\n  \n", "missing fields variant, antes"),
    ("# nothing here\n", "missing fields variant"),
    ('variant = "F5S"\n', "missing fields antes, bring_in"),
    (EXAMPLE.replace("bring_in = 1\n", ""), "missing field bring_in ("),
])
def test_missing_fields_are_named(tmp_path, text, words):
    path = tmp_path / "empty.phh"
    path.write_text(text)
    with pytest.raises(HandHistoryError, match=re.escape(words)):
        load_phh(path)
    result = run("stud", "replay", str(path))
    one_line_error(result, words)
    assert "got None" not in result.output
