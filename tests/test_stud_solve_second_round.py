"""The heads-up equilibrium from the second round (three betting rounds to come), on small positions
(many dead cards, small stacks): the linear program against CFR+, the class-level game against the
card-level one, the compiled walks of a section against the numpy walk, the fast best response
against the plain engine walk, mirrored seats, the open-pair option, an all-in for less, and the
values below a deal of the third up cards against a third-round solve from the ranges reached."""

from __future__ import annotations

import json

import numpy as np
import pytest

from exactodds.cards import format_cards, parse_cards
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import Phase
from exactodds.stud.equity.position import StudPlayer, StudPosition
from exactodds.stud.solve.against import lift_profile, response_values
from exactodds.stud.solve.api import solve_position
from exactodds.stud.solve.best_response import exploitability
from exactodds.stud.solve.card_classes import unseen_cards
from exactodds.stud.solve.cfr import CfrState, solve_cfr
from exactodds.stud.solve.game import Game, Profile, build_game
from exactodds.stud.solve.lp import solve_lp
from exactodds.stud.solve.query import reaches
from exactodds.stud.solve.reference import (
    ReferenceBestResponse,
    ReferenceCfrState,
    plain_exploitability,
    plain_response_values,
    reference_exploitability,
)
from exactodds.stud.solve.results import SolveMethod
from exactodds.stud.solve.start import RootSpec, root_hand
from exactodds.stud.solve.tree import NodeKind
from tests.cli_checks import one_line_error, run

Up = tuple[tuple[int, ...], tuple[int, ...]]


def _up(a: str, b: str) -> Up:
    return tuple(parse_cards(a)), tuple(parse_cards(b))


def _dead(up: Up, keep: str) -> tuple[int, ...]:
    seen = set(up[0]) | set(up[1]) | set(parse_cards(keep))
    return tuple(c for c in range(52) if c not in seen)


def _game(up: Up, keep: str, *, pot: int = 4, stacks: tuple[int, int] = (4, 4), history: tuple[str, ...] = (),
          reduce: bool = True) -> Game:
    dead = _dead(up, keep)
    n = len(unseen_cards(up, dead))
    uniform = np.full(n, 1.0 / n)
    return build_game(RootSpec(up=up, pot=pot, stacks=stacks, history=history), dead=dead,
                      weights=(uniform, uniform), reduce=reduce)


# pairs showing, suits that make a flush draw, the same ranks on both sides (suit tie-breaks)
POSITIONS = [
    (("Kh 9c", "Qc Js"), "Ah Ad 2c 9h 5s 6s"),
    (("8h 8c", "Qc Js"), "Ah Kd 2c 9h 8s 6s"),  # an open pair: bets of 2 or 4
    (("Ah 9h", "Qs 7s"), "Kh 2h 3s 4d 9c 6s"),  # a flush draw each
    (("Kh 9c", "Kd 9s"), "Kc Ks 2c 3d Ah 6s"),  # the same ranks: suits decide who opens
]


@pytest.mark.parametrize(("up", "keep"), POSITIONS)
def test_the_linear_program_and_cfr_agree_on_the_value(up: tuple[str, str], keep: str) -> None:
    game = _game(_up(*up), keep)
    exact = solve_lp(game)
    assert abs(reference_exploitability(game, exact.profile).chips) < 1e-7
    assert abs(exploitability(game, exact.profile).chips) < 1e-5  # the profile read as float32
    run = solve_cfr(game, max_iterations=2000, target=1e-3)
    assert run.exploitability.fraction <= 1e-3
    assert abs(run.exploitability.values[0] - exact.value) <= run.exploitability.chips + 1e-7


@pytest.mark.parametrize(("up", "keep"), [(("8h 8c", "Qc Js"), "2c 2d 2s 3c 3d 5h"),
                                          (("Ah 9h", "Qs 7s"), "2h 2c 2d 3s 3c 3d")])
def test_a_class_level_profile_has_its_exploitability_card_by_card(up: tuple[str, str], keep: str) -> None:
    classes, cards = _game(_up(*up), keep), _game(_up(*up), keep, reduce=False)
    assert classes.classes.count < cards.classes.count
    assert solve_lp(classes).value == pytest.approx(solve_lp(cards).value, abs=1e-7)
    rough = solve_cfr(classes, max_iterations=3, target=1e-12)  # far from an equilibrium: a real check
    assert rough.exploitability.fraction > 1e-3
    lifted = reference_exploitability(cards, lift_profile(rough.profile, classes, cards))
    assert lifted.chips == pytest.approx(rough.exploitability.chips, abs=1e-6)
    assert lifted.best_response == pytest.approx(rough.exploitability.best_response, abs=1e-6)


def test_the_compiled_section_walk_equals_the_numpy_walk() -> None:
    game = _game(_up("Kh 9c", "Qc Js"), "Ah Ad 2c 9h 5s 6s", stacks=(6, 6))
    fast, slow = CfrState(game), ReferenceCfrState(game)
    assert fast.sections and all(k.kind is not NodeKind.CHANCE for k in game.tree.nodes[:1])
    rng = np.random.default_rng(5)
    for i in fast.regret:  # random regrets, many zero (pure rows, lines the opponent never takes)
        shape = fast.regret[i].shape
        fast.regret[i][...] = rng.random(shape) * (rng.random(shape) > 0.5)
        fast.average[i][...] = rng.random(shape)
        slow.regret[i][...] = fast.regret[i]
        slow.average[i][...] = fast.average[i]
    for me in (0, 1):
        fast.updating = slow.updating = me
        root = game.weights[0][None, :], game.weights[1][None, :]
        got, want = fast.walk(0, *root, 3.0), slow.walk(0, *root, 3.0)
        assert np.abs(got - want).max() <= 1e-5 * np.abs(want).max()
        for i in fast.regret:
            assert np.allclose(fast.regret[i], slow.regret[i], rtol=1e-5, atol=1e-6)
            assert np.allclose(fast.average[i], slow.average[i], rtol=1e-5, atol=1e-6)
    profile = fast.profile()
    assert exploitability(game, profile).chips == pytest.approx(reference_exploitability(game, profile).chips,
                                                                abs=1e-9)


def _position(up: Up, keep: str) -> StudPosition:
    return StudPosition(players=(StudPlayer(hole=None, up=up[0]), StudPlayer(hole=None, up=up[1])),
                        dead=_dead(up, keep))


@pytest.mark.parametrize(("up", "keep", "stacks", "history"), [
    (("Kh 9c", "Qc Js"), "Ah Ad 2c 5s 6s 7h", (2, 2), ()),
    (("8h 8c", "Qc Js"), "Ah 2c 8s 5s 6s 7h", (5, 4), ("cbr 4",)),  # the open pair's big bet, called all-in
    (("8h 8c", "Qc Js"), "Ah 2c 8s 5s 6s 7h", (12, 5), ("cbr 4", "cbr 5")),  # all-in for less than a raise
])
def test_the_fast_best_response_equals_the_plain_engine_walk(up: tuple[str, str], keep: str,
                                                             stacks: tuple[int, int],
                                                             history: tuple[str, ...]) -> None:
    result = solve_position(position=_position(_up(*up), keep), pot=4, stacks=stacks, history=history,
                            method=SolveMethod.CFR_PLUS, max_iterations=2, target=1e-12)
    assert result.exploitability.chips > 1e-3  # far from an equilibrium: the check has teeth
    assert plain_exploitability(result) == pytest.approx(result.exploitability.chips, abs=1e-6)


def test_mirrored_seats_give_mirrored_strategies() -> None:
    up, keep = _up("Kh 9c", "Qc Js"), "Ah Ad 2c 9h 5s 6s"
    one = solve_position(position=_position(up, keep), pot=4, stacks=(4, 6), max_iterations=40, target=1e-9)
    two = solve_position(position=_position(up[::-1], keep), pot=4, stacks=(6, 4), max_iterations=40,
                         target=1e-9)
    assert one.actor == 1 - two.actor and one.round_index == 1
    # two runs of mirrored games, each within its exploitability of the game value (their arithmetic
    # differs only in the order the deals' values are summed)
    slack = one.exploitability.chips + two.exploitability.chips
    assert one.values == pytest.approx(two.values[::-1], abs=slack)
    # one profile played in the mirrored seats: exactly the mirrored values and exploitability
    a, b = one.solution.game, two.solution.game
    mirrored = _mirror(one.solution.profile, a, b)
    there = exploitability(b, mirrored)  # read as float32 probabilities, as a solve stores its strategies
    assert there.chips == pytest.approx(one.exploitability.chips, abs=1e-6)
    assert there.values == pytest.approx(one.exploitability.values[::-1], abs=1e-6)


def _mirror(profile: Profile, a: Game, b: Game) -> Profile:
    """``profile`` of game ``a`` played in game ``b``, the same position with the seats swapped."""
    assert a.classes.members == b.classes.members
    rows: dict[int, tuple[int, np.ndarray]] = {}  # b's context -> (a's context, a's row of each b row)
    for cb, context in enumerate(b.contexts):
        swapped = context.dealt.reshape(context.size, -1, 2)[:, :, ::-1].reshape(context.size, -1)
        for ca, there in enumerate(a.contexts):
            found = [there.row_of(tuple(d), a.classes) for d in swapped] if context.size else []
            if there.layers == context.layers and (not found or None not in found):
                rows[cb] = (ca, np.array(found, dtype=np.int64))
                break
    out = {}
    for node_b in b.tree.decisions():
        node = b.tree.nodes[node_b]
        ca, picked = rows[node.ctx]
        out[node_b] = profile.strategy[a.tree.index[(ca, node.path)]][picked]
    return Profile(strategy=out)


def test_the_open_pair_lets_either_player_bet_four_and_the_round_stays_at_four() -> None:
    pair = _position(_up("8h 8c", "Qc Js"), "Ah 2c 8s 5s 6s 7h")
    result = solve_position(position=pair, pot=4, stacks=(10, 10), max_iterations=3)
    assert result.actor == 0 and result.actions == ("cc", "cbr 2", "cbr 4")
    raised = next(d for d in result.decisions if d.history == ("cbr 4",))
    assert raised.actions == ("cc", "f", "cbr 8")  # once 4 is used, a raise is to 8
    small = next(d for d in result.decisions if d.history == ("cbr 2",))
    assert small.actions == ("cc", "f", "cbr 4", "cbr 6")  # a raise of 2 or of 4
    assert sum(result.values) == pytest.approx(result.pot)


def test_an_all_in_for_less_does_not_reopen_the_raising() -> None:
    # the open pair's bet of 4, then player 2 all-in for 5 (a raise of 1, short of half the bet): the
    # bettor may only call or fold
    pair = _position(_up("8h 8c", "Qc Js"), "Ah 2c 8s 5s 6s 7h")
    result = solve_position(position=pair, pot=4, stacks=(12, 5), history=("cbr 4", "cbr 5"),
                            max_iterations=30)
    assert result.actor == 0 and result.actions == ("cc", "f")
    assert sum(result.values) == pytest.approx(result.pot) and result.stacks == (8, 0)


def test_values_below_a_deal_of_the_third_up_cards_agree_with_a_third_round_solve() -> None:
    up, keep = _up("Kh 9c", "Qc Js"), "Ah Ad 2c 9h 5s 6s"
    second = solve_position(position=_position(up, keep), pot=4, stacks=(4, 4), target=1e-5,
                            max_iterations=5000)
    game, profile = second.solution.game, second.solution.profile
    n = len(game.unseen)
    for text in ("Ah 9h", "2c Ad"):
        third_up = (parse_cards(text)[0], parse_cards(text)[1])
        ctx = _context_of(game, third_up)
        row = game.contexts[ctx].row_of(third_up, game.classes)
        # the line of the second round most often followed, into the third round after these cards
        lines = [i for i in game.tree.decisions() if game.tree.nodes[i].ctx == ctx
                 and game.tree.nodes[i].path[-1] == "deal"]
        found = reaches(game, profile, {i: row for i in lines})
        node = max(lines, key=lambda i: _joint(game, ctx, row, *found[i]))
        r0, r1 = found[node]
        reached = _joint(game, ctx, row, r0, r1)
        values = _profile_values(game, profile, node, row, r0, r1)
        path = game.tree.nodes[node].path
        called = max([int(step.split()[1]) for step in path if step.startswith("cbr")], default=0)
        # the ranges reached, card by card, as the third round's ranges
        cards = [int(c) for c in game.unseen if int(c) not in third_up]
        ranges = tuple({format_cards([c]): float(r[game.classes.class_of(c)]) for c in cards}
                       for r in (r0, r1))
        players = tuple(StudPlayer(hole=None, up=(*up[p], third_up[p])) for p in range(2))
        third = solve_position(position=StudPosition(players=players, dead=_dead(up, keep)),
                               pot=4 + 2 * called, stacks=(4 - called, 4 - called), ranges=ranges,
                               target=1e-5, max_iterations=5000)
        # the second round's exploitability over the chance of this line and deal, and the third round's
        slack = second.exploitability.chips * (n - 2) * (n - 3) / reached + third.exploitability.chips
        assert slack < 0.05  # the check has teeth
        assert [v + called for v in values] == pytest.approx(third.values, abs=slack + 1e-9)


def _joint(game: Game, ctx: int, row: int, r0: np.ndarray, r1: np.ndarray) -> float:
    """The probability that both players' hole cards and actions lead to a node (given its deals)."""
    avail = game.contexts[ctx].avail[row]
    return float((r0 * avail).sum() * (r1 * avail).sum() - (r0 * r1) @ avail) / game.norm


def _context_of(game: Game, third_up: tuple[int, int]) -> int:
    return next(i for i, c in enumerate(game.contexts) if c.layers == 1 and c.row_of(third_up, game.classes)
                is not None)


def _profile_values(game: Game, profile, node: int, row: int, r0: np.ndarray,
                    r1: np.ndarray) -> tuple[float, float]:
    """Each player's chips from the node on under the profile, given the node is reached (its row)."""
    ctx = game.tree.nodes[node].ctx
    context = game.contexts[ctx]
    pick = np.zeros((context.size, 1))
    pick[row] = 1.0
    v0, v1, _, _ = ReferenceBestResponse(game, profile).walk(node, pick * r0[None, :], pick * r1[None, :])
    avail = context.avail[row]
    out = []
    for mine, theirs, v in ((r0, r1, v0), (r1, r0, v1)):
        joint = float((mine * avail).sum() * (theirs * avail).sum() - (mine * theirs) @ avail)
        out.append(float((mine * avail) @ v[row]) / joint)
    return out[0], out[1]


# ------------------------------------------------------------------ the command line
SMALL = ["--player", "Ah | Kh 9c", "--player", "? | Qc Js", "--pot", "4", "--stacks", "4,4",
         "--dead", format_cards(_dead(_up("Kh 9c", "Qc Js"), "Ah Ad 2c 9h 5s 6s"))]


def test_the_command_solves_a_second_round_decision_and_lists_the_later_ones() -> None:
    text = run("stud", "solve", *SMALL, "--next-up", "Ad 9h")
    assert text.exit_code == 0, text.output
    assert "heads-up equilibrium from the second round (two up cards to come), cfr-plus" in text.output
    assert "hole card Ah: EV from now" in text.output
    out = run("stud", "solve", *SMALL, "--next-up", "Ad 9h 2c 5s", "--tree", "--json")
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["round"] == 2 and data["player_to_act"] == 1
    dealt = {tuple(d["next_up"] or ()) for d in data["decisions"]}
    assert dealt == {(), ("Ad", "9h"), ("Ad", "9h", "2c", "5s")}  # rounds 2, 3 and 4
    assert all(d["reach"] > 0 for d in data["decisions"][1:])  # every point listed is reached
    assert sum(data["values"]) == pytest.approx(data["pot"])


@pytest.mark.parametrize(("args", "fragments"), [
    ([*SMALL, "--next-up", "Ad 9h 2c"], ["two or four different unseen cards"]),
    ([*SMALL, "--method", "linear-program"], ["last round only"]),
    ([*SMALL, "--max-memory", "0.0001"], ["more than the 0.1 MB allowed"]),
    ([*SMALL, "--rounds", "2-4"], ["--rounds goes with --all"]),
    (["--player", "? | Kh", "--player", "? | Qc", "--pot", "4", "--stacks", "4,4"],
     ["first round", "stud decide"]),
    ([*SMALL[:4], "--player", "? | 2d 3d", "--pot", "4", "--stacks", "4,4"], ["exactly 2 players"]),
    ([*SMALL[:4], "--pot", "4", "--stacks", "0,4"], ["stack", "all-in"]),
    (["--player", "? | Kh 9c", "--player", "? | Qc Js", "--pot", "4", "--stacks", "4,4",
      "--dead", format_cards(_dead(_up("Kh 9c", "Qc Js"), "Ah Ad 2c 9h 5s"))],
     ["6 more cards", "5 are unseen"]),
])
def test_bad_input_is_one_error_line(args: list[str], fragments: list[str]) -> None:
    one_line_error(run("stud", "solve", *args), *fragments)


def test_response_values_on_the_third_round_of_a_second_round_solve_equal_the_plain_walk() -> None:
    """The solver bots keep a second-round equilibrium on the third round: the values against them
    there walk below the deal of the fourth up cards from a context of many rows."""
    up, keep = _up("Kh 9c", "Qc Js"), "Ah Ad 2c 9h 5s 6s"
    result = solve_position(position=_position(up, keep), pot=4, stacks=(4, 4), max_iterations=5,
                            target=1e-12)
    hand = root_hand(result.solution.game.spec, holes=parse_cards("Ah 2c"), realize_pot=True)
    for step in ("cc", "cc"):
        assert hand.actor is not None
        hand.act(Action.parse(hand.actor, step))
    hand.deal(0, parse_cards("9h"))
    hand.deal(1, parse_cards("5s"))
    assert hand.phase is Phase.BET and hand.round_index == 2
    me = hand.actor
    assert me is not None
    prior = {c: 1.0 + 0.1 * k for k, c in enumerate(parse_cards("Ad 2c 6s Ah"))}
    fast = response_values(result, hand, prior=prior)
    slow = plain_response_values(result, hand, prior=prior)
    assert fast.chips == pytest.approx(slow, abs=1e-6)
