"""The table server's one background worker for the exact session odds: bounded CPU, never in a request.

Counting a session's exact odds for a new paytable and length takes seconds to a minute of
CPU. Any client can finish a session of any length, so the server counts them here: one thread,
one job at a time, a queue of at most ``limit`` jobs, each (paytable, length) queued once however
many sessions ask for it. A request never waits: it reads :meth:`OddsWorker.lookup` (the odds,
or why they are not there yet) and asks again later. Counted odds are kept on disk
(``table-odds/`` in the cache folder), so a restarted server serves them without counting again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from exactodds.cache import atomic_write_text, cache_dir
from exactodds.caribbean.profile import Profile
from exactodds.caribbean.table.coach import ODDS_MAX_HANDS, SessionOdds, session_odds, session_odds_ready
from exactodds.caribbean.table.forms import asdict_profile

DEFAULT_LIMIT = 4  # jobs waiting at most; beyond it a request is told "busy" and asks again later
log = logging.getLogger("exactodds.table")


class OddsStatus(StrEnum):
    """Where a session's exact odds stand (the view's ``odds_status``)."""

    READY = "ready"              # in the view's ``odds``
    QUEUED = "queued"            # waiting for the worker
    COUNTING = "counting"        # the worker is counting them now
    BUSY = "busy"                # the queue is full: ask again later
    LATER = "later"              # counted when the session ends (not asked for yet)
    UNAVAILABLE = "unavailable"  # beyond ODDS_MAX_HANDS hands: no exact odds


@dataclass(frozen=True)
class _Job:
    key: str
    profile: Profile
    hands: int
    warm: bool  # count the whole game in this process even if the odds are on disk (the coach's lookup)


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


class OddsWorker:
    """One thread counting session odds from a bounded, deduplicated queue (``limit`` jobs waiting)."""

    def __init__(self, *, limit: int = DEFAULT_LIMIT, folder: Path | None = None,
                 start_delay: float = 0.0) -> None:
        self.limit = limit
        self.start_delay = start_delay  # seconds before the first job (the server's first page comes first)
        self._stopping = threading.Event()
        self.folder = folder if folder is not None else cache_dir() / "table-odds"
        self.started = 0  # jobs begun so far
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._queued: dict[str, _Job] = {}
        self._running: str | None = None
        self._ready: dict[str, SessionOdds] = {}
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="exactodds-odds", daemon=True)
        self._thread.start()

    def lookup(self, profile: Profile, hands: int, *, count: bool) -> tuple[SessionOdds | None, OddsStatus]:
        """The odds of (profile, hands) if counted, and their status; ``count`` queues them if not."""
        if not 1 <= hands <= ODDS_MAX_HANDS:
            return None, OddsStatus.UNAVAILABLE
        key = odds_key(profile, hands)
        with self._lock:
            odds = self._ready.get(key)
            if odds is None:
                odds = session_odds_ready(profile, hands)
            if odds is not None:
                self._ready[key] = odds
                return odds, OddsStatus.READY
            if self._running == key:
                return None, OddsStatus.COUNTING
            if key in self._queued:
                return None, OddsStatus.QUEUED
            if not count:
                return None, OddsStatus.LATER
        return None, self.request(profile, hands)

    def request(self, profile: Profile, hands: int, *, warm: bool = False) -> OddsStatus:
        """Queue the count of (profile, hands) unless queued, running or done; never blocks."""
        key = odds_key(profile, hands)
        with self._lock:
            if key in self._ready:
                return OddsStatus.READY
            if self._running == key:
                return OddsStatus.COUNTING
            if key in self._queued:
                return OddsStatus.QUEUED
            if len(self._queued) >= self.limit:
                return OddsStatus.BUSY
            job = self._queued[key] = _Job(key=key, profile=profile, hands=hands, warm=warm)
        self._queue.put(job)
        return OddsStatus.QUEUED

    def snapshot(self) -> dict[str, Any]:
        """The worker's state: jobs queued and running, the queue's limit, jobs begun so far."""
        with self._lock:
            return {"queued": len(self._queued), "running": self._running is not None, "limit": self.limit,
                    "started": self.started}

    def stop(self) -> None:
        """Stop after the job in hand (the thread is a daemon: a count in progress does not delay exit)."""
        self._stopping.set()
        self._queue.put(None)

    def _run(self) -> None:
        if self._stopping.wait(self.start_delay):
            return
        while True:
            job = self._queue.get()
            if job is None:
                return
            with self._lock:
                self._queued.pop(job.key, None)
                self._running = job.key
                self.started += 1
            try:
                odds = self._count(job)
            except Exception:  # a failed count is logged; a later request queues it again
                log.exception("the exact odds of %s hands of %s could not be counted", job.hands,
                              job.profile.name)
                odds = None
            with self._lock:
                self._running = None
                if odds is not None:
                    self._ready[job.key] = odds

    def _count(self, job: _Job) -> SessionOdds | None:
        path = self.folder / f"{job.key}.json"
        if not job.warm:
            try:
                return _odds_from_json(path.read_text(encoding="utf-8"))
            except (OSError, ValueError, KeyError, TypeError):
                pass  # not on disk yet (or unreadable): count it
        odds = session_odds(job.profile, job.hands)
        if odds is not None:
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                atomic_write_text(path, _odds_to_json(odds))
            except OSError:
                log.warning("the exact odds could not be cached in %s", self.folder)
        return odds
