"""Hears numba compile each kernel (numba's event API): what the compile bar counts.

:func:`report_compiles` calls ``on_compiled(module, function)`` each time numba finishes compiling a
kernel in this process (a kernel loaded from the cache is not compiled, so not reported). numba's
own helpers (array and string routines it compiles on the way) are not reported: only functions
of the ``exactodds`` package.
"""

from __future__ import annotations

from collections.abc import Callable

from numba.core import event


class _CompileListener(event.Listener):
    def __init__(self, on_compiled: Callable[[str, str], None]) -> None:
        self._on_compiled = on_compiled

    def on_start(self, ev: event.Event) -> None:
        pass

    def on_end(self, ev: event.Event) -> None:
        function = ev.data["dispatcher"].py_func
        if function.__module__.startswith("exactodds."):
            self._on_compiled(function.__module__, function.__name__)


def report_compiles(on_compiled: Callable[[str, str], None]) -> Callable[[], None]:
    """From now on, call ``on_compiled(module, function)`` after numba compiles a kernel of exactodds;
    returns the function that stops it."""
    listener = _CompileListener(on_compiled)
    event.register("numba:compile", listener)
    return lambda: event.unregister("numba:compile", listener)
