"""The `$ exactodds ...` examples of documentation pages, and the output lines each page shows."""

from __future__ import annotations

import pathlib
import re
from collections.abc import Callable, Iterable

Example = tuple[str, str, list[str]]


def collect_examples(pages: Iterable[pathlib.Path], *, name: Callable[[pathlib.Path], str],
                     include: Callable[[str], bool] = lambda command: True) -> list[Example]:
    """(page name, command without "$ ", lines shown after it) for every example in fenced blocks."""
    found: list[Example] = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.M | re.S):
            lines = block.splitlines()
            for i, line in enumerate(lines):
                if not line.startswith("$ exactodds ") or not include(line):
                    continue
                shown = []
                for out in lines[i + 1:]:
                    if out.startswith("$ "):
                        break
                    shown.append(out.rstrip())
                found.append((name(page), line[2:], shown))
    return found
