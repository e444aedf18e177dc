"""A griffe extension for the API reference: docstring examples (``>>>`` blocks) become code.

The docstrings keep plain doctest blocks, which pytest runs; without this, Markdown would
read their ``>>>`` as nested quotes. Doctest directives (``# doctest: ...``) are dropped
from the rendered page.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_DIRECTIVE = re.compile(r"\s*# doctest:.*$")


def fence_doctests(text: str) -> str:
    """Wrap each doctest block (prompts, continuations and expected output up to a blank
    line) in a ``pycon`` code fence, keeping its indentation."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(f"{indent}```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(_DIRECTIVE.sub("", lines[i]))
                i += 1
            out.append(f"{indent}```")
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
