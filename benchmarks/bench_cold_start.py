"""Cold start: the first run of each command with fresh cache folders, `exactodds warm-up`, the
same commands warm, and the first whole-game count (wall time and peak memory) beside the
previous release's method, in one run.

Every run is a fresh process with its own ``EXACTODDS_CACHE_DIR`` and ``NUMBA_CACHE_DIR``
(temporary folders): "cold" compiles every kernel, "warm" reuses the folders of a finished
warm-up. The first whole-game count runs with warm kernels and an empty exactodds cache: the
compact count (this release) against the full situation count ``analysis.game.analyze`` (the
previous release, before the compact count). Targets (issue 23): first run of any one command
<= 20 s, warm-up <= 90 s, first count <= 2.5 s and <= 600 MB. The load average is printed beside.

``--only first-count`` (or ``cold``) runs one part.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import tempfile
import time

here = pathlib.Path(__file__).parent
sys.path.insert(0, str(here))
import common  # noqa: E402

COMMANDS = {
    "caribbean decide": ["caribbean", "decide", "Qh Qs 9d 6c 2h", "--up", "Jh"],
    "caribbean analyze": ["caribbean", "analyze"],
    "stud equity heads-up": ["stud", "equity", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c"],
    "stud equity three-way": ["stud", "equity", "--player", "Kh | 9c", "--player", "? | Qh",
                              "--player", "? | 2c"],
}
PREVIOUS_COUNT = "from exactodds.caribbean.analysis.game import analyze; analyze('standard')"


def _run(argv: list[str], cache: pathlib.Path, numba_cache: pathlib.Path | None) -> tuple[float, float]:
    """Seconds and peak resident MB of one fresh process (numba's usual cache when ``numba_cache``
    is None)."""
    env = {**os.environ, "EXACTODDS_CACHE_DIR": str(cache)}
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_cache)
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
            os.dup2(null.fileno(), 2)
        os.execve(sys.executable, [sys.executable, *argv], env)
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{argv} failed")
    return seconds, usage.ru_maxrss / 1024


def _load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def cold(root: pathlib.Path) -> None:
    for name, args in COMMANDS.items():
        seconds, _ = _run(["-m", "exactodds", *args], root / f"c-{len(name)}-{name[:4]}", root / f"n-{name}")
        common.report(f"cold first run: {name} ({_load()})", seconds)
    seconds, _ = _run(["-m", "exactodds", "warm-up"], root / "warm", root / "warm-numba")
    common.report(f"cold exactodds warm-up ({_load()})", seconds)
    for name, args in COMMANDS.items():
        seconds, _ = _run(["-m", "exactodds", *args], root / "warm", root / "warm-numba")
        common.report(f"warm run after warm-up: {name} ({_load()})", seconds)


def first_count(root: pathlib.Path) -> None:
    numba_cache = None  # numba's usual cache, warmed first (the exactodds cache stays empty)
    _run(["-m", "exactodds", "warm-up"], root / "count-warm", numba_cache)
    ours, ours_mb = _run(["-m", "exactodds", "caribbean", "analyze"], root / "count-ours", numba_cache)
    theirs, theirs_mb = _run(["-c", PREVIOUS_COUNT], root / "count-previous", numba_cache)
    common.report(f"first whole-game count, compact ({ours_mb:,.0f} MB peak; {_load()})", ours)
    common.report(f"first whole-game count, previous release's full count ({theirs_mb:,.0f} MB peak)", theirs)
    common.ratio("first whole-game count", ours, theirs, "the previous release's full count")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["cold", "first-count"], default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="exactodds-cold-") as tmp:
        root = pathlib.Path(tmp)
        if args.only in (None, "cold"):
            cold(root)
        if args.only in (None, "first-count"):
            first_count(root)


if __name__ == "__main__":
    main()
