"""MkDocs hooks: pages whose content comes from the shipped data, and pages other work adds.

* ``<!-- generated: published-figures -->`` becomes the table of every figure that
  ``exactodds caribbean verify`` checks, read from the shipped published-figures data
  (so the page cannot disagree with what ``verify`` enforces).
* ``<!-- generated: holecard-figures -->`` becomes the hole-carding comparison figures.
* Feature pages (``docs/<area>.md``) join the navigation once the file exists, so the
  strict build never points at a page that has not landed; text between
  ``<!-- if-page: NAME.md -->`` and ``<!-- end-if -->`` (links to such a page) is kept only
  when that page exists.

Only the documentation build imports this file (it is outside the test paths).
"""

from __future__ import annotations

import os
import re
from collections import OrderedDict
from typing import Any

# page file -> (nav section, title). Added to the nav only when the file exists.
OPTIONAL_PAGES = {
    "methods-counting.md": ("Methods", "The whole-game counting"),
    "methods-multiway.md": ("Methods", "Multiway stud equity"),
    "table.md": ("Guides", "Playing at the table"),
    "report.md": ("Guides", "The game math report"),
    "sidebets.md": ("Guides", "Side bets"),
    "stud-session.md": ("Guides", "A home stud session"),
    "stud-host.md": ("Guides", "Hosting stud in the browser"),
    "stud-table.md": ("Guides", "Stud starting-hand tables"),
    "scale-out.md": ("Reference", "Scaling out"),
    "json.md": ("Reference", "JSON output"),
}

_CATEGORY_WORDS = {
    "win_pair+win_ak_high": "player wins with pair or A-K high",
}


def load_all_commands() -> None:
    """Load every lazily registered command, so the command reference lists them all.

    The command groups import a command's module only when it runs; mkdocs-click lists a
    group's loaded commands once any are loaded, so all of them are loaded first.
    """
    import click

    from exactodds.cli.main import cli

    def walk(command: click.Command, name: str) -> None:
        if isinstance(command, click.Group):
            ctx = click.Context(command, info_name=name)
            for sub in command.list_commands(ctx):
                walk(command.get_command(ctx, sub), sub)

    walk(cli, "exactodds")


def on_config(config: Any, **_: Any) -> Any:
    load_all_commands()
    nav = config["nav"]
    listed = {_page_of(item) for item in _walk(nav)}
    for page, (section, title) in OPTIONAL_PAGES.items():
        if page in listed or not os.path.exists(os.path.join(config["docs_dir"], page)):
            continue
        _section(nav, section).append({title: page})
    return config


def _walk(nav: list) -> list:
    out = []
    for item in nav:
        out.append(item)
        if isinstance(item, dict):
            for value in item.values():
                if isinstance(value, list):
                    out.extend(_walk(value))
    return out


def _page_of(item: Any) -> str | None:
    if isinstance(item, str):
        return item
    if isinstance(item, dict):
        value = next(iter(item.values()))
        return value if isinstance(value, str) else None
    return None


def _section(nav: list, name: str) -> list:
    for item in nav:
        if isinstance(item, dict) and name in item:
            value = item[name]
            if isinstance(value, str):  # a single page: make it the section's overview
                value = [{"Overview": value}]
                item[name] = value
            return value
    section: list = []
    nav.append({name: section})
    return section


_IF_PAGE = re.compile(r"<!-- if-page: (?P<page>[\w./-]+) -->(?P<body>.*?)<!-- end-if -->", re.S)


def on_page_markdown(markdown: str, *, config: Any, **_: Any) -> str:
    def keep_if_present(match: re.Match) -> str:
        present = os.path.exists(os.path.join(config["docs_dir"], match["page"]))
        return match["body"] if present else ""

    markdown = _IF_PAGE.sub(keep_if_present, markdown)
    if "<!-- generated: published-figures -->" in markdown:
        markdown = markdown.replace("<!-- generated: published-figures -->", published_figures_table())
    if "<!-- generated: holecard-figures -->" in markdown:
        markdown = markdown.replace("<!-- generated: holecard-figures -->", holecard_table())
    return markdown


def figure_label(quantity: str) -> str:
    """A reader's name for a figure's quantity, e.g. "combinations: push"."""
    from exactodds.caribbean.decision.settle import EVENT_LABELS

    name, _, arg = quantity.partition(":")
    if name == "combinations":
        events = _CATEGORY_WORDS.get(arg) or " + ".join(EVENT_LABELS.get(e, e) for e in arg.split("+"))
        return f"deals: {events}"
    if name == "hand_count":
        return f"5-card hands: {arg}"
    if name == "distinct_strengths":
        return "distinct hand strengths" + ("" if arg == "all" else f": {arg}")
    if name == "sidebet_break_even":
        return f"side bet break-even meter: {arg}"
    if name == "progressive_break_even":
        quads, full_house, flush = arg.split("/")
        return f"progressive break-even meter, fixed pays {quads}/{full_house}/{flush}"
    if name == "edge_sort":
        ranks = arg.partition(":")[0]
        return f"edge sorting {ranks} (up card seen): player edge"
    if name == "strategy":
        strategy, _, field = arg.partition(":")
        return f"strategy {strategy}: {field.replace('_', ' ')}"
    return {
        "total_combinations": "deals in the whole game",
        "total_units": "total return (antes over every deal)",
        "qualifying_hands": "5-card hands that qualify",
        "dealer_qualifies_frequency": "dealer qualifies (probability)",
    }.get(name, name.replace("_", " "))


def published_figures_table() -> str:
    from exactodds.caribbean.published.figures import load_figures

    figures = load_figures()
    sources: OrderedDict[str, int] = OrderedDict()
    notes: list[str] = []
    lines = ["| # | figure | paytable | published | checked | source |", "|---|---|---|---|---|---|"]
    for i, figure in enumerate(figures, 1):
        ref = sources.setdefault(figure.source, len(sources) + 1)
        published = figure.published_text()
        if figure.unit == "dollars":
            published = f"${float(figure.value):,.{figure.decimals}f}"
        if figure.kind == "exact":
            check = "exactly"
        elif figure.kind == "rounded":
            half = f"{0.5 / 10**figure.decimals:.{figure.decimals + 1}f}"
            check = {"percent": f"within {half} points", "dollars": f"within ${half}"}.get(
                figure.unit, f"within {half}")
        else:  # shown beside the exact value with its note, not compared
            check = "not compared: see the note"
        label = figure_label(figure.quantity)
        if figure.note:
            notes.append(figure.note)
            label += f" (note {len(notes)})"
        lines.append(f"| {i} | {label} | {figure.profile or 'any'} | {published} | {check} | [{ref}] |")
    compared = sum(f.kind in ("exact", "rounded") for f in figures)
    lines += ["", f"{len(figures)} figures, {compared} of them compared. Sources:", ""]
    lines += [f"{n}. {source}" for source, n in sources.items()]
    if notes:
        lines += ["", "Notes:", ""]
        lines += [f"{n}. {note}" for n, note in enumerate(notes, 1)]
    return "\n".join(lines)


def holecard_table() -> str:
    from exactodds.caribbean.published.holecard import published_figures

    figures = sorted(published_figures().items())
    lines = ["| dealer cards seen | paytable | published | source |", "|---|---|---|---|"]
    for (profile, known), figure in figures:
        text = figure.text() if callable(figure.text) else figure.text
        lines.append(f"| {known} | {profile} | {text} | {figure.source} |")
    return "\n".join(lines)
