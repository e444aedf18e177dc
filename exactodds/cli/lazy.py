"""A click group that imports each command's module only when that command runs.

Commands pull in heavy libraries (numba, scipy, pyarrow, matplotlib); loading all of
them for every invocation would make a one-line answer wait a couple of seconds.
"""

from __future__ import annotations

import importlib

import click


class LazyGroup(click.Group):
    """``lazy_commands`` maps a command name to ``"module:attribute"``, imported on first use."""

    def __init__(self, *args, lazy_commands: dict[str, str] | None = None, **kwargs) -> None:
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
