"""The example outputs in docs/report.md and docs/sidebets.md are real: each ``$ exactodds ...``
command is run and every output line shown (``...`` marks lines left out) must appear, in order.
Commands writing a report (``--out``) are run by tests/test_caribbean_report.py instead."""

from __future__ import annotations

import pathlib
import shlex

import pytest
from click.testing import CliRunner

from exactodds.cli.main import cli
from tests.doc_examples import collect_examples

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
PAGES = [DOCS / "report.md", DOCS / "sidebets.md"]


EXAMPLES = collect_examples(PAGES, name=lambda page: page.name, include=lambda line: "--out" not in line)


def test_the_pages_have_examples():
    assert {page for page, _, _ in EXAMPLES} == {"report.md", "sidebets.md"}
    assert len(EXAMPLES) >= 7


@pytest.mark.parametrize(("page", "command", "shown"), EXAMPLES,
                         ids=[f"{p}:{c[:60]}" for p, c, _ in EXAMPLES])
def test_example_output_is_real(page, command, shown, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "wrong.toml").write_text('name = "w"\n[pays]\nflush = "lots"\n')  # the bad-file example
    result = CliRunner().invoke(cli, shlex.split(command)[1:])
    errors = [line for line in shown if line.startswith("Error: ")]
    assert result.exit_code == (2 if errors else 0), result.output
    actual = [line.rstrip() for line in result.output.splitlines()]
    position = 0
    for line in shown:
        if line in ("...", ""):
            continue
        try:
            position = actual.index(line, position) + 1
        except ValueError:
            pytest.fail(f"{page}: `{command}` does not print (in this order) the line\n{line}\n"
                        f"It prints:\n{result.output}")
