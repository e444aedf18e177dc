"""The solver's entry points: :func:`solve_position` (a position given by its cards, pot, stacks and
the betting so far) and :func:`solve_hand` (a live engine hand at a heads-up decision of round 2, 3
or 4)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from exactodds.cards import format_card, parse_cards
from exactodds.memo import BoundedCache
from exactodds.progress import Progress, staged
from exactodds.stud.engine.rules import HOME_RULES, StudProfile
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.equity.position import StudPosition, parse_position
from exactodds.stud.solve.best_response import action_values, exploitability
from exactodds.stud.solve.card_classes import unseen_cards
from exactodds.stud.solve.cfr import CfrRun, StopReason, solve_cfr
from exactodds.stud.solve.game import Game, build_game, check_a_deal_exists
from exactodds.stud.solve.lp import solve_lp
from exactodds.stud.solve.ranges import RangeError, RangeInput, range_weights
from exactodds.stud.solve.results import ActionValue, Solution, SolveMethod, SolveResult, decision_points
from exactodds.stud.solve.start import (
    FIRST_ROUND_WORDS,
    LAST_ROUND,
    SECOND_ROUND,
    THIRD_ROUND,
    FirstRoundError,
    RootSpec,
    SolveError,
    check_spec,
)
from exactodds.stud.solve.third_round import solve_cost

DEFAULT_TARGET = 0.001  # exploitability, as a fraction of the pot, at which CFR+ stops
DEFAULT_MAX_ITERATIONS = 5000
DEFAULT_MAX_MEMORY = 8e9  # bytes of regrets and averages a solve may hold (the second round's target)
LAYOUT = "laying out the game (the public tree and the deals to come)"


def solve_position(*, position: StudPosition | Sequence[str], pot: int, stacks: Sequence[int],
                   history: Sequence[str] = (), ranges: Sequence[RangeInput] = (None, None),
                   method: SolveMethod | None = None, target: float = DEFAULT_TARGET,
                   max_iterations: int = DEFAULT_MAX_ITERATIONS, next_up: Sequence[int] | str | None = None,
                   profile: StudProfile = HOME_RULES, stop: Callable[[], bool] | None = None,
                   progress: Progress | None = None, seats: tuple[int, int] = (0, 1),
                   time_budget: float | None = None, max_memory: float | None = DEFAULT_MAX_MEMORY,
                   cache: bool = False) -> SolveResult:
    """The heads-up equilibrium from a decision of the second, third or last round.

    ``position``: both players' cards (``"Kh | 9c 4d 2s"``, ``"? | ..."`` for an unknown hole card)
    and the dead cards; ``pot`` and ``stacks``: at the start of the current round; ``history``: the
    betting so far in that round (``"cbr 4"``, ``"cc"``...); ``ranges``: each player's hole-card
    weights (None: uniform over the unseen cards). ``method``: the linear program on the last round
    (the default there) or CFR+ (the default, and the only method, from the earlier rounds), which
    stops at ``target`` exploitability (a fraction of the pot), ``max_iterations`` or ``time_budget``
    seconds (the average found by then; the result's ``stopped`` says which). ``next_up``: the up cards
    to come (seat order) whose later decisions to list: the last up cards on a third-round solve, the
    third (and optionally then the fourth) on a second-round solve. A known hole card of the player to
    act gets the value of each action. ``max_memory``: bytes the regrets and averages may take (None:
    no limit; a solve needing more is refused before it starts). ``cache``: keep the result, and give
    it again for the same request (a few results are kept; a hit takes no time and reports no
    progress). Raises SolveError (or another ExactOddsError) for a position the solver does not cover
    (FirstRoundError on the first round)."""
    if not isinstance(position, StudPosition):
        position = parse_position(list(position))
    if len(position.players) != 2:
        raise SolveError(f"the solver is heads-up: it needs exactly 2 players still in, "
                         f"got {len(position.players)}")
    spec = RootSpec(up=(position.players[0].up, position.players[1].up), pot=pot,
                    stacks=(_whole(stacks, 0), _whole(stacks, 1)), history=tuple(history), profile=profile)
    check_spec(spec)
    holes = tuple(p.hole for p in position.players)
    asked = _Asked(method=method, target=target, max_iterations=max_iterations, time_budget=time_budget,
                   max_memory=max_memory, cache=cache)
    return _solve(spec, dead=position.dead, holes=holes, ranges=ranges, asked=asked, next_up=next_up,
                  stop=stop, progress=progress, seats=seats)


def _whole(stacks: Sequence[int], i: int) -> int:
    if isinstance(stacks, str) or len(stacks) != 2:
        raise SolveError(f"stacks must be two whole numbers (one per player), got {stacks!r}")
    return stacks[i]


def solve_hand(hand: StudHand, *, player: int, ranges: Sequence[RangeInput] = (None, None),
               method: SolveMethod | None = None, target: float = DEFAULT_TARGET,
               max_iterations: int = DEFAULT_MAX_ITERATIONS, stop: Callable[[], bool] | None = None,
               progress: Progress | None = None, from_round_start: bool = False,
               time_budget: float | None = None, max_memory: float | None = DEFAULT_MAX_MEMORY,
               cache: bool = False) -> SolveResult:
    """The heads-up equilibrium at the live hand's current decision (``from_round_start``: at the start
    of the current round, the betting of the round so far being moves of the solved tree), for
    ``player`` (a seat of the hand, 0-based): only the public cards and ``player``'s own hole card are
    used, never another player's hole card. The hand must be at a betting decision of round 2, 3 or 4
    (0-based 1 to 3) with exactly two players in, the round having started heads-up. ``ranges`` are in
    the order of the two players' seats. The result's player indices are 0/1 over ``result.seats``.
    ``time_budget``, ``max_memory`` and ``cache`` as for :func:`solve_position`."""
    if not isinstance(hand, StudHand):
        raise SolveError(f"expected a StudHand, got {type(hand).__name__}")
    if hand.phase is not Phase.BET:
        raise SolveError("the hand is not at a betting decision")
    live = hand.in_hand
    if len(live) != 2:
        raise SolveError(f"the solver is heads-up: it needs exactly 2 players still in, got {len(live)}")
    if player not in live:
        raise SolveError(f"player {player + 1} is not in the hand")
    if hand.round_index < SECOND_ROUND:
        raise FirstRoundError(FIRST_ROUND_WORDS)
    this_round = [e for e in hand.events if e.round_index == hand.round_index and e.kind != "deal"]
    if any(e.kind == "f" for e in this_round):
        raise SolveError("the solver covers rounds that start heads-up (a player folded in this round)")
    a, b = live
    history = () if from_round_start else tuple(f"cbr {e.amount}" if e.kind == "cbr" else e.kind
                                                for e in this_round)
    stacks = (hand.stacks[a] + hand.round_bets[a], hand.stacks[b] + hand.round_bets[b])
    pot = hand.pot_total - sum(hand.round_bets)
    dead = tuple(c for i in range(hand.n) if hand.folded[i] for c in hand.up[i])
    spec = RootSpec(up=(tuple(hand.up[a]), tuple(hand.up[b])), pot=pot, stacks=stacks, history=history,
                    profile=hand.profile)
    check_spec(spec)
    holes = tuple(hand.down[s] if s == player else None for s in (a, b))
    asked = _Asked(method=method, target=target, max_iterations=max_iterations, time_budget=time_budget,
                   max_memory=max_memory, cache=cache)
    return _solve(spec, dead=dead, holes=holes, ranges=ranges, asked=asked, next_up=None, stop=stop,
                  progress=progress, seats=(a, b))


@dataclass(frozen=True, kw_only=True)
class _Asked:
    """How a solve is asked for: the method, the stopping rules, the memory allowed, and whether the
    result is kept for the same request."""

    method: SolveMethod | None
    target: float
    max_iterations: int
    time_budget: float | None
    max_memory: float | None
    cache: bool

    def check(self) -> None:
        if not (isinstance(self.target, float | int) and 0 < self.target < 1):
            raise SolveError(f"the exploitability target must be a fraction of the pot in (0, 1), "
                             f"got {self.target!r}")
        if isinstance(self.max_iterations, bool) or not isinstance(self.max_iterations, int) \
                or self.max_iterations < 1:
            raise SolveError(f"max_iterations must be a whole number >= 1, got {self.max_iterations!r}")
        budget = self.time_budget
        if budget is not None and not (isinstance(budget, float | int) and 0 < budget < math.inf):
            raise SolveError(f"the time budget must be a number of seconds > 0, got {budget!r}")
        memory = self.max_memory
        if memory is not None and not (isinstance(memory, float | int) and 0 < memory < math.inf):
            raise SolveError(f"the memory allowed must be a number of bytes > 0, got {memory!r}")


_SOLVED = BoundedCache[tuple[object, ...], SolveResult](maxsize=2, name="heads-up solves")


def _solve(spec: RootSpec, *, dead: Sequence[int], holes: Sequence[int | None], ranges: Sequence[RangeInput],
           asked: _Asked, next_up: Sequence[int] | str | None, stop: Callable[[], bool] | None,
           progress: Progress | None, seats: tuple[int, int]) -> SolveResult:
    started = time.perf_counter()
    if isinstance(ranges, str) or len(ranges) != 2:
        raise RangeError("ranges must be two entries, one per player (None for uniform)")
    asked.check()
    seen = [c for cards in spec.up for c in cards] + list(dead)
    unseen = unseen_cards(spec.up, dead)
    listed = [int(c) for c in unseen]
    weights = tuple(range_weights(r, unseen=listed, seen=seen, player=p) for p, r in enumerate(ranges))
    for p, hole in enumerate(holes):
        if hole is not None and hole in seen:
            raise SolveError(f"player {p + 1}'s hole card {format_card(hole)} is also an up or dead card")
        if hole is not None and weights[p][listed.index(hole)] <= 0:
            raise RangeError(f"player {p + 1}'s range gives their hole card {format_card(hole)} no weight")
    # a known hole card is that player's whole range for this check
    check_a_deal_exists(*(np.asarray(unseen == hole, dtype=np.float64) if hole is not None else w
                          for w, hole in zip(weights, holes, strict=True)), unseen=unseen)
    dealt = _next_up(next_up, spec, listed, holes=holes)
    last = spec.round_index == LAST_ROUND
    chosen = asked.method if asked.method is not None else (SolveMethod.LINEAR_PROGRAM if last
                                                            else SolveMethod.CFR_PLUS)
    if chosen is SolveMethod.LINEAR_PROGRAM and not last:
        raise SolveError("the linear program covers the last round only; before it use cfr-plus")

    def compute() -> SolveResult:
        return _solved(spec, dead=dead, holes=holes, ranges=ranges, weights=(weights[0], weights[1]),
                       chosen=chosen, asked=asked, dealt=dealt, stop=stop, progress=progress, seats=seats,
                       started=started)

    if not asked.cache:
        return compute()
    key = (spec, tuple(dead), tuple(holes), weights[0].tobytes(), weights[1].tobytes(), chosen, asked, dealt,
           seats, tuple(r is not None for r in ranges))
    return _SOLVED.get(key, compute)


def _solved(spec: RootSpec, *, dead: Sequence[int], holes: Sequence[int | None], ranges: Sequence[RangeInput],
            weights: tuple[np.ndarray, np.ndarray], chosen: SolveMethod, asked: _Asked,
            dealt: tuple[int, ...] | None, stop: Callable[[], bool] | None, progress: Progress | None,
            seats: tuple[int, int], started: float) -> SolveResult:
    listed = [int(c) for c in unseen_cards(spec.up, dead)]
    with staged(progress, LAYOUT):  # the layouts of the compiled walks too (kept in the game)
        game = build_game(spec, dead=dead, weights=weights)
        cost = solve_cost(game) if chosen is SolveMethod.CFR_PLUS else None
    if cost is not None and asked.max_memory is not None:
        if cost.bytes > asked.max_memory:
            raise SolveError(f"this solve needs about {_size(cost.bytes)} ({cost.bytes:,} bytes) for "
                             f"its regrets and averages, more than the {_size(asked.max_memory)} "
                             "allowed (max memory): fewer chips behind or more dead cards make it smaller")
    run = _run(game, chosen, target=asked.target, max_iterations=asked.max_iterations, stop=stop,
               progress=progress, time_budget=asked.time_budget)
    profile = run.profile
    tree = game.tree
    actor = tree.actor
    points = decision_points(game, profile, next_up=dealt)
    hole = holes[actor]
    values = None
    if hole is not None:
        chips = action_values(game, profile, hole=hole)
        mix = profile.strategy[0][0, game.classes.class_of(hole)]
        values = tuple(ActionValue(action=a, chips=c, probability=float(p))
                       for a, c, p in zip(tree.nodes[0].actions, chips, mix, strict=True))
    described = tuple(
        "given" if r is not None else f"uniform over the {len(listed)} unseen cards (ignores what the "
        "betting so far revealed)" for r in ranges)
    stacks_now = (spec.stacks[0] - tree.root_added[0], spec.stacks[1] - tree.root_added[1])
    return SolveResult(
        method=chosen, round_index=spec.round_index, seats=seats, up=spec.up, dead=tuple(dead), pot=tree.pot,
        stacks=stacks_now, history=spec.history, actor=actor, actions=tree.nodes[0].actions,
        ranges=(described[0], described[1]), root=points[0], decisions=points, hole=hole,
        action_values=values, values=run.exploitability.values, exploitability=run.exploitability,
        iterations=run.iterations, stopped=run.stopped,
        seconds=time.perf_counter() - started, solution=Solution(game=game, profile=profile))


def _next_up(next_up: Sequence[int] | str | None, spec: RootSpec,
             unseen: list[int], *, holes: Sequence[int | None]) -> tuple[int, ...] | None:
    if next_up is None:
        return None
    if spec.round_index == LAST_ROUND:
        raise SolveError("next up cards apply to a second- or third-round solve only (the last round has "
                         "none to come)")
    cards = parse_cards(next_up, what="the next up cards")
    counts = (2,) if spec.round_index == THIRD_ROUND else (2, 4)
    if len(cards) not in counts or len(set(cards)) != len(cards) or any(c not in unseen for c in cards):
        which = ("two different unseen cards, one per player in seat order" if counts == (2,) else
                 "two or four different unseen cards: the third up cards (seat order), then the fourth")
        raise SolveError(f"the next up cards must be {which}")
    for p, hole in enumerate(holes):
        if hole is not None and hole in cards:
            raise SolveError(f"the next up cards cannot hold {format_card(hole)}: "
                             f"it is player {p + 1}'s hole card")
    return tuple(cards)


def _run(game: Game, method: SolveMethod, *, target: float, max_iterations: int,
         stop: Callable[[], bool] | None, progress: Progress | None, time_budget: float | None) -> CfrRun:
    """The profile, the iterations run, the profile's exact exploitability and why the run stopped."""
    if method is SolveMethod.LINEAR_PROGRAM:
        started = time.perf_counter()
        profile = solve_lp(game).profile
        return CfrRun(profile=profile, iterations=0, exploitability=exploitability(game, profile),
                      seconds=time.perf_counter() - started, stopped=StopReason.EXACT)
    return solve_cfr(game, max_iterations=max_iterations, target=target, stop=stop, progress=progress,
                     seconds=time_budget)


def _size(count: float) -> str:
    """Bytes for people: "5.7 GB", "120 MB", "0.1 MB"."""
    return f"{count / 1e9:.1f} GB" if count >= 1e9 else f"{count / 1e6:.3g} MB"
