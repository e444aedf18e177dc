"""The table server's background worker for the pocket strategy card: never inside a request.

The card of a paytable (:func:`~exactodds.caribbean.card.result.strategy_card`, the card that
``exactodds caribbean card`` prints by default) takes a few seconds once its search is on disk,
and 18-35 s of CPU the first time on a machine (the search). So the server finds it here: one
daemon thread, one paytable at a time, a queue of at most ``limit`` paytables, each queued once
however many sessions ask for it. A request never waits: it reads :meth:`CardWorker.lookup` (the
card, or why it is not there yet) and asks again later. The search's lists are kept on disk by the
library (the cache folder), so a restarted server finds a card again in seconds.
"""

from __future__ import annotations

import logging
import queue
import threading
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from exactodds.caribbean.profile import Profile
from exactodds.errors import ExactOddsError

if TYPE_CHECKING:  # the search loads the whole-game count (numba, scipy): imported when a card is asked for
    from exactodds.caribbean.card.result import CardResult

DEFAULT_LIMIT = 4  # paytables waiting at most; beyond it a request is told "busy" and asks again later
log = logging.getLogger("exactodds.table")


class CardStatus(StrEnum):
    """Where a paytable's strategy card stands (the card endpoint's ``status``)."""

    READY = "ready"          # in the answer
    QUEUED = "queued"        # waiting for the worker
    COMPUTING = "computing"  # the worker is finding it now
    BUSY = "busy"            # the queue is full: ask again later
    FAILED = "failed"        # the search failed: :meth:`CardWorker.failure` says why (not tried again)


class CardWorker:
    """One daemon thread finding strategy cards from a bounded, deduplicated queue of paytables."""

    def __init__(self, *, limit: int = DEFAULT_LIMIT, rules: int | None = None) -> None:
        """``rules``: the cards' length (default: the ``caribbean card`` command's)."""
        self.limit, self.rules = limit, rules
        self.started = 0  # searches begun so far
        self._queue: queue.Queue[Profile | None] = queue.Queue()
        self._queued: set[Profile] = set()
        self._running: Profile | None = None
        self._ready: dict[Profile, CardResult] = {}
        self._failed: dict[Profile, tuple[str, bool]] = {}  # why, and whether the paytable is to blame
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="exactodds-card", daemon=True)
        self._thread.start()

    def lookup(self, profile: Profile) -> tuple[CardResult | None, CardStatus]:
        """The card of ``profile`` if found, and its status; queues it if not (never blocks)."""
        with self._lock:
            card = self._ready.get(profile)
            if card is not None:
                return card, CardStatus.READY
            if profile in self._failed:
                return None, CardStatus.FAILED
            if self._running == profile:
                return None, CardStatus.COMPUTING
            if profile in self._queued:
                return None, CardStatus.QUEUED
            if len(self._queued) >= self.limit:
                return None, CardStatus.BUSY
            self._queued.add(profile)
        self._queue.put(profile)
        return None, CardStatus.QUEUED

    def failure(self, profile: Profile) -> tuple[str, bool] | None:
        """Why the search for ``profile``'s card failed (one line), and whether the paytable is to
        blame (an :class:`~exactodds.errors.ExactOddsError`: a client error) rather than the server;
        None if it did not fail."""
        with self._lock:
            return self._failed.get(profile)

    def snapshot(self) -> dict[str, Any]:
        """The worker's state: paytables queued, whether one is being searched, the limit, searches begun."""
        with self._lock:
            return {"queued": len(self._queued), "running": self._running is not None, "limit": self.limit,
                    "started": self.started, "ready": len(self._ready), "failed": len(self._failed)}

    def stop(self) -> None:
        """Stop after the card in hand, dropping the paytables still queued (a daemon thread: a search
        in progress does not delay exit)."""
        self._stopping.set()
        with self._lock:
            self._queued.clear()
        self._queue.put(None)

    def _run(self) -> None:
        while True:
            profile = self._queue.get()
            if profile is None or self._stopping.is_set():
                return
            with self._lock:
                self._queued.discard(profile)
                self._running = profile
                self.started += 1
            failed: tuple[str, bool] | None = None
            card: CardResult | None = None
            try:
                from exactodds.caribbean.card.result import DEFAULT_RULES, strategy_card

                card = strategy_card(profile, DEFAULT_RULES if self.rules is None else self.rules)
            except ExactOddsError as exc:  # the paytable cannot have a card: said to every request
                failed = (str(exc).splitlines()[0] if str(exc) else type(exc).__name__, True)
            except Exception:  # logged; the same search would fail again, so it is not repeated
                log.exception("the strategy card of %s could not be found", profile.name)
                failed = (f"the strategy card of {profile.name} could not be found (see the server log)",
                          False)
            with self._lock:
                self._running = None
                if card is not None:
                    self._ready[profile] = card
                if failed is not None:
                    self._failed[profile] = failed
