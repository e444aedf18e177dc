"""The table session's state machine: every transition, conservation of money, settlement by the one rule."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.cards import format_card
from exactodds.caribbean.decision.decide import decide
from exactodds.caribbean.decision.settle import settle
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.studies.session import MAX_HANDS as STUDIES_MAX_HANDS
from exactodds.caribbean.table.coach import ODDS_MAX_HANDS, Coach, session_odds
from exactodds.caribbean.table.forms import session_from_state, session_state, session_view
from exactodds.caribbean.table.game import TableSession
from exactodds.caribbean.table.hand import Phase
from exactodds.caribbean.table.limits import DepositError, TableLimitError
from exactodds.errors import IllegalActionError
from exactodds.handrank import evaluate

ACTIONS = {
    "add": lambda s: s.add_chip(5),
    "undo": lambda s: s.undo(),
    "clear": lambda s: s.clear(),
    "deal": lambda s: s.deal(),
    "raise": lambda s: s.raise_(),
    "fold": lambda s: s.fold(),
    "rebet": lambda s: s.rebet(),
    "new_game": lambda s: s.new_game(),
    "deposit": lambda s: s.deposit(10),
}
# The name legal_actions() uses for each action.
LEGAL_NAME = {"add": "chips"} | {a: a for a in ACTIONS if a != "add"}


def _betting_empty() -> TableSession:
    return TableSession(bankroll=100, hands=3, seed=1)


def _betting_chips() -> TableSession:
    s = _betting_empty()
    s.add_chip(5)
    return s


def _decision() -> TableSession:
    s = _betting_chips()
    s.deal()
    return s


def _decision_short() -> TableSession:
    s = TableSession(bankroll=10, hands=3, seed=1)
    s.add_chip(10)
    s.deal()
    return s


def _settled() -> TableSession:
    s = _decision()
    s.fold()
    return s


def _complete() -> TableSession:
    s = TableSession(bankroll=100, hands=1, seed=1)
    s.add_chip(5)
    s.deal()
    s.fold()
    return s


STATES = {
    "betting_empty": (_betting_empty, Phase.BETTING, {"add", "deposit"}),
    "betting_chips": (_betting_chips, Phase.BETTING, {"add", "undo", "clear", "deal", "deposit"}),
    "decision": (_decision, Phase.DECISION, {"raise", "fold", "deposit"}),
    "decision_short": (_decision_short, Phase.DECISION, {"fold", "deposit"}),
    "settled": (_settled, Phase.SETTLED, {"rebet", "new_game", "deposit"}),
    "complete": (_complete, Phase.COMPLETE, set()),
}


def _snapshot(s: TableSession) -> tuple:
    return (session_state(s), list(s.history))


@pytest.mark.parametrize("state_name", list(STATES))
@pytest.mark.parametrize("action", list(ACTIONS))
def test_every_transition_is_legal_or_refused_without_change(state_name: str, action: str) -> None:
    make, phase, legal = STATES[state_name]
    s = make()
    assert s.phase == phase
    assert {a for a in ACTIONS if LEGAL_NAME[a] in s.legal_actions()} == legal
    before = _snapshot(s)
    if action in legal:
        ACTIONS[action](s)
        assert _snapshot(s) != before
    else:
        with pytest.raises((IllegalActionError, TableLimitError)):
            ACTIONS[action](s)
        assert _snapshot(s) == before


def test_the_phases_each_legal_action_leads_to() -> None:
    s = _betting_chips()
    s.deal()
    assert s.phase == Phase.DECISION and s.ante == 5 and s.bankroll == 95
    s.raise_()
    assert s.phase == Phase.SETTLED and s.history[-1].decision == "raise"
    s.new_game()
    assert s.phase == Phase.BETTING and s.spot == []
    s.add_chip(5)
    s.add_chip(1)
    s.undo()
    assert s.spot == [5]
    s.clear()
    assert s.spot == [] and s.bankroll == 100 + s.net
    s.add_chip(5)
    s.deal()
    s.fold()
    s.rebet()
    assert s.phase == Phase.DECISION and s.ante == 5 and s.hands_played == 2
    s.fold()
    assert s.phase == Phase.COMPLETE and s.outcome() in ("player", "bank", "draw")
    assert s.legal_actions() == ()


@pytest.mark.parametrize("bad", [0, -1, True, 1.5, "5", None, 10**30])
def test_bad_chips_and_deposits_are_refused(bad) -> None:
    s = _betting_empty()
    before = _snapshot(s)
    with pytest.raises(TableLimitError):
        s.add_chip(bad)
    with pytest.raises(DepositError):
        s.deposit(bad)
    assert _snapshot(s) == before


def test_table_limits() -> None:
    s = TableSession(bankroll=1000, min_bet=10, max_bet=50, seed=2)
    s.add_chip(5)
    with pytest.raises(TableLimitError, match="outside the table limits 10 to 50"):
        s.deal()
    s.add_chip(25)
    s.add_chip(5)
    with pytest.raises(TableLimitError, match="above the table maximum of 50"):
        s.add_chip(25)
    s.deal()
    assert s.ante == 35
    with pytest.raises(TableLimitError, match="min_bet 60 is above max_bet 50"):
        TableSession(min_bet=60, max_bet=50)
    with pytest.raises(TableLimitError, match="hands must be between 1"):
        TableSession(hands=0)


def test_short_of_the_raise_the_hand_waits_for_a_deposit() -> None:
    s = _decision_short()
    with pytest.raises(IllegalActionError, match="raise needs 20 but the bankroll holds 0; deposit"):
        s.raise_()
    s.deposit(15)
    assert "raise" not in s.legal_actions()
    s.deposit(5)
    assert s.legal_actions() == ("raise", "fold", "deposit") and s.deposits == [15, 5]
    s.raise_()
    assert s.bankroll == 30 + s.net


def test_on_paper_play_goes_on_below_zero_without_changing_the_bets() -> None:
    s = TableSession(bankroll=0, hands=3, seed=5, paper=True)
    s.add_chip(25)
    s.deal()
    assert s.bankroll == -25 and "raise" in s.legal_actions() and session_view(s)["hand"]["can_afford_raise"]
    s.raise_()
    s.rebet()
    assert s.ante == 25
    s.fold()
    assert s.bankroll == s.net and s.deposits == []
    again = session_from_state(session_state(s), s.history)
    assert again.paper and session_state(again) == session_state(s)


def test_rebet_needs_the_funds_of_the_last_bet() -> None:
    s = TableSession(bankroll=10, hands=5, seed=4)
    s.add_chip(10)
    s.deal()
    s.fold()
    assert s.bankroll == 0 and s.legal_actions() == ("new_game", "deposit")
    with pytest.raises(IllegalActionError, match="more than the bankroll"):
        s.rebet()
    s.deposit(10)
    s.rebet()
    assert s.phase == Phase.DECISION and s.ante == 10


def test_deal_follows_the_practice_seed_and_the_csprng_otherwise() -> None:
    a, b = TableSession(seed=11), TableSession(seed=11)
    for s in (a, b):
        s.add_chip(5)
        s.deal()
    assert a.hand.player == b.hand.player and a.hand.dealer == b.hand.dealer
    assert session_view(a)["practice"] and "practice deck (seed 11)" in session_view(a)["deck"]
    fair = [TableSession() for _ in range(6)]
    for s in fair:
        s.add_chip(5)
        s.deal()
        assert len(set(s.hand.player + s.hand.dealer)) == 10
    assert len({s.hand.player for s in fair}) > 1
    assert not session_view(fair[0])["practice"] and "CSPRNG" in session_view(fair[0])["deck"]


def test_the_coach_is_decide_and_the_cost_of_a_choice() -> None:
    s = TableSession(seed=3)
    s.add_chip(5)
    s.deal()
    d = decide(s.hand.player, up=s.hand.dealer[0])
    coach = session_view(s)["hand"]["coach"]
    assert coach["ev_raise"] == f"{d.ev_raise.numerator}/{d.ev_raise.denominator}"
    assert coach["optimal"] == d.decision
    wrong = "fold" if d.decision == "raise" else "raise"
    (s.fold if wrong == "fold" else s.raise_)()
    record = s.history[-1]
    assert record.cost == abs(d.ev_raise - d.ev_fold) > 0
    assert s.coach_totals()["mistakes"] == 1
    # the worked example of the home rules: queens against a jack, raise is worth 42797/32637
    c = Coach(ev_raise=decide("Qh Qs 9d 6c 2h", up="Jh").ev_raise, ev_fold=Fraction(-1))
    assert c.optimal == "raise" and c.cost("raise") == 0 and c.cost("fold") == Fraction(42797, 32637) + 1


def test_hidden_coach_hides_only_during_the_decision() -> None:
    s = TableSession(seed=3, hide_coach=True)
    s.add_chip(5)
    s.deal()
    assert session_view(s)["hand"]["coach"] is None
    s.fold()
    assert session_view(s)["last_hand"]["ev_raise"]  # shown once decided
    with pytest.raises(IllegalActionError):
        s.set_hide_coach("yes")


def test_the_view_never_holds_hole_cards_before_the_reveal() -> None:
    for seed in range(30):
        s = TableSession(seed=seed)
        s.add_chip(5)
        s.deal()
        dealer = s.hand.dealer
        text = repr(session_view(s))
        assert f"'{format_card(dealer[0])}'" in text
        for card in dealer[1:]:
            assert f"'{format_card(card)}'" not in text
        s.fold()
        assert session_view(s)["last_hand"]["dealer"] == [format_card(c) for c in dealer]


def test_void_hand_returns_the_bets_and_is_not_counted() -> None:
    s = _decision()
    s.void_hand()
    assert s.phase == Phase.BETTING and s.bankroll == 100 and s.hands_played == 0
    assert s.history[-1].decision == "void" and s.history[-1].net == 0
    s.add_chip(5)
    s.deal()
    assert s.hand.deal == 2


def test_session_odds_are_the_studies_figures() -> None:
    assert ODDS_MAX_HANDS == STUDIES_MAX_HANDS
    odds = session_odds("standard", 20)
    assert odds.p_player + odds.p_draw + odds.p_bank == 1
    assert float(odds.p_player) == pytest.approx(0.394565551, abs=1e-9)
    assert odds.per_hand_ev == Fraction(-142031221, 2718662100)
    assert session_odds("standard", ODDS_MAX_HANDS + 1) is None


# --------------------------------------------------------------------------- random action sequences
ACTION = st.one_of(
    st.tuples(st.just("add"), st.sampled_from([1, 5, 25, 100, 0, 500])),
    st.tuples(st.sampled_from(["undo", "clear", "new_game"]), st.none()),
    st.tuples(st.sampled_from(["deal", "raise", "fold", "rebet"]), st.none()),
    st.tuples(st.just("deposit"), st.sampled_from([1, 50, 0, -3])),
)


def _run(s: TableSession, name: str, arg) -> None:
    if name == "add":
        s.add_chip(arg)
    elif name == "deposit":
        s.deposit(arg)
    else:
        ACTIONS[name](s)


def check_conservation(s: TableSession) -> None:
    assert s.bankroll + s.on_table == s.starting_bankroll + sum(s.deposits) + s.net
    assert s.bankroll >= 0 or s.paper
    counted = s.counted  # the running totals are the sums over the counted hands
    assert s.hands_played == len(counted) and s.net == sum((h.net for h in counted), Fraction(0))
    totals = s.coach_totals()
    assert totals["mistakes"] == sum(1 for h in counted if h.cost > 0)
    assert Fraction(totals["ev_given_up"]) == sum((h.cost for h in counted), Fraction(0))
    assert Fraction(totals["expected_net"]) == sum((h.expected_net for h in counted), Fraction(0))


def check_settlement(s: TableSession, record) -> None:
    profile = s.profile
    result = settle(evaluate(record.player), evaluate(record.dealer), raised=record.decision == "raise",
                    profile=profile)
    assert record.event == result.event and record.net == record.ante * result.net
    assert len(set(record.player + record.dealer)) == 10


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=st.lists(ACTION, max_size=40), bankroll=st.sampled_from([0, 20, 300]),
       paytable=st.sampled_from(["standard", "royal500"]), seed=st.integers(0, 10**6), paper=st.booleans())
def test_random_sequences_conserve_money_and_settle_by_the_rule(actions, bankroll, paytable, seed,
                                                                paper) -> None:
    s = TableSession(profile=paytable, bankroll=bankroll, hands=4, max_bet=100, seed=seed, paper=paper)
    check_conservation(s)
    for name, arg in actions:
        before = _snapshot(s)
        legal = s.legal_actions()
        settled_before = len(s.history)
        try:
            _run(s, name, arg)
        except (IllegalActionError, TableLimitError, DepositError):
            assert _snapshot(s) == before
            assert name in ("add", "deposit") or LEGAL_NAME[name] not in legal
        else:
            assert LEGAL_NAME[name] in legal
        for record in s.history[settled_before:]:
            check_settlement(s, record)
        check_conservation(s)
    assert s.hands_played <= 4


def test_a_custom_paytable_pays_exact_fractions(tmp_path) -> None:
    path = tmp_path / "halves.toml"
    pays = "\n".join(f"{c} = \"{p}\"" for c, p in [
        ("ak_high", "1/2"), ("pair", "3/2"), ("two_pair", "2"), ("three_of_a_kind", "3"), ("straight", "4"),
        ("flush", "5"), ("full_house", "7"), ("four_of_a_kind", "20"), ("straight_flush", "50"),
        ("royal_flush", "100")])
    path.write_text(f'name = "halves"\n[pays]\n{pays}\n')
    profile = load_profile(path)
    for seed in range(40):
        s = TableSession(profile=profile, bankroll=1000, seed=seed)
        s.add_chip(1)
        s.deal()
        s.raise_()
        record = s.history[-1]
        check_settlement(s, record)
        check_conservation(s)
        d = decide(record.player, up=record.dealer[0], profile=profile)  # the coach saw this profile's EVs
        assert (record.ev_raise, record.ev_fold, record.optimal) == (d.ev_raise, d.ev_fold, d.decision)


@pytest.mark.parametrize("paytable", ["standard", "halves"])
def test_session_odds_come_from_the_cached_count(paytable, tmp_path) -> None:
    """The table's session odds read the optimal return table from the compact count in the cache,
    never the full situation count (whose arrays kept the server at 526 MB): in a fresh process no
    module of the full count is loaded, and the odds are the full count's, exactly."""
    import json
    import subprocess
    import sys

    from exactodds.caribbean.analysis.compact import prepare_compact
    from exactodds.caribbean.analysis.game import analyze
    from exactodds.caribbean.studies.session import session_distribution

    if paytable == "halves":
        path = tmp_path / "halves.toml"
        path.write_text('name = "halves"\n[pays]\nak_high = "1/2"\npair = "3/2"\ntwo_pair = 2\n'
                        "three_of_a_kind = 3\nstraight = 4\nflush = 5\nfull_house = 7\nfour_of_a_kind = 20\n"
                        "straight_flush = 50\nroyal_flush = 100\n")
        paytable = str(path)
    prepare_compact("ak")
    code = ("import json, sys\nfrom exactodds.caribbean.table.coach import session_odds\n"
            f"print(json.dumps(session_odds({paytable!r}, 7).to_dict()))\n"
            "full = [m for m in sys.modules if m.startswith(('exactodds.caribbean.analysis.game', "
            "'exactodds.caribbean.analysis.counting', 'exactodds.caribbean.analysis.kernels'))]\n"
            "assert not full, f'the full count was loaded: {full}'\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    odds = json.loads(done.stdout)
    full = session_distribution(analyze(paytable), hands=7).session
    assert (Fraction(odds["p_player"]), Fraction(odds["p_draw"]), Fraction(odds["p_bank"])) == (
        full.p_ahead, full.p_even, full.p_behind)


