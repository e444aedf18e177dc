"""The simulator: vectorised settlement against settle, hand by hand; agreement with the exact EV."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.decision.settle import EVENTS, settle
from exactodds.caribbean.profile import load_profile, profile_from_dict
from exactodds.caribbean.strategy.strategies import load_strategy
from exactodds.caribbean.studies.simulate import BATCH, SimulationError, settlement_table, simulate
from exactodds.cli.main import cli
from exactodds.handrank import N_STRENGTHS, evaluate_batch
from exactodds.progress import RecordingProgress

CUSTOM = profile_from_dict({  # call 3, pair qualifier, a cap, a fractional pay
    "name": "c1", "call": 3, "qualifier": "pair", "cap": 60,
    "pays": {"royal_flush": 250, "straight_flush": 50, "four_of_a_kind": 25, "full_house": 8,
             "flush": "11/2", "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ak_high": 0},
})


@pytest.fixture(scope="module")
def outcomes():
    return situation_outcomes("standard")


def _strengths(seed: int):
    """Strength pairs from real shuffled deals, plus uniform pairs and forced ties (rare in deals)."""
    rng = np.random.default_rng(seed)
    decks = rng.permuted(np.broadcast_to(np.arange(52), (3000, 52)), axis=1)
    player = np.concatenate([evaluate_batch(decks[:, :5]), rng.integers(0, N_STRENGTHS, 2000)])
    dealer = np.concatenate([evaluate_batch(decks[:, 5:10]), rng.integers(0, N_STRENGTHS, 2000)])
    dealer[-500:] = player[-500:]
    raised = rng.random(len(player)) < 0.8
    return player, dealer, raised


@pytest.mark.parametrize("profile", [load_profile("standard"), load_profile("royal500"), CUSTOM],
                         ids=["standard", "royal500", "custom"])
def test_vectorised_settlement_matches_settle_hand_by_hand(profile):
    table = settlement_table(profile)
    player, dealer, raised = _strengths(seed=11)
    events, nets = table.settle_batch(player, dealer, raised)
    for p, d, r, e, n in zip(player, dealer, raised, events, nets, strict=True):
        expected = settle(int(p), int(d), raised=bool(r), profile=profile)
        assert (EVENTS[e], n) == (expected.event, expected.net * table.scale)


def test_simulation_agrees_with_the_exact_ev(outcomes):
    result = simulate(outcomes, load_strategy("optimal"), hands=300_000, seed=2026)
    low, high = result.interval_95
    assert low <= result.exact_ev <= high
    assert result.p_value > 0.05
    assert result.event_test()[1] > 0.05
    assert sum(result.event_counts.values()) == result.hands == 300_000 and not result.interrupted



def test_a_seed_reproduces_the_run(outcomes):
    optimal = load_strategy("optimal")
    first, again, other = (simulate(outcomes, optimal, hands=10_000, seed=s) for s in (1, 1, 2))
    assert first.total_net == again.total_net and first.event_counts == again.event_counts
    assert first.event_counts != other.event_counts


def test_always_raise_never_folds(outcomes):
    result = simulate(outcomes, load_strategy("always-raise"), hands=60_000, seed=3)
    assert result.event_counts["fold"] == 0
    low, high = result.interval_95
    assert low <= result.exact_ev <= high


def test_simulation_bad_input(outcomes):
    with pytest.raises(SimulationError, match="at least 2 hands"):
        simulate(outcomes, load_strategy("optimal"), hands=1, seed=0)


def test_cli_simulate_json():
    out = CliRunner().invoke(cli, ["caribbean", "simulate", "--hands", "20000", "--seed", "5", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["method"] == "sampled" and data["hands"] == 20_000
    assert data["interval_95"][0] <= data["expected_return_float"] <= data["interval_95"][1]


@pytest.mark.parametrize("args, message", [
    (["--hands", "0"], "'--hands': 0 is not in the range 2<=x<="),
    (["--seed", "-1"], "'--seed': -1 is not in the range x>=0"),
    (["--strategy", "nope"], 'unknown strategy "nope"'),
])
def test_cli_simulate_bad_input(args, message):
    result = CliRunner().invoke(cli, ["caribbean", "simulate", *args])
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and message in result.output
    assert result.output.count("\n") == 1


def test_ctrl_c_stops_after_the_last_finished_batch(outcomes):
    class InterruptOnSecond(RecordingProgress):
        def step(self, count=1):
            super().step(count)
            if len(self.events) == 3:  # the stage, then two batches
                raise KeyboardInterrupt

    result = simulate(outcomes, load_strategy("optimal"), hands=500_000, seed=1, progress=InterruptOnSecond())
    assert result.interrupted and result.requested == 500_000
    assert result.hands == 2 * BATCH == sum(result.event_counts.values())
