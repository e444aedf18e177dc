"""A home session of five-card stud in the library: the draw for the first dealer, the deal moving
left past players with no chips, stacks carried over, rebuys, chip conservation and net results."""

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.errors import ExactOddsError
from exactodds.stud.bots.policy import bot_action
from exactodds.stud.engine.state import Phase
from exactodds.stud.history.session import (
    RebuyPolicy,
    SessionError,
    StudSession,
    next_dealer,
    seats_in_hand,
)
from exactodds.stud.history.session_phh import dumps_session, parse_session, replay_session

NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


def session(n=4, **kwargs):
    kwargs.setdefault("reserve", 20)
    kwargs.setdefault("hands", 5)
    return StudSession(players=NAMES[:n], **kwargs)


def reference_dealer(previous: int, stacks: list[int]) -> int:
    """The next seat to the left (seat number + 1, wrapping) that has chips, by walking the table."""
    seat = previous
    while True:
        seat = 1 if seat == len(stacks) else seat + 1
        if stacks[seat - 1] > 0:
            return seat


def test_first_dealer_by_lot_is_reproducible_with_a_seed():
    for seed in range(30):
        a, b = session(seed=seed), session(seed=seed)
        assert a.first_dealer == b.first_dealer
        ta, tb = a.play_hand(bot_action), b.play_hand(bot_action)
        assert ta.hand.events == tb.hand.events and ta.dealer == tb.dealer == a.first_dealer


def test_first_dealer_by_lot_is_fair():
    counts = Counter(session(n=4, seed=seed).first_dealer for seed in range(4000))
    assert set(counts) == {1, 2, 3, 4}
    assert all(900 <= c <= 1100 for c in counts.values()), counts  # 1000 expected, sd about 27


def test_first_dealer_from_the_operating_system_when_no_seed():
    draws = {session(n=8, seed=None).first_dealer for _ in range(200)}
    assert draws <= set(range(1, 9)) and len(draws) >= 5


def test_seats_in_hand_start_left_of_the_dealer_and_skip_empty_seats():
    assert seats_in_hand(1, [5, 5, 5, 5]) == (2, 3, 4, 1)
    assert seats_in_hand(4, [5, 5, 5, 5]) == (1, 2, 3, 4)
    assert seats_in_hand(2, [5, 0, 5, 0, 5]) == (3, 5, 1)  # not called for an empty dealer seat
    for previous in range(1, 6):
        for stacks in ([5, 0, 5, 0, 5], [0, 0, 0, 1, 1], [1, 0, 0, 0, 1], [3, 3, 3, 3, 3]):
            assert next_dealer(previous, stacks) == reference_dealer(previous, stacks)


def test_the_deal_moves_left_every_hand_skipping_players_who_sit_out():
    """Small stacks, so players bust; every hand's dealer is the next player to the left with chips,
    including after a dealer busts, and a busted player is never dealt in."""
    skipped = dealer_busted = 0
    for seed in range(40):
        s = session(n=4, reserve=3, hands=12, seed=seed)
        previous = None
        while not s.over:
            before = list(s.stacks)
            table = s.play_hand(bot_action)
            expected = s.first_dealer if previous is None else reference_dealer(previous, before)
            assert table.dealer == expected and before[table.dealer - 1] > 0
            assert set(table.seats) == {k for k in range(1, 5) if before[k - 1] > 0}
            assert table.seats[-1] == table.dealer
            if previous is not None and expected != previous % 4 + 1:
                skipped += 1
                dealer_busted += before[previous - 1] == 0
            previous = table.dealer
    assert skipped >= 5 and dealer_busted >= 1  # the cases under test did occur


def test_stacks_carry_over_from_hand_to_hand():
    s = session(n=5, reserve=30, hands=8, seed=9)
    while not s.over:
        before = list(s.stacks)
        table = s.play_hand(bot_action)
        assert list(table.hand.starting_stacks) == [before[seat - 1] for seat in table.seats]
        for seat in range(1, 6):
            p = table.player_of(seat)
            after = before[seat - 1] if p is None else table.hand.outcome.finishing_stacks[p]
            assert s.stacks[seat - 1] == after
    result = s.result()
    assert result.hands_played == 8 and sum(r.net for r in result.seats) == 0
    assert [r.finish for r in result.seats] == s.stacks


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), reserve=st.integers(1, 25), hands=st.one_of(st.none(), st.integers(1, 6)),
       max_rebuys=st.integers(0, 2), seed=st.integers(0, 2**32 - 1), data=st.data())
def test_chips_are_conserved_over_random_sessions(n, reserve, hands, max_rebuys, seed, data):
    s = session(n=n, reserve=reserve, hands=hands, seed=seed, rebuys=RebuyPolicy(max_rebuys=max_rebuys))
    bought = 0
    for _ in range(20):  # "until one has all" sessions are cut at 20 hands
        if s.over:
            break
        total = n * reserve + bought
        table = s.start_hand()
        hand = table.hand
        while hand.phase is not Phase.DONE:
            assert s.chips_total() == total
            if hand.phase is Phase.DEAL:
                hand.deal_from(table.deck)
            else:
                hand.act(data.draw(st.sampled_from(hand.legal().actions())))
        assert s.chips_total() == total
        s.finish_hand()
        assert sum(s.stacks) == total and min(s.stacks) >= 0
        after_last_hand = s.result()  # a file holds finished hands; later rebuys go with the next hand
        for seat in range(1, n + 1):
            if s.stacks[seat - 1] == 0 and s.rebuys_left(seat) and not s.over and data.draw(st.booleans()):
                bought += s.rebuy(seat).amount
        for seat in range(1, n + 1):  # a hand needs two players with chips: the busted ones must rebuy
            if sum(x > 0 for x in s.stacks) < 2 and not s.over and s.stacks[seat - 1] == 0 \
                    and s.rebuys_left(seat):
                bought += s.rebuy(seat).amount
    result = s.result()
    assert sum(r.net for r in result.seats) == 0
    assert sum(r.rebuys for r in result.seats) == bought
    if hands is not None:
        assert len(s.finished) <= hands
    if s.over and (hands is None or len(s.finished) < hands):
        assert sum(1 for x in s.stacks if x > 0) == 1  # ended early: one player has all the chips
    if s.finished:
        again = replay_session(parse_session(dumps_session(s)))
        assert again.result == after_last_hand and len(again.hands) == len(s.finished)


def test_until_one_player_has_all_the_chips():
    s = session(n=3, reserve=6, hands=None, seed=2)
    while not s.over:
        s.play_hand(bot_action)
    assert sorted(s.stacks) == [0, 0, 18]
    with pytest.raises(SessionError, match="session is over"):
        s.start_hand()


def test_rebuys_only_between_hands_for_a_busted_player_and_recorded():
    s = session(n=3, reserve=2, hands=30, seed=5, rebuys=RebuyPolicy(max_rebuys=1))
    table = s.start_hand()
    with pytest.raises(SessionError, match="cannot rebuy during a hand"):
        s.rebuy(1)
    assert s.current is table and s.stacks == [2, 2, 2]  # refused: nothing changed
    while table.hand.phase is not Phase.DONE:
        if table.hand.phase is Phase.DEAL:
            table.hand.deal_from(table.deck)
        else:
            table.hand.act(bot_action(table.hand, table.hand.legal()))
    s.finish_hand()
    rich = next(k for k in range(1, 4) if s.stacks[k - 1] > 0)
    with pytest.raises(SessionError, match="only a player with no chips may rebuy"):
        s.rebuy(rich)
    rebought, refused = [], 0
    while not s.over:
        for seat in range(1, 4):
            if s.stacks[seat - 1] == 0 and not s.over:
                if not s.rebuys_left(seat):
                    with pytest.raises(SessionError, match="used all 1 rebuy"):
                        s.rebuy(seat)
                    refused += 1
                    continue
                rebought.append(s.rebuy(seat))
                with pytest.raises(SessionError, match="only a player with no chips"):
                    s.rebuy(seat)  # has chips now
        if not s.over:
            s.play_hand(bot_action)
    assert rebought and all(r.amount == 2 for r in rebought) and refused
    assert [(r.seat, r.before_hand) for r in s.rebuys] == [(r.seat, r.before_hand) for r in rebought]
    result = s.result()
    assert sum(r.net for r in result.seats) == 0
    assert sum(r.rebuys for r in result.seats) == 2 * len(rebought)
    again = replay_session(parse_session(dumps_session(s)))
    key = lambda r: (r.before_hand, r.seat)  # noqa: E731
    assert again.result == result and sorted(again.rebuys, key=key) == sorted(s.rebuys, key=key)


def test_no_rebuy_without_a_policy():
    s = session(n=2, reserve=1, hands=3, seed=1)
    s.play_hand(bot_action)  # ante all-in: one player wins everything
    assert s.over
    loser = s.stacks.index(0) + 1
    with pytest.raises(SessionError, match="session is over"):
        s.rebuy(loser)
    s = session(n=3, reserve=1, hands=3, seed=1)
    with pytest.raises(SessionError, match="allows no rebuys"):
        s.rebuy(1)


@pytest.mark.parametrize("kwargs, words", [
    ({"hands": 0}, "number of hands must be a whole number >= 1, got 0"),
    ({"hands": -3}, "got -3"),
    ({"hands": 2.5}, "got 2.5"),
    ({"hands": True}, "got True"),
    ({"reserve": 0}, "starting reserve must be a whole number >= 1, got 0"),
    ({"seed": -1}, "seed must be a whole number >= 0"),
    ({"players": ("Ann",)}, "2 to 8 players, got 1"),
    ({"players": NAMES + ("Ivy",)}, "2 to 8 players, got 9"),
    ({"players": ("Ann", "Ann")}, "names must differ"),
    ({"players": ("Ann", "")}, "seat 2's name"),
    ({"players": ("Ann", 'B"b')}, "without quotes"),
    ({"players": ("Ann", "B\\b")}, "without quotes or backslashes"),
    ({"players": ("Ann", "B\nb")}, "printable"),
    ({"players": ("Ann", "x" * 41)}, "1 to 40 printable"),
    ({"players": "AnnBob"}, "list of names"),
    ({"rebuys": 2}, "RebuyPolicy"),
])
def test_bad_session_setup(kwargs, words):
    args = {"players": NAMES[:3], "reserve": 20, "hands": 5} | kwargs
    with pytest.raises(SessionError, match=None) as info:
        StudSession(**args)
    assert words in str(info.value) and isinstance(info.value, ExactOddsError)


@pytest.mark.parametrize("kwargs, words", [
    ({"max_rebuys": -1}, "rebuys per player"), ({"amount": 0}, "rebuy amount"),
    ({"max_rebuys": 1.5}, "got 1.5"),
])
def test_bad_rebuy_policy(kwargs, words):
    with pytest.raises(SessionError, match=words):
        RebuyPolicy(**kwargs)


def test_steps_out_of_order():
    s = session(n=2, seed=1)
    with pytest.raises(SessionError, match="no hand is being played"):
        s.finish_hand()
    s.start_hand()
    with pytest.raises(SessionError, match="still being played"):
        s.start_hand()
    with pytest.raises(SessionError, match="not over yet"):
        s.finish_hand()
    with pytest.raises(SessionError, match="results come between hands"):
        s.result()
    s.abandon_hand()  # a hand dropped part-way leaves the stacks as they were before it
    assert s.stacks == [20, 20] and s.result().hands_played == 0
    with pytest.raises(SessionError, match="seat must be 1..2"):
        s.rebuy(3)


def test_bots_keep_the_raise_cap_heads_up_so_deep_stacks_do_not_raise_forever():
    for seed in range(20):
        s = StudSession(players=("A", "B"), reserve=100_000, hands=3, seed=seed)
        while not s.over:
            table = s.play_hand(bot_action)
            for r in range(4):
                raises = [e for e in table.hand.events if e.round_index == r and e.kind == "cbr"]
                assert len(raises) <= 4  # a bet (or completion) and three raises at most
