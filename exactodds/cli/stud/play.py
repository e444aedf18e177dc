"""``exactodds stud play``: a home session at the terminal, you against the documented bots."""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from exactodds.cards import format_card, format_cards
from exactodds.cli.options import check_output_path, render_table
from exactodds.cli.stud.coach_text import PricedChoice, price_choice, summary_lines, thinking
from exactodds.cli.stud.keys import options_text, read_choice
from exactodds.cli.stud.opponents import parse_opponents
from exactodds.display import signed, total_with_error
from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.handrank import describe
from exactodds.stud.bots.solver_bot import (
    DEFAULT_THIRD_ROUND_BUDGET,
    BotChoice,
    BotPolicy,
    DecisionCost,
    PolicyUsed,
    SolverBots,
    decision_cost,
    total_cost,
)
from exactodds.stud.decide.coach import COACH_SAMPLES, Advice, coach_advice
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.policy import model_action
from exactodds.stud.decide.words import coach_lines
from exactodds.stud.engine.actions import Legal, action_words, player_name
from exactodds.stud.engine.rules import HOME_RULES
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.history.session import RebuyPolicy, StudSession, TableHand
from exactodds.stud.history.session_phh import write_session
from exactodds.stud.solve.results import SolveResult

ROUND_NAMES = ("Round 1 (hole card + first up card)", "Round 2", "Round 3", "Round 4")
MAX_HANDS = 1000


class EndOfInput(Exception):
    """The player's input ended (Ctrl-D, or the end of a piped file)."""


def _ask(prompt: str) -> str:
    click.echo(prompt, nl=False)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        raise EndOfInput
    return line


_YOU_VERBS = {"brings": "bring", "calls": "call", "checks": "check", "folds": "fold", "completes": "complete",
              "bets": "bet", "raises": "raise"}


class Table:
    """Names and rendering for one hand of the session."""

    def __init__(self, session: StudSession, table: TableHand, me: int) -> None:
        self.session, self.table, self.me = session, table, me
        self.names = [session.names[s - 1] for s in table.seats]

    @property
    def hand(self) -> StudHand:
        return self.table.hand

    def name(self, p: int) -> str:
        return self.names[p]

    def event_text(self, index: int) -> str:
        e = self.hand.events[index]
        text = e.description[len(player_name(e.player)) + 1:]
        if e.player == self.me:  # "you call 1", not "you calls 1"
            verb, _, rest = text.partition(" ")
            text = " ".join(w for w in (_YOU_VERBS.get(verb, verb), rest) if w)
        return f"{self.name(e.player)} {text}"

    def stacks_line(self) -> str:
        hand, dealer = self.hand, self.table.dealer
        parts = []
        for p in range(hand.n):
            tag = " (D)" if self.table.seats[p] == dealer else ""
            state = " (folded)" if hand.folded[p] else ""
            parts.append(f"{self.name(p)}{tag} {hand.stacks[p]}{state}")
        return "Stacks: " + ", ".join(parts) + f". Pot {hand.pot_total}."

    def cards_lines(self) -> list[str]:
        hand, width = self.hand, max(len(n) for n in self.names)
        lines = []
        for p in range(hand.n):
            down = hand.down[p]
            hole = "??" if down is None or p != self.me else format_card(down)
            tag = " (folded)" if hand.folded[p] else (" (all-in)" if hand.stacks[p] == 0 else "")
            lines.append(f"  {self.name(p):<{width}}  [{hole}] {format_cards(hand.up[p])}{tag}")
        return lines

    def summary_lines(self) -> list[str]:
        hand, out = self.hand, self.hand.outcome
        assert out is not None
        lines = []
        for p in out.showdown_order:
            cards = format_cards(hand.cards_of(p))
            verb = "show" if p == self.me else "shows"
            lines.append(f"  {self.name(p)} {verb} {cards}: {describe(out.strengths[p])}")
        for k, pot in enumerate(out.pots):
            label = "main pot" if k == 0 else f"side pot {k}"
            won = ", ".join(f"{self.name(p)} {c}" for p, c in sorted(out.winners[k].items()))
            lines.append(f"  {label} {pot.amount}: won by {won}")
        for p, back in enumerate(out.returned):
            if back:
                lines.append(f"  uncalled {back} returned to {self.name(p)}")
        rows = sorted([self.table.seats[p], self.name(p), s, f, f"{d:+d}"] for p, (s, f, d) in
                      enumerate(zip(hand.starting_stacks, out.finishing_stacks, out.payoffs, strict=True)))
        lines.append(render_table(["seat", "player", "start", "finish", "net"], rows, align="rlrrr"))
        return lines


def choice_line(choice: BotChoice, *, to_call: int) -> str:
    """Which policy chose a bot's action (shown with the coach on; the bot had ``to_call`` to call)."""
    if choice.policy is PolicyUsed.EQUILIBRIUM and choice.mix is not None:
        mix = ", ".join(f"{action_words(a, to_call=to_call)} {100 * p:.0f}%" for a, p in choice.mix.items())
        return f"(bot played the equilibrium: its mix for its card was {mix})"
    return f"(bot played the simple policy: {choice.why})" if choice.why else "(bot played the simple policy)"


def cost_lines(costs: list[DecisionCost], *, title: str) -> list[str]:
    """The player's decisions against the equilibrium: each one's EV (chips from the decision on) for
    the best action and the chosen one, the cost, and the total."""
    if not costs:
        return [f"{title}: none (the equilibrium is computed heads-up on rounds 2-4 only)"]
    rows = [[c.hand, c.round_index + 1, action_words(c.chosen, to_call=c.to_call), signed(c.chosen_chips, 2),
             action_words(c.best, to_call=c.to_call), signed(c.best_chips, 2), f"{c.cost:.2f}"]
            for c in costs]
    total = total_cost(costs)
    mistakes = sum(1 for c in costs if c.mistake)
    return [f"{title} (EV in chips from the decision on, against the equilibrium opponent):",
            render_table(["hand", "round", "you", "EV", "best", "EV best", "cost"], rows, align="rrlrlrr"),
            f"Total cost against the equilibrium: {total:.2f} chips over {len(costs)} decision(s), "
            f"{mistakes} not the best"]


@dataclass(kw_only=True)
class Seating:
    """Who plays how at the table: each bot's model (by table seat), the solver bots if any, the coach."""

    models: dict[int, OpponentModel]
    described: str
    coach: bool
    details: bool
    seed: int
    samples: int = COACH_SAMPLES
    solver: SolverBots | None = None
    bots: BotPolicy = BotPolicy.SIMPLE
    costs: list[DecisionCost] | None = None  # against the equilibrium, with --bots solver
    choices: list[PricedChoice] = field(default_factory=list)  # every decision, with the coach
    said: set[str] = field(default_factory=set)
    rng: random.Random = field(default_factory=random.Random)


def _bot_acts(hand: StudHand, legal: Legal, view: Table, seating: Seating) -> None:
    model = seating.models[view.table.seats[legal.player]]
    if seating.solver is not None and seating.bots is BotPolicy.SOLVER:
        late = hand.round_index >= 2
        choice = seating.solver.choose(hand, legal)
        action = choice.action
        if choice.policy is PolicyUsed.SIMPLE:
            action = model_action(model, hand, legal, seating.rng)
        hand.act(action)
        click.echo(f"  {view.event_text(-1)}")
        if seating.coach and late:
            click.echo(f"    {choice_line(choice, to_call=legal.call or 0)}")
        return
    hand.act(model_action(model, hand, legal, seating.rng))
    click.echo(f"  {view.event_text(-1)}")


def _advise(hand: StudHand, table: TableHand, seating: Seating) -> Advice:
    me = hand.actor
    assert me is not None
    models = {q: seating.models[table.seats[q]] for q in range(hand.n) if q != me}
    seed = random.Random(f"stud-coach:{seating.seed}:{table.number}:{len(hand.events)}").randrange(2**31)
    solver = seating.solver if seating.bots is BotPolicy.SOLVER else None
    with thinking(enabled=True):
        return coach_advice(hand, me, models=models, bots=solver, seed=seed, samples=seating.samples)


def _play_hand(session: StudSession, me_seat: int, seating: Seating) -> TableHand:
    table = session.start_hand()
    hand = table.hand
    me = table.player_of(me_seat)
    view = Table(session, table, me if me is not None else -1)
    total = session.length or "?"
    dealer_name = session.names[table.dealer - 1]
    click.echo(f"\n=== Hand {table.number} of {total}: seat {table.dealer} ({dealer_name}) deals ===")
    if me is None:
        click.echo("You have no chips and sit out this hand.")
    click.echo(view.stacks_line() + f" Antes {hand.profile.ante} each.")
    shown_round = -1
    costs, solver = seating.costs, seating.solver
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.DEAL:
            hand.deal_from(table.deck)
            continue
        if hand.round_index != shown_round:
            shown_round = hand.round_index
            click.echo(f"{ROUND_NAMES[shown_round]}: pot {hand.pot_total}")
            for line in view.cards_lines():
                click.echo(line)
        legal = hand.legal()
        if legal.player != me:
            _bot_acts(hand, legal, view, seating)
            continue
        here: SolveResult | str | None = None
        if solver is not None and costs is not None:
            here = solver.equilibrium_here(hand, legal.player)
        click.echo(f"  {view.stacks_line()} Your turn.")
        advice = None
        if seating.coach:
            advice = _advise(hand, table, seating)
            for line in coach_lines(advice, opponents=seating.described, said=seating.said,
                                    details=seating.details):
                click.echo(f"  Coach: {line}" if not line.startswith("  ") else f"  Coach:{line}")
        keys = options_text(legal, completing=hand.round_index == 0 and hand.round is not None
                            and hand.round.wagers == 0)
        click.echo(f"  Keys: {keys}")
        while True:
            text = _ask("  Your action> ")
            try:
                chosen = read_choice(legal, text)
                hand.act(chosen)
                if isinstance(here, SolveResult) and costs is not None:
                    costs.append(decision_cost(here, chosen, hand=table.number))
                if advice is not None:
                    seating.choices.append(price_choice(advice.decision, chosen, hand=table.number))
                break
            except IllegalActionError as exc:
                click.echo(f"  Not allowed: {exc}. Keys: {keys}")
        click.echo(f"  {view.event_text(-1)}")
    session.finish_hand()
    click.echo(f"Hand {table.number} summary:")
    for line in view.summary_lines():
        click.echo(line)
    mine = [c for c in costs or () if c.hand == table.number]
    if mine:
        click.echo(f"Your decisions this hand cost {total_cost(mine):.2f} chips against the equilibrium.")
    priced = [c for c in seating.choices if c.hand == table.number]
    if priced:
        cost = total_with_error((c.cost, c.error) for c in priced)
        click.echo(f"Your decisions this hand cost {cost} chips against {seating.described}.")
    return table


def _standings(session: StudSession) -> str:
    result = session.result()
    return ", ".join(f"{s.name} {s.finish} ({s.net:+d})" for s in result.seats)


def _final_lines(session: StudSession, *, stopped: bool = False) -> list[str]:
    result = session.result()
    early = ""
    if not stopped and (session.length is None or result.hands_played < session.length):
        winner = next(s.name for s in result.seats if s.finish > 0)
        early = f" ({winner} {'have' if winner == 'you' else 'has'} all the chips)"
    head = (f"Net results after {result.hands_played} finished hand(s):" if stopped
            else f"Session over after {result.hands_played} hand(s){early}. Net results:")
    rows = [[s.seat, s.name, s.start, s.rebuys, s.finish, f"{s.net:+d}"] for s in result.seats]
    rows.append(["", "total", "", "", "", f"{sum(s.net for s in result.seats):+d}"])
    return [head,
            render_table(["seat", "player", "start", "rebuys", "finish", "net"], rows, align="rlrrrr")]


def _rebuy_busted(session: StudSession) -> None:
    for seat in session.may_rebuy():
        if not session.over:
            record = session.rebuy(seat)
            used = session.rebuy_policy.max_rebuys - session.rebuys_left(seat)
            click.echo(f"{session.names[seat - 1]} rebuys {record.amount} "
                       f"(rebuy {used} of {session.rebuy_policy.max_rebuys}).")


@click.command()
@click.option("--players", "-n", type=click.IntRange(HOME_RULES.min_players, HOME_RULES.max_players),
              required=True, help="Number of players, 2 to 8 (you and the bots).")
@click.option("--hands", type=click.IntRange(1, MAX_HANDS), default=None,
              help=f"Length of the session in hands, 1 to {MAX_HANDS} [default: 1].")
@click.option("--until-one-has-all", "until_all", is_flag=True,
              help="Play until one player has all the chips (instead of --hands).")
@click.option("--seat", type=int, default=1, show_default=True, help="Your seat, 1 to --players.")
@click.option("--stack", type=click.IntRange(1, 10**6), default=20, show_default=True,
              help="The starting reserve of every player, 1 to 1,000,000.")
@click.option("--rebuys", type=click.IntRange(0, 100), default=0, show_default=True,
              help="Rebuys per player (0 to 100): a player with no chips buys --stack again between hands.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the draw for the first dealer and of every shuffle, 0 or more (random when "
                   "omitted; printed).")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the finished hands to this multi-hand PHH file (.phhs), rewritten after each hand.")
@click.option("--coach", is_flag=True,
              help="At each of your decisions: a recommendation and every action's EV with the betting to "
                   "come against the bots (heads-up also against an equilibrium opponent), your showdown "
                   "odds beside it; the summary prices every decision.")
@click.option("--details", is_flag=True,
              help="With --coach: also the method, the sample and seed, exact fractions and the hole cards "
                   "each bot may hold.")
@click.option("--coach-samples", type=click.IntRange(50, 10**6), default=COACH_SAMPLES, show_default=True,
              help="With --coach: the sample of an answer too big to count exactly (fixed, so that a session "
                   "replays exactly; fewer is quicker and less precise).")
@click.option("--opponents", "opponent_entries", multiple=True, metavar="MODEL|SEAT=MODEL",
              help="How the bots play: a model (bots, calling-station, rock, maniac, or a .toml file) for "
                   "every bot, or SEAT=MODEL for one (repeat). Default: bots.")
@click.option("--bots", "bots", type=click.Choice([b.value for b in BotPolicy]),
              default=BotPolicy.SIMPLE.value, show_default=True,
              help="simple: the documented simple rule. solver: heads-up on rounds 2 to 4 the bots play the "
                   "equilibrium (each round solved once from its start; sampled from its mix for their own "
                   "card, reproducible with --seed), the second and third rounds when their solve comes "
                   "close within --solver-budget (the second round needs 60 s or more); their model "
                   "elsewhere (more than two players in, round 1). "
                   "The summary then shows what your heads-up round 2-4 decisions cost against the "
                   "equilibrium.")
@click.option("--solver-budget", type=click.FloatRange(min=0), default=DEFAULT_THIRD_ROUND_BUDGET,
              show_default=True,
              help="Seconds of CFR+ a second- or third-round solve may take with --bots solver (it stops at "
                   "0.5% of the pot from equilibrium; a solve still over 2% at the budget is not played and "
                   "the simple policy acts; 0: the equilibrium on the last round only; a second-round solve "
                   "is tried from 60 s).")
def play(players: int, hands: int | None, until_all: bool, seat: int, stack: int, rebuys: int,
         seed: int | None, save: Path | None, coach: bool, details: bool, coach_samples: int,
         opponent_entries: tuple[str, ...], bots: str, solver_budget: float) -> None:
    """Play a home session at the terminal: you sit at --seat, the documented bots at the others.

    The first dealer is drawn by lot and the deal passes to the left; stacks carry over and a
    player with no chips sits out. Ctrl-C or the end of input (Ctrl-D) stops the session: the
    hands finished so far stay saved.

    Example: exactodds stud play --players 4 --hands 10 --stack 50 --coach --save evening.phhs
    """
    if until_all and hands is not None:
        raise ExactOddsError("give either --hands N or --until-one-has-all, not both")
    if not 1 <= seat <= players:
        raise ExactOddsError(f"--seat must be 1..{players}, got {seat}")
    if details and not coach:
        raise ExactOddsError("--details goes with --coach")
    models = parse_opponents(opponent_entries, [k for k in range(1, players + 1) if k != seat], what="seat")
    if save is not None:
        check_output_path(str(save))  # before the session, so a played hand is never lost
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    names = [("you" if k == seat else f"bot {k}") for k in range(1, players + 1)]
    session = StudSession(players=names, reserve=stack, hands=None if until_all else (hands or 1),
                          rebuys=RebuyPolicy(max_rebuys=rebuys), seed=seed)
    length = "until one player has all the chips" if until_all else f"{session.length} hand(s)"
    click.echo(f"Five-card stud session, seed {seed}: {players} players, {length}, starting reserve {stack}, "
               f"antes {session.profile.ante}. You are seat {seat}.")
    click.echo(f"Drawing lots for the first dealer: seat {session.first_dealer} "
               f"({session.names[session.first_dealer - 1]}); the deal then passes to the left.")
    policy = BotPolicy(bots)
    solver = SolverBots(seed=seed, third_round_budget=solver_budget) if policy is BotPolicy.SOLVER else None
    seating = Seating(models=models, described=describe_bots(models), coach=coach, details=details,
                      seed=seed, samples=coach_samples, solver=solver, bots=policy,
                      costs=[] if solver is not None else None, rng=random.Random(f"stud-opponents:{seed}"))
    if {m.name for m in models.values()} != {"bots"}:
        click.echo(f"The bots play: {seating.described}.")
    if solver is not None:
        click.echo("The bots play the heads-up equilibrium on rounds 2 to 4 (the second and third rounds "
                   f"when their solve comes close within {solver_budget:g} s); their model elsewhere.")
    try:
        while not session.over:
            _play_hand(session, seat, seating)
            if save is not None:
                write_session(save, session)
            click.echo(f"After hand {len(session.finished)}: {_standings(session)}")
            _rebuy_busted(session)
    except (EndOfInput, KeyboardInterrupt) as exc:
        why = "End of input" if isinstance(exc, EndOfInput) else "Interrupted"
        session.abandon_hand()
        click.echo(f"\n{why}: the session stops after {len(session.finished)} finished hand(s); "
                   "the hand in play is not counted.")
        _finish(session, save, seating, stopped=True)
        sys.exit(0 if isinstance(exc, EndOfInput) else 130)
    click.echo("")
    _finish(session, save, seating)


def describe_bots(models: dict[int, OpponentModel]) -> str:
    """"the bots" when every bot plays the bots' model, else each one's."""
    names = {m.name for m in models.values()}
    if names == {"bots"}:
        return "the bots"
    if len(names) == 1:
        return f"bots playing {names.pop()}"
    return ", ".join(f"seat {s} {m.name}" for s, m in sorted(models.items()))


def _finish(session: StudSession, save: Path | None, seating: Seating, *, stopped: bool = False) -> None:
    for line in _final_lines(session, stopped=stopped):
        click.echo(line)
    if seating.costs is not None:
        for line in cost_lines(seating.costs, title="Your decisions against the equilibrium"):
            click.echo(line)
    for line in summary_lines(seating.choices, opponents=seating.described):
        click.echo(line)
    if save is None:
        return
    if session.finished:
        click.echo(f"{len(session.finished)} hand(s) saved to {save}.")
    else:
        click.echo(f"No hand was finished: nothing written to {save}.")
