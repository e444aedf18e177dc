"""The compiled last-round walks of the CFR+ solver against the numpy walk they replace: the same values,
regrets and average strategies from the same state (random, dense), and whole solves that both reach the
target with the same game value."""

from __future__ import annotations

import numpy as np
import pytest

from exactodds.cards import format_cards, parse_cards
from exactodds.stud.equity.position import parse_position
from exactodds.stud.solve.api import solve_position
from exactodds.stud.solve.best_response import exploitability
from exactodds.stud.solve.cfr import CfrState, Interrupted, StopReason, _kernel, solve_cfr
from exactodds.stud.solve.game import Game
from exactodds.stud.solve.last_round import Learner, subtree_nodes
from exactodds.stud.solve.reference import ReferenceCfrState, reference_cfr, reference_exploitability


def _game(stacks: int, keep: str) -> Game:
    up = "Kh 9c 4d Qc Js 7d"
    seen = set(parse_cards(up)) | set(parse_cards(keep))
    dead = format_cards([c for c in range(52) if c not in seen])
    position = parse_position(["? | Kh 9c 4d", "? | Qc Js 7d"], dead)
    return solve_position(position=position, pot=10, stacks=(stacks, stacks), max_iterations=1).solution.game


@pytest.fixture(scope="module")
def game() -> Game:
    return _game(12, "Ah Ad 2c 9h 5s 6s 7c")


@pytest.mark.parametrize("keep", [(1.0, 0.0), (0.8, 0.5)])
@pytest.mark.parametrize("me", [0, 1])
def test_compiled_walk_equals_the_numpy_walk(game: Game, me: int, keep: tuple[float, float]) -> None:
    rng = np.random.default_rng(7 + me)
    compiled, plain = CfrState(game), ReferenceCfrState(game)
    assert compiled.flat, "the third-round game has subtrees below the deal"
    for flat in compiled.flat.values():  # random regrets, some zero (uniform rows), some negative
        flat.regret[:] = rng.random(flat.regret.shape) * (rng.random(flat.regret.shape) > 0.3) - 0.1
        flat.average[:] = rng.random(flat.average.shape)
    for i in plain.regret:
        plain.regret[i][:] = compiled.regret[i]
        plain.average[i][:] = compiled.average[i]
    plain.keep[:] = compiled.keep[:] = keep
    n = game.classes.count
    for root, flat in compiled.flat.items():
        r0, r1 = rng.random(n), rng.random(n)
        mask = flat.layout.mask
        plain.updating = me
        want = plain.walk(root, r0[None] * mask, r1[None] * mask, 3.0)
        learner = Learner(r0=r0, r1=r1, regret=flat.regret, average=flat.average, keep=compiled.keep)
        got = _kernel().cfr_last_round(flat.layout.subtree, flat.layout.outcomes, learner, me, 3.0)
        assert np.abs((got - want) * mask).max() <= 1e-9 * max(1.0, np.abs(want).max())
        for g in subtree_nodes(game, root):
            if g in plain.regret:
                assert np.allclose(compiled.regret[g], plain.regret[g], rtol=0, atol=1e-9)
                assert np.allclose(compiled.average[g], plain.average[g], rtol=0, atol=1e-9)


def test_compiled_and_numpy_solves_agree(game: Game) -> None:
    target = 2e-4
    fast = solve_cfr(game, max_iterations=400, target=target)
    slow = reference_cfr(game, max_iterations=400, target=target, averaging=1, check_every=25)
    assert fast.exploitability.fraction <= target and slow.exploitability.fraction <= target
    assert fast.iterations < slow.iterations
    # both within their exploitability of the game value, so within the sum of each other
    slack = fast.exploitability.chips + slow.exploitability.chips
    for p in range(2):
        assert fast.exploitability.values[p] == pytest.approx(slow.exploitability.values[p], abs=slack)
    again = exploitability(game, fast.profile)
    assert again.fraction == pytest.approx(fast.exploitability.fraction, abs=1e-12)


def test_compiled_best_response_equals_the_numpy_walk(game: Game) -> None:
    rng = np.random.default_rng(3)
    state = ReferenceCfrState(game)
    for i in state.average:  # a random profile, some rows pure
        state.average[i][:] = rng.random(state.average[i].shape) * (rng.random(state.average[i].shape) > 0.4)
    profile = state.profile()
    fast = exploitability(game, profile)
    slow = reference_exploitability(game, profile)
    assert fast.chips == pytest.approx(slow.chips, abs=1e-9)
    assert fast.values == pytest.approx(slow.values, abs=1e-9)
    assert fast.best_response == pytest.approx(slow.best_response, abs=1e-9)
    assert fast.fraction > 1e-3  # a random profile is far from an equilibrium: the check has teeth


def test_stop_is_checked_inside_an_iteration(game: Game) -> None:
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 2  # the first check before iteration 1, then one before a subtree: stop

    with pytest.raises(Interrupted, match="after 0 iterations"):
        solve_cfr(game, max_iterations=50, target=1e-6, stop=stop)


def test_a_time_budget_ends_the_run_with_the_average_found_so_far(game: Game) -> None:
    run = solve_cfr(game, max_iterations=5000, target=1e-9, seconds=1e-6)
    assert run.stopped is StopReason.TIME and run.iterations == 2  # the second iteration is past the budget
    assert run.exploitability.fraction > 1e-9
    full = solve_cfr(game, max_iterations=2, target=1e-9)
    assert full.stopped is StopReason.ITERATIONS
    assert full.exploitability.chips == pytest.approx(run.exploitability.chips, abs=1e-12)
    reached = solve_cfr(game, max_iterations=5000, target=0.05)
    assert reached.stopped is StopReason.TARGET and reached.exploitability.fraction <= 0.05
