"""`exactodds stud play` driven through a real pseudo-terminal, as a person would play it."""

import sys

import pexpect
import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")


def test_play_a_hand_at_the_terminal():
    child = pexpect.spawn(
        sys.executable,
        ["-c", "from exactodds.cli.main import cli; cli()", "stud", "play", "--players", "3", "--seed", "7"],
        encoding="utf-8", timeout=60, dimensions=(50, 120),
    )
    child.expect("you are p1")
    child.expect(r"Options: c = call 1, r N = bet/raise to 2, f = fold")
    child.expect("Your action>")
    child.sendline("x")  # not an action: the prompt asks again
    child.expect("Your action>")
    child.sendline("c")
    child.expect("p1 calls 1")
    for _ in range(2):  # rounds 2 and 3: check
        child.expect("Your action>")
        child.sendline("k")
        child.expect("p1 checks")
    child.expect(r"Options: c = call 4, r N = bet/raise to 8, f = fold")
    child.expect("Your action>")
    child.sendline("f")
    child.expect("p1 folds")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
