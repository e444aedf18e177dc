"""The Caribbean Stud table through its HTTP API: a deal with the coach's figures, 20 and 100 sessions at
once, server start to first page. Peer: the same deal on the library object in-process (no HTTP, no SQLite).

Targets (2-core machine, quiet): a deal <= 50 ms median and <= 150 ms p99 alone; 20 sessions flat out,
every action <= 50 ms median and <= 150 ms p99; 100 sessions flat out, no errors and p99 <= 1 s; server
start to first page <= 2 s. The machine's load average is printed beside each figure.
"""

from __future__ import annotations

import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, os.path.dirname(__file__))
from common import ratio, report, start_table_server  # noqa: E402

JSON = {"Content-Type": "application/json"}  # the API takes JSON POSTs only


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def start_server(db: Path) -> tuple[subprocess.Popen, str, float]:
    """The table server on a free port; returns the process, its URL and seconds to the first page."""
    return start_table_server(db)


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=30)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def play(url: str, deals: int, latencies: list[float], pause: float = 0.0,
         actions: list[float] | None = None, errors: list[str] | None = None) -> None:
    """One session: ante 5, then ``deals`` deals (rebet), each answered by the coach's optimal choice.

    ``pause``: seconds between a player's requests (0: as fast as the server answers). ``latencies``
    gets each deal's time, ``actions`` every action's (deal and decision), ``errors`` each failure."""
    actions = [] if actions is None else actions
    try:
        with httpx.Client(base_url=url, timeout=60, headers=JSON) as client:
            sid = client.post("/api/sessions", json={"hands": 1000, "bankroll": 10**6}).json()["id"]
            client.post(f"/api/sessions/{sid}/chips", json={"add": 5})
            for i in range(deals):
                start = time.perf_counter()
                r = client.post(f"/api/sessions/{sid}/{'deal' if i == 0 else 'rebet'}")
                took = time.perf_counter() - start
                latencies.append(took)
                actions.append(took)
                r.raise_for_status()
                view = r.json()
                assert view["hand"]["coach"]["ev_raise"]
                time.sleep(pause)
                start = time.perf_counter()
                client.post(f"/api/sessions/{sid}/{view['hand']['coach']['optimal']}").raise_for_status()
                actions.append(time.perf_counter() - start)
                time.sleep(pause)
    except Exception as exc:  # counted and reported: a benchmark under load must say how many failed
        if errors is None:
            raise
        errors.append(repr(exc)[:120])


def wait_for_odds(url: str) -> float:
    """Seconds until the server has the default session's exact odds (from the cached compact count)."""
    start = time.perf_counter()
    with httpx.Client(base_url=url, timeout=30, headers=JSON) as client:
        sid = client.post("/api/sessions", json={}).json()["id"]
        while client.get(f"/api/sessions/{sid}").json()["odds"] is None:
            time.sleep(0.1)
    return time.perf_counter() - start


def in_process(deals: int) -> list[float]:
    """The peer: the same deals on the library object, no HTTP and no database."""
    from exactodds.caribbean.table.game import TableSession

    s = TableSession(hands=1000, bankroll=10**6)
    s.add_chip(5)
    times = []
    for i in range(deals):
        start = time.perf_counter()
        s.deal() if i == 0 else s.rebet()
        times.append(time.perf_counter() - start)
        s.raise_() if s.hand.coach.optimal == "raise" else s.fold()
    return times


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        starts = []
        for k in range(3):
            proc, url, seconds = start_server(Path(folder) / f"start{k}.db")
            starts.append(seconds)
            if k < 2:
                stop(proc)
        version = []
        for _ in range(3):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", "from exactodds.cli.main import cli; cli()", "--version"],
                           check=True, capture_output=True)
            version.append(time.perf_counter() - t)
        report("server start to first page (median of 3)", statistics.median(starts))
        report("  peer: `exactodds --version` process", statistics.median(version))
        print(f"server start / --version: {statistics.median(starts) / statistics.median(version):.1f}x"
              "   (target: start to first page <= 2 s)")
        try:
            first: list[float] = []
            play(url, 50, first)  # while the odds worker reads the cached count (the coach is decide())
            counted = wait_for_odds(url)
            print(f"server had the session odds {counted:.1f} s after the first deals")
            alone: list[float] = []
            play(url, 200, alone)
            report("deal + coach through the API, median (200 deals)", statistics.median(alone))
            report("deal + coach through the API, p99", percentile(alone, 0.99))
            report("  the first 50 deals, median", statistics.median(first))
            peer = in_process(200)
            report("  peer: the same deal in-process (coach by decide()), median", statistics.median(peer))
            ratio("API deal (median)", statistics.median(alone), statistics.median(peer),
                  "in-process deal")
            print("target: API deal median <= 50 ms, p99 <= 150 ms")

            print(f"  ({load()})")
            for sessions, label, pause in ((20, "no pause", 0.0), (20, "0.5 s between actions", 0.5),
                                           (100, "no pause", 0.0)):
                together: list[float] = []
                every: list[float] = []
                errors: list[str] = []
                threads = [threading.Thread(target=play, args=(url, 20, together, pause, every, errors))
                           for _ in range(sessions)]
                start = time.perf_counter()
                for t in threads:
                    t.start()
                for t in threads:
                    t.join()
                wall = time.perf_counter() - start
                n = len(every)
                print(f"{sessions} concurrent sessions, {label}: {n} actions in {wall:.2f} s "
                      f"({n / wall:,.0f} requests/s), {len(errors)} errors  ({load()})")
                for e in errors[:3]:
                    print(f"  error: {e}")
                report(f"{sessions} sessions, {label}: action median", statistics.median(every))
                report(f"{sessions} sessions, {label}: action p99", percentile(every, 0.99))
                report(f"{sessions} sessions, {label}: deal median", statistics.median(together))
                slower = statistics.median(every) / statistics.median(alone)
                print(f"concurrent / alone (median): {slower:.1f}x   (target: 20 sessions <= 50 ms median, "
                      "<= 150 ms p99; 100 sessions no errors, p99 <= 1 s)")
        finally:
            stop(proc)


if __name__ == "__main__":
    main()
