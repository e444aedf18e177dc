"""``exactodds rank`` and ``exactodds compare``: single-hand questions."""

from __future__ import annotations

import click

from exactodds.cards import format_cards
from exactodds.cli.options import echo_json, json_option
from exactodds.hand_info import compare_hands, hand_info


@click.command()
@click.argument("hand")
@json_option
def rank(hand: str, as_json: bool) -> None:
    """Strength (0..7461, higher is stronger), category and description of HAND.

    HAND is five cards, e.g. "As Kd 10h 9c 2s" or "AsKdTh9c2s".

    Example: exactodds rank "As Kd 10h 9c 2s"
    """
    info = hand_info(hand)
    if as_json:
        echo_json(info.to_dict())
        return
    click.echo(f"{format_cards(info.cards)}: {info.description}")
    click.echo(f"category {info.category}, strength {info.strength} of 7461 (higher is stronger)")


@click.command()
@click.argument("first")
@click.argument("second")
@json_option
def compare(first: str, second: str, as_json: bool) -> None:
    """Which of two 5-card hands is stronger (result 1: first, -1: second, 0: tie).

    Example: exactodds compare "Ah Ad 7c 7s 2h" "Kh Kd Kc 3s 2d"
    """
    comparison = compare_hands(first, second)
    if as_json:
        echo_json(comparison.to_dict())
        return
    verdict = {1: "first hand wins", -1: "second hand wins", 0: "tie"}[comparison.winner]
    for info in (comparison.first, comparison.second):
        click.echo(f"{format_cards(info.cards)}  {info.description} (strength {info.strength})")
    click.echo(verdict)
