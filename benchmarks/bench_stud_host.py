"""The five-card stud host under load: 8 games x 8 seats, every seat a client following its live stream
and acting as soon as its turn comes, for a minute (``--seconds`` to change). Peer, in the same run:
a trivial request (``GET /api/config``) sent every 50 ms during the load, the floor of the HTTP stack
under the same load.

The 64 players are spread over 4 client processes (``--processes``): one process holding 64 streams
measured its own queue as much as the server's. Target (issue 32, 2-core machine): no error, every
chip kept, p99 of an action <= 200 ms. The machine's load average is printed beside the figures (it
is shared by several developers).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from common import ratio, report  # noqa: E402

from tests.host_load import LoadResult, run_load  # noqa: E402
from tests.host_server import HostServer  # noqa: E402


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def floor_requests(url: str, stop: threading.Event, out: list[float]) -> None:
    """``GET /api/config`` every 50 ms until ``stop``: each one's seconds in ``out``."""
    with httpx.Client(base_url=url, timeout=60) as client:
        while not stop.is_set():
            start = time.perf_counter()
            client.get("/api/config").raise_for_status()
            out.append(time.perf_counter() - start)
            stop.wait(0.05)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--processes", type=int, default=4,
                        help="client processes the players are spread over (as phones are separate devices)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = HostServer(Path(folder) / "host.db")
        try:
            print(f"before: {load()}")
            stop, floor = threading.Event(), []
            peer = threading.Thread(target=floor_requests, args=(server.url, stop, floor))
            peer.start()
            result = run_load(server.url, server.key, games=args.games, seats=args.seats,
                              seconds=args.seconds, processes=args.processes)
            stop.set()
            peer.join()
            during = load()
        finally:
            server.stop()
    p = LoadResult.percentile
    what = f"{args.games} games x {args.seats} seats, {args.seconds:g} s"
    print(f"the {args.games * args.seats} players in {args.processes} client processes")
    print(f"{what}: {len(result.actions):,} actions ({len(result.actions) / args.seconds:,.0f}/s), "
          f"{result.hands:,} hands, {len(result.errors)} errors, chips kept: {result.chips_ok}; {during}")
    for error in result.errors[:5]:
        print(f"  error: {error}")
    report(f"stud host action, median ({what})", p(result.actions, 0.5))
    report(f"stud host action, p99 ({what})", p(result.actions, 0.99))
    report("  live update seen by every seat, median", p(result.updates, 0.5))
    report("  live update seen by every seat, p99", p(result.updates, 0.99))
    report("  peer: GET /api/config under the same load, p99", p(floor, 0.99))
    ratio("stud host action p99", p(result.actions, 0.99), p(floor, 0.99), "GET /api/config p99 (peer)")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
