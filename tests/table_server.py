"""Start and stop the real web servers (``exactodds caribbean table``, ``exactodds stud host``) on
127.0.0.1 for the tests."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

URL_LINE = re.compile(r"Caribbean Stud table: (http://\S+/)")
JSON = {"Content-Type": "application/json"}


class TableServer:
    """``exactodds caribbean table --port 0 --db DB`` in a child process; ``url`` once it listens."""

    command: tuple[str, ...] = ("caribbean", "table")
    url_line = URL_LINE

    def __init__(self, db: Path, *args: str) -> None:
        self.db = db
        # stderr to a file: a pipe nobody reads could fill up and stall the server
        self.log = open(db.with_suffix(".log"), "a", encoding="utf-8")  # closed by stop() or kill()
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from exactodds.cli.main import cli; cli()", *self.command,
             "--port", "0", "--db", str(db), *args],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env=os.environ.copy())
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        self.banner: list[str] = []
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                self.log.close()
                errors = db.with_suffix(".log").read_text(encoding="utf-8")
                raise RuntimeError(f"the table server stopped: {errors}")
            self.banner.append(line.rstrip("\n"))
            match = self.url_line.search(line)
            if match:
                self.url = match.group(1)
                self.found(match)
                break
        else:
            raise RuntimeError("the table server printed no URL within 60 s")
        # The API takes only JSON POSTs (a page of another site cannot send them): every request says so.
        self.client = httpx.Client(base_url=self.url, timeout=30, headers=JSON)
        for _ in range(100):  # the socket listens before the URL is printed; wait for the app
            try:
                self.client.get("/api/config")
                return
            except httpx.TransportError:
                time.sleep(0.05)

    def found(self, match: re.Match[str]) -> None:
        """What else the banner's URL line says (a subclass reads it)."""

    def settled_view(self, sid: str, *, timeout: float = 240) -> dict:
        """A session's view once the odds worker is done with it (not queued, counting or busy).

        The worker changes a view on its own (``odds_status`` "counting" becomes "ready"): a test that
        compares a view before and after requests takes its "before" from here.
        """
        deadline = time.monotonic() + timeout
        while True:
            view = self.client.get(f"/api/sessions/{sid}").json()
            if view["odds_status"] not in ("queued", "counting", "busy") or time.monotonic() > deadline:
                return view
            time.sleep(0.2)

    def kill(self) -> None:
        """Stop the server at once (SIGKILL: no clean shutdown, as in a crash)."""
        self.client.close()
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self._close_streams()

    def stop(self, sig: int = signal.SIGINT) -> tuple[int, str]:
        """Stop the server as its user would (Ctrl-C by default); its exit code and the rest of its output."""
        self.client.close()
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=15)
        assert self.proc.stdout is not None
        rest = self.proc.stdout.read()
        self._close_streams()
        return self.proc.returncode, rest

    def _close_streams(self) -> None:
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.log.close()
