"""A click group that imports each command's module only when that command runs.

Commands pull in heavy libraries (numba, scipy, pyarrow, matplotlib); loading all of
them for every invocation would make a one-line answer wait a couple of seconds.
The group's help lists each command with its whole first sentence (click would cut it off).
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from functools import cache
from typing import Any

import click

SUMMARY_LIMIT = 300  # characters of a command's first sentence shown in its group's help


class LazyGroup(click.Group):
    """``lazy_commands`` maps a command name to ``"module:attribute"``, imported on first use."""

    def __init__(self, *args: Any, lazy_commands: dict[str, str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_commands = dict(lazy_commands or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy_commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_commands and cmd_name not in self.commands:
            module_name, attribute = self.lazy_commands[cmd_name].split(":")
            command = getattr(importlib.import_module(module_name), attribute)
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Each command with its whole first sentence, wrapped rather than cut off with "..."."""
        rows = []
        for name in self.list_commands(ctx):
            summary = None
            if name in self.lazy_commands and name not in self.commands:
                summary = _summary_from_source(self.lazy_commands[name])  # no import: help stays quick
            if summary is None:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                summary = command.get_short_help_str(limit=SUMMARY_LIMIT)
            rows.append((name, summary))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


@cache
def _summary_from_source(target: str) -> str | None:
    """The first sentence of a lazy command's docstring, read from its module's source (None if not
    found there, e.g. a command built at import time)."""
    module_name, attribute = target.split(":")
    try:
        spec = importlib.util.find_spec(module_name)
        if spec is None or spec.origin is None:
            return None
        with open(spec.origin, encoding="utf-8") as fh:
            tree = ast.parse(fh.read())
    except (OSError, SyntaxError, ImportError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == attribute:
            doc = ast.get_docstring(node)
            return first_sentence(doc) if doc else None
    return None


def first_sentence(doc: str) -> str:
    """The first sentence of a docstring's first paragraph, as click shows a command's summary."""
    paragraph = " ".join(doc.split("\n\n")[0].split())
    end = paragraph.find(". ")
    sentence = paragraph if end < 0 else paragraph[:end + 1]
    return sentence[:SUMMARY_LIMIT]
