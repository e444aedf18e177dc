"""Many games played flat out against a real ``exactodds stud host``: every seat a client following
its live stream and acting as soon as its turn comes (the load test of benchmarks/bench_stud_host.py,
and its smoke version in tests/test_host_api.py).

Each seat holds one server-sent event stream; when its view offers it actions, it sends one (mostly
check or call, sometimes the smallest bet or raise, rarely a fold) and times the request. Each stream
also times how long after an action was sent its view showed it (the live update's delay).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import httpx

TURN = re.compile(r'"turn": (\d+)')


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}


@dataclass
class LoadResult:
    """What a load run measured: each action's seconds, each live update's delay, errors, chips."""

    actions: list[float] = field(default_factory=list)
    updates: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    hands: int = 0
    chips_ok: bool = True

    @staticmethod
    def percentile(values: list[float], q: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def _choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    by = {a["action"]: a for a in legal}
    roll = rng.random()
    if "pb" in by:
        return by["pb"]
    if roll < 0.08 and "f" in by:
        return by["f"]
    if roll < 0.3 and "cbr" in by:
        return min((a for a in legal if a["action"] == "cbr"), key=lambda a: a["amount"])
    return by.get("cc") or legal[0]


async def _seat(client: httpx.AsyncClient, game: str, seat: int, token: str, sent: dict[int, float],
                result: LoadResult, stop: asyncio.Event, rng: random.Random) -> None:
    acted = -1
    headers = bearer(token)
    async with client.stream("GET", f"/api/games/{game}/events", headers=headers, timeout=None) as stream:
        buffer = ""
        async for chunk in stream.aiter_text():
            if stop.is_set():
                return
            buffer += chunk
            while "\n\n" in buffer:
                block, buffer = buffer.split("\n\n", 1)
                if not block.startswith("event: view"):
                    continue
                turn_found = TURN.search(block)
                assert turn_found is not None
                turn = int(turn_found.group(1))
                if turn in sent:
                    result.updates.append(time.perf_counter() - sent[turn])
                if '"legal": null' in block:  # not this seat's turn: nothing more to read (as a phone)
                    continue
                view = json.loads(block.split("data: ", 1)[1])
                legal = view.get("legal")
                if legal and view["turn"] != acted and not stop.is_set():
                    acted = view["turn"]
                    choice = _choose(legal, rng)
                    body = {"action": choice["action"], "turn": view["turn"]}
                    if choice["action"] == "cbr":
                        body["amount"] = choice["amount"]
                    start = time.perf_counter()
                    sent.setdefault(view["turn"] + 1, start)
                    r = await client.post(f"/api/games/{game}/seats/{seat}/act", json=body, headers=headers)
                    result.actions.append(time.perf_counter() - start)
                    if r.status_code != 200:
                        result.errors.append(f"{r.status_code} {r.text[:120]}")


async def _run(url: str, key: str, *, games: int, seats: int, seconds: float, seed: int) -> LoadResult:
    result = LoadResult()
    stop = asyncio.Event()
    connections = games * seats + 10
    limits = httpx.Limits(max_connections=2 * connections, max_keepalive_connections=connections)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        made = []
        for _ in range(games):
            r = await client.post("/api/games", headers=bearer(key), json={
                "seats": [{"name": f"P{k}"} for k in range(1, seats + 1)], "stack": 10**5, "hands": 10_000,
                "coach": False, "act_seconds": 600, "between_seconds": 0})
            r.raise_for_status()
            made.append(r.json())
        tasks = []
        for n, view in enumerate(made):
            sent: dict[int, float] = {}
            for link in view["links"]["seats"]:
                rng = random.Random(seed * 1000 + n * 10 + link["seat"])
                seat = _seat(client, view["game"], link["seat"], link["token"], sent, result, stop, rng)
                tasks.append(asyncio.create_task(seat))
        await asyncio.sleep(0.5)  # every stream open before the games start
        for view in made:
            (await client.post(f"/api/games/{view['game']}/control/start", headers=bearer(key), json={})
             ).raise_for_status()
        await asyncio.sleep(seconds)
        stop.set()
        for task in tasks:
            task.cancel()
        outcomes = await asyncio.gather(*tasks, return_exceptions=True)
        result.errors += [repr(o) for o in outcomes if isinstance(o, Exception)
                          and not isinstance(o, asyncio.CancelledError)]
        for view in made:
            final = (await client.get(f"/api/games/{view['game']}", headers=bearer(key))).json()
            in_play = sum(s["stack"] for s in final["seats"]) + (final["hand"]["pot"] if final["hand"] else 0)
            result.chips_ok &= in_play == 10**5 * seats
            result.hands += final["length"]["hands_played"]
            await client.post(f"/api/games/{view['game']}/control/end", headers=bearer(key), json={})
    return result


def _share(args: tuple[str, str, int, int, float, int]) -> LoadResult:
    url, key, games, seats, seconds, seed = args
    return asyncio.run(_run(url, key, games=games, seats=seats, seconds=seconds, seed=seed))


def run_load(url: str, key: str, *, games: int, seats: int, seconds: float, seed: int = 1,
             processes: int = 1) -> LoadResult:
    """``games`` games of ``seats`` seats played flat out for ``seconds`` (see the module's docstring),
    the players spread over ``processes`` client processes (as phones are separate devices: one
    client process would measure its own queue too)."""
    if processes <= 1:
        return _share((url, key, games, seats, seconds, seed))
    shares = [games // processes + (1 if k < games % processes else 0) for k in range(processes)]
    jobs = [(url, key, n, seats, seconds, seed + k) for k, n in enumerate(shares) if n]
    with ProcessPoolExecutor(max_workers=len(jobs)) as pool:
        parts = list(pool.map(_share, jobs))
    merged = LoadResult()
    for part in parts:
        merged.actions += part.actions
        merged.updates += part.updates
        merged.errors += part.errors
        merged.hands += part.hands
        merged.chips_ok &= part.chips_ok
    return merged
