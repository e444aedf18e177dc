"""The session page's transcript and error example are real: the keys typed in the transcript are
played again, and every line shown must appear, in order, in the output."""

from __future__ import annotations

import pathlib
import re
import shlex

from click.testing import CliRunner

from exactodds.cli.main import cli
from exactodds.stud.history.session_phh import load_session, replay_session

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "stud-session.md").read_text(encoding="utf-8")
SHIPPED = ROOT / "examples" / "hands" / "home_session_two_hands.phhs"
PROMPT = "  Your action> "


def transcript() -> tuple[list[str], list[str]]:
    """The command of the two-hand transcript and its lines."""
    command = re.search(r"typed at a terminal:\s*`(exactodds stud play [^`]*)`", PAGE).group(1)
    block = re.search(r"^```\n(Five-card stud session, seed .*?)^```", PAGE, flags=re.M | re.S).group(1)
    return shlex.split(command)[1:], block.splitlines()


def test_the_transcript_is_real(tmp_path, monkeypatch):
    args, lines = transcript()
    keys = [line[len(PROMPT):] for line in lines if line.startswith(PROMPT)]
    assert len(keys) >= 6
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, args, input="".join(f"{k}\n" for k in keys))
    assert result.exit_code == 0, result.output
    # piped input is not echoed: "Your action> k" is the prompt then the next line of output
    actual = result.output.replace(PROMPT, PROMPT + "\n").splitlines()
    position = 0
    for line in lines:
        wanted = PROMPT.rstrip() if line.startswith(PROMPT) else line.rstrip()
        position = [a.rstrip() for a in actual].index(wanted, position) + 1
    saved = replay_session(load_session(tmp_path / "evening.phhs"))
    assert saved.result == replay_session(load_session(SHIPPED)).result  # the shipped file is this session
    assert (tmp_path / "evening.phhs").read_text() == SHIPPED.read_text()


def test_the_error_example_is_real(tmp_path):
    shown = re.search(r"^(Error: evening\.phhs hand 2 line \d+: .*)$", PAGE, flags=re.M).group(1)
    text = SHIPPED.read_text()
    second = text.index("\n[2]\n")
    at = text.index("starting_stacks = [27, 36, 27]", second)
    bad = tmp_path / "evening.phhs"
    old = "starting_stacks = [27, 36, 27]"
    bad.write_text(text[:at] + "starting_stacks = [27, 36, 28]" + text[at + len(old):])
    result = CliRunner().invoke(cli, ["stud", "replay", str(bad)])
    assert result.exit_code == 2 and result.output.strip() == shown
