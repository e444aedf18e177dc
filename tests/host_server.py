"""The real five-card stud host server (``exactodds stud host``) for the tests, and its API spoken
with a link's token, as the pages speak it."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.table_server import TableServer

HOST_LINE = re.compile(r"Five-card stud host: (http://\S+/)#(\S+)")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}


class HostServer(TableServer):
    """``exactodds stud host --port 0 --db DB`` in a child process; ``url`` and ``key`` (the host's)."""

    command = ("stud", "host")
    url_line = HOST_LINE

    def found(self, match: re.Match[str]) -> None:
        self.key = match.group(2)

    def as_(self, token: str) -> httpx.Client:
        """A client speaking with ``token`` (close it after use)."""
        return httpx.Client(base_url=self.url, timeout=30, headers=bearer(token))

    def new_game(self, **setup: Any) -> dict:
        """A new game (the host's view, with the links)."""
        with self.as_(self.key) as host:
            r = host.post("/api/games", json=setup)
            assert r.status_code == 201, r.text
            return r.json()

    def control(self, game: str, command: str, **body: Any) -> dict:
        with self.as_(self.key) as host:
            r = host.post(f"/api/games/{game}/control/{command}", json=body)
            assert r.status_code == 200, r.text
            return r.json()


def seat_tokens(view: dict) -> dict[int, str]:
    """The links' tokens of a host's view, by seat (persons only)."""
    return {s["seat"]: s["token"] for s in view["links"]["seats"] if s["token"]}
