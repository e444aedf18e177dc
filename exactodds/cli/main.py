"""The top-level ``exactodds`` group. Each command family lives in its own module.

Every way a run can end is handled here, once: a user error is one line ``Error: ...`` and exit
status 2; no subcommand shows the help (exit 0); output piped into a program that stops reading
ends quietly; SIGTERM unwinds like Ctrl-C, so files being written are left intact and no temporary
file is left behind; a bug is one line and exit 1 (``EXACTODDS_DEBUG=1`` shows its traceback).
"""

from __future__ import annotations

import errno
import os
import signal
import sys
import warnings
from types import FrameType
from typing import Any, NoReturn

import click

from exactodds import __version__
from exactodds.cache import CacheWarning
from exactodds.cli import hands, warm_up
from exactodds.cli.caribbean.group import caribbean
from exactodds.cli.lazy import LazyGroup
from exactodds.cli.stud.group import stud
from exactodds.errors import ExactOddsError
from exactodds.kernels.workers import stop_workers
from exactodds.stopping import abandoned, enable

DEBUG_ENV = "EXACTODDS_DEBUG"
SIGTERM_EXIT = 128 + signal.SIGTERM
SIGINT_EXIT = 128 + signal.SIGINT
SIGPIPE_EXIT = 128 + 13


class InputError(click.ClickException):
    """A user error: printed as one line "Error: ...", exit status 2."""

    exit_code = 2


class Terminated(SystemExit):
    """Raised by the SIGTERM handler so that ``finally`` blocks and atomic writes clean up."""


def _on_sigterm(signum: int, frame: FrameType | None) -> NoReturn:
    raise Terminated(SIGTERM_EXIT)


def _is_broken_pipe(exc: BaseException) -> bool:
    return isinstance(exc, BrokenPipeError) or (isinstance(exc, OSError) and exc.errno == errno.EPIPE)


def _quiet_exit_after_broken_pipe() -> NoReturn:
    """Stop writing to a pipe whose reader has gone, without a message (as ``head`` expects)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    os._exit(SIGPIPE_EXIT)  # nothing is left to flush to a reader that has gone


def readable(message: str) -> str:
    """``message`` with bytes that were not UTF-8 (surrogate escapes of a file name or an argument)
    shown as ``\\xff`` rather than as lone surrogates."""
    return message.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


_show_warning = warnings.showwarning


def _show_notice(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: Any = None, line: str | None = None) -> None:
    """A cache notice is one line ``note: ...`` (not a warning with a line of library source)."""
    if issubclass(category, CacheWarning):
        click.echo(f"note: {readable(str(message))}", err=True)
    else:
        _show_warning(message, category, filename, lineno, file, line)


def _end(status: int) -> NoReturn:
    """Exit with ``status`` at once, once the run stopped by a signal has unwound (its files closed or
    removed). Never through the interpreter's finalization: a kernel abandoned by the signal, or a
    kernel thread of a span the signal cut short, may still be running native code, and finalizing
    under it can wait for nothing or crash (a SIGSEGV seen once when a report was stopped)."""
    stop_workers()  # compiling processes a helper thread was waiting on
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


class ExactOddsGroup(LazyGroup):
    """The top-level group: the one place where every way a run ends is turned into output."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ExactOddsError as exc:
            raise InputError(str(exc)) from None
        except OSError as exc:  # a path the user gave cannot be read or written
            if _is_broken_pipe(exc):  # before click's own handling, which exits 1
                _quiet_exit_after_broken_pipe()
            where = f"{exc.filename}: " if exc.filename else ""
            raise InputError(f"{where}{exc.strerror or exc}") from None

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
        enable()  # long kernel calls stop within a second of Ctrl-C or SIGTERM
        show_warning, warnings.showwarning = warnings.showwarning, _show_notice
        warm_up.install()
        try:
            rv = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[call-overload]
            sys.stdout.flush()
        except click.exceptions.NoArgsIsHelpError as exc:
            click.echo(exc.ctx.get_help())
            sys.exit(0)
        except click.ClickException as exc:
            click.echo(f"Error: {readable(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except click.exceptions.Abort as exc:
            if isinstance(exc.__cause__, KeyboardInterrupt):
                click.echo("Stopped (Ctrl-C).", err=True)
                _end(SIGINT_EXIT)
            click.echo("Aborted!", err=True)
            sys.exit(1)
        except KeyboardInterrupt:
            click.echo("\nStopped (Ctrl-C).", err=True)
            _end(SIGINT_EXIT)
        except SystemExit as exc:
            if abandoned():  # a kernel stopped by a signal is still running: do not wait for it
                _end(exc.code if isinstance(exc.code, int) else 1)
            raise
        except Exception as exc:
            if _is_broken_pipe(exc):
                _quiet_exit_after_broken_pipe()
            if os.environ.get(DEBUG_ENV):
                raise
            message = " ".join(str(exc).split())[:300]
            click.echo(f"Error: internal error, a bug in exactodds ({type(exc).__name__}: {message}); "
                       f"please report it (set {DEBUG_ENV}=1 to see the traceback)", err=True)
            sys.exit(1)
        finally:  # as it was (a caller such as click's test runner goes on in this process)
            stop_workers()  # a compile a background thread started (the table's workers) ends with us
            signal.signal(signal.SIGTERM, previous)
            warnings.showwarning = show_warning
            enable(False)
            warm_up.uninstall()
        sys.exit(rv if isinstance(rv, int) else 0)


@click.group(cls=ExactOddsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="exactodds")
def cli() -> None:
    """Exact odds of stud poker games, by exhaustive counting.

    Hand strengths run 0..7461; higher is stronger. Every command has --help with an example.

    \b
    Examples:
      exactodds rank "As Kd 10h 9c 2s"
      exactodds caribbean decide "Qh Qs 9d 6c 2h" --up Jh
      exactodds stud equity --player "Kh | 9c 4d" --player "? | Qh 4c"
    """


cli.add_command(hands.rank)
cli.add_command(hands.compare)
cli.add_command(caribbean)
cli.add_command(stud)
cli.add_command(warm_up.warm_up_command)
