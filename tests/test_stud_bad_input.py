"""Bad input to the five-card stud code: a specific ExactOddsError in the library, and at the
command line one line "Error: ...", exit status 2, before any output or long work."""

from fractions import Fraction

import pytest

from exactodds.errors import CardError, ExactOddsError, IllegalActionError
from exactodds.stud.engine.actions import Action, parse_chips
from exactodds.stud.engine.dealing import shuffled_deck
from exactodds.stud.engine.state import StudHand, TableSetupError
from exactodds.stud.equity import (
    DecisionError,
    PositionError,
    SamplingError,
    StudPlayer,
    StudPosition,
    call_decision,
    parse_amount,
    parse_player,
    parse_position,
    stud_equity,
)
from exactodds.stud.equity.sampling import sampled_equity
from exactodds.stud.history.phh import EXAMPLE, HandHistoryError, load_phh, parse_phh, replay

from .cli_checks import one_line_error, run

HEADS_UP = ["--player", "Kh | 9c 4d", "--player", "? | Qh 4c"]
THREE_WAY = [*HEADS_UP, "--player", "? | 2c 3c"]


@pytest.fixture(scope="module")
def last_street():
    position = parse_position(["Kh | 9c 4d Ks 2h", "Qc | Qh Js 7d 3c"])
    return position, stud_equity(position)


# ------------------------------------------------------------- 1. pot and amount to call
@pytest.mark.parametrize(
    ("pot", "to_call", "words"),
    [
        ("1e400", "1", "--pot is too large: 1e400"),
        ("1e99999999", "1", "--pot is too large: 1e99999999"),  # used to hang building 10**99999999
        ("1", "1e-99999999", "--to-call is too fine a fraction: 1e-99999999"),
        ("10", "9" * 40, "is too large"),
        ("1/" + "3" * 40, "1", "is too fine a fraction"),
        ("nan", "1", "--pot must be a number"),
        ("inf", "1", "--pot is too large: inf"),
        ("²", "1", "--pot must be a number"),
        ("", "1", "--pot must be a number"),
        ("1/0", "1", "--pot must be a number"),
        ("10", "-2", "--to-call must not be negative"),
        ("0", "0", "cannot both be 0"),
    ],
)
def test_cli_pot_and_call_checked_before_anything_is_printed(pot, to_call, words):
    one_line_error(run("stud", "equity", *HEADS_UP, "--pot", pot, "--to-call", to_call), words)


def test_cli_amounts_in_range_still_work():
    result = run("stud", "equity", *HEADS_UP, "--pot", "1e12", "--to-call", "2.5")
    assert result.exit_code == 0, result.output
    assert "call 5/2 into 1000000000000" in result.output


def test_library_amounts(last_street):
    position, result = last_street
    assert parse_amount("5/2") == parse_amount(2.5) == parse_amount(" 2.5 ") == Fraction(5, 2)
    for bad in ("abc", None, True, [1], "1e400", 1e300, float("nan"), -1, Fraction(1, 10**20)):
        with pytest.raises(DecisionError):
            call_decision(result, position, pot=bad, to_call=1)
    for seat in (5, -1, "0", 1.0, True):
        with pytest.raises(DecisionError, match="seat must be a player index 0..1"):
            call_decision(result, position, pot=10, to_call=2, seat=seat)
    assert call_decision(result, position, pot="10", to_call=2, seat=1).best == "fold"


# ------------------------------------------------------------- 3. seeds, samples and budget
def test_cli_equity_seed_must_not_be_negative():
    one_line_error(run("stud", "equity", *THREE_WAY, "--budget", "0", "--seed", "-1"), "'--seed'")
    one_line_error(run("stud", "equity", *THREE_WAY, "--budget", "-1"), "'--budget'")
    one_line_error(run("stud", "equity", *THREE_WAY, "--samples", "1"), "'--samples'")


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"seed": -1}, "seed must be at least 0"),
        ({"seed": 1.5}, "seed must be a whole number"),
        ({"samples": 2.5}, "samples must be a whole number"),
        ({"samples": 1}, "samples must be at least 2"),
        ({"samples": True}, "samples must be a whole number"),
        ({"budget": -1}, "budget must be at least 0"),
        ({"budget": "many"}, "budget must be a number of seconds"),
    ],
)
def test_library_sampling_arguments(kwargs, words):
    position = parse_position(["Kh | 9c 4d", "? | Qh 4c", "? | 2c 3c"])
    with pytest.raises(SamplingError, match=words):
        stud_equity(position, **{"budget": 0, "samples": 100, **kwargs})
    if "budget" not in kwargs:
        with pytest.raises(SamplingError, match=words):
            sampled_equity(position, **{"samples": 100, **kwargs})


# ------------------------------------------------------------- 5. library types
def test_parse_player_and_position_types():
    with pytest.raises(PositionError, match="player 1 must be text"):
        parse_player(None)
    with pytest.raises(CardError, match="dead cards"):
        parse_position(["Kh | 9c", "? | Qh"], dead=None)
    with pytest.raises(PositionError, match="players must be a list"):
        parse_position(None)
    with pytest.raises(PositionError, match="players must be a list"):
        parse_position("Kh | 9c")
    with pytest.raises(PositionError, match="expected a StudPosition"):
        stud_equity(None)


def test_stud_player_and_position_check_their_cards():
    with pytest.raises(CardError, match="card numbers"):
        StudPlayer(hole="Kh", up=(1,))
    with pytest.raises(CardError, match="card numbers"):
        StudPlayer(hole=None, up="9c 4d")
    for hole, up in ((1.0, (2,)), (True, (2,)), (None, (99,)), (None, None), (60, (2,))):
        with pytest.raises(CardError):
            StudPlayer(hole=hole, up=up)
    player = StudPlayer(hole=None, up=[2, 3])
    assert player.up == (2, 3)
    with pytest.raises(CardError, match="outside 0..51"):
        StudPosition(players=(player,), dead=(99,))
    with pytest.raises(PositionError, match="sequence of StudPlayer"):
        StudPosition(players=("Kh | 9c",))
    assert StudPosition(players=()).street == 0


# ------------------------------------------------------------- 2. stud play; 3. stud deal seeds
@pytest.mark.parametrize("typed", ["r ²", "r ١", "r 1e3", "r -2", "r 2 3", "²", "\u00e9", "r " + "9" * 30])
def test_play_reprompts_on_any_unparsable_input(typed):
    result = run("stud", "play", "--players", "2", "--seed", "1", input=f"{typed}\n" + "c\n" * 12)
    assert result.exit_code == 0, result.output
    assert "Not allowed:" in result.output and "Traceback" not in result.output


def test_play_checks_the_save_path_before_the_hand(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("keep me")
    result = run("stud", "play", "--players", "2", "--seed", "1", "--save", str(blocker / "x.phh"),
                 input="c\n" * 12)
    one_line_error(result, "does not exist")
    assert blocker.read_text() == "keep me"
    one_line_error(run("stud", "play", "--players", "2", "--seed", "1", "--save", "/etc/passwd/x.phh"),
                   "does not exist")


def test_seeds_must_not_be_negative():
    one_line_error(run("stud", "deal", "--players", "2", "--seed", "-5"), "'--seed'")
    one_line_error(run("stud", "play", "--players", "2", "--seed", "-5"), "'--seed'")
    for seed in (-5, 1.5, "7", True):
        with pytest.raises(TableSetupError, match="seed"):
            shuffled_deck(seed)
    assert shuffled_deck(5) == shuffled_deck(5) and len(shuffled_deck(None)) == 52


def test_engine_types():
    assert parse_chips("12") == 12 and parse_chips("²") is None and parse_chips("١") is None
    with pytest.raises(IllegalActionError, match="cbr needs one whole amount"):
        Action.parse(0, "cbr ²")
    with pytest.raises(IllegalActionError):
        Action.parse(0, None)
    with pytest.raises(IllegalActionError, match="player"):
        Action(player="p1", kind="cc")
    with pytest.raises(TableSetupError):
        StudHand(stacks=None)
    hand = StudHand(stacks=(20, 20))
    with pytest.raises(IllegalActionError):
        hand.deal("p1", [0, 1])
    with pytest.raises(CardError):
        hand.deal(0, [0.5, 1])
    hand.deal(0, ["Kh", "9c"])  # cards as text are read like everywhere else
    assert hand.cards_of(0) == (46, 28)


# ------------------------------------------------------------- 4. and 6. hand histories
def test_replay_of_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "binary.phh"
    path.write_bytes(b'variant = "F5S"\n\xff\xfe\x00garbage')
    one_line_error(run("stud", "replay", str(path)), "binary.phh: not a UTF-8 text file")
    with pytest.raises(HandHistoryError, match="not a UTF-8"):
        load_phh(path)


def test_parse_phh_needs_text():
    for bad in (None, b"variant", 3):
        with pytest.raises(HandHistoryError, match="must be text"):
            parse_phh(bad)


def test_players_list_of_the_wrong_length(tmp_path):
    text = EXAMPLE + 'players = ["Ann", "Bob", "Cy"]\n'
    with pytest.raises(HandHistoryError, match=r"line 11: players lists 3 names but starting_stacks has 2"):
        parse_phh(text)
    path = tmp_path / "names.phh"
    path.write_text(text)
    one_line_error(run("stud", "replay", str(path)), "names.phh line 11: players lists 3 names")
    assert parse_phh(EXAMPLE + 'players = ["Ann", "Bob"]\n').players == ("Ann", "Bob")


@pytest.mark.parametrize(
    ("shown", "words"),
    [
        ("p1 sm KhKs", "p1 shows 2 cards"),
        ("p1 sm Ks", "Ks is an up card of p1"),
        ("p1 sm Qd", "p1 does not hold Qd"),
    ],
)
def test_showing_more_or_other_than_the_hole_card(tmp_path, shown, words):
    text = EXAMPLE.replace('"p1 sm Kh"', f'"{shown}"')
    with pytest.raises(HandHistoryError, match=rf'line 10: "{shown}": {words}'):
        replay(parse_phh(text))
    path = tmp_path / "show.phh"
    path.write_text(text)
    one_line_error(run("stud", "replay", str(path)), words)


def test_showing_twice():
    with pytest.raises(HandHistoryError, match="p1 has already shown"):
        replay(parse_phh(EXAMPLE.replace('"p2 sm Qc"', '"p2 sm Qc", "p1 sm Kh"')))


def test_history_action_amount_in_unicode_digits():
    with pytest.raises(HandHistoryError, match="cbr needs one whole amount"):
        replay(parse_phh(EXAMPLE.replace('"p1 cbr 2"', '"p1 cbr ²"')))


def test_every_stud_error_is_an_exactodds_error():
    for error in (DecisionError, SamplingError, PositionError, HandHistoryError, TableSetupError):
        assert issubclass(error, ExactOddsError)
