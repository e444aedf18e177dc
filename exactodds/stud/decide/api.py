"""The decision's entry point: :func:`decide_hand`, every legal action of the player to act in a live
hand with its EV in chips from now, the rest of the hand played out.

How (the result says which, :class:`~exactodds.stud.decide.result.DecideMethod`):

* **exact** when the estimated work fits the time budget: every deal of the cards to come and every
  assignment of the other players' hole cards, weighed by Bayes; the player's later decisions are
  the best response over what it sees.
* **sampled deals** when the hole-card assignments are few enough to weigh exactly: runs of the cards
  to come are sampled; the player's later decisions are the best response on the last round and
  follow a ``later`` model before it.
* **sampled hands** otherwise: the hole cards (from the Bayes belief) and the runs are sampled
  together, and every later decision of the player follows a ``later`` model.

Given several ``later`` models (by default ``bots`` and ``calling-station``), each action is valued
with the one of the highest mean on a separate pilot sample
(:func:`~exactodds.stud.decide.later.choose_later`): choosing the player's later play on the very
samples that value it would lean optimistic.

A sampled EV is the mean over independent samples (runs or hands, the same ones for every action)
with its standard error, and the difference of the two best actions has a paired standard error.
Sampling stops when every standard error is within ``target_share`` of the pot, or at the time budget,
or after exactly ``samples`` when given (then the result depends only on ``samples`` and ``seed``).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from fractions import Fraction
from math import perm

import numpy as np

from exactodds.errors import ExactOddsError
from exactodds.progress import Progress, or_none
from exactodds.stud.decide.belief import check_decision_point, weigh_holes
from exactodds.stud.decide.deals import EveryDeal
from exactodds.stud.decide.equilibrium import equilibrium_line
from exactodds.stud.decide.later import LaterPlay, choose_later
from exactodds.stud.decide.models import OpponentModel, load_model
from exactodds.stud.decide.position import rebuild
from exactodds.stud.decide.result import (
    ActionEV,
    DecideMethod,
    Decision,
    Difference,
    Opponent,
    later_summary,
    later_text,
    words_of,
)
from exactodds.stud.decide.sampling import MAX_WEIGHED_STATES, Sampled, sample
from exactodds.stud.decide.values import Values
from exactodds.stud.decide.walk import RootCells, Walk
from exactodds.stud.engine.actions import Action
from exactodds.stud.engine.state import StudHand
from exactodds.stud.engine.view import node_hole
from exactodds.stud.equity.position import StudPosition, parse_position

DEFAULT_BUDGET = 5.0
DEFAULT_SEED = 1
DEFAULT_LATER = ("bots", "calling-station")  # the player's later play: the better for each action
TARGET_SHARE = 0.01  # sampling stops when every standard error is within this share of the pot
MAX_EXACT_STATES = 100_000
WEIGHED_STREETS = 2  # sampled deals (hole-card states weighed): heads-up, this many streets to come at most
_NODES_PER_ROUND = 12  # betting nodes a round adds on a typical line
_CELLS_PER_SECOND = 2_000_000.0  # measured rate of the exact walk (cell x betting node)

Models = OpponentModel | str | Mapping[int, OpponentModel | str]
Later = OpponentModel | str | Sequence[OpponentModel | str]


class DecideError(ExactOddsError):
    """A decision that cannot be computed as asked (bad budget, sample size, seed or models)."""


def resolve_models(hand: StudHand, player: int, opponents: Models) -> dict[int, OpponentModel]:
    """Every other player's model: one model for all, or a mapping (0-based player -> model) naming each."""
    others = [q for q in range(hand.n) if q != player]
    if isinstance(opponents, OpponentModel | str):
        model = load_model(opponents)
        return {q: model for q in others}
    missing = [q for q in others if q not in opponents]
    if missing:
        raise DecideError(f"no opponent model for player {missing[0] + 1}")
    return {q: load_model(opponents[q]) for q in others}


def later_models(later: Later) -> tuple[OpponentModel, ...]:
    """The candidate models of the player's later play: one model, or several (each once, in order)."""
    given = [later] if isinstance(later, OpponentModel | str) else list(later)
    if not given:
        raise DecideError("give at least one model of your later play")
    out: list[OpponentModel] = []
    for m in given:
        model = load_model(m)
        if model.name not in {o.name for o in out}:
            out.append(model)
    return tuple(out)


def exact_seconds(hand: StudHand, *, states: int, unseen: int, held: int) -> float:
    """The estimated time of the exact walk (it grows with every street to come)."""
    live = len(hand.in_hand)
    avail = unseen - held
    cells = float(states)
    work = cells * _NODES_PER_ROUND
    for _ in range(hand.round_index + 1, hand.profile.rounds):
        cells *= perm(avail, live)
        avail -= live
        work += cells * _NODES_PER_ROUND
    return work / _CELLS_PER_SECOND


def _check(budget: float, samples: int | None, seed: int) -> None:
    if not (isinstance(budget, int | float) and not isinstance(budget, bool) and math.isfinite(budget)
            and budget >= 0):
        raise DecideError(f"the time budget must be a number of seconds >= 0, got {budget!r}")
    if samples is not None and (isinstance(samples, bool) or not isinstance(samples, int)
                                or not 2 <= samples <= 10**7):
        raise DecideError(f"samples must be a whole number from 2 to 10,000,000, got {samples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise DecideError(f"the seed must be a whole number >= 0, got {seed!r}")


def decide_hand(hand: StudHand, *, player: int | None = None, opponents: Models = "bots",
                dead: Iterable[int] = (), budget: float = DEFAULT_BUDGET, samples: int | None = None,
                seed: int = DEFAULT_SEED, later: Later = DEFAULT_LATER,
                target_share: float = TARGET_SHARE, dead_money: int = 0, evidence_from_round: int = 0,
                known: Mapping[int, int] | None = None, method: DecideMethod | None = None,
                equilibrium_budget: float = 0.0, equilibrium_iterations: int | None = None,
                progress: Progress | None = None,
                stop: Callable[[], bool] | None = None) -> Decision:
    """Every legal action of ``player`` (the player to act, by default) with its EV in chips from now.

    ``opponents``: the other players' model (a preset name, a TOML path or an
    :class:`OpponentModel`), or a mapping naming each other player's (0-based); ``dead``: cards known
    to be out of play; ``budget``: seconds for the whole answer (exact when its estimate fits,
    else sampled until every standard error is within ``target_share`` of the pot or the budget is
    spent); ``samples``: a fixed sample size instead (reproducible with ``seed``); ``later``: the
    model, or the models to choose from for each action on a separate pilot sample, of the player's own
    later play where its best response is not computed; ``dead_money``:
    chips in the pot that belong to no seat; ``evidence_from_round``: only actions from this round
    (0-based) on tell about the hole cards; ``known``: other players' hole cards the player knows;
    ``method``: force a method (None: exact when it fits the budget, else the sampling that fits);
    ``equilibrium_budget``: seconds for the heads-up equilibrium line (0: none), or
    ``equilibrium_iterations``: a number of CFR+ iterations instead (the line then does not depend on
    the machine's speed)."""
    started = time.monotonic()
    actor = hand.actor if player is None else player
    if actor is None:
        raise DecideError("no player is to act in this hand")
    check_decision_point(hand, actor)
    _check(budget, samples, seed)
    models = resolve_models(hand, actor, opponents)
    candidates = later_models(later)
    dead = tuple(dead)
    belief = weigh_holes(hand, actor, models=models, dead=dead, from_round=evidence_from_round, known=known)
    report = or_none(progress)
    size = belief.joint_size()
    streets = hand.profile.rounds - 1 - hand.round_index
    exact_work = (exact_seconds(hand, states=size, unseen=len(belief.unseen), held=len(belief.seats))
                  if size <= MAX_EXACT_STATES else math.inf)
    if method is None:
        if exact_work <= budget or streets == 0 and size <= MAX_EXACT_STATES:
            method = DecideMethod.EXACT
        elif size <= MAX_WEIGHED_STATES and 0 < streets <= WEIGHED_STREETS and len(hand.in_hand) == 2:
            method = DecideMethod.SAMPLED_DEALS  # heads-up: the best response on the last round
        else:
            method = DecideMethod.SAMPLED_HANDS
    elif method is DecideMethod.SAMPLED_DEALS and (size > MAX_WEIGHED_STATES or streets == 0):
        raise DecideError("sampled deals need a card to come and at most "
                          f"{MAX_WEIGHED_STATES:,} hole-card combinations (here {size:,})")
    values: dict[Action, tuple[Fraction, float | None]]
    sampled: Sampled | None = None
    later_play: LaterPlay | None = None
    if method is DecideMethod.EXACT:
        states, weights, _ = belief.states(limit=MAX_EXACT_STATES)
        report.stage("counting every deal", steps=None)
        walk = Walk(hand, actor, others=belief.others, states=states, models=models, stop=stop,
                    dealing=EveryDeal(unseen=belief.unseen, dealt_before=_dealt(hand), states=states),
                    cells=RootCells.of_states(weights), dead_money=dead_money)
        total = int(sum(int(w) for w in weights.tolist()))
        values = {a: (_fraction(v) / total, None) for a, v in walk.action_values().items()}
        hidden, count = len(states), None
    else:
        weighed = method is DecideMethod.SAMPLED_DEALS
        if len(candidates) > 1:
            report.stage("choosing your later play", steps=None)
        later_play = choose_later(hand, actor, belief, models, candidates, samples=samples, budget=budget,
                                  seed=seed, dead_money=dead_money, stop=stop)
        sampled = sample(hand, actor, belief, models, later_play, weighed=weighed, samples=samples,
                         seed=seed, budget=budget - (time.monotonic() - started),
                         target=target_share * (hand.pot_total + dead_money),
                         dead_money=dead_money, progress=report, stop=stop)
        values = {a: (_mean(v), sampled.error(a)) for a, v in sampled.values.items()}
        hidden, count = (size if weighed else 0), sampled.count
    report.end()
    legal = hand.legal()
    chosen = {} if later_play is None else later_play.chosen
    completing = hand.round_index == 0 and hand.round is not None and hand.round.wagers == 0
    actions = tuple(ActionEV(action=a, words=words_of(a, to_call=legal.call or 0, completing=completing),
                             ev=ev, standard_error=se,
                             later_play=later_text(method, chosen.get(a)))
                    for a, (ev, se) in values.items())
    line, note = None, ""
    if equilibrium_iterations is not None:
        line, note = equilibrium_line(hand, actor, budget=None, iterations=equilibrium_iterations,
                                      dead_money=dead_money, dead=dead)
    elif equilibrium_budget > 0:
        line, note = equilibrium_line(hand, actor, budget=equilibrium_budget, dead_money=dead_money,
                                      dead=dead)
    opponents_seen = tuple(Opponent(player=s.player, model=s.model, in_hand=not hand.folded[s.player],
                                    hole_cards=s.cards) for s in belief.seats)
    return Decision(
        player=actor, round_index=hand.round_index, hole=node_hole(hand, actor),
        up=tuple(tuple(u) for u in hand.up), in_hand=tuple(not f for f in hand.folded),
        pot=hand.pot_total + dead_money, to_call=legal.call or 0, actions=actions,
        method=method, later_play=later_summary(method, () if later_play is None else later_play.candidates),
        later_candidates=() if later_play is None else tuple(m.name for m in later_play.candidates),
        pilot_samples=None if later_play is None or not later_play.pilot else later_play.pilot,
        samples=count, seed=None if count is None else seed,
        target=None if count is None else target_share * (hand.pot_total + dead_money), hidden_states=hidden,
        opponents=opponents_seen, surprises=belief.surprises, equilibrium=line, equilibrium_note=note,
        difference=_difference(actions, sampled), seconds=time.monotonic() - started,
        pair_errors={} if sampled is None else _pair_errors(sampled))


def _dealt(hand: StudHand) -> dict[int, int]:
    return {q: len(hand.up[q]) for q in range(hand.n)}


def _fraction(values: Values) -> Fraction:
    total = values.total()
    assert isinstance(total, Fraction)
    return total


def _mean(v: np.ndarray) -> Fraction:
    """A sample mean as a fraction (exact when the samples are whole numbers, else to 1e-12)."""
    whole = np.rint(v)
    if np.array_equal(whole, v) and np.abs(v).max(initial=0) < 2**50:
        return Fraction(int(whole.astype(np.int64).sum()), len(v))
    return Fraction(round(float(v.mean()) * 10**12), 10**12)


def _pair_errors(sampled: Sampled) -> dict[tuple[str, str], float]:
    out = {}
    actions = list(sampled.values)
    for i, a in enumerate(actions):
        for b in actions[i + 1:]:
            d = sampled.values[a] - sampled.values[b]
            out[(a.text(), b.text())] = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else math.inf
    return out


def _difference(actions: tuple[ActionEV, ...], sampled: Sampled | None) -> Difference | None:
    if len(actions) < 2:
        return None
    first, second = sorted(actions, key=lambda a: -a.ev)[:2]
    error = None
    if sampled is not None:
        d = sampled.values[first.action] - sampled.values[second.action]
        error = float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else math.inf
    return Difference(best=first.action.text(), second=second.action.text(), ev=first.ev - second.ev,
                      standard_error=error)


def decide_position(*, position: StudPosition | Sequence[str], pot: int, stacks: Sequence[int],
                    history: Sequence[str] = (), opponents: Models = "bots", budget: float = DEFAULT_BUDGET,
                    samples: int | None = None, seed: int = DEFAULT_SEED,
                    later: Later = DEFAULT_LATER, equilibrium_budget: float = 0.0,
                    progress: Progress | None = None, stop: Callable[[], bool] | None = None) -> Decision:
    """:func:`decide_hand` for a position given by its cards (``"Kh | 9c 4d"`` per player still in,
    ``"? | ..."`` for an unknown hole card, the player to act's known), the pot and stacks at the start of
    the current round and the betting since (``history``, e.g. ``("cbr 2", "cc")``); players are
    numbered 0.. in seat order. Only this round's betting tells about the hole cards (see
    :mod:`exactodds.stud.decide.position`)."""
    if not isinstance(position, StudPosition):
        position = parse_position(list(position))
    rebuilt = rebuild(position=position, pot=pot, stacks=stacks, history=history)
    hand = rebuilt.hand
    return decide_hand(hand, opponents=opponents, dead=position.dead, budget=budget, samples=samples,
                       seed=seed, later=later, dead_money=rebuilt.dead_money,
                       evidence_from_round=hand.round_index, known=rebuilt.known,
                       equilibrium_budget=equilibrium_budget, progress=progress, stop=stop)
