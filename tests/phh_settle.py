"""An independent settlement of five-card stud hands read from a ``.phhs`` file: the chips each
player puts in (from the PHH actions, antes and bring-in), the pots by contribution layers, and
each pot to the best five cards by phevaluator (an independent evaluator), the odd chip to the first
winner from the dealer's left. Used to check the host's pots without the engine."""

from __future__ import annotations

import tomllib

from phevaluator import evaluate_cards


def settle_hand(table: dict) -> list[int]:
    """The finishing stacks of one ``[N]`` table of a session file, worked out independently."""
    n = len(table["starting_stacks"])
    stacks = list(table["starting_stacks"])
    put = [0] * n
    for p, ante in enumerate(table["antes"]):
        stacks[p] -= ante
        put[p] += ante
    cards: list[list[str]] = [[] for _ in range(n)]
    folded = [False] * n
    round_bets = [0] * n
    after_action = False
    for line in table["actions"]:
        words = line.split()
        if words[0] == "d":  # a deal after actions starts a new betting round
            if after_action:
                round_bets, after_action = [0] * n, False
            player, text = int(words[2][1:]) - 1, words[3]
            cards[player] += [text[i:i + 2] for i in range(0, len(text), 2)]
            continue
        player, kind = int(words[0][1:]) - 1, words[1]
        if kind == "sm":  # a hand shown at the showdown
            continue
        after_action = True
        if kind == "f":
            folded[player] = True
            continue
        if kind == "pb":
            pay = min(table["bring_in"], stacks[player])
        elif kind == "cc":
            pay = min(max(round_bets) - round_bets[player], stacks[player])
        else:  # cbr: to a round total
            pay = int(words[2]) - round_bets[player]
        stacks[player] -= pay
        put[player] += pay
        round_bets[player] += pay
    strength = {p: -evaluate_cards(*cards[p]) for p in range(n) if not folded[p] and len(cards[p]) == 5}
    live = [p for p in range(n) if not folded[p]]
    previous = 0
    for level in sorted(set(put)):
        if level <= 0:
            continue
        reached = [p for p in range(n) if put[p] >= level]
        amount = (level - previous) * len(reached)
        previous = level
        eligible = [p for p in reached if p in live]
        if len(reached) == 1 or len(live) == 1:
            winners = [reached[0]] if len(reached) == 1 else live
        else:
            best = max(strength[p] for p in eligible)
            winners = [p for p in eligible if strength[p] == best]
        share, odd = divmod(amount, len(winners))
        for k, p in enumerate(sorted(winners)):
            stacks[p] += share + (1 if k < odd else 0)
    return stacks


def settle_session(text: str) -> list[tuple[list[int], list[int]]]:
    """For each hand of a session file: (the finishing stacks worked out here, the file's)."""
    data = tomllib.loads(text)
    return [(settle_hand(data[key]), list(data[key]["finishing_stacks"])) for key in sorted(data, key=int)]
