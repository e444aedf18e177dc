"""Collusion: one player reproduces the exact game; sharing only helps; the output says it was sampled."""

import json
from fractions import Fraction

import numpy as np
import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.analysis.result import TOTAL_DEALS
from exactodds.caribbean.studies.collusion import (
    CHUNK_SAMPLES,
    CollusionError,
    Estimate,
    chunk_sizes,
    collusion,
    collusion_chunk,
)
from exactodds.cli.main import cli
from exactodds.progress import RecordingProgress

NORMAL = Fraction(-1_041_372_912_372, TOTAL_DEALS)


@pytest.fixture(scope="module")
def outcomes():
    return situation_outcomes("standard")


def test_one_player_reproduces_the_exact_game(outcomes):
    r = collusion(outcomes, players=1, samples=400, seed=0)
    assert r.normal_return == NORMAL
    # within its error: the seat values are skewed (rare royal and straight flushes), so allow 3 SE
    assert abs(float(r.direct.mean - NORMAL)) <= 3 * r.direct.standard_error
    assert 0 < r.direct.standard_error < 0.2
    # alone, the exact decision is the optimal strategy's: no decision changes, no gain
    assert r.gain.mean == 0 and r.gain.standard_error == 0 and r.changed_decisions == 0
    assert r.paired_return == NORMAL and r.completions == 163_185


def test_sharing_changes_decisions_and_never_costs(outcomes):
    r = collusion(outcomes, players=6, samples=60, seed=4)
    assert r.completions == 5_985  # C(52 - 30 - 1, 4)
    assert r.changed_decisions > 0 and r.gain.mean > 0
    assert r.gain.standard_error < r.direct.standard_error


@pytest.mark.parametrize("players, samples, message", [
    (0, 10, "players must be 1 to 7"), (8, 10, "players must be 1 to 7"), (2, 0, "at least 2"),
])
def test_bad_input(outcomes, players, samples, message):
    with pytest.raises(CollusionError, match=message):
        collusion(outcomes, players=players, samples=samples)


def test_cli_says_it_was_sampled():
    out = CliRunner().invoke(cli, ["caribbean", "collusion", "--players", "1", "--samples", "20"])
    assert out.exit_code == 0, out.output
    assert "SAMPLED: 20 sampled table deals, seed 0" in out.output
    assert "-5.2243% = -142031221/2718662100" in out.output
    data = json.loads(CliRunner().invoke(
        cli, ["caribbean", "collusion", "--players", "7", "--samples", "5", "--json"]).output)
    assert data["method"] == "sampled" and data["combinations_per_decision"] == 1_820
    assert data["gain"]["standard_error"] >= 0


@pytest.mark.parametrize("args, message", [
    (["--players", "9"], "'--players': 9 is not in the range 1<=x<=7"),
    (["--players", "0"], "'--players': 0 is not in the range 1<=x<=7"),
    (["--players", "3", "--samples", "0"], "'--samples': 0 is not in the range 2<=x<="),
    (["--players", "3", "--seed", "-2"], "'--seed': -2 is not in the range x>=0"),
])
def test_cli_bad_input(args, message):
    result = CliRunner().invoke(cli, ["caribbean", "collusion", *args])
    assert result.exit_code == 2
    assert result.output.startswith("Error: ") and message in result.output
    assert result.output.count("\n") == 1


def test_ctrl_c_keeps_the_finished_chunks_only(outcomes):
    class Interrupt(RecordingProgress):
        def step(self, count=1):
            super().step(count)
            if len(self.events) == 1 + CHUNK_SAMPLES + 10:  # the stage, then into the second chunk
                raise KeyboardInterrupt

    r = collusion(outcomes, players=7, samples=3 * CHUNK_SAMPLES, seed=1, progress=Interrupt())
    assert r.interrupted and r.samples == CHUNK_SAMPLES and r.requested == 3 * CHUNK_SAMPLES
    whole = collusion(outcomes, players=7, samples=CHUNK_SAMPLES, seed=1)
    assert (r.direct, r.gain, r.changed_decisions) == (whole.direct, whole.gain, whole.changed_decisions)


def test_chunks_do_not_depend_on_the_sample_count(outcomes):
    """Chunk k draws from the seed (seed, k): a longer run extends a shorter one."""
    short = collusion_chunk(outcomes.profile, 2, 5, 1, 7)
    assert short == collusion_chunk(outcomes.profile, 2, 5, 1, 7)
    assert short != collusion_chunk(outcomes.profile, 2, 5, 2, 7)
    assert chunk_sizes(2 * CHUNK_SAMPLES + 3) == [CHUNK_SAMPLES, CHUNK_SAMPLES, 3]


def test_estimate_from_sums_is_the_sample_estimate():
    values = [Fraction(1, 3), Fraction(-1), Fraction(5, 7), Fraction(0), Fraction(2)]
    e = Estimate.of(values)
    floats = np.array([float(v) for v in values])
    assert e.mean == sum(values, Fraction(0)) / 5
    assert e.standard_error == pytest.approx(floats.std(ddof=1) / 5 ** 0.5, rel=1e-12)


def test_the_burn_card_is_one_more_dead_card_on_the_same_deals(outcomes):
    """With the burn card seen, the hands and up cards are those of the same seed, and each seat's
    value is decide() with the burn card dead too."""
    from exactodds.caribbean.decision.decide import decide

    plain = collusion_chunk(outcomes.profile, 2, 5, 0, 3)
    burned = collusion_chunk(outcomes.profile, 2, 5, 0, 3, None, True)
    rng = np.random.default_rng([5, 0])
    dealt = rng.permuted(np.broadcast_to(np.arange(52), (3, 52)), axis=1)[:, :12]
    values = {False: Fraction(0), True: Fraction(0)}
    for row in dealt.tolist():
        hands, up, burn = [row[0:5], row[5:10]], row[10], row[11]
        for burn_seen in (False, True):
            seats = [decide(hands[s], up=up, dead=hands[1 - s] + ([burn] if burn_seen else []))
                     for s in range(2)]
            values[burn_seen] += sum(max(d.ev_raise, d.ev_fold) for d in seats) / 2
    assert plain.values == values[False] and burned.values == values[True]
    assert burned.values != plain.values


def test_cli_burn_card_seen_says_so_and_shows_grosjean():
    runner = CliRunner()
    args = ["caribbean", "collusion", "--players", "7", "--samples", "4", "--burn-card-seen"]
    out = runner.invoke(cli, args)
    assert out.exit_code == 0, out.output
    assert "and the burn card" in out.output and "nearly 2%" in out.output
    data = json.loads(runner.invoke(cli, ["caribbean", "collusion", "--players", "7", "--samples", "4",
                                          "--burn-card-seen", "--json"]).output)
    assert data["burn_card_seen"] is True
    assert data["combinations_per_decision"] == 1_365  # C(52 - 35 - 1 - 1, 4)
    assert data["published"][0]["published"] == "nearly 2%"


def test_the_count_strategy_is_learned_on_even_chunks_and_never_beats_exact_play(outcomes):
    from exactodds.caribbean.studies.collusion import COUNT_CELLS, count_cell, count_strategy

    profile = outcomes.profile
    parts = [collusion_chunk(profile, 4, 5, k, 6, burn_card_seen=True, record_cells=True) for k in range(4)]
    assert all(len(p.seats) == 6 and all(len(deal) == 4 for deal in p.seats) for p in parts)
    counted = count_strategy(parts)
    assert counted is not None and counted.train_samples == counted.test_samples == 12
    assert all(0 <= c < COUNT_CELLS for c in counted.raised_cells)
    exact_gain = sum((p.gains for p in parts[1::2]), Fraction(0)) / 12  # the seats' best decisions
    assert counted.gain.mean <= exact_gain
    # the cells: hand group, normal decision, dead cards of the up card's rank, dead aces and kings
    assert count_cell(-1, False, 51, [50, 49, 47, 3]) == ((0 * 2 + 0) * 4 + 2) * 9 + 3
    assert count_cell(4, True, 0, []) == (3 * 2 + 1) * 4 * 9


def test_a_count_strategy_raises_the_cells_that_gained_in_training():
    from exactodds.caribbean.studies.collusion import ChunkSums, count_strategy

    def chunk(seats):
        zero = Fraction(0)
        return ChunkSums(samples=len(seats), values=zero, value_squares=zero, gains=zero, gain_squares=zero,
                         changed=0, seats=tuple(seats))

    train = chunk([((7, Fraction(0), Fraction(1, 2)), (9, Fraction(0), Fraction(-1)))])
    test = chunk([((7, Fraction(-1, 4), Fraction(1, 4)), (9, Fraction(0), Fraction(3))),
                  ((7, Fraction(0), Fraction(1)), (9, Fraction(1), Fraction(0)))])
    counted = count_strategy([train, test])
    assert counted.raised_cells == (7,)
    assert counted.gain.mean == (Fraction(1, 4) + 0) / 2 / 2 + (1 + 1) / 2 / 2
