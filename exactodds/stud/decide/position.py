"""A decision given by its cards, pot, stacks and the betting so far in the round, as a live hand.

The players still in (seat order) are the hand's players; the pot and stacks are those at the start
of the current round, and ``history`` the betting since. The earlier rounds are not known: the hand
is rebuilt with everyone having called the bring-in and checked since (each player then holds the
same chips in the pot as at the start of a round), and the rest of the pot, the chips of players no
longer in the hand, is *dead money* that joins the main pot. Only this round's betting then tells
about the hole cards (:func:`exactodds.stud.decide.belief.weigh_holes` with ``from_round``).

>>> hand, dead_money = position_hand(position=["Kh | 9c 4d", "? | Qh Qc"], pot=10, stacks=(20, 20),
...                                  history=("cbr 4",))
>>> hand.actor, hand.legal().call, hand.pot_total + dead_money
(0, 4, 14)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from exactodds.cards import DECK_SIZE
from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.stud.engine.actions import Action, ActionKind
from exactodds.stud.engine.rules import HOME_RULES, StudProfile
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.stud.equity.position import StudPosition, parse_position


class PositionInputError(ExactOddsError):
    """A position that cannot be played from: a bad pot, stacks or betting so far."""


@dataclass(frozen=True, kw_only=True)
class Rebuilt:
    """The live hand of a position and what the rebuild left out."""

    hand: StudHand
    dead_money: int
    known: dict[int, int]  # other players whose hole card is given: player -> card


def position_hand(*, position: StudPosition | Sequence[str], pot: int, stacks: Sequence[int],
                  history: Sequence[str] = (), profile: StudProfile = HOME_RULES) -> tuple[StudHand, int]:
    """The live hand at the decision and the dead money (see the module docstring)."""
    rebuilt = rebuild(position=position, pot=pot, stacks=stacks, history=history, profile=profile)
    return rebuilt.hand, rebuilt.dead_money


def rebuild(*, position: StudPosition | Sequence[str], pot: int, stacks: Sequence[int],
            history: Sequence[str] = (), profile: StudProfile = HOME_RULES) -> Rebuilt:
    """The live hand at the decision, the dead money and the other players' given hole cards."""
    if not isinstance(position, StudPosition):
        position = parse_position(list(position))
    players = position.players
    n = len(players)
    if isinstance(stacks, str) or len(stacks) != n:
        raise PositionInputError(f"give one stack per player still in ({n}), got {len(stacks)}")
    for i, s in enumerate(stacks):
        if isinstance(s, bool) or not isinstance(s, int) or s <= 0:
            raise PositionInputError(
                f"player {i + 1}'s stack at the start of the round must be a whole number > 0, got {s!r} "
                "(a player all-in before this round: give the hand as a hand history instead)")
    round_index = position.street - 1
    per_player = profile.ante + (profile.bring_in if round_index > 0 else 0)
    if isinstance(pot, bool) or not isinstance(pot, int) or pot < n * per_player:
        raise PositionInputError(f"the pot at the start of round {round_index + 1} must be a whole number "
                                 f"of at least {n * per_player} ({n} players' antes"
                                 f"{' and the bring-in called' if round_index else ''}), got {pot!r}")
    known = {i: p.hole for i, p in enumerate(players) if p.hole is not None}
    seen = set(position.known_cards())
    free = iter(c for c in range(DECK_SIZE) if c not in seen)
    holes = [p.hole if p.hole is not None else next(free) for p in players]
    hand = StudHand(stacks=tuple(s + per_player for s in stacks), profile=profile)
    for r in range(round_index + 1):
        for seat in list(hand.deal_due):
            up = players[seat].up[r]
            hand.deal(seat, (holes[seat], up) if r == 0 else (up,))
        if r < round_index:
            _call_around(hand)
    for step in history:
        if hand.phase is not Phase.BET or hand.actor is None:
            raise PositionInputError(f'the betting so far goes on after the round ended, at "{step}"')
        try:
            hand.act(Action.parse(hand.actor, step))
        except IllegalActionError as exc:
            raise PositionInputError(f'the betting so far cannot be played: "{step}": {exc}') from None
    if hand.phase is not Phase.BET or hand.actor is None:
        raise PositionInputError("the betting so far ends the round: there is no decision left")
    if hand.actor not in known:
        raise PositionInputError(f"player {hand.actor + 1} is to act here (the betting so far: "
                                 f"{', '.join(history) or 'none'}): give that player's hole card")
    mine = known.pop(hand.actor)
    assert mine == hand.down[hand.actor]
    return Rebuilt(hand=hand, dead_money=pot - n * per_player, known=known)


def _call_around(hand: StudHand) -> None:
    """An earlier round: the bring-in posted and called, later rounds checked through."""
    while hand.phase is Phase.BET:
        legal = hand.legal()
        kind = ActionKind.BRING_IN if legal.bring_in is not None else ActionKind.CHECK_CALL
        hand.act(Action(player=legal.player, kind=kind))
