"""The server's clock: a game whose move keeps failing is tried again after a pause that doubles (not
every 50 ms), and a bug's traceback is logged once."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace

import pytest

from exactodds.stud.host.server import _clock


class _FailingService:
    def __init__(self) -> None:
        self.calls = 0

    def due(self) -> list[tuple[float, str]]:
        return [(0.0, "broken-game-id")]

    def tick(self, game_id: str) -> None:
        self.calls += 1
        raise RuntimeError("a model that cannot be played")


def test_a_failing_game_backs_off_and_logs_its_traceback_once(caplog: pytest.LogCaptureFixture) -> None:
    service = _FailingService()
    host = SimpleNamespace(hub=SimpleNamespace(closing=False), service=service)

    async def run_for(seconds: float) -> None:
        task = asyncio.create_task(_clock(host))  # type: ignore[arg-type]
        await asyncio.sleep(seconds)
        host.hub.closing = True
        await task

    with caplog.at_level(logging.WARNING):
        asyncio.run(run_for(1.6))
    # pauses of 0.05, 0.1, 0.2, 0.4, 0.8 s: 5 or 6 tries in 1.6 s, not the 32 of a try every 50 ms
    assert 4 <= service.calls <= 7, service.calls
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1 and "broken-g" in tracebacks[0].getMessage()
