"""``exactodds caribbean decide``: raise or fold, exactly, for one situation."""

from __future__ import annotations

import click

from exactodds.cards import format_cards
from exactodds.caribbean.decision.decide import Choice, Decision
from exactodds.caribbean.decision.decide import decide as decide_situation
from exactodds.caribbean.decision.settle import DEALER_NOT_QUALIFY, DEALER_WINS, PUSH, event_net
from exactodds.caribbean.profile import PAY_LABELS
from exactodds.cli.options import echo_json, json_option, paytable_option, render_table
from exactodds.display import signed_exact
from exactodds.handrank import describe
from exactodds.jsonable import exact
from exactodds.wording import counted


@click.command()
@click.argument("hand")
@click.option("--up", required=True, metavar="CARD", help="The dealer's up card.")
@click.option("--hole", multiple=True, metavar="CARDS",
              help="Seen dealer hole cards, up to 4 (repeat the option or give several in one string).")
@click.option("--dead", default="", metavar="CARDS",
              help='Cards known to be out of play, e.g. other players\' hands: "Ah 7c 7d".')
@paytable_option
@json_option
def decide(hand: str, up: str, hole: tuple[str, ...], dead: str, paytable: str, as_json: bool) -> None:
    """Raise or fold with HAND (5 cards) against the dealer's up card.

    Counts every completion of the dealer's hand from the unseen cards and gives
    EV(raise) exactly; EV(fold) is -1. An exact EV tie folds.

    Example: exactodds caribbean decide "Ks Qd 9h 5c 2s" --up 8c --hole 3d
    """
    d = decide_situation(hand, up=up, hole=hole, dead=dead, profile=paytable)
    if as_json:
        echo_json(d.to_dict())
    else:
        click.echo(text(d))


def text(d: Decision) -> str:
    """The short answer for a terminal."""
    missing = 5 - len(d.dealer_known)
    lines = [
        f"hand    {format_cards(d.hand)}: {describe(d.player_strength)}",
        f"dealer  {format_cards(d.dealer_known)}" + (f" + {missing} unseen" if missing else ""),
    ]
    if d.dead:
        lines.append(f"dead    {format_cards(d.dead)}")
    lines += [f"paytable {d.profile.name}; {counted(d.completions, 'equally likely dealer hand')}", ""]

    win_label = f"you win ({PAY_LABELS[d.win_category]})" if d.win_category else "you win"
    win_net = event_net(f"win_{d.win_category}", d.profile) if d.win_category else None
    rows = [
        ("dealer does not qualify", d.dealer_not_qualify, event_net(DEALER_NOT_QUALIFY, d.profile)),
        (win_label, d.player_wins, win_net),
        ("tie", d.tie, event_net(PUSH, d.profile)),
        ("dealer wins", d.dealer_wins, event_net(DEALER_WINS, d.profile)),
    ]
    lines.append(render_table(
        ["if you raise", "dealer hands", "net (antes)"],
        [(label, f"{count:,}", "-" if net is None else signed_exact(net)) for label, count, net in rows],
    ))
    lines += [
        "",
        f"EV(raise) = {exact(d.ev_raise)} = {float(d.ev_raise):+.6f} antes",
        f"EV(fold)  = {float(d.ev_fold):+.6f} antes",
    ]
    if d.margin == 0:
        lines.append("FOLD: raising and folding are worth exactly the same (an exact EV tie folds)")
    else:
        better, worse = ("raising", "folding") if d.decision == Choice.RAISE else ("folding", "raising")
        lines.append(f"{d.decision.upper()}: {better} beats {worse} by {abs(float(d.margin)):.6f} antes")
    return "\n".join(lines)


