"""The card search's parts against slow references: the conjunction kernels against brute force (random small
problems), branch and bound against every list of a tiny problem and against the exhaustive reference on a
slice of the grammar, insertion contexts, default patterns, the per-category cache."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.strategy.card import result as card_result
from exactodds.caribbean.strategy.card.beam import Beam, BeamSettings, contexts
from exactodds.caribbean.strategy.card.evaluate import build_cells
from exactodds.caribbean.strategy.card.exact import branch_and_bound
from exactodds.caribbean.strategy.card.grammar import Atom, Features, Kind, all_atoms
from exactodds.caribbean.strategy.card.kernels.conjunctions import (
    _by_decreasing,
    must_flip_atoms,
    rule_children,
    top_conjunctions,
)
from exactodds.caribbean.strategy.card.problem import CategoryProblem, category_problem, conjunction_of
from exactodds.caribbean.strategy.card.reference import (
    best_conjunction,
    conjunctions,
    exhaustive,
    qualifying_rules,
)
from exactodds.caribbean.strategy.card.search import CATEGORIES, SearchSettings, default_patterns, search

NONE = np.iinfo(np.int64).min


@pytest.fixture(scope="module")
def cells():
    return build_cells(situation_outcomes("standard"))


def _problem(membership: np.ndarray, gain: np.ndarray) -> CategoryProblem:
    n, k = membership.shape
    zeros = np.zeros(n, dtype=np.int64)
    return CategoryProblem(category=0, atoms=tuple(Atom(kind=Kind.HOLDS, value=a) for a in range(k)),
                           membership=np.ascontiguousarray(membership, dtype=np.uint8),
                           gain=np.asarray(gain, dtype=np.int64), floor=0,
                           features=Features(category=zeros, ranks=np.zeros((n, 5), dtype=np.int64), up=zeros,
                                             suited=zeros))


@st.composite
def small_problems(draw, max_cells=14, max_atoms=6):
    n = draw(st.integers(1, max_cells))
    k = draw(st.integers(1, max_atoms))
    bits = draw(st.lists(st.booleans(), min_size=n * k, max_size=n * k))
    gain = draw(st.lists(st.integers(-60, 60), min_size=n, max_size=n))
    return _problem(np.array(bits, dtype=np.uint8).reshape(n, k), np.array(gain))


def _cells(problem: CategoryProblem, ids: np.ndarray, weights: np.ndarray) -> frozenset[int]:
    return frozenset(np.flatnonzero(problem.mask(conjunction_of(ids)) & (weights != 0)).tolist())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_problems(), st.integers(1, 3), st.integers(1, 5))
def test_top_conjunctions_match_brute_force(problem, max_conditions, top):
    w = problem.gain
    values, ids, count = top_conjunctions(problem.data, w, np.ones(len(problem.atoms), dtype=np.bool_), top,
                                          max_conditions, -(2**62))
    # every distinct set of cells a conjunction selects, with its value; the kernel keeps the best ones
    sets = {}
    for c in conjunctions(len(problem.atoms), max_conditions):
        cells = frozenset(np.flatnonzero(problem.mask(c) & (w != 0)).tolist())
        if cells:
            sets[cells] = int(w[list(cells)].sum())
    expected = sorted(sets.values(), reverse=True)[:top]
    assert list(values[:count]) == expected
    for r in range(count):  # each row's conditions select a set of that value
        assert int(w[list(_cells(problem, ids[r], w))].sum()) == values[r]
    if count:
        assert values[0] == best_conjunction(problem.membership, w, max_conditions)


@given(st.lists(st.integers(-3, 3), max_size=40), st.data())
def test_pairs_are_ordered_by_decreasing_value_ties_in_index_order(values, data):
    chosen = data.draw(st.sets(st.integers(0, len(values) - 1))) if values else set()
    values, index = np.array(values, dtype=np.int64), np.array(sorted(chosen), dtype=np.int64)
    expected = index[np.argsort(-values[index], kind="stable")]
    assert _by_decreasing(values, index).tolist() == expected.tolist()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_problems(), st.integers(1, 3), st.integers(-5, 80), st.integers(0, 40), st.integers(0, 200))
def test_rule_children_match_brute_force(problem, max_conditions, essential, regret, bound):
    w = problem.gain
    rows, found = rule_children(problem.data, w, essential, regret, bound, np.array((-1, -1, -1, -1)), 4096,
                                max_conditions, 3)
    got = {(_cells(problem, row[:3], w), int(row[3])) for row in rows}
    assert found == len(rows)
    assert got == qualifying_rules(problem.membership, w, essential, regret, bound, max_conditions)
    for row in rows:  # wrong and right are the cells' weights on each side
        cells = list(_cells(problem, row[:3], w))
        p, q = int(np.maximum(w[cells], 0).sum()), int(np.maximum(-w[cells], 0).sum())
        assert (row[4], row[5]) == ((q, p) if row[3] else (p, q))


@settings(max_examples=100, deadline=None)
@given(small_problems(), st.integers(1, 60))
def test_must_flip_atoms_hold_on_every_heavy_cell(problem, threshold):
    got = must_flip_atoms(problem.data, problem.gain, threshold)
    heavy = problem.gain >= threshold
    expected = problem.membership[heavy].astype(bool).all(axis=0)
    assert (got == expected).all()


def _brute_force_regret(problem: CategoryProblem, default: Choice, n: int, max_conditions: int) -> int:
    rules = [(c, flip) for c in conjunctions(len(problem.atoms), max_conditions) for flip in (True, False)]
    return min(problem.regret(draft, default)
               for k in range(n + 1) for draft in itertools.product(rules, repeat=k))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_problems(max_cells=10, max_atoms=4), st.integers(1, 2), st.sampled_from(list(Choice)))
def test_branch_and_bound_finds_the_cheapest_list(problem, n, default):
    expected = _brute_force_regret(problem, default, n, 2)
    outcome = branch_and_bound(problem, default, n, max_conditions=2)
    assert outcome.finished and outcome.proven
    assert outcome.regret == expected == problem.regret(outcome.draft, default)
    assert len(outcome.draft) <= n


def test_branch_and_bound_three_rules_with_the_previous_optimum():
    rng = np.random.default_rng(7)
    for _ in range(4):
        problem = _problem(rng.integers(0, 2, size=(12, 4)), rng.integers(-40, 40, size=12))
        for default in Choice:
            previous = _brute_force_regret(problem, default, 2, 2)
            expected = _brute_force_regret(problem, default, 3, 2)
            outcome = branch_and_bound(problem, default, 3, previous_optimum=previous, max_conditions=2)
            assert outcome.proven and outcome.regret == expected


def test_a_cutoff_only_proves_no_list_is_cheaper():
    rng = np.random.default_rng(3)
    problem = _problem(rng.integers(0, 2, size=(12, 4)), rng.integers(-40, 40, size=12))
    best = _brute_force_regret(problem, Choice.FOLD, 2, 2)
    outcome = branch_and_bound(problem, Choice.FOLD, 2, cutoff=best - 1, max_conditions=2)
    assert outcome.finished and outcome.lower == best - 1 and outcome.regret >= best
    outcome = branch_and_bound(problem, Choice.FOLD, 2, cutoff=best + 1, max_conditions=2)
    assert outcome.proven and outcome.regret == best


def test_a_spent_budget_proves_nothing_and_keeps_the_best_list_found():
    rng = np.random.default_rng(5)
    problem = _problem(rng.integers(0, 2, size=(12, 4)), rng.integers(-40, 40, size=12))
    full = branch_and_bound(problem, Choice.FOLD, 3, max_conditions=2)
    assert full.finished and full.proven and full.nodes > 2
    cut = branch_and_bound(problem, Choice.FOLD, 3, nodes=2, max_conditions=2)
    assert not cut.finished and cut.lower == 0 and cut.regret >= full.regret
    assert cut.regret == problem.regret(cut.draft, Choice.FOLD)
    # the budget counts work, not time: the same budget gives the same list
    assert branch_and_bound(problem, Choice.FOLD, 3, nodes=2, max_conditions=2).draft == cut.draft


def test_beam_never_beats_the_proven_cheapest():
    rng = np.random.default_rng(11)
    problem = _problem(rng.integers(0, 2, size=(14, 5)), rng.integers(-50, 50, size=14))
    for default in Choice:
        beam = Beam(problem, default, BeamSettings(width=3, per_move=2), max_conditions=2)
        for n in (1, 2):
            draft, regret = beam.grow()
            assert regret == problem.regret(draft, default) >= _brute_force_regret(problem, default, n, 2)


def test_contexts_split_runs_of_one_action():
    a, b, c = ((0,), True), ((1,), True), ((2,), False)
    got = contexts((a, b, c))
    # between the raising rules in either order, before both, after both, and after the fold
    assert ((), (a, b, c)) in got and ((a,), (b, c)) in got and ((b,), (a, c)) in got
    assert ((a, b), (c,)) in got and ((a, b, c), ()) in got
    assert len(got) == len(set(got)) == 5
    assert contexts(()) == [((), ())]


def test_default_patterns_are_given_by_their_rules():
    patterns = default_patterns(2)
    for pattern, (line, rules) in patterns.items():
        decided = [None] * len(CATEGORIES)
        for rule in rules:  # the first rule that covers a category gives its default
            for i, c in enumerate(CATEGORIES):
                if decided[i] is None and rule.lowest <= c <= rule.highest:
                    decided[i] = rule.action == Choice.RAISE
        got = tuple(d if d is not None else c >= line for d, c in zip(decided, CATEGORIES, strict=True))
        assert got == pattern and len(rules) <= 2 and not any(r.conditions for r in rules)
    lines = {tuple(c >= t for c in CATEGORIES) for t in range(-1, 11)}
    assert all(patterns[p][1] == () for p in lines)
    assert len(patterns[(True, False) + (True,) * 9][1]) == 1  # raise everything but A-K high: one rule


def test_search_matches_exhaustive_on_a_slice(cells):
    ak = cells.restricted(0, 0)
    atoms = all_atoms()[:4]
    expected = exhaustive(ak, max_rules=3, atoms=atoms, categories=(0,), max_conditions=2, raise_from=(0, 1))
    s = SearchSettings(atoms=atoms, max_conditions=2, beam=BeamSettings(width=4, per_move=2), exact_rules=3)
    outcome = search(ak, max_rules=3, settings=s)
    assert [f.cost_scaled for f in outcome.cards] == [cost for _, cost in expected]
    assert all(f.proven for f in outcome.cards)
    for f in outcome.cards:
        assert ak.cost_scaled(f.card.decide(ak.features)) == f.cost_scaled and len(f.card.rules) <= f.rules


def test_category_lists_are_cached_and_read_back_exactly(cells, tmp_path, monkeypatch):
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(tmp_path))
    problem = category_problem(cells, 0, all_atoms()[:6])
    s = SearchSettings(atoms=all_atoms()[:6], max_conditions=2, beam=BeamSettings(width=2, per_move=2),
                       exact_rules=2)
    first = card_result._cached_category(None, problem, 2, s)
    (path,) = tmp_path.glob("caribbean_card_*.json")

    def fail(*_args, **_kwargs):
        raise AssertionError("searched again instead of reading the cache")

    monkeypatch.setattr(card_result, "search_category", fail)
    again = card_result._cached_category(None, problem, 2, s)
    assert {d: [(f.draft, f.regret, f.lower) for f in lists] for d, lists in again.items()} == \
        {d: [(f.draft, f.regret, f.lower) for f in lists] for d, lists in first.items()}
    # a cached regret is never trusted: a list edited by hand is valued from its rules
    data = json.loads(path.read_text())
    data["fold"][1]["draft"] = [[[0], True]]
    path.write_text(json.dumps(data))
    edited = card_result._cached_category(None, problem, 2, s)[Choice.FOLD][1]
    assert edited.regret == problem.regret((((0,), True),), Choice.FOLD)
    monkeypatch.undo()
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(tmp_path))
    path.write_text("{ damaged")
    redone = card_result._cached_category(None, problem, 2, s)
    assert [f.regret for f in redone[Choice.RAISE]] == [f.regret for f in first[Choice.RAISE]]
    assert json.loads(path.read_text())  # replaced by a whole file
