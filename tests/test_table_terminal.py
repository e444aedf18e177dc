"""`exactodds caribbean play` through a real pseudo-terminal, as a person would play it."""

from __future__ import annotations

import re
import sys

import pexpect
import pytest

from exactodds.cards import format_card
from exactodds.caribbean.table.game import TableSession

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
CLI = ["-c", "from exactodds.cli.main import cli; cli()"]


def test_play_a_session_at_the_terminal() -> None:
    child = pexpect.spawn(
        sys.executable, [*CLI, "caribbean", "play", "--hands", "2", "--seed", "3", "--bankroll", "20"],
        encoding="utf-8", timeout=90, dimensions=(50, 160))
    child.expect(r"practice deck \(seed 3\): reproducible, not a fair random shuffle")
    child.expect("hand 1 of 2 · bankroll 20 · Ante spot: empty")
    child.sendline("d")
    child.expect("not allowed: deal: place an ante on the Ante spot first")
    child.sendline("a 5")
    child.expect("bankroll 15 · Ante spot: 5")
    child.sendline("a 5")
    child.sendline("u")
    child.expect("bankroll 15 · Ante spot: 5 ")
    child.sendline("x")
    child.expect("not allowed: unknown command 'x'")

    # the same deal as the library object with the same seed: the two can never disagree
    twin = TableSession(bankroll=20, hands=2, seed=3)
    twin.add_chip(5)
    twin.deal()
    child.sendline("")  # Enter deals
    child.expect(r"You: +(\S+ \S+ \S+ \S+ \S+)")
    assert child.match.group(1) == " ".join(_pretty(c) for c in twin.hand.player)
    child.expect(r"Dealer: (\S+) \?\? \?\? \?\? \?\?")
    assert child.match.group(1) == _pretty(twin.hand.dealer[0])
    child.expect(r"Coach: EV\(raise\) ([+-]\d\.\d{4})  EV\(fold\) -1\.0000 antes  optimal: (raise|fold)")
    assert float(child.match.group(1)) == pytest.approx(float(twin.hand.coach.ev_raise), abs=5e-5)
    assert child.match.group(2) == twin.hand.coach.optimal
    child.sendline("h")
    child.expect("coach hidden until you decide")
    child.sendline("f")
    twin.fold()
    child.expect(re.escape(f"fold: {int(twin.history[-1].net):+d}"))
    child.expect("you folded: " + ("optimal" if twin.history[-1].cost == 0 else "optimal was raise"))

    child.sendline("b")  # rebet, with the coach hidden
    twin.rebet()
    child.expect("Coach: hidden until you decide")
    if twin.bankroll < twin.call_amount:
        child.sendline("r")
        child.expect("not allowed: raise needs")
        child.sendline("p 50")
        child.expect("deposited; bankroll")
        twin.deposit(50)
    child.sendline("r")
    twin.raise_()
    child.expect(r"Dealer: [^\n]*\n")  # one line: pexpect's ".*" spans lines, and the odds now come at once
    child.expect(r"Session over after 2 hands: ([a-z ]+) \(net ([^)]+)\)")
    outcome = "the player wins" if twin.net > 0 else "the bank wins" if twin.net < 0 else "a draw"
    assert child.match.group(1) == outcome
    assert child.match.group(2) == (f"{int(twin.net):+,}" if twin.net else "0")
    odds = r"exact odds of 2 hands of optimal play at a constant ante: player (\d+\.\d{3})%"
    child.expect(odds, timeout=180)  # from the count in the cache (counted first if missing)
    assert child.match.group(1) == "31.070"  # P(player ahead) after 2 hands, exactly (caribbean session)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def _pretty(card: int) -> str:
    return format_card(card, pretty=True)


def test_a_bad_option_is_one_line() -> None:
    child = pexpect.spawn(sys.executable, [*CLI, "caribbean", "play", "--hands", "0"], encoding="utf-8",
                          timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert child.before.strip() == "Error: hands must be between 1 and 1,000, got 0"
