"""The example outputs in the README and the general docs pages are real: each ``$ exactodds ...``
command is run and every output line shown (``...`` marks lines left out) must appear, in order, in
its output. In a transcript, a line ``> TEXT`` is what the user typed at the prompt.

(The feature pages, ``docs/<area>.md``, are their authors' and are checked by their own tests.)"""

from __future__ import annotations

import pathlib
import re
import shlex

import pytest
from click.testing import CliRunner

from exactodds.cli.main import cli
from tests.doc_examples import collect_examples

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", DOCS / "index.md", DOCS / "getting-started.md",
         *sorted(DOCS.glob("guides/*.md")), DOCS / "methods.md", DOCS / "published-figures.md",
         DOCS / "rules-choices.md"]
# Sampled studies with many exact decisions per sample: their examples are checked by their own
# tests; rerunning them here would add half a minute on two cores.
SKIP = ("caribbean collusion",)


EXAMPLES = collect_examples(PAGES, name=lambda page: page.relative_to(ROOT).as_posix())


def test_the_pages_have_examples() -> None:
    pages = {page for page, _, _ in EXAMPLES}
    assert "README.md" in pages and "docs/guides/stud.md" in pages
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("page", "command", "shown"), EXAMPLES,
                         ids=[f"{p}:{c[:60]}" for p, c, _ in EXAMPLES])
def test_example_output_is_real(page: str, command: str, shown: list[str], monkeypatch) -> None:
    if any(skip in command for skip in SKIP):
        pytest.skip("a long sampled study")
    monkeypatch.chdir(ROOT)
    args = shlex.split(command)[1:]
    typed = "".join(line[2:] + "\n" for line in shown if line.startswith("> "))
    result = CliRunner().invoke(cli, args, input=typed)
    assert result.exit_code in (0, None), result.output
    actual = [_unprompt(line.rstrip()) for line in result.output.splitlines()]
    position = 0
    for line in shown:
        if line in ("...", "") or line.startswith("> "):
            continue
        try:
            position = actual.index(line, position) + 1
        except ValueError:
            pytest.fail(f"{page}: `{command}` does not print (in this order) the line\n{line}\n"
                        f"It prints:\n{result.output}")


def _unprompt(line: str) -> str:
    """An output line without the prompts printed before it (typed input is not echoed)."""
    while line.startswith("> "):
        line = line[2:]
    return line


def python_examples() -> list[tuple[str, str]]:
    found = []
    for page in [*PAGES, DOCS / "reference" / "api.md"]:
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"^```python\n(.*?)^```", text, flags=re.M | re.S):
            if ">>>" in block:
                found.append((page.relative_to(ROOT).as_posix(), block))
    return found


@pytest.mark.parametrize(("page", "block"), python_examples(), ids=[p for p, _ in python_examples()])
def test_python_examples_run(page: str, block: str) -> None:
    import doctest

    test = doctest.DocTestParser().get_doctest(block, {}, page, page, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0 and runner.tries > 0, f"{page}: a Python example fails (output above)"
