"""What each link of a hosted game sees: the table as JSON, a hole card only for its own seat.

Before the showdown a seat's hole card is in its own seat's view and in no other (not another
seat's, not a spectator's, not the host's): the view is the table everyone sees alike
(:func:`public_view`, built once per change) and a small part that is one link's alone
(:func:`private_view`: a seat's own hole card and legal actions, the host's links). At the
showdown the hole cards of the players still in are shown in the rules' showing order (the last
aggressor of the last round first, then to the left); a folded hand is never shown.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from exactodds.cards import format_card
from exactodds.handrank import describe
from exactodds.stud.engine.actions import ActionKind, Legal, action_words
from exactodds.stud.engine.settlement import Pot
from exactodds.stud.engine.state import Event, Phase
from exactodds.stud.history.session import TableHand
from exactodds.stud.host.config import SeatKind
from exactodds.stud.host.game import HostGame


class Role(StrEnum):
    """Who holds a link."""

    HOST = "host"            # the server's host key: every game's controls, no hole card
    SEAT = "seat"            # one seat of one game: its own hole card, its actions
    SPECTATOR = "spectator"  # a game's spectator link: what everyone at the table sees


def game_view(game: HostGame, *, role: Role, seat: int | None, now: float) -> dict[str, Any]:
    """The view of ``game`` for ``role`` (``seat`` for a seat's link): the table everyone sees
    (:func:`public_view`) and what is this link's alone (:func:`private_view`), at unix time ``now``."""
    return {**public_view(game, now=now), **private_view(game, role=role, seat=seat), "now": now}


def public_view(game: HostGame, *, now: float) -> dict[str, Any]:
    """What every link of the game sees alike: no hole card before the showdown, no link."""
    table = game.table
    return {
        "game": game.id, "version": game.version, "status": str(game.status), "turn": len(game.actions),
        "length": _length(game, now), "coach_allowed": game.config.coach,
        "clocks": {"act_seconds": game.config.act_seconds, "bot_seconds": game.config.bot_seconds,
                   "between_seconds": game.config.between_seconds},
        "seats": _seats(game, table),
        "hand": None if table is None else _hand(game, table),
        "last_hand": _last_hand(game),
        "standings": _standings(game),
    }


def private_view(game: HostGame, *, role: Role, seat: int | None) -> dict[str, Any]:
    """What is one link's alone: its role and seat, a seat's own hole card and, on its turn, its legal
    actions; the host's links. None of its keys is in :func:`public_view`."""
    own = seat if role is Role.SEAT else None
    table = game.table
    hole, legal = None, None
    if own is not None and table is not None:
        player = table.player_of(own)
        down = None if player is None else table.hand.down[player]
        hole = None if down is None else format_card(down)
        if game.actor_seat() == own and game.status.value == "playing":
            options, betting = table.hand.legal(), table.hand.round
            completing = betting is not None and betting.index == 0 and betting.wagers == 0
            legal = legal_view(options, to_call=options.call or 0, completing=completing)
    view: dict[str, Any] = {"role": str(role), "seat": own, "hole": hole, "legal": legal}
    if role is Role.HOST:
        view["links"] = {"seats": [{"seat": k, "token": s.token} for k, s in enumerate(game.seats, 1)],
                         "spectator": game.spectator}
    return view


def _length(game: HostGame, now: float) -> dict[str, Any]:
    played = len(game.session.finished)
    if game.config.minutes is not None:
        left = max(0.0, 60 * game.config.minutes - game.played_seconds(now))
        return {"minutes": game.config.minutes, "hands_played": played, "seconds_left": round(left, 1)}
    return {"hands": game.config.hands, "hands_played": played}


def _seats(game: HostGame, table: TableHand | None) -> list[dict[str, Any]]:
    out = []
    actor = game.actor_seat()
    for k, seat in enumerate(game.seats, 1):
        player = None if table is None else table.player_of(k)
        entry: dict[str, Any] = {
            "seat": k, "name": seat.config.name, "kind": str(seat.config.kind),
            "model": seat.config.model if seat.config.kind is SeatKind.BOT else None,
            "stack": game.session.stacks[k - 1], "in_hand": player is not None, "folded": False,
            "bet": 0, "up": [], "hole": None, "dealer": table is not None and table.dealer == k,
            "to_act": actor == k}
        if table is not None and player is not None:
            hand = table.hand
            down = hand.down[player]
            entry.update(stack=hand.stacks[player], folded=hand.folded[player],
                         bet=hand.round_bets[player] if hand.phase is not Phase.DONE else 0,
                         up=[format_card(c) for c in hand.up[player]])
            if down is not None:
                entry["hole"] = "down"  # a seat's own card is in its private view
        out.append(entry)
    return out


def _hand(game: HostGame, table: TableHand) -> dict[str, Any]:
    hand = table.hand
    pots, _ = hand.current_pots()
    if not any(hand.stacks[q] == 0 for q in hand.in_hand):
        # nobody all-in: one pot (the round's unmatched bets would otherwise show as layers of it)
        pots = (Pot(amount=hand.pot_total, players=tuple(hand.in_hand)),)
    deadline = game.due() if game.actor_seat() is not None else None
    return {
        "number": table.number, "dealer": table.dealer, "round": hand.round_index + 1,
        "actor": game.actor_seat(), "deadline": deadline, "pot": hand.pot_total,
        "pots": [{"amount": p.amount, "seats": sorted(table.seats[q] for q in p.players)} for p in pots],
        "events": [event_words(game, table, e) for e in hand.events],
    }


def event_words(game: HostGame, table: TableHand, event: Event) -> str:
    """One step of the hand in words, as everyone sees it (a hole card is "a card")."""
    seat = table.seats[event.player]
    name = game.name(seat)
    if event.kind == "deal":
        up = format_card(event.cards[-1])
        if event.round_index == 0:
            return f"{name} is dealt a card down and {up} up"
        return f"{name} is dealt {up}"
    return game.named(event.description, table)


def legal_view(legal: Legal, *, to_call: int, completing: bool = False) -> list[dict[str, Any]]:
    """The buttons of the player to act: the engine's legal actions with their amounts and words
    (``completing``: a first-round bet completes the bring-in)."""
    out = []
    for action in legal.actions():
        text = action.text()
        words = action_words(text, to_call=to_call)
        if action.kind == ActionKind.BRING_IN:
            words, amount = f"bring in {legal.bring_in}", legal.bring_in
        elif action.kind == ActionKind.BET_RAISE:
            amount = action.amount
            if completing:
                words = f"complete to {amount}"
        elif action.kind == ActionKind.CHECK_CALL:
            amount = legal.call
        else:
            amount = None
        out.append({"action": str(action.kind), "amount": amount, "label": words[:1].upper() + words[1:]})
    return out


def _last_hand(game: HostGame) -> dict[str, Any] | None:
    """The last finished hand: the showdown in showing order, the pots and who won them (the same
    until the next hand ends: kept on the game)."""
    if not game.session.finished:
        return None
    number = len(game.session.finished)
    kept = game.derived.get("last_hand")
    if kept is not None and kept["number"] == number:
        return dict(kept)
    game.derived["last_hand"] = found = _finished_hand(game)
    return dict(found)


def _finished_hand(game: HostGame) -> dict[str, Any]:
    table = game.session.finished[-1]
    hand, outcome = table.hand, table.hand.outcome
    assert outcome is not None
    shown = []
    for q in outcome.showdown_order:
        cards = hand.cards_of(q)
        shown.append({"seat": table.seats[q], "cards": [format_card(c) for c in cards],
                      "hand": describe(cards)})
    pots = [{"amount": pot.amount, "seats": [table.seats[q] for q in pot.players],
             "winners": [{"seat": table.seats[q], "chips": chips} for q, chips in sorted(winners.items())]}
            for pot, winners in zip(outcome.pots, outcome.winners, strict=True)]
    return {"number": table.number, "dealer": table.dealer, "showdown": shown, "pots": pots,
            "ups": [{"seat": table.seats[q], "up": [format_card(c) for c in hand.up[q]],
                     "folded": hand.folded[q]} for q in range(hand.n)],
            "net": [{"seat": table.seats[q], "chips": outcome.payoffs[q]} for q in range(hand.n)],
            "summary": _summary(game, table)}


def _summary(game: HostGame, table: TableHand) -> list[str]:
    """The hand's result in words: who won which pot, and with what at a showdown."""
    outcome = table.hand.outcome
    assert outcome is not None
    lines = []
    for k, (pot, winners) in enumerate(zip(outcome.pots, outcome.winners, strict=True)):
        label = "the pot" if len(outcome.pots) == 1 else ("the main pot" if k == 0 else f"side pot {k}")
        names = " and ".join(game.name(table.seats[q]) for q in sorted(winners))
        how = ""
        if outcome.showdown_order and len(winners) == 1:
            q = next(iter(winners))
            how = f" with {describe(table.hand.cards_of(q))}"
        verb = "split" if len(winners) > 1 else "wins"
        lines.append(f"{names} {verb} {label} of {pot.amount}{how}")
    return lines


def _standings(game: HostGame) -> list[dict[str, Any]]:
    """Every seat's chips after the last finished hand and its net (ahead > 0), best first."""
    reserve = game.session.reserve
    rows = [{"seat": k, "name": game.name(k), "chips": chips, "net": chips - reserve}
            for k, chips in enumerate(game.session.stacks, 1)]
    return sorted(rows, key=lambda r: (-r["chips"], r["seat"]))


@dataclass(frozen=True)
class Snapshot:
    """A game's views at one version as JSON text, built once per change: the public part (without
    its closing brace) and each link's private part (without its braces)."""

    version: int
    public: str
    private: dict[tuple[Role, int | None], str]

    def text(self, role: Role, seat: int | None, *, now: float) -> str:
        """The JSON view of a link (``seat`` for a seat's) at unix time ``now``."""
        return f'{self.public}, {self.private[(role, seat if role is Role.SEAT else None)]}, "now": {now}}}'


def snapshot(game: HostGame, *, now: float) -> Snapshot:
    """Every link's view of ``game`` now, as JSON text (see :class:`Snapshot`)."""
    seats = [(Role.SEAT, k) for k in range(1, len(game.seats) + 1)]
    links = [(Role.HOST, None), (Role.SPECTATOR, None), *seats]
    return Snapshot(version=game.version, public=json.dumps(public_view(game, now=now))[:-1],
                    private={(role, seat): json.dumps(private_view(game, role=role, seat=seat))[1:-1]
                             for role, seat in links})
