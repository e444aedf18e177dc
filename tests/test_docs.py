"""The documentation: generated pages cover everything they claim to; no internal rule-file names.

(`make test` also builds the whole site with ``mkdocs build --strict``.)
"""

from __future__ import annotations

import importlib.util
import pathlib
import re

import click
import pytest

from exactodds.caribbean.published.figures import load_figures
from exactodds.cli.main import cli

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks" / "generated.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _command_paths(command: click.Command, prefix: str) -> list[str]:
    paths = [prefix]
    if isinstance(command, click.Group):
        ctx = click.Context(command, info_name=prefix.split()[-1])
        for name in command.list_commands(ctx):
            paths += _command_paths(command.get_command(ctx, name), f"{prefix} {name}")
    return paths


def test_the_command_reference_covers_every_command() -> None:
    mkdocs_click = pytest.importorskip("mkdocs_click._docs")
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert ":module: exactodds.cli.main" in page and ":command: cli" in page
    _hooks().load_all_commands()  # as the documentation build does before rendering the page
    markdown = "\n".join(mkdocs_click.make_command_docs(prog_name="exactodds", command=cli, depth=1,
                                                        style="table", list_subcommands=True))
    headings = set(re.findall(r"^#+ (.+)$", markdown, flags=re.M))
    commands = _command_paths(cli, "exactodds")
    assert len(commands) >= 19
    for path in commands:  # a heading and a usage line for every command
        assert path.split()[-1] in headings, path
        assert re.search(rf"^{re.escape(path)} \[OPTIONS\]", markdown, flags=re.M), path
    # The help text itself is there, not only the headings.
    assert "Raise or fold with HAND" in markdown and "--dealer-known" in markdown


def test_the_published_figures_table_lists_every_figure_verify_checks() -> None:
    table = _hooks().published_figures_table()
    figures = load_figures()
    rows = [line for line in table.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == len(figures)
    for row, figure in zip(rows, figures, strict=True):
        shown = figure.published_text().replace("$", "")
        assert shown in row.replace("$", "") or f"{float(figure.value):,.0f}" in row, (row, figure)
    for figure in figures:
        assert figure.source in table


def test_optional_pages_join_the_nav_only_when_present(tmp_path: pathlib.Path) -> None:
    hooks = _hooks()
    (tmp_path / "report.md").write_text("# Report\n")
    config = {"docs_dir": str(tmp_path), "nav": [{"Home": "index.md"}, {"Methods": "methods.md"},
                                                 {"Guides": [{"A player": "guides/player.md"}]}]}
    nav = hooks.on_config(config)["nav"]
    assert nav[2] == {"Guides": [{"A player": "guides/player.md"}, {"The game math report": "report.md"}]}
    assert nav[1] == {"Methods": "methods.md"}  # no methods-*.md page: unchanged
    text = ("a <!-- if-page: report.md -->[r](report.md)<!-- end-if --> b "
            "<!-- if-page: table.md -->x<!-- end-if -->")
    assert hooks.on_page_markdown(text, config=config) == "a [r](report.md) b "


def test_no_internal_rule_file_names_in_the_docs() -> None:
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *DOCS.rglob("*.md")]
    for page in pages:
        assert not re.search(r"seed\s*00\d", page.read_text(encoding="utf-8"), flags=re.I), page


def test_the_readme_fits_on_two_screens() -> None:
    assert len((ROOT / "README.md").read_text(encoding="utf-8").splitlines()) <= 160


def test_docstring_examples_render_as_code() -> None:
    pytest.importorskip("griffe")
    spec = importlib.util.spec_from_file_location("griffe_doctest", DOCS / "hooks" / "griffe_doctest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = "Intro.\n\n    >>> f(1)  # doctest: +SKIP\n    2\n\nAfter."
    assert module.fence_doctests(text) == "Intro.\n\n    ```pycon\n    >>> f(1)\n    2\n    ```\n\nAfter."
