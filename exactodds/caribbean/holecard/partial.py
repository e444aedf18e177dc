"""What partial information is worth: the exact whole game when the player sees the dealer's
up card (and K - 1 hole cards) plus a signal about the other hidden cards.

Two signals (:class:`SignalKind`):

* **edge sorting** (``edge_sort``): the backs show whether each card is in a sorted set S of
  ranks (e.g. aces and kings one way, every other card the other way). The player sees, for
  each of the dealer's 5 - K hidden cards, whether it is in S; the hidden cards being
  exchangeable, the decision depends on how many of them are in S (0..5 - K).
  A deal is (player hand, the K seen dealer cards as a set, the dealer's unseen cards):
  C(52,5) x C(47,K) x C(47-K,5-K) deals, the hole-carding convention
  (:mod:`exactodds.caribbean.holecard.exact`); the signal is a function of the deal.
* **a rank without its suit** (``rank_seen``): one of the hidden cards shows its rank but not
  its suit (a partial flash). A deal marks which hidden card flashed: player hand x seen set
  x the flashed card x the other unseen cards = (5 - K) x C(52,5) x C(47,K) x C(47-K,5-K).

The player plays the optimal strategy given what is seen: raise iff EV(raise) > EV(fold) =
-1 given the seen cards and the signal (an exact tie folds). Counted exactly by the kernel
:mod:`exactodds.caribbean.holecard.kernels.partial_signals` in chunks (each well under a second, so
Ctrl-C stops promptly), optionally on a Dask cluster (:mod:`exactodds.scale`).

Where the games meet (tested): S empty or S every rank carries no information, so the edge
sort game is the K game exactly (K = 1 is the normal game); S and its complement give the same
game; the rank seen is the K + 1 game with the flashed card's suit forgotten (its counts are
sums of the K + 1 game's); a rank with one live card left is the K + 1 game.
"""

from __future__ import annotations

import hashlib
import json
import time
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from exactodds.cache import atomic_write_text, cache_dir
from exactodds.cards import RANK_CHARS, RANK_PLURALS
from exactodds.caribbean.analysis.result import GameResult
from exactodds.caribbean.holecard.exact import (
    game_from_sums,
    payout_bundle,
    seen_set_classes,
    strength_ordered_hands,
    total_deals,
)
from exactodds.caribbean.holecard.kernels import partial_signals as pk
from exactodds.caribbean.holecard.sample import check_known
from exactodds.caribbean.profile import PAY_FLOORS, Profile, load_profile
from exactodds.caribbean.published.partial import PartialFigure, partial_figures
from exactodds.combinatorics import all_subsets_colex
from exactodds.counting.deck import strength_deck
from exactodds.counting.layout import ACC_COLUMNS, Acc
from exactodds.errors import ExactOddsError
from exactodds.jsonable import JSONDict
from exactodds.progress import Progress, staged
from exactodds.resources import data_file
from exactodds.scale import ChunkRunner, SerialRunner
from exactodds.stopping import stoppable
from exactodds.threaded import run_spans, thread_count

FULL_DECK = np.uint64((1 << 52) - 1)
MAX_PARTIAL_KNOWN = 4  # every K but 5 (with the whole dealer hand seen nothing is hidden)


class PartialInfoError(ExactOddsError):
    """Partial information that cannot be analysed as asked (a bad rank set, too many cards seen)."""


class SignalKind(StrEnum):
    """What the player sees of the dealer's hidden cards."""

    EDGE_SORT = "edge_sort"
    RANK_SEEN = "rank_seen"


def parse_rank_set(text: str) -> tuple[int, ...]:
    """The sorted ranks (0 = deuce .. 12 = ace) of a rank set typed as ``AK``, ``A,K``, ``T9``
    or ``10``; ``-`` or an empty string is the empty set. Raises PartialInfoError.

    >>> parse_rank_set("AK"), parse_rank_set("10,9"), parse_rank_set("-")
    ((11, 12), (7, 8), ())
    """
    cleaned = text.strip().upper().replace(",", "").replace(" ", "").replace("10", "T")
    if cleaned in ("", "-"):
        return ()
    bad = [ch for ch in cleaned if ch not in RANK_CHARS]
    if bad:
        raise PartialInfoError(f"--edge-sort {text!r}: {bad[0]!r} is not a rank; expected ranks such as "
                               f"AK or 2,3,4 (ranks 2-9, T or 10, J, Q, K, A), or - for none")
    return tuple(sorted({RANK_CHARS.index(ch) for ch in cleaned}))


def rank_set_text(ranks: Iterable[int]) -> str:
    """``AK``-style text of a rank set, highest first; ``-`` for the empty set."""
    chosen = sorted(set(ranks), reverse=True)
    return "".join(RANK_CHARS[r] for r in chosen) or "-"


@dataclass(frozen=True, kw_only=True)
class PartialInfo:
    """The information: ``dealer_known`` cards seen (the up card included) and a signal about
    the others: the sorted ranks (edge sorting) or one flashed rank (``RANK_SEEN``)."""

    kind: SignalKind
    dealer_known: int = 1
    sorted_ranks: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        check_known(self.dealer_known)
        if self.dealer_known > MAX_PARTIAL_KNOWN:
            raise PartialInfoError(f"partial information is counted with 1..{MAX_PARTIAL_KNOWN} dealer cards "
                                   f"seen (--dealer-known), got {self.dealer_known}: with every dealer card "
                                   f"seen nothing is hidden (--dealer-known 5 alone)")
        if any(not 0 <= r <= 12 for r in self.sorted_ranks) or list(self.sorted_ranks) != sorted(
                set(self.sorted_ranks)):
            raise PartialInfoError(f"sorted ranks must be distinct ranks 0..12 in order, "
                                   f"got {self.sorted_ranks}")
        if self.kind is SignalKind.RANK_SEEN and self.sorted_ranks:
            raise PartialInfoError("a flashed rank takes no sorted ranks")

    @property
    def hidden(self) -> int:
        """The dealer's hidden cards: 5 - K."""
        return 5 - self.dealer_known

    @property
    def signals(self) -> int:
        """Values the signal takes: 0..hidden cards in S, or one of 13 ranks."""
        return self.hidden + 1 if self.kind is SignalKind.EDGE_SORT else 13

    @property
    def deals_per_completion(self) -> int:
        """Deals per (player hand, seen set, unseen cards): 1, or the hidden card that flashed."""
        return 1 if self.kind is SignalKind.EDGE_SORT else self.hidden

    @property
    def total_deals(self) -> int:
        return self.deals_per_completion * total_deals(self.dealer_known)

    def card_class(self) -> np.ndarray:
        """Each card's class for the kernel: 1 in S / 0 (edge sort), or its rank (rank seen)."""
        ranks = np.arange(52) // 4
        if self.kind is SignalKind.EDGE_SORT:
            return np.isin(ranks, list(self.sorted_ranks)).astype(np.int64)
        return ranks.astype(np.int64)

    def describe(self) -> str:
        """Words for the information, e.g. 'edge sort AK (up card seen)'."""
        seen = "up card seen" if self.dealer_known == 1 else f"{self.dealer_known} dealer cards seen"
        if self.kind is SignalKind.RANK_SEEN:
            return f"one hidden card's rank seen without its suit ({seen})"
        names = " and ".join(RANK_PLURALS[r] for r in sorted(self.sorted_ranks, reverse=True)) or "no rank"
        return f"edge sort {rank_set_text(self.sorted_ranks)}: {names} sorted ({seen})"

    def to_dict(self) -> JSONDict:
        out: JSONDict = {"signal": str(self.kind), "dealer_known": self.dealer_known}
        if self.kind is SignalKind.EDGE_SORT:
            out["sorted_ranks"] = rank_set_text(self.sorted_ranks)
        return out


def edge_sort(ranks: str | Iterable[int], *, dealer_known: int = 1) -> PartialInfo:
    """Edge sorting by a rank set (``"AK"`` or rank numbers) with ``dealer_known`` cards seen."""
    chosen = parse_rank_set(ranks) if isinstance(ranks, str) else tuple(sorted(set(int(r) for r in ranks)))
    return PartialInfo(kind=SignalKind.EDGE_SORT, dealer_known=dealer_known, sorted_ranks=chosen)


def rank_seen(*, dealer_known: int = 1) -> PartialInfo:
    """One hidden dealer card's rank seen without its suit, with ``dealer_known`` cards seen."""
    return PartialInfo(kind=SignalKind.RANK_SEEN, dealer_known=dealer_known)


# --------------------------------------------------------------------------- result


@dataclass(frozen=True, kw_only=True)
class PartialResult:
    """The exact whole game under the optimal strategy given the partial information.

    ``game`` is its return table; ``house_edge`` is the expected loss per ante (negative: a
    player edge, lower is better for the player). ``situations`` counts the decisions of the
    strategy (player hand, seen cards, signal) and ``raised_situations`` those it raises:
    the strategy's size.
    """

    info: PartialInfo
    profile: Profile
    game: GameResult
    situations: int
    raised_situations: int
    seconds: float
    method: str

    @property
    def total_return(self) -> Fraction:
        """Expected net per ante for the player (higher is better for the player)."""
        return self.game.total_return

    @property
    def house_edge(self) -> Fraction:
        return -self.total_return

    @property
    def player_edge(self) -> Fraction:
        return self.total_return

    @property
    def published(self) -> tuple[PartialFigure, ...]:
        """Published figures for this information and paytable (with how their assumptions differ)."""
        return tuple(f for f in partial_figures() if f.matches(self.info, self.profile.name))

    def to_dict(self) -> JSONDict:
        """The JSON object (docs/json.md): the information, the return table, the strategy's size,
        the published figures beside the exact value."""
        return {"method": self.method, **self.info.to_dict(), "information": self.info.describe(),
                **self.game.to_dict(), "deal_count": DEAL_CONVENTIONS[self.info.kind],
                "situations": self.situations, "raised_situations": self.raised_situations,
                "published": [f.to_dict(player_edge=self.player_edge) for f in self.published],
                "seconds": round(self.seconds, 3)}


DEAL_CONVENTIONS = {
    SignalKind.EDGE_SORT: "player hand x seen dealer cards (a set) x unseen dealer cards = "
                          "C(52,5) x C(47,K) x C(47-K,5-K)",
    SignalKind.RANK_SEEN: "player hand x seen dealer cards (a set) x the flashed card x the other unseen "
                          "dealer cards = C(52,5) x C(47,K) x (47-K) x C(46-K,4-K)",
}
METHODS = {
    SignalKind.EDGE_SORT: "counting sweep per suit class of the seen dealer cards, subset counters split by "
                          "how many hidden cards are in the sorted set, over every player hand",
    SignalKind.RANK_SEEN: "counting sweep per suit class of the seen dealer cards and flashed rank, subset "
                          "counters weighted by the cards of that rank, over every player hand",
}


# --------------------------------------------------------------------------- counting


@lru_cache(maxsize=4)
def _unseen_subsets(n: int, r: int) -> np.ndarray:
    return all_subsets_colex(n, r).astype(np.int64)


PARTS = {1: 48, 2: 4, 3: 1, 4: 1}  # strength ranges per seen set (tasks of about 0.1-0.6 s)
TASKS_PER_THREAD = {1: 1, 2: 1, 3: 1, 4: 8}  # K = 4 tasks take about 0.02 s: a chunk holds more


def _strength_bounds(parts: int) -> np.ndarray:
    """Cut strengths 0..7461 into ``parts`` ranges holding about equal numbers of player hands."""
    start = strength_ordered_hands().level_start
    cuts = np.searchsorted(start, start[-1] * np.arange(1, parts) / parts)
    return np.unique(np.concatenate([[0], cuts, [len(start) - 1]])).astype(np.int64)


NO_RECORDS = (np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64),
              np.zeros((1, 1, 1, pk.RECORD_FIELDS), dtype=np.int64))  # partial_tasks records nothing


def full_deal(k: int) -> pk.Deal:
    """The whole deck's Deal with ``k`` dealer cards seen."""
    return pk.Deal(live=FULL_DECK, table=strength_deck().table, tsubs=_unseen_subsets(52 - k, 5 - k))


def signal_bundle(info: PartialInfo, only: int) -> pk.Signal:
    """The kernel's Signal for ``info``: signal ``only`` alone, or every signal (-1)."""
    mode = pk.COUNT_SIGNAL if info.kind is SignalKind.EDGE_SORT else pk.ONE_CARD_SIGNAL
    return pk.Signal(mode=mode, card_class=info.card_class(), classes=info.signals, only=only)


def partial_chunk(profile: Profile, info: PartialInfo, only: int, tasks: Sequence[tuple[int, int, int]]
                  ) -> list[int]:
    """One chunk: the weighted sums (PARTIAL_COLUMNS) of tasks (seen-set class, lo, hi) for the
    signal ``only`` (-1: every signal at once). Exact ints."""
    reps, weights = seen_set_classes(info.dealer_known)
    rows = np.asarray(tasks, dtype=np.int64).reshape(-1, 3)
    acc = np.zeros((len(rows), pk.PARTIAL_COLUMNS), dtype=np.int64)
    k = info.dealer_known
    batch = pk.Tasks(seen=reps[rows[:, 0]], lo=rows[:, 1].copy(), hi=rows[:, 2].copy())
    stoppable(run_spans, pk.partial_tasks, len(rows), batch, full_deal(k), strength_ordered_hands(),
              payout_bundle(profile), signal_bundle(info, only), True, acc, NO_RECORDS, chunks=len(rows))
    sums = [0] * pk.PARTIAL_COLUMNS
    for row, w in zip(acc.tolist(), weights[rows[:, 0]].tolist(), strict=True):
        sums = [t + w * x for t, x in zip(sums, row, strict=True)]
    return sums


def partial_chunks(profile: Profile, info: PartialInfo) -> list[tuple[Any, ...]]:
    """The whole count as chunk arguments of :func:`partial_chunk` (each about ``thread_count()``
    tasks, every signal at once)."""
    reps, _ = seen_set_classes(info.dealer_known)
    bounds = _strength_bounds(PARTS[info.dealer_known])
    tasks = [(c, int(lo), int(hi)) for c in range(len(reps)) for lo, hi in zip(bounds[:-1], bounds[1:],
                                                                                  strict=True)]
    per_chunk = thread_count() * TASKS_PER_THREAD[info.dealer_known]
    return [(profile, info, -1, tasks[i:i + per_chunk]) for i in range(0, len(tasks), per_chunk)]


CACHE_VERSION = 1  # bump when the kernel's sums change meaning


def counts_key(profile: Profile, info: PartialInfo) -> str:
    """What the counts depend on: the profile's rules and pays, the information, the layout."""
    text = repr((CACHE_VERSION, sorted(profile.pays.items()), profile.call, profile.qualifier, profile.cap,
                 profile.qualify_strength, info.to_dict()))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _cached_sums(path: Path) -> list[int] | None:
    """The counted sums kept in the cache, or None (absent or unreadable: counted again)."""
    try:
        sums = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return _checked_sums(sums)


def shipped_sums(key: str) -> list[int] | None:
    """The sums shipped in ``data/counts/partial.toml`` under ``key`` (the published figure that
    ``verify`` checks, counted once by this kernel: about a minute and a half on two cores),
    or None. A changed kernel bumps :data:`CACHE_VERSION`, so a stale entry is never read."""
    path = data_file("counts", "partial.toml")
    if not path.exists():
        return None
    return _checked_sums(tomllib.loads(path.read_text(encoding="utf-8")).get(f"partial-{key}"))


def _checked_sums(sums: object) -> list[int] | None:
    """``sums`` if it has the kernel's shape (a list of ints, one per column), else None."""
    if not isinstance(sums, list) or len(sums) != pk.PARTIAL_COLUMNS or not all(type(x) is int for x in sums):
        return None
    return sums


def stored_sums(profile: Profile, info: PartialInfo) -> list[int] | None:
    """The counted sums of this game from the cache or the shipped counts, or None (not counted yet)."""
    key = counts_key(profile, info)
    return _cached_sums(cache_dir() / f"partial-{key}.json") or shipped_sums(key)


def stored_return(profile: Profile, info: PartialInfo) -> Fraction | None:
    """The exact expected net per ante of this game if it has been counted (cache or shipped), else None."""
    sums = stored_sums(profile, info)
    if sums is None:
        return None
    return game_from_sums(profile, sums[:ACC_COLUMNS], total=info.total_deals, strategy="stored").total_return


def check_profile(profile: Profile) -> None:
    """Refuse a profile the partial-information count cannot take (PartialInfoError)."""
    if profile.qualify_strength < PAY_FLOORS[0]:
        raise PartialInfoError("the qualifier is below A-K high: a qualifying hand would have no pay")


def analyze_partial(profile: Profile | str, info: PartialInfo, *, progress: Progress | None = None,
                    runner: ChunkRunner | None = None) -> PartialResult:
    """The exact whole game with partial information ``info`` (:func:`edge_sort`, :func:`rank_seen`)
    under the optimal strategy given it. The counts are kept in the cache directory (a second
    run with the same rules and information reads them back). Reports one stage of chunk
    steps to ``progress``; with ``runner`` (e.g. a Dask cluster) the chunks run there, the
    counts being the same integers.

    >>> analyze_partial("standard", edge_sort("AK")).player_edge  # doctest: +SKIP
    Fraction(27217378189, 383331356100)
    """
    profile = load_profile(profile)
    check_profile(profile)
    start = time.perf_counter()
    key = counts_key(profile, info)
    path = cache_dir() / f"partial-{key}.json"
    sums = stored_sums(profile, info)
    if sums is None:
        chunks = partial_chunks(profile, info)
        with staged(progress, f"counting all deals, {info.describe()}", steps=len(chunks)) as stage:
            step: Callable[[int], None] = lambda _i: stage.step()  # noqa: E731
            parts = (runner or SerialRunner()).map(partial_chunk, chunks, on_done=step)
        sums = [sum(c) for c in zip(*parts, strict=True)]
        atomic_write_text(path, json.dumps(sums))
    game = game_from_sums(profile, sums[:ACC_COLUMNS], total=info.total_deals,
                          strategy=f"optimal given {info.describe()}")
    if game.raised_deals != sums[Acc.RAISED]:
        raise AssertionError("raised deals disagree")
    return PartialResult(info=info, profile=profile, game=game, situations=sums[pk.SITUATIONS],
                         raised_situations=sums[pk.RAISED_SITUATIONS], seconds=time.perf_counter() - start,
                         method=METHODS[info.kind])
