"""``exactodds stud decide``: every legal action of the player to act with its EV in chips from now,
the rest of the hand played out against opponents described as data."""

from __future__ import annotations

from collections.abc import Sequence

import click

from exactodds.cli.options import echo_json, json_option
from exactodds.cli.progress import terminal_progress
from exactodds.cli.scale_options import scale_options
from exactodds.cli.stud.decide_all import price_session
from exactodds.cli.stud.opponents import describe_opponents, parse_opponents
from exactodds.errors import ExactOddsError
from exactodds.stud.decide.api import (
    DEFAULT_BUDGET,
    DEFAULT_LATER,
    DEFAULT_SEED,
    decide_hand,
    decide_position,
)
from exactodds.stud.decide.models import OpponentModel, available_models
from exactodds.stud.decide.position import rebuild
from exactodds.stud.decide.words import decision_lines, position_line
from exactodds.stud.engine.state import StudHand
from exactodds.stud.equity.position import parse_position
from exactodds.stud.history.phh import load_phh, read_history_text
from exactodds.stud.history.session_phh import is_session_text, load_session
from exactodds.stud.solve.session import hand_at


def opponent_models(entries: Sequence[str], players: int, me: int) -> dict[int, OpponentModel]:
    """Each other player's model (0-based) from ``--opponents`` entries (players numbered from 1; ``me``,
    0-based, is the player deciding)."""
    models = parse_opponents(entries, range(1, players + 1), deciding=me + 1)
    return {n - 1: m for n, m in models.items()}


def _stacks(text: str | None, players: int) -> tuple[int, ...]:
    if text is None:
        return (20,) * players
    words = text.replace(",", " ").split()
    if len(words) != players or not all(w.isascii() and w.isdigit() for w in words):
        raise ExactOddsError(f'--stacks must be {players} whole numbers (one per player), e.g. "20,20", '
                             f'got "{text}"')
    return tuple(int(w) for w in words)


def _phh_hand(path: str, at: int, number: int | None) -> tuple[StudHand, str]:
    text = read_history_text(path)
    if is_session_text(text, name=path):
        session = load_session(path)
        numbers = [h.number for h in session.hands]
        if number is None and len(numbers) > 1:
            raise ExactOddsError(f"{path} is a session of {len(numbers)} hands: say which with --hand N "
                                 f"(1 to {numbers[-1]})")
        wanted = number if number is not None else numbers[0]
        entry = next((h for h in session.hands if h.number == wanted), None)
        if entry is None:
            raise ExactOddsError(f"{path} has no hand {wanted} (hands {numbers[0]} to {numbers[-1]})")
        return hand_at(entry.history, at), f"{path} hand {wanted}"
    if number is not None:
        raise ExactOddsError("--hand goes with a session file (.phhs)")
    return hand_at(load_phh(path), at), path


@click.command()
@click.option("--player", "players", multiple=True, metavar='"HOLE | UP"',
              help='A player still in, in seat order: hole card or ? then "|" and the up cards, e.g. '
                   '"Kh | 9c 4d" or "? | Qh 4c" (2 to 8). The player to act needs their hole card.')
@click.option("--dead", default="", metavar="CARDS",
              help="Dead cards: folded hands' up cards, exposed cards.")
@click.option("--pot", type=click.IntRange(min=0), default=None,
              help="The pot at the start of the current round (default on round 1: the antes).")
@click.option("--stacks", "stacks_text", default=None, metavar="A,B,...",
              help="Every player's stack at the start of the current round (default 20 each).")
@click.option("--history", "history_text", default="", metavar="ACTIONS",
              help='The betting so far in the current round, in order, e.g. "pb, cbr 2, cc".')
@click.option("--opponents", "opponent_entries", multiple=True, metavar="MODEL|SEAT=MODEL",
              help=f"The other players' model: a preset ({', '.join(available_models())}) or a .toml file; "
                   "SEAT=MODEL for one player (repeat). Default: bots.")
@click.option("--later", multiple=True, default=DEFAULT_LATER, show_default=True, metavar="MODEL",
              help="How you play later where your best response does not fit the budget: a model; repeat "
                   "to take the better for each action, chosen on a separate sample.")
@click.option("--budget", type=click.FloatRange(0, 3600), default=DEFAULT_BUDGET, show_default=True,
              metavar="SECONDS", help="Seconds for the answer: exact when it fits, else sampled until each "
                                      "standard error is within 1% of the pot or the time is spent.")
@click.option("--samples", type=click.IntRange(2, 10**7), default=None,
              help="Sample exactly this many deals when sampled (reproducible with --seed).")
@click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED, show_default=True,
              help="Seed of the sampled deals.")
@click.option("--equilibrium/--no-equilibrium", default=True, show_default=True,
              help="Heads-up, where the solver covers the round: also the equilibrium line.")
@click.option("--phh", "phh_path", default=None, metavar="FILE",
              help="Decide the decision of a hand history (.phh, or .phhs with --hand) with --at N.")
@click.option("--at", "at", type=click.IntRange(min=1), default=None,
              help="With --phh: the betting action (1 = the first, deals not counted) whose decision to "
                   "price, for the player who took it.")
@click.option("--hand", "hand_number", type=click.IntRange(min=1), default=None,
              help="With --phh FILE.phhs: the hand of the session.")
@click.option("--all", "price_all", is_flag=True,
              help="With --phh FILE.phhs: price every decision of every hand (chunks on --scheduler or "
                   "--workers).")
@click.option("--details", is_flag=True, help="Also the method, the sample and seed, exact fractions and the "
                                               "hole cards each opponent may hold.")
@scale_options(default_workers="0 (this process)")
@json_option
def decide(players: tuple[str, ...], dead: str, pot: int | None, stacks_text: str | None, history_text: str,
           opponent_entries: tuple[str, ...], later: tuple[str, ...], budget: float, samples: int | None,
           seed: int, equilibrium: bool, phh_path: str | None, at: int | None, hand_number: int | None,
           price_all: bool, details: bool, scheduler: str | None, workers: int | None, as_json: bool) -> None:
    """What should I do here? Every legal action of the player to act (check, bet, call, raise, fold,
    complete, bring in) with its EV in chips from now, the rest of the hand played out: the other
    players follow their model (their hole cards weighed by what their actions reveal under it), and
    you play as well as possible afterwards.

    Exact when it fits --budget; otherwise estimated from random deals, with the sample size, the seed
    and a standard error for every EV (then your later play follows the better of the --later models
    for each action, chosen on a separate sample; the last round as well as possible where it fits).
    Heads-up where the solver covers the round, the equilibrium line too.

    Example: exactodds stud decide --player "Kh | 9c 4d" --player "? | Qh 4c" --player "? | 7s 7d"
    --pot 9 --stacks 20,20,20 --history "cbr 2" --opponents bots
    """
    if price_all:
        if phh_path is None or at is not None or players:
            raise ExactOddsError("--all takes --phh FILE and no --at or --player")
        price_session(phh_path, opponents=opponent_entries, later=later, samples=samples, seed=seed,
                      scheduler=scheduler, workers=workers, as_json=as_json, details=details)
        return
    if scheduler is not None or workers is not None:
        raise ExactOddsError("--scheduler and --workers go with --phh FILE --all")
    eq_budget = budget if equilibrium else 0.0
    with terminal_progress(as_json=as_json) as progress:
        if phh_path is not None:
            if at is None or players or pot is not None or stacks_text is not None or history_text:
                raise ExactOddsError("--phh takes --at N and no --player, --pot, --stacks or --history")
            hand, _ = _phh_hand(phh_path, at, hand_number)
            assert hand.actor is not None  # hand_at stops at a decision
            models = opponent_models(opponent_entries, hand.n, hand.actor)
            result = decide_hand(hand, opponents=models, budget=budget, samples=samples, seed=seed,
                                 later=later, equilibrium_budget=eq_budget, progress=progress)
        else:
            if at is not None or hand_number is not None:
                raise ExactOddsError("--at and --hand go with --phh")
            if len(players) < 2:
                raise ExactOddsError("give at least two --player (or --phh FILE --at N)")
            position = parse_position(list(players), dead)
            count = len(position.players)
            history = tuple(s.strip() for s in history_text.split(",") if s.strip())
            start_pot = pot if pot is not None else (count if position.street == 1 else None)
            if start_pot is None:
                raise ExactOddsError("--pot is needed after round 1 (the pot at the start of the round)")
            stacks = _stacks(stacks_text, count)
            actor = rebuild(position=position, pot=start_pot, stacks=stacks, history=history).hand.actor
            assert actor is not None  # rebuild refuses a position with nobody to act
            models = opponent_models(opponent_entries, count, actor)
            result = decide_position(position=position, pot=start_pot, stacks=stacks,
                                     history=history, opponents=models, budget=budget, samples=samples,
                                     seed=seed, later=later, equilibrium_budget=eq_budget, progress=progress)
            models = {q: m for q, m in models.items() if q != result.player}
    if as_json:
        echo_json(result.to_dict())
        return
    click.echo(position_line(result))
    described = describe_opponents({q + 1: m for q, m in models.items()})
    for line in decision_lines(result, opponents=described, details=details):
        click.echo(line)
