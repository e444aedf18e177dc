"""``exactodds rank`` and ``exactodds compare``: single-hand questions."""

from __future__ import annotations

import click

from exactodds.cards import format_cards, parse_cards
from exactodds.cli.options import echo_json, json_option
from exactodds.handrank import category_name, describe, evaluate


def _hand_info(text: str) -> dict:
    cards = parse_cards(text, count=5, what="a poker hand")
    strength = evaluate(cards)
    return {
        "hand": format_cards(cards),
        "strength": strength,
        "category": category_name(strength),
        "description": describe(strength),
    }


@click.command()
@click.argument("hand")
@json_option
def rank(hand: str, as_json: bool) -> None:
    """Strength (0..7461, higher is stronger), category and description of HAND.

    HAND is five cards, e.g. "As Kd 10h 9c 2s" or "AsKdTh9c2s".

    Example: exactodds rank "As Kd 10h 9c 2s"
    """
    info = _hand_info(hand)
    if as_json:
        echo_json(info)
        return
    click.echo(f"{info['hand']}: {info['description']}")
    click.echo(f"category {info['category']}, strength {info['strength']} of 7461 (higher is stronger)")


@click.command()
@click.argument("first")
@click.argument("second")
@json_option
def compare(first: str, second: str, as_json: bool) -> None:
    """Which of two 5-card hands is stronger (result 1: first, -1: second, 0: tie).

    Example: exactodds compare "Ah Ad 7c 7s 2h" "Kh Kd Kc 3s 2d"
    """
    a, b = _hand_info(first), _hand_info(second)
    result = (a["strength"] > b["strength"]) - (a["strength"] < b["strength"])
    if as_json:
        echo_json({"result": result, "first": a, "second": b})
        return
    verdict = {1: "first hand wins", -1: "second hand wins", 0: "tie"}[result]
    click.echo(f"{a['hand']}  {a['description']} (strength {a['strength']})")
    click.echo(f"{b['hand']}  {b['description']} (strength {b['strength']})")
    click.echo(verdict)
