"""One line on stderr the first time a kernel module that numba has not compiled yet is imported:
"compiling the counting kernels, first run only: about N s" (on a terminal only, like progress)."""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

import click

from exactodds.compiling import COMPILE_SECONDS, is_compiled


class _CompileNotice(importlib.abc.MetaPathFinder):
    """Watches imports (finds nothing itself) and says once when a cold kernel module is loaded."""

    def __init__(self) -> None:
        self.said = False

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if not self.said and fullname in COMPILE_SECONDS and fullname not in sys.modules:
            self.said = True  # before is_compiled, which imports nothing but looks the module up
            if not is_compiled(fullname):
                seconds = COMPILE_SECONDS[fullname]
                click.echo(f"compiling the counting kernels, first run only: about {seconds} s "
                           "(exactodds warm-up compiles them all)", err=True)
        return None


def install() -> None:
    """Say when kernels are being compiled, from now on (only when stderr is a terminal)."""
    if sys.stderr.isatty() and not any(isinstance(f, _CompileNotice) for f in sys.meta_path):
        sys.meta_path.insert(0, _CompileNotice())
