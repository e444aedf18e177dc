"""Property tests: random legal action sequences keep every invariant; illegal ones change nothing."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.errors import IllegalActionError
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.dealing import shuffled_deck
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.history.phh import dumps_phh, parse_phh, replay

KINDS = [("pb", None), ("cc", None), ("f", None)] + [("cbr", x) for x in (0, 1, 2, 3, 4, 5, 6, 8, 12)]
PROBES = [Action(player=p, kind=k, amount=a) for p in range(6) for k, a in KINDS]


def check_invariants(hand: StudHand, total: int) -> None:
    assert hand.chips_total() == total
    assert all(s >= 0 for s in hand.stacks)
    if hand.phase is not Phase.DONE:
        pots, returned = hand.current_pots()
        assert sum(p.amount for p in pots) + sum(returned) == sum(hand.contributed)
        for pot in pots:
            assert all(not hand.folded[q] for q in pot.players)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 6),
    stacks=st.lists(st.integers(1, 40), min_size=6, max_size=6),
    seed=st.integers(0, 2**32 - 1),
    data=st.data(),
)
def test_random_legal_play_keeps_invariants(n, stacks, seed, data):
    stacks = stacks[:n]
    hand = StudHand(stacks=stacks)
    total = sum(stacks)
    deck = shuffled_deck(seed)
    steps = 0
    while hand.phase is not Phase.DONE:
        steps += 1
        assert steps < 500
        if hand.phase is Phase.DEAL:
            before = hand.snapshot()
            with pytest.raises(IllegalActionError):
                hand.act(Action(player=0, kind="cc"))
            assert hand.snapshot() == before
            hand.deal_from(deck)
        else:
            legal = hand.legal().actions()
            probe = data.draw(st.sampled_from(PROBES))
            if probe not in legal:
                before = hand.snapshot()
                with pytest.raises(IllegalActionError):
                    hand.act(probe)
                assert hand.snapshot() == before
            hand.act(data.draw(st.sampled_from(legal)))
        check_invariants(hand, total)
    out = hand.outcome
    assert sum(e.paid for e in hand.events) + sum(hand.antes) == sum(hand.contributed)
    assert sum(out.payoffs) == 0
    assert sum(out.finishing_stacks) == total
    pot_sum = sum(p.amount for p in out.pots)
    assert pot_sum + sum(out.returned) == sum(hand.contributed)
    assert sum(sum(w.values()) for w in out.winners) == pot_sum
    for p in range(n):
        if hand.folded[p]:
            assert out.payoffs[p] == -hand.contributed[p]
        assert out.finishing_stacks[p] >= 0
    # the written hand history replays to the same result
    again = replay(parse_phh(dumps_phh(hand)))
    assert again.outcome.finishing_stacks == out.finishing_stacks
