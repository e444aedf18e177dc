"""Options and output helpers shared by every command."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from exactodds.errors import ExactOddsError
from exactodds.jsonable import exact

json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON object instead of a table."
)


def _default(value: Any) -> Any:
    if isinstance(value, Fraction):
        return exact(value)
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def echo_json(payload: dict[str, Any]) -> None:
    """Print one JSON object (fractions as "p/q", numpy integers as ints)."""
    click.echo(json.dumps(payload, indent=2, default=_default))


@contextmanager
def progress_bar(label: str, length: int, *, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """Yield ``advance(n)`` for one stage of ``length`` steps drawn on stderr, or None when progress is off.

    An adapter onto :mod:`exactodds.progress` for callers that count their own steps; new code
    hands a progress from :func:`exactodds.cli.progress.terminal_progress` to the library instead.
    """
    from exactodds.cli.progress import terminal_progress
    from exactodds.progress import NO_PROGRESS

    with terminal_progress(as_json=not enabled) as progress:
        if progress is NO_PROGRESS:
            yield None
            return
        progress.stage(label, steps=length)
        yield progress.step


@contextmanager
def stage_progress(label: str, stages: int, *, enabled: bool) -> Iterator[Callable[[str], None] | None]:
    """Yield an ``on_stage(label)`` callback advancing one stage by a step, or None (see progress_bar)."""
    with progress_bar(label, stages, enabled=enabled) as advance:
        yield None if advance is None else (lambda _stage: advance(1))


def render_table(headers: list[str], rows: Iterable[Iterable[Any]], align: str = "") -> str:
    """Plain-text table. ``align`` holds one of "l"/"r" per column (default: first left, rest right)."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in cells:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]
    align = align or "l" + "r" * (len(headers) - 1)

    def line(cells: list[str]) -> str:
        return "  ".join(
            cell.ljust(w) if a == "l" else cell.rjust(w)
            for cell, w, a in zip(cells, widths, align, strict=True)
        ).rstrip()

    out = [line(headers), line(["-" * w for w in widths])]
    out.extend(line(row) for row in cells)
    return "\n".join(out)


paytable_option = click.option(
    "--paytable", "paytable", default="standard", show_default=True, metavar="NAME|FILE",
    help="Paytable profile: a shipped name (standard, betmgm, royal500, royal200, royal250, "
    "microgaming) or the path of a TOML file.",
)

strategy_option = click.option(
    "--strategy", "strategy", default="optimal", show_default=True, metavar="NAME|FILE",
    help="A built-in strategy (see `exactodds caribbean strategies`), a .py rule file or a strategy table.",
)


def check_output_path(path: str) -> None:
    """Refuse an output file that cannot be written, before any long computation.

    The folder must already exist (it is never created) and the path must not be a folder.
    """
    if not path.strip():
        raise ExactOddsError(f'the output file name is empty, got "{path}"; '
                             "give a file name such as table.csv")
    target = Path(path)
    if target.is_dir():
        raise ExactOddsError(f'output path "{path}" is a folder, not a file')
    folder = target.parent
    if not folder.is_dir():
        raise ExactOddsError(f"output folder {str(folder)!r} does not exist")
    if not os.access(folder, os.W_OK):
        raise ExactOddsError(f"output folder {str(folder)!r} is not writable")
