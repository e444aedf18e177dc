"""``exactodds stud replay | deal``: the five-card stud referee at the command line (play: stud_play)."""

from __future__ import annotations

import random
from pathlib import Path

import click

from exactodds.cards import format_card, format_cards
from exactodds.cli.options import echo_json, json_option, render_table
from exactodds.handrank import describe
from exactodds.stud.engine.actions import player_name
from exactodds.stud.engine.dealing import deal_hand
from exactodds.stud.engine.rules import HOME_RULES
from exactodds.stud.engine.state import StudHand
from exactodds.stud.history.phh import parse_phh, read_history_text
from exactodds.stud.history.phh import replay as replay_history
from exactodds.stud.history.session_phh import SessionReplay, is_session_text, parse_session, replay_session
from exactodds.stud.history.settled import SettledHand

ROUND_NAMES = ("round 1 (hole + first up card)", "round 2", "round 3", "round 4")


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


def _session_lines(session: SessionReplay) -> list[str]:
    names = session.names
    lines = [f"Five-card stud session: {len(names)} players, {len(session.hands)} hand(s), starting reserve "
             f"{session.reserve}. Every hand replays under the rules and the stacks carry over exactly."]
    stacks = [session.reserve] * len(names)
    rows = []
    for t in session.hands:
        out = t.hand.outcome
        assert out is not None
        for seat, stack in zip(t.seats, out.finishing_stacks, strict=True):
            stacks[seat - 1] = stack
        won: dict[int, int] = {}
        for share in out.winners:
            for p, chips in share.items():
                won[t.seats[p]] = won.get(t.seats[p], 0) + chips
        bought = ", ".join(f"{names[s - 1]} {r}" for s, r in zip(t.seats, t.rebuys, strict=True) if r)
        rows.append([t.number, names[t.dealer - 1], sum(pot.amount for pot in out.pots),
                     ", ".join(f"{names[s - 1]} {c}" for s, c in sorted(won.items())),
                     bought or "-", " ".join(str(x) for x in stacks)])
    lines.append(render_table(["hand", "dealer", "pot", "won by", "rebuys", "stacks after (seat 1..)"], rows,
                              align="rlrlll"))
    rows = [[r.seat, r.name, r.start, r.rebuys, r.finish, f"{r.net:+d}"] for r in session.result.seats]
    rows.append(["", "total", "", "", "", f"{sum(r.net for r in session.result.seats):+d}"])
    lines.append("Net results:")
    lines.append(render_table(["seat", "player", "start", "rebuys", "finish", "net"], rows, align="rlrrrr"))
    return lines


@click.command()
@click.argument("hand_file", metavar="HAND.phh|SESSION.phhs", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def replay(hand_file: Path, as_json: bool) -> None:
    """Replay an F5S hand history street by street; check every action against the home rules.

    A session file (.phhs, one [N] table per hand) is replayed hand by hand: every hand is
    checked, and that the stacks carry over and the deal moves left; then the net results.

    Example: exactodds stud replay s.phhs after exactodds stud play --save s.phhs
    """
    text = read_history_text(hand_file)
    source = hand_file.name if hand_file.is_file() else str(hand_file)  # /dev/null and such by their path
    if is_session_text(text, name=hand_file.name):
        session = replay_session(parse_session(text, source=source))
        if as_json:
            echo_json(session.to_dict())
            return
        for line in _session_lines(session):
            click.echo(line)
        return
    hand = replay_history(parse_phh(text, source=source))
    if as_json:
        echo_json(SettledHand(hand).to_dict())
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
@click.option("--players", "-n", type=click.IntRange(HOME_RULES.min_players, HOME_RULES.max_players),
              required=True, help="Number of players (2 to 8).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Shuffle seed, 0 or more (random when omitted; printed).")
@json_option
def deal(players: int, seed: int | None, as_json: bool) -> None:
    """Deal a random hand (all five cards, as if nobody folds) and show what each player sees.

    Example: exactodds stud deal --players 4 --seed 7
    """
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    dealt = deal_hand(players=players, seed=seed)
    if as_json:
        echo_json(dealt.to_dict())
        return
    click.echo(f"Seed {seed}, {players} players (p1 is first to the dealer's left).")
    rows = [[player_name(p), *[format_card(c) for c in dealt.ups[p]]] for p in range(players)]
    click.echo("Up cards, seen by everyone:")
    click.echo(render_table(["player", "1st up", "2nd up", "3rd up", "4th up"], rows))
    click.echo(f"Bring-in: {player_name(dealt.bring_in)} (lowest first up card "
               f"{format_card(dealt.ups[dealt.bring_in][0])}); first to act in rounds 2-4 if all stay: "
               + ", ".join(player_name(o) for o in dealt.openers[1:]))
    click.echo("What each player sees ([hole card] then up cards; ?? = hidden):")
    for viewer in range(players):
        seen = "  ".join(f"{player_name(p)}: [{format_card(dealt.holes[p]) if p == viewer else '??'}] "
                         f"{format_cards(dealt.ups[p])}" for p in range(players))
        click.echo(f"  {player_name(viewer)} sees  {seen}")
