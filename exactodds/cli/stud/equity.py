"""``exactodds stud equity``: exact showdown odds and the call/fold EV from a visible position."""

from __future__ import annotations

import click

from exactodds.cards import format_card, format_cards
from exactodds.cli.options import echo_json, json_option, render_table
from exactodds.cli.progress import terminal_progress
from exactodds.display import percent
from exactodds.errors import ExactOddsError
from exactodds.stud.equity import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    MAX_SAMPLES,
    UP_CARDS,
    CallDecision,
    EquityResult,
    ExactEquity,
    SampledPlayerEquity,
    StudPosition,
    call_decision,
    check_call_amounts,
    check_sampling,
    parse_position,
    stud_equity,
)
from exactodds.stud.equity.methods import exact_seconds
from exactodds.stud.equity.report import EquityReport
from exactodds.stud.equity.sampling import MAX_BUDGET
from exactodds.wording import duration


def _say_when_sampled(position: StudPosition, budget: float) -> None:
    """One line on stderr when the fastest exact method is estimated over ``budget``: how long exact
    would take (the position is then sampled, as the output says)."""
    seconds = min(exact_seconds(position).values(), default=float("inf"))
    if seconds == float("inf"):
        click.echo("no exact method counts this position; sampled instead", err=True)
    elif seconds > budget:
        click.echo(f"exact would take about {duration(seconds)} (over --budget {budget:g} s); "
                   "sampled instead", err=True)


def _table_text(position: StudPosition, result: EquityResult, decision: CallDecision | None) -> str:
    lines = []
    if isinstance(result, ExactEquity):
        lines.append(f"exact: {result.method}, {result.combinations:,} equally likely deals")
    else:
        lines.append(f"NOT exact: {result.method}, {result.samples:,} sampled deals (seed {result.seed}); "
                     "equity +/- one standard error")
    rows = []
    for seat, (player, odds) in enumerate(zip(position.players, result.players, strict=True), 1):
        hole = "?" if player.hole is None else format_card(player.hole)
        equity = percent(odds.equity, 3)
        if isinstance(odds, SampledPlayerEquity):
            equity += f" +/- {odds.standard_error * 100:.3f}%"
        rows.append([str(seat), hole, format_cards(player.up), percent(odds.win, 3), percent(odds.tie, 3),
                     percent(odds.lose, 3), equity])
    lines.append(render_table(["player", "hole", "up", "win", "tie", "lose", "equity"], rows, "lllrrrr"))
    if position.dead:
        lines.append(f"dead: {format_cards(position.dead)}")
    if decision is not None:
        sign = "+" if decision.ev_call >= 0 else ""
        lines.append(
            f"player 1: call {decision.to_call} into {decision.pot}: "
            f"EV(call) = {sign}{float(decision.ev_call):.4f} (= {decision.ev_call}) vs fold 0 "
            f"-> {decision.best}; "
            "break-even equity "
            f"{percent(decision.break_even_equity, 3)}"
        )
        label = "exact" if decision.exact else ("equity exact" if result.exact else "equity sampled")
        lines.append(f"({decision.kind}; {label})")
    return "\n".join(lines)


@click.command()
@click.option("--player", "players", multiple=True, required=True, metavar='"HOLE | UP"',
              help='A player still in, in seat order: hole card or ? for unknown, then "|" and the up cards, '
                   'e.g. "Kh | 9c 4d" or "? | Qh 4c". Repeat for each player (2 to 8).')
@click.option("--dead", default="", metavar="CARDS", help="Dead cards: folded hands seen, exposed cards.")
@click.option("--pot", default=None, metavar="P", help="Pot before your call (with --to-call).")
@click.option("--to-call", "to_call", default=None, metavar="C",
              help="Amount player 1 must call (with --pot).")
@click.option("--budget", default=DEFAULT_BUDGET, show_default=True, type=click.FloatRange(0, MAX_BUDGET),
              metavar="SECONDS",
              help="Most seconds (estimated before starting) spent on an exact answer on early multiway "
                   "streets; a position over it is sampled.")
@click.option("--samples", default=DEFAULT_SAMPLES, show_default=True, type=click.IntRange(2, MAX_SAMPLES),
              help="Sample size when the position is over the budget (result not exact; the equity's "
                   "standard error is shown).")
@click.option("--seed", default=DEFAULT_SEED, show_default=True, type=click.IntRange(min=0),
              help="Seed for sampling.")
@json_option
def equity(players: tuple[str, ...], dead: str, pot: str | None, to_call: str | None, budget: float,
           samples: int, seed: int, as_json: bool) -> None:
    """Showdown odds of every player: win, tie, lose and equity (share of the pot).

    Unseen cards (unknown hole cards, future up cards) are uniform over the unseen deck.
    Exact heads-up at every street, three players on every street, four from the
    second up card on (four flush draws in four suits need --budget 30) and on the first
    round with --budget 900 (about 12 minutes of CPU), and any number on the last street;
    other positions are exact within --budget, else sampled by Monte Carlo with control
    variates (and labelled so).
    With --pot and
    --to-call, the EV of player 1 calling against folding (pot-odds EV before the last street).

    Example: exactodds stud equity --player "Kh | 9c 4d" --player "? | Qh 4c" --pot 10 --to-call 2
    """
    # Every input is checked before the work, and the whole answer is built before anything is printed.
    position = parse_position(list(players), dead)
    if (pot is None) != (to_call is None):
        raise ExactOddsError("--pot and --to-call go together")
    if pot is not None and to_call is not None:
        check_call_amounts(pot, to_call, names=("--pot", "--to-call"))
    check_sampling(budget=budget, samples=samples, seed=seed)
    if not as_json and len(position.players) > 2 and position.street < UP_CARDS:
        _say_when_sampled(position, budget)
    with terminal_progress(as_json=as_json) as progress:
        result = stud_equity(position, budget=budget, samples=samples, seed=seed, progress=progress)
    decision = None
    if pot is not None and to_call is not None:
        decision = call_decision(result, position, pot=pot, to_call=to_call)
    if as_json:
        echo_json(EquityReport(position=position, result=result, budget=budget, decision=decision).to_dict())
    else:
        click.echo(_table_text(position, result, decision))
