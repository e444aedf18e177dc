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
from exactodds.stud.decide.models import BRING_IN, CAP, Facing, Intent, OpponentModel, RaiseSize
from exactodds.stud.decide.strength import SIZES, _percentile_numerators, denominator, strength_table
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
    """The engine hand's state in arrays (each scalar a 1-element array, so the kernel can change it)."""

    stacks: np.ndarray
    contributed: np.ndarray
    round_bets: np.ndarray
    folded: np.ndarray
    hole: np.ndarray
    up: np.ndarray  # n x 4
    round_index: np.ndarray
    level: np.ndarray
    full_level: np.ndarray
    wagers: np.ndarray
    last_aggressor: np.ndarray
    pending: np.ndarray
    may_raise: np.ndarray
    opener: np.ndarray
    actor: np.ndarray
    phase: np.ndarray
    big_used: np.ndarray
    bring_in_due: np.ndarray
    capped: np.ndarray
    open_pair: np.ndarray

    def scratch(self) -> HandState:
        """An independent copy (each thread plays its worlds in its own)."""
        return HandState(*(a.copy() for a in self))


class ModelTables(NamedTuple):
    """Every model's rules laid end to end (``first``/``count`` per model); -1 where a condition is not
    checked; ``size`` the rules of each model; ``seat`` gives each player's model, ``later`` the player's
    own."""

    first: np.ndarray
    size: np.ndarray
    largest: np.ndarray
    facing: np.ndarray
    rounds: np.ndarray
    paired: np.ndarray
    class_lo: np.ndarray
    class_hi: np.ndarray
    covers: np.ndarray
    call_max: np.ndarray
    bets_below: np.ndarray
    opp_max: np.ndarray
    opp_min: np.ndarray
    strength_lo: np.ndarray  # rules x 6: the threshold numerator for k own cards, -1 none
    strength_hi: np.ndarray
    p_fold: np.ndarray
    p_pass: np.ndarray
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
    n = hand.n
    up = np.zeros((n, 4), dtype=np.int64)
    for q in range(n):
        up[q, :len(hand.up[q])] = hand.up[q]
    bits = sum(1 << q for q in r.pending)
    raise_bits = sum(1 << q for q in r.may_raise)
    return HandState(
        stacks=np.array(hand.stacks, dtype=np.int64), contributed=np.array(hand.contributed, dtype=np.int64),
        round_bets=np.array(hand.round_bets, dtype=np.int64), folded=np.array(hand.folded, dtype=np.bool_),
        hole=np.zeros(n, dtype=np.int64), up=up, round_index=_one(hand.round_index), level=_one(r.level),
        full_level=_one(r.full_level), wagers=_one(r.wagers),
        last_aggressor=_one(-1 if r.last_aggressor is None else r.last_aggressor), pending=_one(bits),
        may_raise=_one(raise_bits), opener=_one(r.opener), actor=_one(hand.actor),
        phase=_one(_PHASE[hand.phase]),
        big_used=_one(r.big_used, np.bool_), bring_in_due=_one(r.bring_in_due, np.bool_),
        capped=_one(r.capped, np.bool_), open_pair=_one(r.open_pair, np.bool_))


def _threshold(value: object, k: int) -> int:
    """The least strength numerator of ``k`` cards at or above the fraction ``value``."""
    from fractions import Fraction

    assert isinstance(value, Fraction)
    whole = denominator(k)
    return -((-value.numerator * whole) // value.denominator)


def model_tables(models: Sequence[OpponentModel], seat: Sequence[int], later: int) -> ModelTables:
    """The rule tables of ``models``; ``seat[p]`` is player p's model (an index), ``later`` the player's."""
    rows: dict[str, list[object]] = {name: [] for name in ModelTables._fields[3:17]}
    first, size, largest = [], [], []
    for model in models:
        first.append(len(rows["facing"]))
        size.append(len(model.rules))
        largest.append(model.raise_size is RaiseSize.LARGEST)
        for rule in model.rules:
            w = rule.when
            rows["facing"].append(7 if w.facing is None else sum(_FACING[f] for f in w.facing))
            rows["rounds"].append(15 if w.rounds is None else sum(1 << r for r in w.rounds))
            rows["paired"].append(-1 if w.paired is None else int(w.paired))
            rows["class_lo"].append(-1 if w.hand_at_least is None else int(w.hand_at_least))
            rows["class_hi"].append(-1 if w.hand_below is None else int(w.hand_below))
            rows["covers"].append(-1 if w.top_card_covers_board is None else int(w.top_card_covers_board))
            rows["call_max"].append(-1 if w.to_call_at_most is None else
                                    (-2 if w.to_call_at_most == BRING_IN else int(w.to_call_at_most)))
            rows["bets_below"].append(-1 if w.bets_below is None else
                                      (-2 if w.bets_below == CAP else int(w.bets_below)))
            rows["opp_max"].append(-1 if w.opponents_at_most is None else w.opponents_at_most)
            rows["opp_min"].append(-1 if w.opponents_at_least is None else w.opponents_at_least)
            rows["strength_lo"].append([-1 if w.strength_at_least is None or k < 2 else
                                        _threshold(w.strength_at_least, k) for k in range(6)])
            rows["strength_hi"].append([-1 if w.strength_below is None or k < 2 else
                                        _threshold(w.strength_below, k) for k in range(6)])
            rows["p_fold"].append(float(rule.probability(Intent.FOLD)))
            rows["p_pass"].append(float(rule.probability(Intent.PASSIVE)))
    ints = {name: np.array(v, dtype=np.int64) for name, v in rows.items() if not name.startswith("p_")}
    return ModelTables(first=np.array(first, dtype=np.int64), size=np.array(size, dtype=np.int64),
                       largest=np.array(largest, dtype=np.bool_), **ints,
                       p_fold=np.array(rows["p_fold"], dtype=np.float64),
                       p_pass=np.array(rows["p_pass"], dtype=np.float64),
                       seat=np.array(seat, dtype=np.int64), later=later)


@cache
def card_tables() -> Tables:
    """The hand-rank table and the strength tables the kernel reads."""
    offsets = np.zeros(6, dtype=np.int64)
    offsets[3] = comb(52, 2)
    offsets[4] = comb(52, 2) + comb(52, 3)
    assert SIZES == (2, 3, 4)
    return Tables(rank_table=rank_table().astype(np.int64), binom=BINOM,
                  floors=np.array(CATEGORY_FLOOR, dtype=np.int64), percentile=_percentile_numerators(),
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
        play_hands(lo, hi, setting, start, start.scratch(), tables, worlds, deck, roots, out)

    run_spans(span, count, threads=threads, chunks=max(1, min(64, math.ceil(count / 256))))
    return actions, out
