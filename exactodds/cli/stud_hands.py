"""``exactodds stud replay | deal | play``: the five-card stud referee at the command line."""

from __future__ import annotations

import random
from pathlib import Path

import click

from exactodds.cards import format_card, format_cards
from exactodds.cli.options import check_output_path, echo_json, json_option, render_table
from exactodds.errors import IllegalActionError
from exactodds.handrank import describe
from exactodds.stud.bots import bot_action
from exactodds.stud.phh import load_phh, write_phh
from exactodds.stud.phh import replay as replay_history
from exactodds.stud.rules import SEED_004
from exactodds.stud.state import (
    Action,
    Legal,
    Phase,
    StudHand,
    parse_chips,
    player_name,
    shuffled_deck,
)

ROUND_NAMES = ("round 1 (hole + first up card)", "round 2", "round 3", "round 4")


def _visible_line(hand: StudHand, viewer: int | None) -> list[str]:
    """One line per player: hole card shown only to its owner (all when viewer is None)."""
    out = []
    for p in range(hand.n):
        down = hand.down[p]
        hole = "??" if down is None or (viewer is not None and viewer != p) else format_card(down)
        tag = " (folded)" if hand.folded[p] else (" (all-in)" if hand.stacks[p] == 0 else "")
        out.append(f"  {player_name(p)}: [{hole}] {format_cards(hand.up[p])}{tag}")
    return out


def _settlement_lines(hand: StudHand) -> list[str]:
    out = hand.outcome
    assert out is not None
    lines: list[str] = []
    if out.showdown_order:
        lines.append("Showdown (in showing order):")
        for p in out.showdown_order:
            cards = format_cards(hand.cards_of(p))
            lines.append(f"  {player_name(p)} shows {cards}: {describe(out.strengths[p])}")
    rows = []
    for k, pot in enumerate(out.pots):
        name = "main pot" if k == 0 else f"side pot {k}"
        won = ", ".join(f"{player_name(p)} {c}" for p, c in sorted(out.winners[k].items()))
        rows.append([name, pot.amount, " ".join(player_name(p) for p in pot.players), won])
    lines.append(render_table(["pot", "amount", "eligible", "won by"], rows, align="lrll"))
    for p, back in enumerate(out.returned):
        if back:
            lines.append(f"Uncalled {back} returned to {player_name(p)}.")
    rows = [[player_name(p), s, f, f"{d:+d}"] for p, (s, f, d) in
            enumerate(zip(hand.starting_stacks, out.finishing_stacks, out.payoffs, strict=True))]
    lines.append(render_table(["player", "start", "finish", "net"], rows))
    return lines


def _json_result(hand: StudHand) -> dict:
    out = hand.outcome
    assert out is not None
    streets = []
    for r in range(hand.profile.rounds):
        events = [e for e in hand.events if e.round_index == r]
        if events:
            streets.append({"round": r + 1, "events": [e.description for e in events]})
    return {
        "variant": "F5S",
        "starting_stacks": list(hand.starting_stacks),
        "streets": streets,
        "pots": [
            {"amount": pot.amount, "players": [p + 1 for p in pot.players],
             "winners": {str(p + 1): c for p, c in sorted(out.winners[k].items())}}
            for k, pot in enumerate(out.pots)
        ],
        "returned": list(out.returned),
        "showdown_order": [p + 1 for p in out.showdown_order],
        "hands": {str(p + 1): {"cards": format_cards(hand.cards_of(p)), "description": describe(s)}
                  for p, s in out.strengths.items()},
        "payoffs": list(out.payoffs),
        "finishing_stacks": list(out.finishing_stacks),
    }


@click.command()
@click.argument("hand_file", metavar="HAND.phh", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def replay(hand_file: Path, as_json: bool) -> None:
    """Replay an F5S hand history street by street; check every action against the home rules."""
    hand = replay_history(load_phh(hand_file))
    if as_json:
        echo_json(_json_result(hand))
        return
    prof = hand.profile
    click.echo(f"Five-card stud, {hand.n} players, ante {prof.ante}, bring-in {prof.bring_in}, "
               f"units {prof.small_bet}/{prof.big_bet}, "
               f"open-pair big bet {'on' if prof.open_pair_big_bet else 'off'}")
    click.echo("Antes: " + ", ".join(f"{player_name(p)} {a}" for p, a in enumerate(hand.antes)))
    for r in range(prof.rounds):
        events = [e for e in hand.events if e.round_index == r]
        if not events:
            continue
        click.echo(f"\n{ROUND_NAMES[r].capitalize()}")
        for e in events:
            if e.kind == "deal":
                cards = [format_card(c) for c in e.cards]
                if r == 0:
                    cards[0] = f"[{cards[0]}]"
                click.echo(f"  {player_name(e.player)} gets {' '.join(cards)}")
            else:
                click.echo(f"  {e.description}")
    click.echo("")
    for line in _settlement_lines(hand):
        click.echo(line)


@click.command()
@click.option("--players", "-n", type=click.IntRange(SEED_004.min_players, SEED_004.max_players),
              required=True, help="Number of players (2 to 8).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Shuffle seed, 0 or more (random when omitted; printed).")
@json_option
def deal(players: int, seed: int | None, as_json: bool) -> None:
    """Deal a random hand (all five cards, as if nobody folds) and show what each player sees."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    hand = StudHand(stacks=(100,) * players)
    deck = shuffled_deck(seed)
    for _ in range(hand.profile.rounds):
        while hand.phase is Phase.DEAL:
            hand.deal_from(deck)
        while hand.phase is Phase.BET:  # everyone checks / calls the bring-in to see all cards
            legal = hand.legal()
            kind = "pb" if legal.bring_in is not None else "cc"
            hand.act(Action(player=legal.player, kind=kind))
    bring_in = hand.openers[0]
    if as_json:
        echo_json({
            "seed": seed,
            "players": [{"player": p + 1, "hole": format_card(hand.down[p]),  # type: ignore[arg-type]
                         "up": format_cards(hand.up[p]).split()} for p in range(players)],
            "bring_in": bring_in + 1,
            "first_to_act": [o + 1 for o in hand.openers],
        })
        return
    click.echo(f"Seed {seed}, {players} players (p1 is first to the dealer's left).")
    rows = [[player_name(p), *[format_card(c) for c in hand.up[p]]] for p in range(players)]
    click.echo("Up cards, seen by everyone:")
    click.echo(render_table(["player", "1st up", "2nd up", "3rd up", "4th up"], rows))
    click.echo(f"Bring-in: {player_name(bring_in)} (lowest first up card "
               f"{format_card(hand.up[bring_in][0])}); first to act in rounds 2-4 if all stay: "
               + ", ".join(player_name(o) for o in hand.openers[1:]))
    click.echo("What each player sees ([hole card] then up cards; ?? = hidden):")
    for viewer in range(players):
        seen = "  ".join(line.strip() for line in _visible_line(hand, viewer))
        click.echo(f"  {player_name(viewer)} sees  {seen}")


# ---------------------------------------------------------------------- play
def _options_text(legal: Legal) -> str:
    parts = []
    if legal.bring_in is not None:
        parts.append(f"p = post bring-in {legal.bring_in}")
    if legal.check:
        parts.append("k = check")
    if legal.call is not None:
        parts.append(f"c = call {legal.call}")
    if legal.raise_to:
        parts.append("r N = bet/raise to " + " or ".join(str(t) for t in legal.raise_to))
    if legal.fold:
        parts.append("f = fold")
    return ", ".join(parts)


def _read_action(legal: Legal, text: str) -> Action:
    words = text.strip().lower().split()
    p = legal.player
    if not words:
        raise IllegalActionError("type one of the options")
    word = words[0]
    if word in ("p", "pb"):
        return Action(player=p, kind="pb")
    if word in ("k", "check", "c", "call", "cc"):
        return Action(player=p, kind="cc")
    if word in ("f", "fold"):
        return Action(player=p, kind="f")
    if word in ("r", "b", "raise", "bet", "cbr"):
        if len(words) == 1 and legal.raise_to:
            return Action(player=p, kind="cbr", amount=legal.raise_to[0])
        amount = parse_chips(words[1]) if len(words) == 2 else None
        if amount is not None:
            return Action(player=p, kind="cbr", amount=amount)
        raise IllegalActionError("write r or r N (the total to raise to)")
    raise IllegalActionError(f'unknown choice "{text.strip()}"')


@click.command()
@click.option("--players", "-n", type=click.IntRange(SEED_004.min_players, SEED_004.max_players),
              required=True, help="Number of players (2 to 8).")
@click.option("--seed", type=click.IntRange(min=0), required=True, help="Shuffle seed (0 or more).")
@click.option("--seat", type=int, default=1, show_default=True,
              help="Your seat, 1 = first to the dealer's left.")
@click.option("--stack", type=click.IntRange(1), default=20, show_default=True,
              help="Every player's starting stack.")
@click.option("--save", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the finished hand as an F5S PHH file.")
def play(players: int, seed: int, seat: int, stack: int, save: Path | None) -> None:
    """Play one hand at the terminal: you act for --seat, the others follow the bot policy."""
    if not 1 <= seat <= players:
        raise IllegalActionError(f"--seat must be 1..{players}, got {seat}")
    if save is not None:
        check_output_path(str(save))  # before the hand, so a played hand is never lost
    me = seat - 1
    hand = StudHand(stacks=(stack,) * players)
    deck = shuffled_deck(seed)
    click.echo(f"Five-card stud, seed {seed}: you are {player_name(me)}; "
               f"everyone starts with {stack}, antes {hand.profile.ante}.")
    shown_round = -1
    while hand.phase is not Phase.DONE:
        if hand.phase is Phase.DEAL:
            hand.deal_from(deck)
            continue
        if hand.round_index != shown_round:
            shown_round = hand.round_index
            click.echo(f"\n{ROUND_NAMES[shown_round].capitalize()}: pot {hand.pot_total}")
            for line in _visible_line(hand, me):
                click.echo(line)
        legal = hand.legal()
        if legal.player != me:
            hand.act(bot_action(hand, legal))
            click.echo(f"  {hand.events[-1].description}")
            continue
        click.echo(f"  Your stack {hand.stacks[me]}, pot {hand.pot_total}. Options: {_options_text(legal)}")
        while True:
            text = click.prompt("  Your action", prompt_suffix="> ", default="", show_default=False)
            try:
                hand.act(_read_action(legal, text))
                break
            except IllegalActionError as exc:
                click.echo(f"  Illegal: {exc}. Options: {_options_text(legal)}")
        click.echo(f"  {hand.events[-1].description}")
    click.echo("")
    for line in _settlement_lines(hand):
        click.echo(line)
    if save is not None:
        write_phh(save, hand)
        click.echo(f"Hand history written to {save}")
