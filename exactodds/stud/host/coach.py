"""The coach beside a player's buttons: ``stud decide``'s advice in plain words, found off the request path.

:func:`coach_words` is the one function the host's page asks: the advice of
:func:`~exactodds.stud.decide.coach.coach_advice` for the player to act (every legal action's EV in
chips with the betting to come, against each other seat's model: a bot's its own, a person's
:data:`PERSON_MODEL`), worded by :func:`~exactodds.stud.decide.words.coach_lines` as the terminal's
coach words it. It can take seconds (the exact walk within ``COACH_BUDGET``, else a fixed sample of
``COACH_SAMPLES`` deals, labelled), so the server runs it in a
:class:`~exactodds.web.worker.KeyedWorker` on the hand as the player sees it when the turn began
(:func:`~exactodds.stud.engine.view.player_view`: the other hole cards are placeholders, so the coach
cannot read them even by mistake).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from exactodds.stud.decide.coach import COACH_BUDGET, COACH_SAMPLES, coach_advice
from exactodds.stud.decide.models import OpponentModel
from exactodds.stud.decide.words import coach_lines
from exactodds.stud.engine.state import StudHand
from exactodds.stud.engine.view import player_view
from exactodds.stud.equity import SampledEquity
from exactodds.stud.history.session import TableHand
from exactodds.stud.host.bots import BotModels
from exactodds.stud.host.config import SeatConfig, SeatKind

PERSON_MODEL = "bots"  # what the coach assumes a person plays (as ``stud decide`` assumes by default)


@dataclass(frozen=True)
class CoachJob:
    """The advice for one turn: (game, turn, seat) is the job's identity; ``hand`` the hand at that
    turn as ``player`` (the seat's index in it) sees it, ``models`` every other player's model (by
    index in the hand) and ``opponents`` who they are in words."""

    game: str
    turn: int
    seat: int
    hand: StudHand = field(compare=False, hash=False, repr=False)
    player: int = field(compare=False, hash=False)
    models: Mapping[int, OpponentModel] = field(compare=False, hash=False, repr=False)
    opponents: str = field(compare=False, hash=False)

    @classmethod
    def at(cls, *, game: str, turn: int, seat: int, table: TableHand, seats: Sequence[SeatConfig],
           models: BotModels) -> CoachJob:
        """The job of ``seat``'s turn in the hand ``table``, on its player's view of the hand (the live
        hand moves on); ``seats``: every seat's set-up (seat k at k - 1), ``models`` the server's."""
        hand, player = table.hand, table.seats.index(seat)
        others = {q: seats[table.seats[q] - 1] for q in range(hand.n) if q != player}
        playing = {q: s.model if s.kind is SeatKind.BOT else None for q, s in others.items()}
        live = [q for q in others if not hand.folded[q]]
        words = opponents_in_words([others[q].name for q in live], [playing[q] for q in live])
        return cls(game=game, turn=turn, seat=seat, hand=player_view(hand, player), player=player,
                   models={q: models.model(m or PERSON_MODEL) for q, m in playing.items()}, opponents=words)


@dataclass(frozen=True, kw_only=True)
class CoachNote:
    """The coach's advice: ``lines`` in plain words (the recommendation first, each action's EV, the
    showdown chance and pot odds last), ``best`` the recommended action (PHH text, e.g. ``cc``),
    ``actions`` each legal action's EV in chips from now (higher is better), ``exact`` whether the
    EVs are exact (else estimated from ``samples`` random deals, with standard errors)."""

    lines: tuple[str, ...]
    best: str
    actions: tuple[dict[str, Any], ...]
    exact: bool
    samples: int | None
    showdown: float  # the chance of winning at showdown against random hole cards, 0..1
    showdown_exact: bool

    def to_dict(self) -> dict[str, Any]:
        return {"lines": list(self.lines), "best": self.best, "actions": list(self.actions),
                "exact": self.exact, "samples": self.samples,
                "showdown": {"win": self.showdown, "exact": self.showdown_exact}}


def opponents_in_words(names: Sequence[str], models: Sequence[str | None]) -> str:
    """The other players in words, grouped by model: ``models[k]`` is seat ``names[k]``'s bot model,
    or None for a person (taken to play :data:`PERSON_MODEL`).

    >>> opponents_in_words(["Bob", "Cy", "Dee"], [None, "rock", None])
    'Cy playing rock, Bob and Dee taken to play like bots'
    """
    bots: dict[str, list[str]] = {}
    people = []
    for name, model in zip(names, models, strict=True):
        if model is None:
            people.append(name)
        else:
            bots.setdefault(model, []).append(name)
    parts = [f"{_and(group)} playing {model}" for model, group in bots.items()]
    if people:
        parts.append(f"{_and(people)} taken to play like {PERSON_MODEL}")
    return ", ".join(parts)


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def coach_words(job: CoachJob) -> CoachNote:
    """The advice for the job's player to act, in plain words (see the module's docstring)."""
    advice = coach_advice(job.hand, job.player, models=job.models, budget=COACH_BUDGET, samples=COACH_SAMPLES,
                          seed=job.turn + 1)
    d = advice.decision
    lines = coach_lines(advice, opponents=job.opponents, said=set(), details=False)
    equity = advice.pot_odds.equity
    return CoachNote(lines=tuple(lines), best=d.best.action.text(),
                     actions=tuple(a.to_dict() for a in d.ranked), exact=d.exact, samples=d.samples,
                     showdown=float(advice.pot_odds.win),
                     showdown_exact=not isinstance(equity, SampledEquity))
