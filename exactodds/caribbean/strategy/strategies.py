"""Playing strategies as data: built-in rules, user rules, strategy files, and their exact cost.

A strategy decides raise or fold for every (player hand, up card) situation. It is
evaluated over all 19,933,230,517,200 deals exactly, by applying it to every suit class
of player hands and every up card (:func:`exactodds.caribbean.analysis.game.evaluate_strategy`).

Built-in strategies (their published totals are checked by ``exactodds caribbean verify``):

* ``optimal``: raise exactly when EV(raise) > -1;
* ``rules-of-thumb``: pair or better raises, below A-K folds; A-K high raises if (1) the
  up card is 2 to Q and matches one of the player's ranks, or (2) the up card is A or K
  and the player holds a Q or J, or (3) the up card matches none of the player's ranks,
  the player holds a Q, and the up card is lower than the player's fourth-highest card;
* ``akj83``: raise with A-K-J-8-3 or better;
* ``matching-rank``: pair or better, and A-K high when a card matches the up card's rank;
* ``pair-plus``: raise any pair or better; ``ak-plus``: raise any A-K or better;
* ``always-raise``.

A user strategy is a Python file defining ``raise_hand(hand: str, up: str) -> bool``
(cards written like "As Kd 9h 5c 2s", "8c") or the faster
``raise_batch(hands: ndarray (n, 5), ups: ndarray (n,)) -> ndarray[bool]`` on card
integers; or a strategy table file (CSV, Parquet or JSON, as written by
``exactodds caribbean strategy``) with columns ``hand``, ``up`` and ``decision``.
Situations a table does not list follow the category rule: raise pair or better, else fold.
"""

from __future__ import annotations

import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import numpy as np

from exactodds.cards import RANK_CHARS, format_card, format_cards, parse_cards
from exactodds.caribbean.analysis.game import SituationOutcomes, evaluate_strategy
from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.decision.decide import Choice
from exactodds.caribbean.profile import PAY_CATEGORIES
from exactodds.errors import ExactOddsError, StrategyError
from exactodds.handrank import evaluate
from exactodds.jsonable import JSONDict, exact, with_float
from exactodds.progress import Progress, staged
from exactodds.symmetry import canonical_suit_maps, suit_signature

AK_HIGH = PAY_CATEGORIES.index("ak_high")
PAIR = PAY_CATEGORIES.index("pair")
QUEEN, JACK, KING, ACE = (RANK_CHARS.index(c) for c in "QJKA")

Rule = Callable[[SituationOutcomes], np.ndarray]


@dataclass(frozen=True, kw_only=True)
class Strategy:
    """A named rule giving a (classes, 52) raise mask for a profile's situations."""

    name: str
    description: str
    rule: Rule

    def raise_mask(self, outcomes: SituationOutcomes) -> np.ndarray:
        mask: np.ndarray = self.rule(outcomes) & outcomes.counts.valid
        return mask


@dataclass(frozen=True, kw_only=True)
class StrategyResult:
    """A strategy's exact whole-game result and its exact cost against optimal play."""

    result: GameResult
    optimal: GameResult

    @property
    def cost_units(self) -> Fraction:
        """Net units lost against optimal play over all deals (>= 0)."""
        return self.optimal.total_units - self.result.total_units

    @property
    def cost_per_ante(self) -> Fraction:
        return self.cost_units / self.result.total_combinations

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): exact totals, edges and the cost against optimal play."""
        r = self.result
        return {
            "strategy": r.strategy,
            "total_units": exact(r.total_units),
            "combinations": r.total_combinations,
            **with_float("house_edge", r.house_edge),
            **with_float("element_of_risk", r.element_of_risk),
            **with_float("raise_frequency", r.raise_frequency),
            "cost_vs_optimal_units": exact(self.cost_units),
            **with_float("cost_vs_optimal_per_ante", self.cost_per_ante),
        }


# --------------------------------------------------------------------------- built-in rules
def _ranks(outcomes: SituationOutcomes) -> np.ndarray:
    """(classes, 5) player ranks, highest first."""
    return (outcomes.counts.players >> 2)[:, ::-1]


def _up_ranks() -> np.ndarray:
    return (np.arange(52) >> 2)[None, :]


def _matches_up(outcomes: SituationOutcomes) -> np.ndarray:
    """(classes, 52): the up card's rank is one of the player's ranks."""
    ranks = _ranks(outcomes)
    matches: np.ndarray = (ranks[:, :, None] == _up_ranks()[:, None, :]).any(axis=1)
    return matches


def _pair_plus(outcomes: SituationOutcomes) -> np.ndarray:
    return np.broadcast_to((outcomes.pay_index >= PAIR)[:, None], outcomes.counts.valid.shape)


def _ak_high(outcomes: SituationOutcomes) -> np.ndarray:
    ak_high: np.ndarray = (outcomes.pay_index == AK_HIGH)[:, None]
    return ak_high


def _rules_of_thumb(outcomes: SituationOutcomes) -> np.ndarray:
    ranks = _ranks(outcomes)
    up = _up_ranks()
    match = _matches_up(outcomes)
    holds_q = (ranks == QUEEN).any(axis=1)[:, None]
    holds_j = (ranks == JACK).any(axis=1)[:, None]
    fourth = ranks[:, 3][:, None]
    rule1 = (up <= QUEEN) & match
    rule2 = (up >= KING) & (holds_q | holds_j)
    rule3 = ~match & holds_q & (up < fourth)
    mask: np.ndarray = _pair_plus(outcomes) | (_ak_high(outcomes) & (rule1 | rule2 | rule3))
    return mask


def _strength_at_least(hand: str) -> Rule:
    # the floor is looked up when the rule runs: importing must not build the rank table
    return lambda o: np.broadcast_to((o.counts.strength >= evaluate(hand))[:, None], o.counts.valid.shape)


BUILT_IN: dict[str, Strategy] = {
    s.name: s
    for s in (
        Strategy(name="optimal", description="raise exactly when EV(raise) > -1",
                 rule=lambda o: o.optimal_raise()),
        Strategy(name="rules-of-thumb", description="pair or better; A-K high by three rules of thumb",
                 rule=_rules_of_thumb),
        Strategy(name="akj83", description="raise A-K-J-8-3 or better",
                 rule=_strength_at_least("Ac Kd Jh 8s 3c")),
        Strategy(name="matching-rank", description="pair or better; A-K high matching the up card's rank",
                 rule=lambda o: _pair_plus(o) | (_ak_high(o) & _matches_up(o))),
        Strategy(name="pair-plus", description="raise any pair or better", rule=_pair_plus),
        Strategy(name="ak-plus", description="raise any A-K or better",
                 rule=_strength_at_least("Ac Kd 4h 3s 2c")),
        Strategy(name="always-raise", description="raise every hand", rule=lambda o: o.counts.valid),
    )
}


# --------------------------------------------------------------------------- user strategies
def situation_index(
    outcomes: SituationOutcomes, hands: np.ndarray, ups: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Map (hand, up card) pairs to (class row, up card) positions of ``outcomes``' arrays.

    Suits are renamed to each hand's canonical form, in which the class tables are kept.
    """
    hands = np.asarray(hands, dtype=np.int64)
    ups = np.asarray(ups, dtype=np.int64)
    rep_signatures = suit_signature(outcomes.counts.players)
    order = np.argsort(rep_signatures)
    rows = order[np.searchsorted(rep_signatures[order], suit_signature(hands))]
    suit_map = canonical_suit_maps(hands)
    canonical_up = (ups >> 2) * 4 + suit_map[np.arange(len(ups)), ups & 3]
    return rows, canonical_up


def _python_strategy(path: Path) -> Strategy:
    spec = importlib.util.spec_from_file_location(f"exactodds_user_strategy_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise StrategyError(f"strategy file {path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SystemExit as exc:  # the user's code must not end the program
        raise StrategyError(f"strategy file {path} called sys.exit({exc.code!r}) while loading") from None
    except Exception as exc:  # the user's code: report, don't trace back
        raise StrategyError(f"strategy file {path} failed to load: {type(exc).__name__}: {exc}") from None
    batch = getattr(module, "raise_batch", None)
    single = getattr(module, "raise_hand", None)
    if batch is None and single is None:
        raise StrategyError(
            f"strategy file {path} defines neither raise_hand(hand, up) nor raise_batch(hands, ups)")

    def rule(outcomes: SituationOutcomes) -> np.ndarray:
        counts = outcomes.counts
        rows, ups = np.nonzero(counts.valid)
        hands = counts.players[rows]
        try:
            if batch is not None:
                decided = _boolean_batch(batch(hands.copy(), ups.copy()), ups.shape, path)
            else:
                assert single is not None  # checked above: the file defines one of the two
                decided = _decide_each(single, counts.players, rows, ups, path)
        except StrategyError:
            raise
        except SystemExit as exc:
            raise StrategyError(f"strategy {path} called sys.exit({exc.code!r})") from None
        except Exception as exc:
            raise StrategyError(f"strategy {path} raised {type(exc).__name__}: {exc}") from None
        mask = np.zeros_like(counts.valid)
        mask[rows, ups] = decided
        return mask

    return Strategy(name=path.name, description=f"user rule from {path}", rule=rule)


ANSWER_BLOCK = 65_536  # situations asked at a time: a wrong answer is reported after one block at most


def _decide_each(single: Callable[[str, str], object], players: np.ndarray, rows: np.ndarray, ups: np.ndarray,
                 path: Path) -> np.ndarray:
    """A user's raise_hand(hand, up) for each situation (class ``rows[i]``, up card ``ups[i]``), in
    that order: a bool array. Answers are checked block by block (None, text or NaN are refused,
    naming the first such situation)."""
    card_text = [format_card(c) for c in range(52)]
    hand_text = [" ".join(card_text[c] for c in reversed(hand)) for hand in players.tolist()]
    rows_list, ups_list = rows.tolist(), ups.tolist()
    decided = np.empty(len(ups_list), dtype=bool)
    for start in range(0, len(ups_list), ANSWER_BLOCK):
        hands = [hand_text[r] for r in rows_list[start:start + ANSWER_BLOCK]]
        up_texts = [card_text[u] for u in ups_list[start:start + ANSWER_BLOCK]]
        answers = list(map(single, hands, up_texts))
        if not set(map(type, answers)) <= {bool, np.bool_}:
            for hand, up, value in zip(hands, up_texts, answers, strict=True):
                if not isinstance(value, bool | np.bool_):
                    raise StrategyError(f'raise_hand("{hand}", "{up}") in {path} returned {value!r}; '
                                        "expected True or False")
        decided[start:start + len(answers)] = answers
    return decided


def _boolean_batch(value: object, shape: tuple[int, ...], path: Path) -> np.ndarray:
    """A user's raise_batch answer: a boolean array of the given shape."""
    decided = np.asarray(value)
    if decided.dtype != np.bool_:
        raise StrategyError(f"raise_batch in {path} returned {_kind(value, decided)}; "
                            "expected an array of booleans (True/False)")
    if decided.shape != shape:
        raise StrategyError(f"raise_batch in {path} returned shape {decided.shape}, expected {shape}")
    return decided


def _kind(value: object, array: np.ndarray) -> str:
    return f"values of type {array.dtype}" if isinstance(value, np.ndarray | list | tuple) else repr(value)


def _check_table_rows(path: Path, hands: np.ndarray, ups: np.ndarray, decisions: np.ndarray) -> None:
    """Refuse a table with no rows, or with two rows deciding the same situation differently."""
    if len(hands) == 0:
        raise StrategyError(f"strategy table {path} has no rows; expected one row per situation it decides")
    signature = suit_signature(hands)
    suit_map = canonical_suit_maps(hands)
    canonical_up = (ups >> 2) * 4 + suit_map[np.arange(len(ups)), ups & 3]
    first: dict[tuple[int, int], int] = {}
    for line, key in enumerate(zip(signature.tolist(), canonical_up.tolist(), strict=True)):
        earlier = first.setdefault(key, line)
        if decisions[earlier] != decisions[line]:
            raise StrategyError(
                f"strategy table {path}: rows {earlier + 1} and {line + 1} decide the same situation "
                f"({format_cards(hands[line])} against {format_card(int(ups[line]))}, up to a renaming "
                "of suits) differently")


def _read_columns(path: Path) -> dict[str, list[object]]:
    """The columns of a strategy table file (CSV, Parquet, or JSON as an array of records), read
    with pyarrow and the standard library (no pandas needed)."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        with path.open(encoding="utf-8") as handle:
            records = json.load(handle)
        if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
            raise ValueError("expected a JSON array of records (objects)")
        names = list(dict.fromkeys(k for r in records for k in r))
        return {name: [r.get(name) for r in records] for name in names}
    import pyarrow.csv as pacsv  # noqa: PLC0415  (pyarrow loads in ~0.2 s: only for table files)
    import pyarrow.parquet as pq  # noqa: PLC0415

    if suffix == ".csv":
        table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(strings_can_be_null=False))
    else:
        table = pq.read_table(path)
    return {name: table.column(name).to_pylist() for name in table.column_names}


def _table_strategy(path: Path) -> Strategy:
    try:
        columns = _read_columns(path)
    except Exception as exc:
        raise StrategyError(f"strategy table {path} cannot be read: {exc}") from None
    missing = {"hand", "up", "decision"} - set(columns)
    if missing:
        names = "column" if len(missing) == 1 else "columns"
        raise StrategyError(f"strategy table {path} lacks the {names} {', '.join(sorted(missing))}")
    for line, decision in enumerate(columns["decision"]):
        if decision not in tuple(Choice):
            raise StrategyError(f"strategy table {path}, row {line + 1}: decision must be raise or fold, "
                                f"got {decision!r}")
    text: dict[str, list[str]] = {}
    for column in ("hand", "up"):
        text[column] = []
        for line, value in enumerate(columns[column]):
            if not isinstance(value, str):
                raise StrategyError(f"strategy table {path}, row {line + 1}: {column} must be cards as text, "
                                    f"got {value!r}")
            text[column].append(value)
    try:  # each distinct text parsed once, in the order of the rows (the first bad one is named)
        hand_of = {h: parse_cards(h, count=5, what="a hand") for h in dict.fromkeys(text["hand"])}
        up_of = {u: parse_cards(u, count=1, what="an up card")[0] for u in dict.fromkeys(text["up"])}
        hands = np.array([hand_of[h] for h in text["hand"]], dtype=np.int64).reshape(-1, 5)
        ups = np.array([up_of[u] for u in text["up"]], dtype=np.int64)
    except ExactOddsError as exc:
        raise StrategyError(f"strategy table {path}: {exc}") from None
    clash = (hands == ups[:, None]).any(axis=1)
    if clash.any():
        line = int(np.flatnonzero(clash)[0])
        raise StrategyError(f"strategy table {path}, row {line + 1}: the up card is in the hand")
    decisions = np.array([d == Choice.RAISE for d in columns["decision"]], dtype=bool)
    _check_table_rows(path, hands, ups, decisions)

    def rule(outcomes: SituationOutcomes) -> np.ndarray:
        mask = _pair_plus(outcomes).copy()
        rows, canonical_up = situation_index(outcomes, hands, ups)
        mask[rows, canonical_up] = decisions
        return mask

    return Strategy(name=path.name, description=f"strategy table {path}", rule=rule)


def load_strategy(name_or_path: str | os.PathLike[str]) -> Strategy:
    """A built-in strategy by name, or a user strategy from a .py file or a strategy table file."""
    text = str(name_or_path)
    if text in BUILT_IN:
        return BUILT_IN[text]
    path = Path(text)
    if path.suffix.lower() in (".py", ".csv", ".parquet", ".json"):
        try:
            is_file = path.is_file()
        except OSError as exc:  # e.g. a name too long for the file system
            raise StrategyError(f"strategy file {text[:80]!r}: {exc.strerror}") from None
        if not is_file:
            raise StrategyError(f"strategy file {path} does not exist")
        return _python_strategy(path) if path.suffix.lower() == ".py" else _table_strategy(path)
    raise StrategyError(f'unknown strategy "{text}" (built in: {", ".join(BUILT_IN)}; '
                        "or a .py file or a strategy table .csv/.parquet/.json)")


def evaluate_strategies(outcomes: SituationOutcomes, strategies: list[Strategy],
                        progress: Progress | None = None) -> list[StrategyResult]:
    """The exact result of each strategy and its cost against optimal play (computed once).

    Built-in strategies are one stage of one step each; a user's strategy (a .py file of unknown
    speed, or a table) is a stage of unknown length of its own.
    """
    optimal = evaluate_strategy(outcomes, outcomes.optimal_raise(), name="optimal")
    built_in = [s for s in strategies if s.name in BUILT_IN and BUILT_IN[s.name] is s]
    by_id: dict[int, StrategyResult] = {}
    with staged(progress, "evaluating built-in strategies", steps=len(built_in)) as stage:
        for strategy in built_in:
            by_id[id(strategy)] = _evaluate_one(outcomes, strategy, optimal)
            stage.step()
    for strategy in strategies:
        if id(strategy) not in by_id:
            with staged(progress, f"evaluating strategy {strategy.name}"):
                by_id[id(strategy)] = _evaluate_one(outcomes, strategy, optimal)
    return [by_id[id(s)] for s in strategies]


def _evaluate_one(outcomes: SituationOutcomes, strategy: Strategy, optimal: GameResult) -> StrategyResult:
    result = optimal if strategy is BUILT_IN["optimal"] else evaluate_strategy(
        outcomes, strategy.raise_mask(outcomes), name=strategy.name)
    return StrategyResult(result=result, optimal=optimal)
