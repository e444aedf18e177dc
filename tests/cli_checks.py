"""What the command-line tests share: running a command in-process and checking a refusal."""

from __future__ import annotations

import signal

from click.testing import CliRunner, Result

from exactodds.cli.main import cli


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> Result:
    """``exactodds ARGS`` in-process (click's runner), with optional stdin text and environment."""
    return CliRunner().invoke(cli, list(args), input=input, env=env)


def one_line_error(result: Result, *fragments: str) -> None:
    """The command refused its input: exit 2, one line ``Error: ...`` holding every fragment, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    for fragment in fragments:
        assert fragment in lines[0], result.output
    assert "Traceback" not in result.output


def default_sigint() -> None:
    """``preexec_fn`` for a child that is sent Ctrl-C: a pytest-xdist worker ignores SIGINT and a
    child inherits that (Python then never raises KeyboardInterrupt), as a shell's background job
    would; a user's terminal delivers it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
