"""The table's strategy card worker: one search at a time, each paytable once, a bounded queue.

The search itself (``card.result.strategy_card``, which the worker imports when it is first asked
for a card) is replaced by a stand-in that waits for the test (the real card is served by a
real server in tests/test_table_api.py and tests/test_table_browser.py): this checks the queue.
"""

from __future__ import annotations

import threading
import time

from exactodds.caribbean.profile import available_profiles, load_profile
from exactodds.caribbean.strategy.card import result as card_result
from exactodds.caribbean.strategy.card.evaluate import CardSearchError
from exactodds.caribbean.table.card_worker import start_card_worker
from exactodds.web.worker import JobStatus


def _until(condition, what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def test_one_search_at_a_time_each_paytable_once_and_a_bounded_queue(monkeypatch) -> None:
    release = threading.Event()
    searched: list[tuple[str, int]] = []

    def stand_in(profile, rules):
        searched.append((profile.name, rules))
        if not release.wait(10):
            raise TimeoutError("the test did not release the search")
        if profile.name == "royal200":
            raise RuntimeError("a search that fails")
        if profile.name == "royal500":
            raise CardSearchError("this paytable's amounts cannot be counted exactly")
        return f"card of {profile.name}"

    monkeypatch.setattr(card_result, "strategy_card", stand_in)  # the worker imports it on its first card
    assert {"standard", "betmgm", "microgaming", "royal250", "royal200"} <= set(available_profiles())
    profiles = [load_profile(name) for name in ("standard", "betmgm", "microgaming", "royal250")]
    worker = start_card_worker(limit=2)
    try:
        first, second, third, fourth = profiles[:4]
        assert worker.lookup(first) == (None, JobStatus.QUEUED)
        _until(lambda: worker.snapshot()["running"], "the first search starts")
        assert worker.lookup(first) == (None, JobStatus.RUNNING)
        assert worker.lookup(second) == (None, JobStatus.QUEUED)
        assert worker.lookup(second) == (None, JobStatus.QUEUED)  # asked twice, queued once
        assert worker.lookup(third) == (None, JobStatus.QUEUED)
        assert worker.lookup(fourth) == (None, JobStatus.BUSY)  # the queue holds 2
        assert worker.snapshot() == {"queued": 2, "running": True, "limit": 2, "started": 1, "ready": 0,
                                     "failed": 0}
        release.set()
        _until(lambda: worker.snapshot()["ready"] == 3, "three cards found")
        assert worker.lookup(first) == (f"card of {first.name}", JobStatus.READY)
        assert worker.lookup(third) == (f"card of {third.name}", JobStatus.READY)
        assert searched == [(p.name, 3) for p in (first, second, third)]  # the CLI's default length
        # a failed search is logged, said to every later request, and not searched again
        failing = load_profile("royal200")
        assert worker.lookup(failing) == (None, JobStatus.QUEUED)
        _until(lambda: not worker.snapshot()["running"] and worker.snapshot()["started"] == 4, "the failure")
        assert worker.lookup(failing) == (None, JobStatus.FAILED)
        assert worker.failure(failing) == ("the strategy card of royal200 could not be found (see the server "
                                           "log)", False)
        # a paytable the library refuses: its one-line reason, the paytable to blame
        refused = load_profile("royal500")
        assert worker.lookup(refused) == (None, JobStatus.QUEUED)
        _until(lambda: worker.snapshot()["failed"] == 2, "the refusal")
        assert worker.lookup(refused) == (None, JobStatus.FAILED)
        assert worker.failure(refused) == ("this paytable's amounts cannot be counted exactly", True)
        assert worker.snapshot()["started"] == 5 and worker.failure(profiles[0]) is None
    finally:
        release.set()
        worker.stop()


def test_a_stopped_worker_ends_its_thread() -> None:
    worker = start_card_worker(limit=1)
    worker.stop()
    worker._thread.join(timeout=5)
    assert not worker._thread.is_alive()


def test_stop_drops_the_paytables_still_queued(monkeypatch) -> None:
    release = threading.Event()

    def stand_in(profile, rules):
        release.wait(10)
        return f"card of {profile.name}"

    monkeypatch.setattr(card_result, "strategy_card", stand_in)  # the worker imports it on its first card
    worker = start_card_worker(limit=4)
    first, second, third = (load_profile(name) for name in ("standard", "betmgm", "microgaming"))
    worker.lookup(first)
    _until(lambda: worker.snapshot()["running"], "the first search")
    worker.lookup(second)
    worker.lookup(third)
    worker.stop()
    release.set()
    worker._thread.join(timeout=5)
    assert not worker._thread.is_alive()
    assert worker.snapshot()["started"] == 1 and worker.snapshot()["queued"] == 0
