"""``exactodds stud solve``: the heads-up equilibrium from a decision of the second, third or last round."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import click

from exactodds.cards import RANK_CHARS, format_card, format_cards, rank_of
from exactodds.cli.options import echo_json, json_option, render_table
from exactodds.cli.progress import terminal_progress
from exactodds.cli.run import run_and_show
from exactodds.cli.scale_options import scale_options
from exactodds.display import percent, signed
from exactodds.errors import ExactOddsError
from exactodds.progress import Progress
from exactodds.scale import ChunkRunner
from exactodds.stud.decide.api import decide_hand
from exactodds.stud.decide.result import Decision
from exactodds.stud.engine.actions import action_words
from exactodds.stud.engine.state import StudHand
from exactodds.stud.equity.position import parse_position
from exactodds.stud.history.phh import load_phh, read_history_text
from exactodds.stud.history.session_phh import is_session_text, load_session
from exactodds.stud.solve.api import (
    DEFAULT_MAX_ITERATIONS,
    DEFAULT_MAX_MEMORY,
    DEFAULT_TARGET,
    solve_hand,
    solve_position,
)
from exactodds.stud.solve.cfr import StopReason
from exactodds.stud.solve.ranges import RangeInput
from exactodds.stud.solve.results import SHARED_NOTE, DecisionPoint, SolveMethod, SolveResult
from exactodds.stud.solve.session import SessionSolve, hand_at, solve_session
from exactodds.stud.solve.start import LAST_ROUND, SECOND_ROUND, THIRD_ROUND, SolveError, history_words

MAIN_LINE_REACH = 0.05  # text output lists the decision points reached at least this often


def _stacks(text: str) -> tuple[int, int]:
    words = text.replace(",", " ").split()
    if len(words) != 2 or not all(w.isascii() and w.isdigit() for w in words):
        raise SolveError(f'--stacks must be two whole numbers such as "20,20" (one per player), got "{text}"')
    return int(words[0]), int(words[1])


def _ranges(entries: Sequence[str]) -> tuple[RangeInput, RangeInput]:
    out: list[RangeInput] = [None, None]
    for entry in entries:
        seat, sep, spec = entry.partition("=")
        if not sep or seat.strip() not in ("1", "2"):
            raise SolveError(f'--range must read SEAT=CARDS, e.g. "2=Ah:2,Kd:1" or "2=range.txt", '
                             f'got "{entry}"')
        out[int(seat) - 1] = spec
    return out[0], out[1]


def _chips(x: float) -> str:
    return signed(x, 3)


def _cards_text(cards: Sequence[int], unseen: Sequence[int]) -> str:
    """Cards as text, a rank whose every unseen card is listed written once: "any A K, 9s 9h"."""
    whole, single = [], []
    for rank in range(12, -1, -1):
        mine = [c for c in cards if rank_of(c) == rank]
        if mine and len(mine) == sum(1 for c in unseen if rank_of(c) == rank) and len(mine) > 1:
            whole.append(RANK_CHARS[rank])
        else:
            single.extend(sorted(mine, reverse=True))
    parts = ([f"any {' '.join(whole)}"] if whole else []) + ([format_cards(single)] if single else [])
    return ", ".join(parts)


def _holes_table(point: DecisionPoint, unseen: Sequence[int]) -> str:
    groups: dict[tuple[float, ...], list[int]] = {}
    share: dict[tuple[float, ...], float] = {}
    for hole in point.holes:
        key = tuple(round(p, 4) for p in hole.probabilities)
        groups.setdefault(key, []).append(hole.card)
        share[key] = share.get(key, 0.0) + hole.weight
    rows = [[_cards_text(cards, unseen), percent(share[key], 1), *(percent(p, 1) for p in key)]
            for key, cards in groups.items()]
    return render_table(["hole cards", "of range", *point.words()], rows, "lr" + "r" * len(point.actions))


def _point_line(point: DecisionPoint) -> str:
    line = ", ".join(point.history_words) or "(root)"
    given = ""
    if point.next_up is not None:
        deals = [format_cards(point.next_up[k:k + 2]) for k in range(0, len(point.next_up), 2)]
        line = f"up cards {', then '.join(deals)}: {line}"
        given = " given these cards"
    mix = ", ".join(f"{a} {percent(t, 1)}" for a, t in zip(point.words(), point.totals, strict=True))
    return f"  [{line}] player {point.player + 1} (reached {percent(point.reach, 1)}{given}): {mix}"


STOPPED = {StopReason.EXACT: "exact", StopReason.TARGET: "target reached",
           StopReason.ITERATIONS: "stopped at the iteration limit",
           StopReason.TIME: "stopped at the time budget"}


def _text(result: SolveResult, *, tree: bool) -> str:
    exact = result.method is SolveMethod.LINEAR_PROGRAM
    which = {1: "second round (two up cards to come)", 2: "third round (one up card to come)"}.get(
        result.round_index, "last round")
    e = result.exploitability
    chips, fraction = (0.0, 0.0) if abs(e.chips) < 5e-9 else (e.chips, e.fraction)
    lines = [f"heads-up equilibrium from the {which}, {result.method.value}"
             f"{' (exact)' if exact else f', {result.iterations:,} iterations ({STOPPED[result.stopped]})'}"
             f", {result.seconds:.2f} s",
             f"exploitability: {chips:.4f} chips = {fraction * 100:.4f}% of the pot "
             "(both best responses' gain, summed)"]
    for p in range(2):
        hole = "?" if p != result.actor or result.hole is None else format_card(result.hole)
        lines.append(f"player {p + 1} (seat {result.seats[p] + 1}): {hole} | {format_cards(result.up[p])}; "
                     f"range {result.ranges[p]}")
    if result.dead:
        lines.append(f"dead: {format_cards(result.dead)}")
    history = ", ".join(history_words(result.solution.game.spec)) or "none"
    lines.append(f"pot now {result.pot}, stacks now {result.stacks[0]} / {result.stacks[1]}; "
                 f"betting so far this round: {history}")
    classes = result.solution.game.classes
    lines.append(f"the {len(classes.unseen)} unseen cards fall into {classes.count} classes of "
                 "interchangeable cards: the solve runs on these classes")
    lines.append(f"game value (chips from now; they add up to the pot): player 1 {_chips(result.values[0])}, "
                 f"player 2 {_chips(result.values[1])}")
    root = result.root
    unseen = [int(c) for c in result.solution.game.unseen]
    mix = ", ".join(f"{a} {percent(t, 1)}" for a, t in zip(root.words(), root.totals, strict=True))
    lines.append(f"player {result.actor + 1} to act; the range plays {mix}")
    lines.append(_holes_table(root, unseen))
    lines.append(f"({SHARED_NOTE})")
    if result.action_values is not None and result.hole is not None:
        values = ", ".join(f"{w} {_chips(v.chips)} (equilibrium {percent(v.probability, 1)})"
                           for w, v in zip(root.words(), result.action_values, strict=True))
        lines.append(f"hole card {format_card(result.hole)}: EV from now against the equilibrium "
                     f"opponent: {values}")
    shown = [d for d in result.decisions[1:] if tree or d.reach >= MAIN_LINE_REACH]
    after = [d for d in shown if d.next_up is not None]
    if shown:
        lines.append("decision points " + ("the equilibrium reaches:" if tree else
                                            f"reached at least {percent(MAIN_LINE_REACH, 1)} of the time "
                                            "(--tree for all, with every hole card):"))
        for point in shown:
            lines.append(_point_line(point))
            if tree or point in after[:1]:
                lines.append(_holes_table(point, unseen))
    return "\n".join(lines)


def _check_float(name: str, value: float) -> None:
    if not math.isfinite(value):
        raise SolveError(f"{name} must be a finite number, got {value}")


@click.command()
@click.option("--player", "players", multiple=True, metavar='"HOLE | UP"',
              help='A player still in, in seat order: hole card or ? then "|" and the up cards (2, 3 or 4), '
                   'e.g. "Kh | 9c 4d Ks" or "? | Qh 4c 7d". Exactly 2.')
@click.option("--dead", default="", metavar="CARDS",
              help="Dead cards: folded hands' up cards, exposed cards.")
@click.option("--pot", type=int, default=None, help="The pot at the start of the current round.")
@click.option("--stacks", "stacks_text", default=None, metavar="A,B",
              help="Both players' stacks at the start of the current round, e.g. 20,20.")
@click.option("--history", "history_text", default="", metavar="ACTIONS",
              help='The betting so far in the current round, in order, e.g. "cbr 4, cbr 8".')
@click.option("--range", "range_entries", multiple=True, metavar="SEAT=CARDS",
              help='Weights of a player\'s possible hole cards: "2=Ah:2,Kd:1,Qs" (unlisted cards weigh 0) '
                   'or "2=FILE". Default: uniform over the unseen cards.')
@click.option("--method", type=click.Choice([m.value for m in SolveMethod]), default=None,
              help="linear-program (exact; the default on the last round) or cfr-plus (the default "
                   "and only method before the last round).")
@click.option("--target", type=float, default=DEFAULT_TARGET, show_default=True,
              help="CFR+ stops at this exploitability (a fraction of the pot).")
@click.option("--max-iterations", type=click.IntRange(min=1), default=DEFAULT_MAX_ITERATIONS,
              show_default=True, help="CFR+ stops after this many iterations at the latest.")
@click.option("--max-seconds", type=click.FloatRange(min=0.1, max=86_400), default=None,
              help="CFR+ stops after about this many seconds (0.1 to 86,400) with the strategy found so "
                   "far, its exploitability shown. Default: no time limit.")
@click.option("--max-memory", type=click.FloatRange(min=0.0001, max=1024), default=DEFAULT_MAX_MEMORY / 1e9,
              show_default=True, metavar="GB",
              help="Refuse a solve whose regrets and averages would take more than this many gigabytes "
                   "(a second-round solve at stacks 20 takes several).")
@click.option("--next-up", default=None, metavar="CARDS",
              help="Also list the later decisions after these up cards (one per player, seat order): the "
                   "last up cards from the third round; the third up cards, and optionally then the "
                   "fourth, from the second round.")
@click.option("--tree", is_flag=True, help="List every decision point the equilibrium reaches, with every "
                                           "hole card (default: the root and the main lines).")
@click.option("--phh", "phh_path", default=None, metavar="FILE",
              help="Solve a decision of this hand history (with --at).")
@click.option("--hand", "hand_number", type=click.IntRange(min=1), default=None,
              help="With --phh FILE.phhs --at N (a session file, such as stud play --save writes): the "
                   "number of the hand whose decision to solve.")
@click.option("--at", "at", type=click.IntRange(min=1), default=None,
              help="With --phh: the betting action (1 = the first, deals not counted) whose decision "
                   "to solve, for the player who took it.")
@click.option("--all", "solve_all", is_flag=True,
              help="With --phh FILE.phhs: solve every heads-up decision of the session's rounds given by "
                   "--rounds (uniform ranges at each), for the player who took it, and price the action "
                   "taken; chunks on --scheduler/--workers.")
@click.option("--rounds", "rounds_text", type=click.Choice(["2-4", "3-4", "4"]), default=None,
              help="With --all: the rounds whose decisions to solve (default 3-4; a second-round decision "
                   "takes minutes and gigabytes on a full deck).")
@click.option("--against", type=click.Choice(["equilibrium", "bots"]), default="equilibrium",
              show_default=True,
              help="With --phh FILE --at N: bots also gives each action's exact EV against the table's "
                   "bots (their documented policy, their hole cards inferred from their actions) beside the "
                   "equilibrium.")
@click.option("--last-round-only", is_flag=True, help="With --all: the last-round decisions only (fast; as "
                                                      "--rounds 4).")
@scale_options(default_workers="0 (this process)")
@json_option
def solve(players: tuple[str, ...], dead: str, pot: int | None, stacks_text: str | None, history_text: str,
          range_entries: tuple[str, ...], method: str | None, target: float, max_iterations: int,
          max_seconds: float | None, max_memory: float, next_up: str | None, tree: bool, phh_path: str | None,
          hand_number: int | None, at: int | None, solve_all: bool, rounds_text: str | None, against: str,
          last_round_only: bool, scheduler: str | None, workers: int | None, as_json: bool) -> None:
    """Heads-up equilibrium (game-theory optimal play) of five-card stud from a decision on the second
    round (two up cards each, two to come), the third round or the last round, under the home
    fixed-limit rules. The first round is not covered (stud decide gives its decision).

    For every hole card the player to act may hold, the equilibrium probability of each legal
    action; the strategy at every decision point the equilibrium reaches; each player's game value;
    the EV of each action for a known hole card; and the exploitability (how much a perfect
    opponent could win against the strategy found). Ranges are uniform over the unseen cards unless
    --range says otherwise: a uniform range ignores what the earlier betting revealed.

    Example: exactodds stud solve --player "? | Kd 9c 4d 2s" --player "Ah | Qc Js 7d 7h"
    --pot 14 --stacks 20,20
    """
    _check_float("--target", target)
    if against == "bots" and (phh_path is None or at is None or solve_all):
        raise ExactOddsError("--against bots goes with --phh FILE --at N (a hand the bots played)")
    versus_bots: Decision | None = None
    if hand_number is not None and (phh_path is None or at is None or solve_all):
        raise ExactOddsError("--hand goes with --phh FILE.phhs --at N (a hand of a session file)")
    if rounds_text is not None and not solve_all:
        raise ExactOddsError("--rounds goes with --all (the rounds of a session's decisions to solve)")
    if solve_all or last_round_only:
        rounds = {"2-4": (SECOND_ROUND, THIRD_ROUND, LAST_ROUND), "3-4": (THIRD_ROUND, LAST_ROUND),
                  "4": (LAST_ROUND,)}["4" if last_round_only else rounds_text or "3-4"]
        _solve_all(phh_path, at=at, rest=bool(players or pot is not None or stacks_text or history_text
                                               or range_entries or method or next_up or tree),
                   rounds=rounds, target=target, max_iterations=max_iterations, max_seconds=max_seconds,
                   scheduler=scheduler, workers=workers, as_json=as_json)
        return
    if scheduler is not None or workers is not None:
        raise ExactOddsError("--scheduler and --workers go with --phh FILE --all")
    ranges = _ranges(range_entries)
    chosen = None if method is None else SolveMethod(method)
    with terminal_progress(as_json=as_json) as progress:
        if phh_path is not None:
            if at is None or players or pot is not None or stacks_text is not None or history_text:
                raise ExactOddsError("--phh takes --at N and no --player, --pot, --stacks or --history")
            hand, player = _hand_at(phh_path, at, hand_number)
            result = solve_hand(hand, player=player, ranges=ranges, method=chosen, target=target,
                                max_iterations=max_iterations, progress=progress, time_budget=max_seconds,
                                max_memory=max_memory * 1e9)
            if against == "bots":
                versus_bots = decide_hand(hand, player=player, opponents="bots")
        else:
            if at is not None:
                raise ExactOddsError("--at goes with --phh")
            if not players or pot is None or stacks_text is None:
                raise ExactOddsError("give two --player, --pot and --stacks (or --phh FILE --at N)")
            history = tuple(s.strip() for s in history_text.split(",") if s.strip())
            result = solve_position(position=parse_position(list(players), dead), pot=pot,
                                    stacks=_stacks(stacks_text), history=history, ranges=ranges,
                                    method=chosen, target=target, max_iterations=max_iterations,
                                    next_up=next_up, progress=progress, time_budget=max_seconds,
                                    max_memory=max_memory * 1e9)
    if as_json:
        echo_json(result.to_dict() if versus_bots is None else {**result.to_dict(),
                                                                "against_bots": versus_bots.to_dict()})
    else:
        click.echo(_text(result, tree=tree))
        if versus_bots is not None:
            click.echo(_bots_line(versus_bots, to_call=result.root.to_call))


def _bots_line(response: Decision, *, to_call: int) -> str:
    kind = "exact" if response.exact else f"sampled, {response.samples} samples, seed {response.seed}"
    parts = ", ".join(f"{action_words(a.action.text(), to_call=to_call)} {_chips(float(a.ev))}"
                      for a in response.actions)
    best = action_words(response.best.action.text(), to_call=to_call)
    return f"EV from now against the table's bots ({kind}; best {best}): {parts}"


def _hand_at(path: str, at: int, number: int | None) -> tuple[StudHand, int]:
    """The hand of a hand history file at its ``at``-th betting action, and the player to act; in a
    session file, of its hand ``number`` (which a session of several hands must give)."""
    name = Path(path).name
    if is_session_text(read_history_text(path), name=name):
        session = load_session(path)
        numbers = [entry.number for entry in session.hands]
        if number is None and len(numbers) > 1:
            raise ExactOddsError(f"{name} is a session file of {len(numbers)} hands: give the hand to "
                                 f"solve with --hand N ({numbers[0]} to {numbers[-1]}) beside --at")
        chosen = numbers[0] if number is None else number
        if chosen not in numbers:
            raise ExactOddsError(f"{name} has no hand {chosen}: its hands are {numbers[0]} to {numbers[-1]}")
        history = session.hands[numbers.index(chosen)].history
    elif number is not None:
        raise ExactOddsError(f"--hand picks a hand of a session file (.phhs); {name} holds a single hand")
    else:
        history = load_phh(path)
    hand = hand_at(history, at)
    assert hand.actor is not None
    return hand, hand.actor


# ---------------------------------------------------------------------- --phh FILE.phhs --all
def _solve_all(phh_path: str | None, *, at: int | None, rest: bool, rounds: tuple[int, ...], target: float,
               max_iterations: int, max_seconds: float | None, scheduler: str | None, workers: int | None,
               as_json: bool) -> None:
    if phh_path is None or at is not None or rest:
        raise ExactOddsError("--all takes --phh FILE.phhs and no --at, --player, --pot, --stacks, --history, "
                             "--range, --method, --next-up or --tree")
    session = load_session(phh_path)

    def compute(progress: Progress, runner: ChunkRunner | None) -> SessionSolve:
        assert runner is not None  # chunked: a runner is always given
        return solve_session(session, runner=runner, rounds=rounds, target=target,
                             max_iterations=max_iterations, time_budget=max_seconds, progress=progress)

    run_and_show(compute, _all_text, as_json=as_json, scheduler=scheduler, workers=workers)


def _all_text(result: SessionSolve) -> str:
    which = "the last round" if result.rounds == (LAST_ROUND,) else f"rounds {result.rounds[0] + 1}-4"
    if not result.decisions:
        return f"{result.source}: no heads-up decision on {which} to solve"
    rows = [[d.hand, d.at, d.seat, d.round_index + 1, action_words(d.taken, to_call=d.to_call),
             _chips(d.ev(d.taken)), action_words(d.best, to_call=d.to_call), _chips(d.ev(d.best)),
             f"{d.cost:.3f}"] for d in result.decisions]
    lines = [f"{result.source}: {len(result.decisions)} heads-up decision(s) on {which}, each solved with "
             "uniform ranges; EV in chips from the decision on, against the equilibrium opponent",
             render_table(["hand", "action", "seat", "round", "taken", "EV", "best", "EV best", "cost"], rows,
                          "rrrrlrlrr")]
    totals = ", ".join(f"seat {s} {c:.3f}" for s, c in result.cost_by_seat().items())
    lines.append(f"total cost against the equilibrium: {totals}")
    return "\n".join(lines)
