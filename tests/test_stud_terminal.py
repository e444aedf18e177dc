"""`exactodds stud play` driven through a real pseudo-terminal, as a person would play a session."""

import re
import sys
import time

import pexpect
import pytest

from exactodds.stud.history.session_phh import load_session, replay_session

from .cli_checks import default_sigint

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

KEYS = re.compile(r"Keys: ([^\r\n]*)\r?\n")


def spawn(*args):
    return pexpect.spawn(
        sys.executable, ["-c", "from exactodds.cli.main import cli; cli()", "stud", "play", *args],
        encoding="utf-8", timeout=90, dimensions=(50, 200), preexec_fn=default_sigint,
    )


def choose(keys: str) -> str:
    """A calling station: post the bring-in, check when free, else call."""
    for key in ("p", "k", "c"):
        if f"{key} = " in keys:
            return key
    raise AssertionError(keys)


def test_short_session_with_the_coach(tmp_path):
    save = tmp_path / "evening.phhs"
    child = spawn("--players", "2", "--hands", "2", "--seed", "11", "--stack", "30", "--coach",
                  "--save", str(save))
    child.expect(r"Drawing lots for the first dealer: seat \d")
    decisions = 0
    while True:
        index = child.expect([r"Coach: ([A-Z][^\r\n]*)\r?\n", "Session over after"])
        if index == 1:
            break
        first = child.match.group(1)  # the recommendation comes first
        assert re.search(r"better than|too close to call|worth the same|the only action", first), first
        child.expect(r"Pot odds: you win (about )?\d+% of the time at showdown")
        child.expect(KEYS)
        keys = child.match.group(1)
        if "c = call" in keys:  # facing a bet: the share of the pot a call needs, beside the odds
            assert re.search(r"calling \d+ into \d+ needs \d+%", child.before), child.before
        child.expect("Your action> ")
        if decisions == 0:
            child.sendline("zz")  # not a key: asked again, nothing changes
            child.expect("Not allowed: unknown key")
            child.expect("Your action> ")
        child.sendline(choose(keys))
        decisions += 1
    child.expect(r"Total cost: \d+\.\d\d(?: ± \d+\.\d\d)? chips over (\d+) decision")
    assert int(child.match.group(1)) == decisions
    child.expect(r"2 hand\(s\) saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert decisions >= 2
    session = replay_session(load_session(save))
    assert len(session.hands) == 2 and sum(r.net for r in session.result.seats) == 0
    assert [t.dealer for t in session.hands] in ([1, 2], [2, 1])  # the deal passes to the left


def test_a_slow_answer_says_thinking(tmp_path):
    """Five players on the first round: the coach's sampled answer takes over a second, the terminal
    says so while it works, and Ctrl-C stops it at once."""
    child = spawn("--players", "5", "--hands", "1", "--seed", "3", "--coach", "--coach-samples", "1000000")
    child.expect("thinking\\.\\.\\. \\d+ s")
    started = time.monotonic()
    child.sendintr()
    child.expect("Interrupted: the session stops after 0 finished hand")
    assert time.monotonic() - started < 3
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130


@pytest.mark.parametrize("stop", ["eof", "interrupt"])
def test_stopping_mid_session_keeps_the_finished_hands(tmp_path, stop):
    save = tmp_path / "stopped.phhs"
    child = spawn("--players", "3", "--hands", "5", "--seed", "4", "--save", str(save))
    while True:
        child.expect(KEYS)
        keys = child.match.group(1)
        child.expect("Your action> ")
        if save.exists():  # one hand is finished and saved: stop in the middle of the next
            break
        child.sendline(choose(keys))
    if stop == "eof":
        child.sendeof()
        child.expect("End of input: the session stops after")
    else:
        child.sendintr()
        child.expect("Interrupted: the session stops after")
    child.expect(r"(\d+) hand\(s\) saved to")
    finished = int(child.match.group(1))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == (0 if stop == "eof" else 130)
    session = replay_session(load_session(save))  # the file is a valid session of the finished hands
    assert len(session.hands) == finished >= 1
