"""Sampled hands played out by the compiled kernel (:mod:`exactodds.stud.decide.kernels.hands`): the
typed bundles it reads (the rules, the state at the decision, the models as rule tables, the worlds,
the card tables) and :func:`play_out`, which runs it over the worlds on several threads.

Each world is one sampled hand: every other player's hole card and a run of the cards to come; the
kernel plays it from the decision for each of the player's legal actions, every player acting by its
model and the player's later decisions by ``later``, and returns the player's chips from now. It is
the fast path of the walk over pre-drawn worlds (:class:`~exactodds.stud.decide.walk.Walk` with
:class:`~exactodds.stud.decide.deals.PreDrawn`), which the tests compare it with world by world.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cache
from math import comb
from typing import NamedTuple

import numpy as np

from exactodds.combinatorics import BINOM
from exactodds.handrank import CATEGORY_FLOOR, rank_table
from exactodds.stud.decide import hand_layout as layout
from exactodds.stud.decide.models import BRING_IN, CAP, Conditions, Facing, Intent, OpponentModel, RaiseSize
from exactodds.stud.decide.strength import SIZES, denominator, percentile_numerators, strength_table
from exactodds.stud.engine.actions import Action, ActionKind
from exactodds.stud.engine.rules import StudProfile
from exactodds.stud.engine.state import Phase, StudHand
from exactodds.threaded import run_spans

UNIFORMS = 64  # random numbers a world carries for mixed choices (reused in turn past that many)
KINDS = {ActionKind.BRING_IN: 0, ActionKind.CHECK_CALL: 1, ActionKind.BET_RAISE: 2, ActionKind.FOLD: 3}
_FACING = {Facing.BRING_IN: 1, Facing.NOTHING: 2, Facing.BET: 4}
_PHASE = {Phase.DONE: 0, Phase.DEAL: 1, Phase.BET: 2}


class Rules(NamedTuple):
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    open_pair_big_bet: bool
    max_raises: int
    cap_above_players: int
    fold_without_bet: bool
    rounds: int
    small_bet_rounds: int


class Setting(NamedTuple):
    rules: Rules
    me: int
    dead_money: int
    first_round: int  # the first round whose cards are dealt after the decision


class HandState(NamedTuple):
    """The engine hand's state in two arrays laid out by :mod:`exactodds.stud.decide.hand_layout`:
    ``table`` the round's scalars, ``seats`` a row per player."""

    table: np.ndarray  # TABLE_FIELDS int64
    seats: np.ndarray  # players x SEAT_FIELDS int64


class ModelTables(NamedTuple):
    """Every model's rules laid end to end, laid out by :mod:`exactodds.stud.decide.hand_layout`:
    ``heads`` a row per model (its first rule, how many, whether it raises the largest amount, what of
    its cards it reads), ``rules`` a row per rule (-1 where a condition is not checked), ``chances``
    each rule's (fold, check or call) probabilities; ``seat`` gives each player's model, ``later`` the
    player's own."""

    heads: np.ndarray
    rules: np.ndarray
    chances: np.ndarray
    seat: np.ndarray
    later: int


class Worlds(NamedTuple):
    holes: np.ndarray  # worlds x players (the player's own hole card in its column)
    cards: np.ndarray  # worlds x streets x players
    uniforms: np.ndarray  # worlds x UNIFORMS


class Tables(NamedTuple):
    rank_table: np.ndarray
    binom: np.ndarray
    floors: np.ndarray
    percentile: np.ndarray
    strength: np.ndarray
    offsets: np.ndarray


def rules_of(profile: StudProfile) -> Rules:
    return Rules(ante=profile.ante, bring_in=profile.bring_in, small_bet=profile.small_bet,
                 big_bet=profile.big_bet,
                 open_pair_big_bet=profile.open_pair_big_bet, max_raises=profile.max_raises,
                 cap_above_players=profile.cap_above_players, fold_without_bet=profile.fold_without_bet,
                 rounds=profile.rounds, small_bet_rounds=profile.small_bet_rounds)


def _one(value: int, dtype: type = np.int64) -> np.ndarray:
    return np.array([value], dtype=dtype)


def start_state(hand: StudHand) -> HandState:
    """The hand's state at its decision (hole cards are filled per world)."""
    r = hand.round
    assert r is not None and hand.actor is not None
    seats = np.zeros((hand.n, layout.SEAT_FIELDS), dtype=np.int64)
    for q in range(hand.n):
        seats[q, layout.STACK] = hand.stacks[q]
        seats[q, layout.CONTRIBUTED] = hand.contributed[q]
        seats[q, layout.ROUND_BET] = hand.round_bets[q]
        seats[q, layout.FOLDED] = hand.folded[q]
        seats[q, layout.UP:layout.UP + len(hand.up[q])] = hand.up[q]
    table = np.zeros(layout.TABLE_FIELDS, dtype=np.int64)
    for field, value in ((layout.ROUND, hand.round_index), (layout.LEVEL, r.level),
                         (layout.FULL_LEVEL, r.full_level), (layout.WAGERS, r.wagers),
                         (layout.LAST_AGGRESSOR, -1 if r.last_aggressor is None else r.last_aggressor),
                         (layout.PENDING, sum(1 << q for q in r.pending)),
                         (layout.MAY_RAISE, sum(1 << q for q in r.may_raise)), (layout.OPENER, r.opener),
                         (layout.ACTOR, hand.actor), (layout.PHASE, _PHASE[hand.phase]),
                         (layout.BIG_USED, r.big_used), (layout.BRING_IN_DUE, r.bring_in_due),
                         (layout.CAPPED, r.capped), (layout.OPEN_PAIR, r.open_pair)):
        table[field] = int(value)
    return HandState(table=table, seats=seats)


def _threshold(value: object, k: int) -> int:
    """The least strength numerator of ``k`` cards at or above the fraction ``value``."""
    from fractions import Fraction

    assert isinstance(value, Fraction)
    whole = denominator(k)
    return -((-value.numerator * whole) // value.denominator)


def model_tables(models: Sequence[OpponentModel], seat: Sequence[int], later: int) -> ModelTables:
    """The rule tables of ``models``; ``seat[p]`` is player p's model (an index), ``later`` the player's."""
    heads = np.zeros((len(models), layout.MODEL_FIELDS), dtype=np.int64)
    rows: list[list[int]] = []
    chances: list[tuple[float, float]] = []
    for m, model in enumerate(models):
        heads[m, layout.FIRST_RULE] = len(rows)
        heads[m, layout.RULE_COUNT] = len(model.rules)
        heads[m, layout.LARGEST] = model.raise_size is RaiseSize.LARGEST
        for rule in model.rules:
            row = _rule_row(rule.when)
            rows.append(row)
            if any(row[f] != -1 for f in (layout.PAIRED, layout.CLASS_LO, layout.CLASS_HI)):
                heads[m, layout.NEEDS] |= layout.NEEDS_CLASS
            if any(v != -1 for v in row[layout.STRENGTH_LO:layout.STRENGTH_HI + 6]):
                heads[m, layout.NEEDS] |= layout.NEEDS_STRENGTH
            chances.append((float(rule.probability(Intent.FOLD)), float(rule.probability(Intent.PASSIVE))))
    return ModelTables(heads=heads, rules=np.array(rows, dtype=np.int64).reshape(-1, layout.RULE_FIELDS),
                       chances=np.array(chances, dtype=np.float64).reshape(-1, 2),
                       seat=np.array(seat, dtype=np.int64), later=later)


def _rule_row(w: Conditions) -> list[int]:
    """One rule's conditions as a row of :data:`~exactodds.stud.decide.hand_layout.RULE_FIELDS`."""
    row = [-1] * layout.RULE_FIELDS
    row[layout.FACING_BITS] = 7 if w.facing is None else sum(_FACING[f] for f in w.facing)
    row[layout.ROUND_BITS] = 15 if w.rounds is None else sum(1 << r for r in w.rounds)
    if w.paired is not None:
        row[layout.PAIRED] = int(w.paired)
    if w.hand_at_least is not None:
        row[layout.CLASS_LO] = int(w.hand_at_least)
    if w.hand_below is not None:
        row[layout.CLASS_HI] = int(w.hand_below)
    if w.top_card_covers_board is not None:
        row[layout.COVERS] = int(w.top_card_covers_board)
    if w.to_call_at_most is not None:
        row[layout.CALL_MAX] = -2 if w.to_call_at_most == BRING_IN else int(w.to_call_at_most)
    if w.bets_below is not None:
        row[layout.BETS_BELOW] = -2 if w.bets_below == CAP else int(w.bets_below)
    if w.opponents_at_most is not None:
        row[layout.OPP_MAX] = w.opponents_at_most
    if w.opponents_at_least is not None:
        row[layout.OPP_MIN] = w.opponents_at_least
    for k in range(2, 6):
        if w.strength_at_least is not None:
            row[layout.STRENGTH_LO + k] = _threshold(w.strength_at_least, k)
        if w.strength_below is not None:
            row[layout.STRENGTH_HI + k] = _threshold(w.strength_below, k)
    return row


@cache
def card_tables() -> Tables:
    """The hand-rank table and the strength tables the kernel reads."""
    offsets = np.zeros(6, dtype=np.int64)
    offsets[3] = comb(52, 2)
    offsets[4] = comb(52, 2) + comb(52, 3)
    assert SIZES == (2, 3, 4)
    return Tables(rank_table=rank_table().astype(np.int64), binom=BINOM,
                  floors=np.array(CATEGORY_FLOOR, dtype=np.int64), percentile=percentile_numerators(),
                  strength=strength_table(), offsets=offsets)


def root_actions(actions: Sequence[Action]) -> np.ndarray:
    """The player's legal actions as (kind, amount) rows for the kernel."""
    rows = [[KINDS[ActionKind(a.kind)], a.amount or 0] for a in actions]
    return np.array(rows, dtype=np.int64).reshape(-1, 2)


def play_out(hand: StudHand, player: int, *, holes: np.ndarray, cards: np.ndarray, uniforms: np.ndarray,
             models: Mapping[int, OpponentModel], later: OpponentModel, dead_money: int = 0,
             threads: int | None = None) -> tuple[tuple[Action, ...], np.ndarray]:
    """Each world played out for each legal action of ``player`` (who is to act): the actions and the
    player's chips from now, worlds x actions. ``holes``: worlds x players hole cards (the player's
    column is its own card); ``cards``: worlds x streets x players, the runs of cards to come;
    ``uniforms``: worlds x UNIFORMS numbers in [0, 1) for mixed choices."""
    from exactodds.stud.decide.kernels.hands import play_hands

    actions = hand.legal().actions()
    distinct: list[OpponentModel] = []
    for m in [*models.values(), later]:
        if not any(m is d for d in distinct):
            distinct.append(m)

    def index(model: OpponentModel) -> int:
        return next(i for i, d in enumerate(distinct) if d is model)

    seat = [index(models[q]) if q != player else index(later) for q in range(hand.n)]
    tables = model_tables(distinct, seat, index(later))
    start = start_state(hand)
    worlds = Worlds(holes=np.ascontiguousarray(holes, dtype=np.int64),
                    cards=np.ascontiguousarray(cards, dtype=np.int64),
                    uniforms=np.ascontiguousarray(uniforms, dtype=np.float64))
    count = len(holes)
    out = np.zeros((count, len(actions)), dtype=np.float64)
    setting = Setting(rules=rules_of(hand.profile), me=player, dead_money=dead_money,
                      first_round=hand.round_index + 1)
    roots = root_actions(actions)
    deck = card_tables()

    def span(lo: int, hi: int) -> None:
        play_hands(lo, hi, setting, start, tables, worlds, deck, roots, out)

    run_spans(span, count, threads=threads, chunks=max(1, min(64, math.ceil(count / 256))))
    return actions, out
