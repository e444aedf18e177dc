"""The table's exact session odds, counted by a background worker (:mod:`exactodds.web.worker`).

Counting a session's exact odds for a new paytable and length takes seconds to a minute of
CPU. Any client can finish a session of any length, so the server counts them in its worker:
one job at a time, each (paytable, length) queued once however many sessions ask for it. A
request never waits: it reads :func:`odds_lookup` (the odds, or why they are not there yet) and
asks again later. Counted odds are kept on disk (``table-odds/`` in the cache folder), so a
restarted server serves them without counting again.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from exactodds.cache import atomic_write_text, cache_dir
from exactodds.caribbean.profile import Profile
from exactodds.caribbean.table.coach import ODDS_MAX_HANDS, SessionOdds, session_odds, session_odds_ready
from exactodds.caribbean.table.forms import asdict_profile
from exactodds.web.worker import DEFAULT_LIMIT, JobStatus, KeyedWorker

log = logging.getLogger("exactodds.table")


@dataclass(frozen=True)
class OddsJob:
    """The count of (paytable, length); ``warm``: count the whole game in this process even if the
    odds are on disk (the coach's lookup), not part of the job's identity."""

    profile: Profile
    hands: int
    warm: bool = field(default=False, compare=False)


OddsWorker = KeyedWorker[OddsJob, SessionOdds]


def odds_key(profile: Profile, hands: int) -> str:
    """A stable key of (paytable, length): the paytable's full contents, not just its name."""
    text = json.dumps(asdict_profile(profile), sort_keys=True)
    return f"{hashlib.sha256(text.encode()).hexdigest()[:24]}-{hands}"


def _odds_to_json(odds: SessionOdds) -> str:
    return json.dumps({"paytable": odds.paytable, "hands": odds.hands,
                       **{k: str(getattr(odds, k)) for k in ("p_player", "p_draw", "p_bank", "per_hand_ev")}})


def _odds_from_json(text: str) -> SessionOdds:
    d = json.loads(text)
    return SessionOdds(paytable=d["paytable"], hands=int(d["hands"]), p_player=Fraction(d["p_player"]),
                       p_draw=Fraction(d["p_draw"]), p_bank=Fraction(d["p_bank"]),
                       per_hand_ev=Fraction(d["per_hand_ev"]))


def start_odds_worker(*, limit: int = DEFAULT_LIMIT, folder: Path | None = None,
                      start_delay: float = 0.0) -> OddsWorker:
    """The worker counting session odds (kept in ``folder``, by default ``table-odds/`` in the cache
    folder). A failed count is logged and forgotten: a later request queues it again."""
    where = folder if folder is not None else cache_dir() / "table-odds"

    def count(job: OddsJob) -> SessionOdds | None:
        path = where / f"{odds_key(job.profile, job.hands)}.json"
        if not job.warm:
            try:
                return _odds_from_json(path.read_text(encoding="utf-8"))
            except (OSError, ValueError, KeyError, TypeError):
                pass  # not on disk yet (or unreadable): count it
        odds = session_odds(job.profile, job.hands)
        if odds is not None:
            try:
                where.mkdir(parents=True, exist_ok=True)
                atomic_write_text(path, _odds_to_json(odds))
            except OSError:
                log.warning("the exact odds could not be cached in %s", where)
        return odds

    return KeyedWorker(count, name="odds", limit=limit, start_delay=start_delay, keep_failures=False,
                       failure_text=lambda job: f"the exact odds of {job.hands} hands of {job.profile.name} "
                       "could not be counted")


def odds_lookup(worker: OddsWorker, profile: Profile, hands: int, *,
                count: bool) -> tuple[SessionOdds | None, JobStatus]:
    """The odds of (profile, hands) if counted, and their status; ``count`` queues them if not
    (else the status is LATER); beyond ODDS_MAX_HANDS hands they are UNAVAILABLE."""
    if not 1 <= hands <= ODDS_MAX_HANDS:
        return None, JobStatus.UNAVAILABLE
    job = OddsJob(profile, hands)
    odds, status = worker.known(job)
    if status is JobStatus.READY:
        return odds, status
    ready = session_odds_ready(profile, hands)
    if ready is not None:
        worker.put(job, ready)
        return ready, JobStatus.READY
    if status is not None:
        return None, status
    if not count:
        return None, JobStatus.LATER
    return worker.lookup(job)


def odds_status_word(status: JobStatus) -> str:
    """The view's ``odds_status``: the job's status, a count in progress said as "counting"."""
    return "counting" if status is JobStatus.RUNNING else str(status)
