"""Every long command stops within two seconds of SIGTERM or Ctrl-C (issue 23 §1), exit 143 / 130,
leaving no file behind; and the helper that makes a kernel call stoppable."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from exactodds import stopping

from .cli_checks import default_sigint

FIVE_PLAYERS = ["stud", "equity", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c", "--player", "? | 2c 7d",
                "--player", "? | 3c 8h", "--player", "? | Js 5s"]
LONG_SAMPLE = [*FIVE_PLAYERS, "--samples", "100000000"]  # over a minute of the sampling kernels
LONG_COMMANDS = {
    "stud equity": LONG_SAMPLE,
    "stud table": ["stud", "table"],
    "analyze": ["caribbean", "analyze"],  # signalled once its count starts (see READY): it lasts 2-3 s
    "hole-carding": ["caribbean", "analyze", "--dealer-known", "2"],
    "collusion": ["caribbean", "collusion", "--players", "7", "--samples", "10000000"],
    "session": ["caribbean", "session", "--hands", "100"],  # the largest: about 10 s of exact convolution
    "report": ["caribbean", "report", "--out", "{tmp}/report.html"],
}


# Commands too quick to be signalled 2 s in: signalled as soon as this file of their cache is written.
READY = {"analyze": "hand-classes-v1.npy"}  # the tables are built; the whole-game count begins


def _catches(pid: int, sig: signal.Signals) -> bool:
    """Whether process ``pid`` has a handler for ``sig`` (Linux: the SigCgt mask of /proc/PID/status)."""
    status = Path(f"/proc/{pid}/status")
    if not status.exists():
        return True  # not Linux: rely on the 2 s
    caught = next((line.split()[1] for line in status.read_text().splitlines() if line.startswith("SigCgt:")),
                  "0")
    return bool(int(caught, 16) >> (sig - 1) & 1)


def _wait_until(condition: Callable[[], bool], proc: subprocess.Popen[bytes], seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)


def _stop(args: list[str], tmp: Path, sig: signal.Signals,
          ready: str | None = None) -> tuple[int, float, bytes]:
    """Start ``exactodds ARGS`` (no cached counts), send ``sig`` 2 s in (or once the cache holds the
    file ``ready``), and never before the command line handles it (a loaded machine can take longer
    than 2 s to start Python); its exit status and the seconds it took to exit."""
    env = {**os.environ, "EXACTODDS_CACHE_DIR": str(tmp / "cache")}
    argv = [a.replace("{tmp}", str(tmp)) for a in args]
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "exactodds", *argv], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=default_sigint)
    _wait_until(lambda: _catches(proc.pid, signal.SIGTERM), proc)
    if ready is None:
        time.sleep(max(0.0, started + 2 - time.monotonic()))
    else:
        _wait_until(lambda: (tmp / "cache" / ready).exists(), proc)
    assert proc.poll() is None, f"{args} ended before the signal: {proc.communicate()}"
    sent = time.monotonic()
    proc.send_signal(sig)
    try:
        _, err = proc.communicate(timeout=2)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail(f"{args} still running 2 s after {sig.name}")
    return proc.returncode, time.monotonic() - sent, err


@pytest.mark.parametrize("name", sorted(LONG_COMMANDS))
def test_sigterm_stops_every_long_command(name: str, tmp_path: Path) -> None:
    status, seconds, err = _stop(LONG_COMMANDS[name], tmp_path, signal.SIGTERM, READY.get(name))
    assert status == 143, err
    assert b"Traceback" not in err
    assert [p.name for p in tmp_path.iterdir() if p.name != "cache"] == []  # no report, no temporary file


def test_ctrl_c_stops_a_long_kernel_with_130(tmp_path: Path) -> None:
    status, _, err = _stop(LONG_SAMPLE, tmp_path, signal.SIGINT)
    assert status == 130, err
    assert b"Traceback" not in err


def test_stoppable_returns_and_raises_like_the_plain_call() -> None:
    stopping.enable()
    try:
        assert stopping.stoppable(sum, [1, 2, 3]) == 6
        with pytest.raises(ZeroDivisionError):
            stopping.stoppable(lambda: 1 // 0)
        assert not stopping.abandoned()
    finally:
        stopping.enable(False)


def test_stoppable_lets_a_signal_handler_interrupt_a_long_call() -> None:
    previous = signal.signal(signal.SIGUSR1, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt))
    stopping.enable()
    release = threading.Event()
    try:
        threading.Timer(0.2, lambda: os.kill(os.getpid(), signal.SIGUSR1)).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            stopping.stoppable(release.wait, 30)  # a call that would block for 30 s
        assert time.monotonic() - start < 1
        assert stopping.abandoned()  # the call still runs; the command line then ends with os._exit
    finally:
        release.set()
        time.sleep(0.1)
        stopping.enable(False)
        signal.signal(signal.SIGUSR1, previous)
    assert not stopping.abandoned()


def test_budget_is_bounded_and_an_over_budget_exact_method_is_named() -> None:
    from exactodds.stud.equity.sampling import MAX_BUDGET, SamplingError, check_sampling
    from tests.cli_checks import one_line_error, run

    with pytest.raises(SamplingError, match="at most 86,400 seconds"):
        check_sampling(budget=1e9)
    check_sampling(budget=MAX_BUDGET)
    one_line_error(run(*FIVE_PLAYERS, "--budget", "1e9"), "--budget", "0<=x<=86400")
    one_line_error(run("stud", "table", "--budget", "1e9"), "--budget", "0<=x<=86400")
    one_line_error(run("stud", "table", "--players", "3", "--samples", "1"), "--samples", "2<=x<=100000000")
    assert "0<=x<=86400" in run("stud", "equity", "--help").output
    result = run(*FIVE_PLAYERS, "--samples", "2000")
    assert result.exit_code == 0, result.output
    assert "exact would take about 7 years (over --budget 10 s); sampled instead" in result.output
    assert "NOT exact" in result.output


def test_duration_wording() -> None:
    from exactodds.wording import duration

    assert [duration(s) for s in (0.4, 119, 120, 7_200, 3 * 86_400, 2.3e8)] == [
        "0 s", "119 s", "2 minutes", "2 hours", "3 days", "7 years"]
