"""`exactodds stud play` driven through a real pseudo-terminal, as a person would play a session."""

import re
import sys

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
        index = child.expect([r"Coach: your showdown equity ([^\r\n]*)\r?\n", "Session over after"])
        if index == 1:
            break
        equity = child.match.group(1)
        assert re.match(r"(about )?\d+\.\d%", equity), equity
        if decisions == 0:  # heads-up the equity is always exact
            assert "(exact, " in equity
        child.expect(KEYS)
        keys = child.match.group(1)
        # facing a bet the coach adds the call/fold EV against folding
        assert ("Coach: call " in child.before) == ("c = call" in keys), child.before
        if "c = call" in keys:
            assert re.search(r"EV [+-]\d+\.\d\d chips against 0 for folding, break-even equity \d+\.\d%: "
                             r"(call|fold|either)", child.before), child.before
        child.expect("Your action> ")
        if decisions == 0:
            child.sendline("zz")  # not a key: asked again, nothing changes
            child.expect("Not allowed: unknown key")
            child.expect("Your action> ")
        child.sendline(choose(keys))
        decisions += 1
    child.expect(r"2 hand\(s\) saved to")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert decisions >= 2
    session = replay_session(load_session(save))
    assert len(session.hands) == 2 and sum(r.net for r in session.result.seats) == 0
    assert [t.dealer for t in session.hands] in ([1, 2], [2, 1])  # the deal passes to the left


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
