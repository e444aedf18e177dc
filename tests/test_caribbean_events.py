"""Events are a StrEnum whose values are the JSON names; the kernels' nets follow the Net layout."""

from __future__ import annotations

import json
from fractions import Fraction

from exactodds.caribbean.decision.settle import EVENTS, NET_EVENTS, Event, event_net, kernel_nets, settle
from exactodds.caribbean.profile import PAY_CATEGORIES, load_profile
from exactodds.counting.layout import NET_COLUMNS, Net
from exactodds.handrank import evaluate


def test_event_values_are_the_json_names():
    assert [str(e) for e in EVENTS] == [f"win_{c}" for c in reversed(PAY_CATEGORIES)] + [
        "dealer_not_qualify", "push", "fold", "dealer_wins"]
    assert Event("win_pair") is Event.WIN_PAIR == "win_pair"
    result = settle(evaluate("Qh Qs 9d 6c 2h"), evaluate("Jh Jc As 8d 3c"), raised=True,
                    profile=load_profile("standard"))
    assert result.event is Event.WIN_PAIR
    assert json.dumps({"event": result.event}) == '{"event": "win_pair"}'


def test_kernel_nets_follow_the_net_layout():
    profile = load_profile("betmgm")
    nets, scale = kernel_nets(profile)
    assert len(nets) == len(NET_EVENTS) == NET_COLUMNS
    named = {Net.NOT_QUALIFY: Event.DEALER_NOT_QUALIFY, Net.PUSH: Event.PUSH,
             Net.DEALER_WINS: Event.DEALER_WINS, Net.FOLD: Event.FOLD}
    for column, event in named.items():
        assert Fraction(int(nets[column]), scale) == event_net(event, profile)
    for pay, category in enumerate(PAY_CATEGORIES):
        assert Fraction(int(nets[Net.WIN + pay]), scale) == event_net(Event.win(category), profile)
