"""An independent cross-check of the heads-up solver on many small random positions (many dead cards):
the solve on classes of interchangeable cards against the card-level game it replaces, the fast best
responses against the plain engine walk (all-in stacks that are not multiples of the bet, histories
in the middle of a round, non-uniform ranges), the classes the opener's suit rule and the ranges make,
and edge cases at the command line.

The last tests pin bugs this review found (fixed since): each failed before its fix."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import numpy as np
import pytest

from exactodds.cards import format_cards, parse_cards, rank_of, suit_of
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.equity.position import StudPlayer, StudPosition
from exactodds.stud.solve.against import lift_profile, response_values
from exactodds.stud.solve.api import solve_position
from exactodds.stud.solve.best_response import exploitability
from exactodds.stud.solve.card_classes import card_classes, unseen_cards
from exactodds.stud.solve.cfr import solve_cfr
from exactodds.stud.solve.game import Game, build_game
from exactodds.stud.solve.lp import solve_lp
from exactodds.stud.solve.ranges import range_weights
from exactodds.stud.solve.reference import plain_exploitability, plain_response_values
from exactodds.stud.solve.results import SolveMethod, SolveResult
from exactodds.stud.solve.start import RootSpec, SolveError, root_hand
from tests.cli_checks import one_line_error, run

Up = tuple[tuple[int, ...], tuple[int, ...]]
PATTERNS = ("random", "flush", "flush_both", "pair", "trips", "suit_tie", "straight_flush_draw")


# ------------------------------------------------------------------ random small positions
def _card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def _up_cards(rng: random.Random, street: int, pattern: str) -> Up:
    """Both players' up cards: three suited up cards for one or both players, a pair or trips showing,
    the same ranks on both sides (the opener decided by a suit), a straight-flush draw, or random."""
    used: set[int] = set()
    up: list[list[int]] = [[], []]

    def take(card: int) -> int:
        used.add(card)
        return card

    def any_card(suit: int | None = None) -> int:
        free = [c for c in range(52) if c not in used and (suit is None or suit_of(c) == suit)]
        return take(rng.choice(free))

    if pattern in ("flush", "flush_both"):
        suits = rng.sample(range(4), 2)
        for p in ([rng.randrange(2)] if pattern == "flush" else [0, 1]):
            up[p] += [any_card(suits[p]) for _ in range(3)]
    elif pattern == "straight_flush_draw":
        suit, low = rng.randrange(4), rng.randrange(9)
        up[0] += [take(_card(low + k, suit)) for k in range(3)]
    elif pattern in ("pair", "trips"):
        rank = rng.randrange(13)
        suits = rng.sample(range(4), 2 if pattern == "pair" else 3)
        up[rng.randrange(2)] += [take(_card(rank, s)) for s in suits]
    elif pattern == "suit_tie":
        for rank in rng.sample(range(13), street - rng.randrange(2)):
            a, b = rng.sample(range(4), 2)
            up[0].append(take(_card(rank, a)))
            up[1].append(take(_card(rank, b)))
    for p in range(2):
        while len(up[p]) < street:
            up[p].append(any_card())
        rng.shuffle(up[p])
    return tuple(up[0]), tuple(up[1])


def _dead_leaving(rng: random.Random, up: Up, n: int) -> tuple[int, ...]:
    """Dead cards leaving n unseen cards, half of them sharing a rank or a suit with the up cards and
    the rest whole ranks (so that classes of several cards exist)."""
    seen = set(up[0]) | set(up[1])
    rest = [c for c in range(52) if c not in seen]
    near = [c for c in rest if any(rank_of(c) == rank_of(u) or suit_of(c) == suit_of(u) for u in seen)]
    keep = set(rng.sample(near, min(len(near), n // 2)))
    while len(keep) < n:
        rank = rng.randrange(13)
        keep |= set([c for c in rest if rank_of(c) == rank and c not in keep][:n - len(keep)])
    return tuple(c for c in rest if c not in keep)


def _range(rng: random.Random, unseen: Sequence[int], kind: str) -> dict[int, float] | None:
    if kind == "uniform":
        return None
    if kind == "random":
        weights = {c: rng.choice([0.0, 0.5, 1.0, 1.0, 2.0]) for c in unseen}
    else:  # one weight per rank, and one card of a rank weighted apart: the classes must split it
        per_rank = {r: rng.choice([0.0, 1.0, 2.0, 3.0]) for r in range(13)}
        weights = {c: per_rank[rank_of(c)] for c in unseen}
        weights[rng.choice(list(unseen))] += 0.5
    if sum(weights.values()) <= 0:
        weights[rng.choice(list(unseen))] = 1.0
    return weights


def _history(rng: random.Random, spec: RootSpec, holes: Sequence[int]) -> tuple[str, ...]:
    """A random legal prefix of the round's betting that leaves a decision."""
    out: list[str] = []
    for _ in range(rng.randrange(4)):
        so_far = RootSpec(up=spec.up, pot=spec.pot, stacks=spec.stacks, history=tuple(out))
        hand = root_hand(so_far, holes=holes)
        step = rng.choice(list(hand.legal().actions()))
        hand.act(step)
        if hand.phase is not Phase.BET:
            break
        out.append(step.text())
    return tuple(out)


def _position(seed: int, *, street: int, unseen: tuple[int, int], stacks: Sequence[int],
              kinds: Sequence[str], even_pot: bool = False
              ) -> tuple[RootSpec, tuple[int, ...], tuple[dict[int, float] | None, ...], str]:
    rng = random.Random(seed)
    pattern = rng.choice(PATTERNS)
    up = _up_cards(rng, street, pattern)
    dead = _dead_leaving(rng, up, rng.randint(*unseen))
    cards = [int(c) for c in unseen_cards(up, dead)]
    ranges = tuple(_range(rng, cards, rng.choice(kinds)) for _ in range(2))
    pot = 2 * rng.randint(2, 8) if even_pot else rng.randint(4, 16)
    spec = RootSpec(up=up, pot=pot, stacks=(rng.choice(stacks), rng.choice(stacks)))
    spec = RootSpec(up=up, pot=spec.pot, stacks=spec.stacks, history=_history(rng, spec, cards[:2]))
    return spec, dead, ranges, pattern


def _weights(spec: RootSpec, dead: Sequence[int],
             ranges: Sequence[dict[int, float] | None]) -> tuple[np.ndarray, np.ndarray]:
    cards = [int(c) for c in unseen_cards(spec.up, dead)]
    seen = [*spec.up[0], *spec.up[1], *dead]
    w0, w1 = (range_weights(r, unseen=cards, seen=seen, player=p) for p, r in enumerate(ranges))
    return w0, w1


def _on_classes_and_on_cards(seed: int, street: int) -> tuple[Game, Game, str]:
    """A random position (6-12 unseen cards on the last round, 6-9 on the third) as the game on classes
    and the card-level game, and the pattern of its up cards."""
    last = street == 4
    spec, dead, ranges, pattern = _position(seed, street=street, unseen=(6, 12) if last else (6, 9),
                                            stacks=(1, 2, 3, 4, 6, 10, 12),
                                            kinds=("uniform", "uniform", "random", "by_rank"))
    weights = _weights(spec, dead, ranges)
    if weights[0].sum() * weights[1].sum() - weights[0] @ weights[1] <= 0:
        pytest.skip("the two ranges are the same single card")
    return (build_game(spec, dead=dead, weights=weights),
            build_game(spec, dead=dead, weights=weights, reduce=False), pattern)


# ------------------------------------------------------------------ the reduction is exact
@pytest.mark.parametrize("seed", range(40))
def test_the_last_round_on_classes_has_the_value_and_equilibrium_of_every_card(seed: int) -> None:
    classes, cards, pattern = _on_classes_and_on_cards(seed, 4)
    small, big = solve_lp(classes), solve_lp(cards)
    assert small.value == pytest.approx(big.value, abs=1e-7), pattern
    lifted = exploitability(cards, lift_profile(small.profile, classes, cards))
    assert abs(lifted.chips) < 1e-6  # the class-level equilibrium is one of the whole game
    assert lifted.values == pytest.approx(exploitability(classes, small.profile).values, abs=1e-7)


@pytest.mark.parametrize("seed", range(40))
def test_a_third_round_profile_has_the_same_exploitability_on_classes_and_on_cards(seed: int) -> None:
    classes, cards, pattern = _on_classes_and_on_cards(seed, 3)
    run_ = solve_cfr(classes, max_iterations=1 + seed % 7, target=1e-12)  # any profile, mostly rough
    lifted = exploitability(cards, lift_profile(run_.profile, classes, cards))
    assert lifted.chips == pytest.approx(run_.exploitability.chips, abs=1e-9), pattern
    assert lifted.values == pytest.approx(run_.exploitability.values, abs=1e-9)
    assert lifted.best_response == pytest.approx(run_.exploitability.best_response, abs=1e-9)


def _classes(up: tuple[str, str], weights: tuple[np.ndarray, np.ndarray] | None = None) -> list[str]:
    pair = (tuple(parse_cards(up[0])), tuple(parse_cards(up[1])))
    return [format_cards(m) for m in card_classes(up=pair, dead=(), weights=weights).members]


def test_a_suit_that_decides_the_opener_splits_its_rank_on_the_third_round_only() -> None:
    # the same ranks on both sides: a king or an ace dealt to each is the new top card, and its suit
    # decides who opens the last round; a queen dealt is not (the queens showing stay on top)
    third = _classes(("Qh 9c 4d", "Qs 9d 4c"))
    for rank in "KA":
        for suit in "cdhs":
            assert f"{rank}{suit}" in third  # a class of its own
    assert "Qc Qd" in third and "Jc Jd Jh Js" in third
    last = _classes(("Qh 9c 4d 2s", "Qs 9d 4c 2h"))  # on the last round the opener is known
    assert "Kc Kd Kh Ks" in last and "Ac Ad Ah As" in last


def test_equal_range_weights_keep_cards_of_a_rank_together_and_others_apart() -> None:
    up = (tuple(parse_cards("Kd 9c 4d 2s")), tuple(parse_cards("Qc Js 7d 7h")))
    unseen = [int(c) for c in unseen_cards(up, ())]
    w = np.zeros(len(unseen))
    for text, weight in (("Ah", 2.0), ("Ad", 2.0), ("As", 1.0), ("Kh", 1.0), ("Ks", 1.0)):
        w[unseen.index(parse_cards(text)[0])] = weight
    found = _classes(("Kd 9c 4d 2s", "Qc Js 7d 7h"), (w, np.ones(len(unseen))))
    assert {"Ad Ah", "As", "Ac", "Kh Ks", "Kc"} <= set(found)


# ------------------------------------------------------------------ the plain engine walk
def _realizable(spec: RootSpec) -> bool:
    """Whether the plain walk's engine hand reaches the pot asked for (see the pinned bug below)."""
    try:
        hand = root_hand(RootSpec(up=spec.up, pot=spec.pot, stacks=spec.stacks), holes=_free(spec, 2),
                         realize_pot=True)
    except SolveError:
        return False
    return hand.pot_total == spec.pot


def _free(spec: RootSpec, count: int) -> list[int]:
    used = set(spec.up[0]) | set(spec.up[1])
    return [c for c in range(52) if c not in used][:count]


def _solved(seed: int, street: int) -> SolveResult:
    last = street == 4  # the plain walk of a third round deals every pair of last up cards: kept small
    spec, dead, ranges, _ = _position(seed, street=street, unseen=(5, 8) if last else (5, 5),
                                      stacks=(1, 2, 3, 5, 6, 7, 10) if last else (1, 2, 3, 5),
                                      kinds=("uniform", "random", "by_rank"), even_pot=True)
    if not _realizable(spec):
        pytest.skip("the engine cannot reach this pot (pinned below)")
    position = StudPosition(players=(StudPlayer(hole=None, up=spec.up[0]),
                                     StudPlayer(hole=None, up=spec.up[1])), dead=dead)
    method = SolveMethod.LINEAR_PROGRAM if street == 4 and seed % 3 == 0 else SolveMethod.CFR_PLUS
    return solve_position(position=position, pot=spec.pot, stacks=spec.stacks, history=spec.history,
                          ranges=ranges, method=method, max_iterations=2 + seed % 4, target=1e-12)


@pytest.mark.parametrize(("seed", "street"), [(s, 4) for s in range(6)] + [(s, 3) for s in range(6, 9)])
def test_the_fast_exploitability_equals_the_plain_engine_walk(seed: int, street: int) -> None:
    result = _solved(seed, street)
    game = result.solution.game
    if any(np.count_nonzero(game.card_weights(p)) == 1 for p in range(2)):
        pytest.skip("a range of one card (the plain walk's IndexError is pinned below)")
    assert plain_exploitability(result) == pytest.approx(result.exploitability.chips, abs=1e-9)


def _later_state(result: SolveResult, rng: random.Random) -> StudHand | None:
    """An engine hand of the solved tree at a decision a few random actions past the root (no folds,
    each action one the solved strategy plays with the actor's hole card),
    through the deal on a third-round solve; the root itself when every line tried ends the hand.
    Both hole cards are in the ranges; None when the ranges leave no such pair."""
    game = result.solution.game
    cards = [int(c) for c in game.unseen]
    w0, w1 = game.card_weights(0), game.card_weights(1)
    first = rng.choice([c for i, c in enumerate(cards) if w0[i] > 0])
    second = [c for i, c in enumerate(cards) if w1[i] > 0 and c != first]
    if not second:
        return None
    holes = (first, rng.choice(second))
    for _ in range(8):
        hand = root_hand(game.spec, holes=holes, realize_pot=True)
        for _ in range(1 + rng.randrange(4)):
            mix = result.policy_in(hand)  # actions the solved strategy takes with this hole card
            played = [a for a in hand.legal().actions() if mix[a.text()] > 0 and a.kind != "f"]
            if not played:
                break
            hand.act(rng.choice(played))
            if hand.phase is Phase.DEAL:
                dealt = rng.sample([c for c in cards if c not in holes], 2)
                for seat in list(hand.deal_due):
                    hand.deal(seat, [dealt[seat]])
            if hand.phase is not Phase.BET:
                break
        if hand.phase is Phase.BET:
            return hand
    return root_hand(game.spec, holes=holes, realize_pot=True)


@pytest.mark.parametrize(("seed", "street"),
                         [(s, 4) for s in range(20, 26)] + [(s, 3) for s in range(26, 30)])
def test_response_values_with_ranges_and_a_prior_equal_the_plain_walk(seed: int, street: int) -> None:
    """The opponent's hole card weighs its solve range times the prior (the fast walk's meaning; the
    reference is given the product): priors drawn from a continuum, so no two products coincide."""
    result = _solved(seed, street)
    rng = random.Random(seed)
    hand = _later_state(result, rng)
    if hand is None:
        pytest.skip("the ranges leave no pair of hole cards")
    assert hand.actor is not None
    me = result.seats.index(hand.actor)
    game = result.solution.game
    cards = [int(c) for c in game.unseen]
    prior = {c: rng.uniform(0.1, 3.0) if rng.random() < 0.8 else 0.0 for c in cards}
    opponent_hole = hand.down[1 - me]
    assert opponent_hole is not None
    prior[opponent_hole] = 1.0
    fast = response_values(result, hand, prior=prior)
    weights = game.card_weights(1 - me)
    both = {c: prior[c] * float(weights[i]) for i, c in enumerate(cards)}
    assert fast.chips == pytest.approx(plain_response_values(result, hand, prior=both), abs=1e-9)


# ------------------------------------------------------------------ the command line
LAST = ["--player", "? | Kd 9c 4d 2s", "--player", "Ah | Qc Js 7d 7h", "--pot", "14", "--stacks", "20,20"]


def _dead_except(keep: str) -> str:
    kept = set(parse_cards(keep))
    return format_cards([c for c in range(52) if c not in kept])


THIRD = ["--player", "? | Kd 9c 4d", "--player", "Ah | Qc Js 7d", "--pot", "10",
         "--dead", _dead_except("Kd 9c 4d Qc Js 7d Ah Ad 2c 9h 5s 6s 7c Tc")]


def test_an_all_in_bet_on_the_third_round_leaves_one_decision_and_no_betting_after_the_deal() -> None:
    out = run("stud", "solve", *THIRD, "--stacks", "2,20", "--history", "cbr 2", "--next-up", "2c 5s",
              "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["player_to_act"] == 2 and data["actions"] == ["cc", "f"] and data["stacks"] == [0, 20]
    assert [d["history"] for d in data["decisions"]] == [[]]  # nothing to decide after the deal
    assert sum(data["values"]) == pytest.approx(data["pot"]) and data["pot"] == 12
    values = {v["action"]: v["chips"] for v in data["action_values"]}
    assert values["f"] == 0.0 and values["cc"] > 0  # Ah calls 2 into 12 against a range of 8 cards


def test_a_time_budget_says_why_the_run_stopped() -> None:
    out = run("stud", "solve", *THIRD, "--stacks", "8,8", "--max-seconds", "0.1", "--target", "1e-9",
              "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["stopped"] == "time" and data["iterations"] >= 2
    assert data["exploitability"]["fraction_of_pot"] > 0


@pytest.mark.parametrize(("args", "fragments"), [
    ([*THIRD, "--stacks", "8,8", "--history", "cbr 4, cc"], ["ends the round"]),
    ([*THIRD, "--stacks", "8,8", "--history", "cbr 4, f"], ["ends the round"]),
    ([*THIRD, "--stacks", "2,20", "--history", "cbr 2, cc"], ["ends the round"]),
    ([*THIRD, "--stacks", "8,8", "--next-up", "Kd 5s"], ["two different unseen cards"]),
    ([*THIRD, "--stacks", "8,8", "--next-up", "5s"], ["two different unseen cards"]),
    ([*THIRD, "--stacks", "8,8", "--range", "1=Ah", "--range", "2=Ah"], ["ranges", "single card"]),
    ([*THIRD, "--stacks", "8,8", "--max-seconds", "nan"], ["time budget"]),
    ([*LAST, "--max-seconds", "0"], ["--max-seconds"]),
])
def test_bad_input_is_one_error_line(args: list[str], fragments: list[str]) -> None:
    one_line_error(run("stud", "solve", *args), *fragments)


# ------------------------------------------------------------------ bugs pinned by this review
@pytest.mark.parametrize("extra", [[], ["--json"]])
def test_a_known_hole_card_that_is_the_opponents_whole_range_is_refused(extra: list[str]) -> None:
    # player 2 (pair of sevens) acts first holding Ah; player 1's range is Ah alone: no deal is possible
    one_line_error(run("stud", "solve", *LAST, "--range", "1=Ah", *extra), "range", "Ah")


def test_the_last_up_cards_cannot_hold_the_known_hole_card() -> None:
    args = ["--player", "Ah | Kd 9c 4d", "--player", "? | Qc Js 7d", "--pot", "10", "--stacks", "8,8",
            "--dead", THIRD[-1], "--next-up", "Ah 5s", "--max-iterations", "10"]
    one_line_error(run("stud", "solve", *args), "Ah")


def _response_gap(prior_of_ah: float) -> float:
    """Player 2 weighs Ad three times Ah; after both check the third round, Ah and 5s are dealt and
    player 1 acts: the largest gap between response_values and the plain walk, the opponent's hole
    card weighted by its range times a prior of ``prior_of_ah`` on Ah (1 elsewhere)."""
    up0, up1 = "Kh 9c 4d", "Qc Js 7d"
    keep = "Ah Ad 9h 5s 3c"
    position = StudPosition(players=(StudPlayer(hole=None, up=tuple(parse_cards(up0))),
                                     StudPlayer(hole=None, up=tuple(parse_cards(up1)))),
                            dead=tuple(parse_cards(_dead_except(f"{up0} {up1} {keep}"))))
    ah, ad = parse_cards("Ah Ad")
    weights = {c: 1.0 for c in parse_cards(keep)}
    weights[ad] = 3.0
    result = solve_position(position=position, pot=10, stacks=(8, 8), ranges=(None, weights),
                            method=SolveMethod.CFR_PLUS, max_iterations=5, target=1e-12)
    assert result.solution.game.classes.class_of(ah) != result.solution.game.classes.class_of(ad)
    hand = root_hand(result.solution.game.spec, holes=parse_cards("3c 9h"), realize_pot=True)
    for step in ("cc", "cc"):
        assert hand.actor is not None
        hand.act(Action.parse(hand.actor, step))
    hand.deal(0, [ah])
    hand.deal(1, parse_cards("5s"))
    assert hand.phase is Phase.BET and hand.actor == 0
    prior = {c: 1.0 for c in parse_cards(keep)}
    prior[ah] = prior_of_ah
    fast = response_values(result, hand, prior=prior)
    slow = plain_response_values(result, hand, prior={c: prior[c] * weights[c] for c in prior})
    return max(abs(a - b) for a, b in zip(fast.chips, slow, strict=True))


def test_response_values_with_a_prior_on_a_non_uniform_range() -> None:
    assert _response_gap(2.9) < 1e-9


def test_response_values_when_the_prior_evens_out_two_range_weights() -> None:
    assert _response_gap(3.0) < 1e-9


def test_the_plain_walks_engine_hand_reaches_the_pot_asked_or_refuses() -> None:
    spec = RootSpec(up=(tuple(parse_cards("2c 2d 9h 5s")), tuple(parse_cards("Kc Jd 8h 4s"))), pot=16,
                    stacks=(3, 7))
    try:
        hand = root_hand(spec, holes=parse_cards("As Ah"), realize_pot=True)
    except SolveError:
        return
    assert hand.pot_total == 16 and tuple(hand.stacks) == (3, 7)


def test_the_plain_walk_with_a_range_of_one_card() -> None:
    dead = _dead_except("Kh 9c 4d 2s Qc Js 7d 7h Ah Ad 2c 3c 9h")
    position = StudPosition(players=(StudPlayer(hole=None, up=tuple(parse_cards("Kh 9c 4d 2s"))),
                                     StudPlayer(hole=None, up=tuple(parse_cards("Qc Js 7d 7h")))),
                            dead=tuple(parse_cards(dead)))
    result = solve_position(position=position, pot=10, stacks=(8, 8), ranges=("Ah,Ad,2c", "Ah"))
    assert plain_exploitability(result) == pytest.approx(result.exploitability.chips, abs=1e-9)


def test_a_time_budget_ends_the_run_at_the_first_iteration_past_it() -> None:
    up = (tuple(parse_cards("Kd 9c 4d")), tuple(parse_cards("Qc Js 7d")))
    spec = RootSpec(up=up, pot=10, stacks=(8, 8))
    dead = tuple(parse_cards(THIRD[-1]))
    n = len(unseen_cards(spec.up, dead))
    game = build_game(spec, dead=dead, weights=(np.full(n, 1 / n), np.full(n, 1 / n)))
    run_ = solve_cfr(game, max_iterations=100, target=1e-12, seconds=1e-9)
    assert run_.iterations <= 2
