"""The solve's root: a heads-up hand of the real engine at the start of round 2, 3 or 4, then the
betting so far in that round.

The engine needs hole cards to deal; the public tree does not depend on them, so the root hand holds
placeholder hole cards (any cards the caller says are free) and the showdown values come from the
ranges instead. With ``realize_pot`` (and an even pot of at least 4) the earlier rounds are bet so
that the engine's own pot is the pot asked for, which the plain reference uses to read payoffs
straight from the engine.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, replace

from exactodds.cards import format_cards
from exactodds.errors import ExactOddsError, IllegalActionError
from exactodds.stud.engine.actions import Action, action_words
from exactodds.stud.engine.rules import HOME_RULES, StudProfile
from exactodds.stud.engine.state import Phase, StudHand


class SolveError(ExactOddsError):
    """A position the heads-up solver does not cover (more than two players, an early round, a player
    all-in, impossible stacks or bets)."""


class FirstRoundError(SolveError):
    """A first-round position: beyond an exact solve here (the methods page says what it would take)."""


SECOND_ROUND = 1  # 0-based: the second round (two up cards each), the first the solver covers
THIRD_ROUND = 2
SECOND_ROUND_MIN_BUDGET = 60.0  # seconds: a full-deck second-round solve takes minutes, a small one seconds
LAST_ROUND = 3
FIRST_ROUND_WORDS = ("the first round (one up card each) is not covered: its tree holds about 10^13 "
                     "information sets, beyond an exact solve on this machine (the solver's methods page "
                     "says what it would take); exactodds stud decide gives the first-round decision")


@dataclass(frozen=True, kw_only=True)
class RootSpec:
    """What fixes the public tree: both players' up cards (seat order), the pot and stacks at the start
    of the round being solved, the betting so far in that round and the rules profile."""

    up: tuple[tuple[int, ...], tuple[int, ...]]
    pot: int
    stacks: tuple[int, int]
    history: tuple[str, ...] = ()
    profile: StudProfile = HOME_RULES

    @property
    def round_index(self) -> int:
        """0-based round: 1 for the second round, 2 for the third, 3 for the last."""
        return len(self.up[0]) - 1


def check_spec(spec: RootSpec) -> None:
    """Refuse a root the solver does not cover, naming what is supported."""
    lengths = {len(u) for u in spec.up}
    if len(spec.up) != 2:
        raise SolveError(f"the solver is heads-up: it needs exactly 2 players still in, got {len(spec.up)}")
    if lengths == {1}:
        raise FirstRoundError(FIRST_ROUND_WORDS)
    if len(lengths) != 1 or lengths.pop() not in (2, 3, 4):
        counts = " and ".join(str(len(u)) for u in spec.up)
        raise SolveError(f"the solver covers the second round (2 up cards each), the third (3) and the last "
                         f"(4), with as many up cards for both players, got {counts} up cards")
    for seat, stack in enumerate(spec.stacks, 1):
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise SolveError(f"player {seat}'s stack at the start of the round must be a whole number "
                             f"> 0 (a player all-in has nothing to decide), got {stack!r}")
    minimum = 2 * (spec.profile.ante + spec.profile.bring_in)
    if isinstance(spec.pot, bool) or not isinstance(spec.pot, int) or spec.pot < minimum:
        raise SolveError(f"the pot at the start of the round must be a whole number >= {minimum} "
                         f"(two antes and the bring-in called), got {spec.pot!r}")


def root_hand(spec: RootSpec, *, holes: Sequence[int], realize_pot: bool = False) -> StudHand:
    """A heads-up engine hand at the solve's root, with ``holes`` as hole cards (seat order).

    Raises SolveError when the betting so far is not legal."""
    check_spec(spec)
    per_player = spec.pot // 2 if realize_pot else spec.profile.ante + spec.profile.bring_in
    if realize_pot and spec.pot % 2:
        raise SolveError(f"the engine can only reach an even heads-up pot, got {spec.pot}")
    hand = StudHand(stacks=tuple(s + per_player for s in spec.stacks), profile=spec.profile)
    early = _early_bets(per_player - spec.profile.ante, spec.profile, rounds=spec.round_index)
    for round_index in range(spec.round_index + 1):
        for seat in list(hand.deal_due):
            card = spec.up[seat][round_index]
            hand.deal(seat, [holes[seat], card] if round_index == 0 else [card])
        if round_index < spec.round_index:
            _bet_round(hand, early[round_index] if round_index < len(early) else 0)
    if realize_pot and (hand.pot_total != spec.pot or tuple(hand.stacks) != tuple(spec.stacks)):
        # the early rounds' betting depends on the up cards (a pair showing allows the big bet)
        raise SolveError(f"the engine cannot reach a pot of {spec.pot} with stacks {spec.stacks[0]} and "
                         f"{spec.stacks[1]} through these up cards' early betting")
    for step in spec.history:
        if hand.phase is not Phase.BET:
            raise SolveError(f'the betting so far goes on after the round ended, at "{step}"')
        try:
            hand.act(Action.parse(hand.actor if hand.actor is not None else 0, step))
        except IllegalActionError as exc:
            raise SolveError(f'the betting so far cannot be played: "{step}": {exc}') from None
    if hand.phase is not Phase.BET:
        raise SolveError("the betting so far ends the round: there is no decision left to solve")
    return hand


def history_words(spec: RootSpec) -> tuple[str, ...]:
    """The betting so far in the solved round in words ("check", "bet 4", "raise to 8"), each action as
    its player saw it."""
    hand = root_hand(replace(spec, history=()), holes=free_cards(spec, avoid=()))
    out = []
    for step in spec.history:
        out.append(action_words(step, to_call=hand.legal().call or 0))
        assert hand.actor is not None
        hand.act(Action.parse(hand.actor, step))
    return tuple(out)


def _early_bets(chips: int, profile: StudProfile, *, rounds: int) -> tuple[int, int]:
    """Each player's bets on the first ``rounds`` rounds (1 or 2) adding up to ``chips`` (bring-in
    called, then bets)."""
    small = profile.small_bet
    if chips == profile.bring_in or (rounds == 1 and chips % small == 0):
        return (chips, 0)
    if rounds == 1:
        raise SolveError(f"the engine cannot reach a pot of {2 * (chips + profile.ante)} heads-up "
                         "through the first round alone")
    if (chips - profile.bring_in) % small == 0:
        return (profile.bring_in, chips - profile.bring_in)
    if chips % small == 0:
        return (chips, 0)
    raise SolveError(f"the engine cannot reach a pot of {2 * (chips + profile.ante)} heads-up")


def _bet_round(hand: StudHand, level: int) -> None:
    """Bet one early round up to ``level`` chips each (bring-in, complete, bets and calls), then call."""
    while hand.phase is Phase.BET:
        legal = hand.legal()
        assert hand.actor is not None
        me = hand.actor
        if legal.bring_in is not None:
            action = Action(player=me, kind="pb")
            if level > legal.bring_in:
                action = Action(player=me, kind="cbr", amount=min(legal.raise_to))
        else:
            bigger = [t for t in legal.raise_to if t <= level]
            raising = bool(bigger) and hand.round_bets[me] < level and max(bigger) > max(hand.round_bets)
            action = (Action(player=me, kind="cbr", amount=max(bigger)) if raising
                      else Action(player=me, kind="cc"))
        hand.act(action)


def free_cards(spec: RootSpec, *, avoid: Sequence[int]) -> tuple[int, int]:
    """Two placeholder hole cards: neither an up card nor in ``avoid``."""
    used = set(spec.up[0]) | set(spec.up[1]) | set(avoid)
    free = [c for c in range(52) if c not in used]
    if len(free) < 2:  # pragma: no cover - at most 8 up cards and 4 avoided
        raise SolveError(f"no free card beside {format_cards(sorted(used))}")
    return free[0], free[1]


def copy_hand(hand: StudHand) -> StudHand:
    """An independent copy of an engine hand (the tree explores each action on its own copy)."""
    return copy.deepcopy(hand)
