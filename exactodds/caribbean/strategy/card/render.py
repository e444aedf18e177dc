"""The card printed: text, a pocket-sized HTML/PDF card (9 x 6 cm), JSON, and the Pareto table.

:func:`write_card` picks the format from the file's suffix (.txt, .html, .pdf, .json, or .py for
a strategy file) and writes atomically.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

from exactodds.cache import atomic_write_bytes, atomic_write_text
from exactodds.caribbean.report.write import pdf_bytes
from exactodds.caribbean.strategy.card.evaluate import CardSearchError
from exactodds.caribbean.strategy.card.pareto import house_edge, per_ante
from exactodds.caribbean.strategy.card.result import CardLength, CardResult
from exactodds.caribbean.strategy.card.strategy_file import write_strategy_file

FORMATS = ("txt", "html", "pdf", "json", "py")


def _footer(p: CardLength, result: CardResult) -> str:
    n = f"{p.rules} rule{'s' if p.rules != 1 else ''}"
    which = (f"Proven the cheapest card of {n}." if p.proven
             else f"The cheapest card of {n} found ({p.method}), not proven the cheapest.")
    return (f"Costs {per_ante(p.cost_per_ante)} of the ante against perfect play "
            f"(house edge {house_edge(p.house_edge)}; perfect play {house_edge(result.optimal.house_edge)}). "
            + which)


def card_text(result: CardResult) -> str:
    """The chosen card as plain text."""
    p = result.chosen
    title = f"Caribbean Stud strategy card: {result.paytable} ({result.description})"
    return "\n".join([title, "", *p.card.lines(), "", _footer(p, result)]) + "\n"


CARD_CSS = """
@page { size: 90mm 60mm; margin: 3mm; }
body { margin: 0; font-family: "DejaVu Sans", Arial, sans-serif; }
.card { box-sizing: border-box; width: 84mm; height: 54mm; padding: 1.5mm 2mm; border: 0.3mm solid #264;
        border-radius: 2mm; font-size: 6.6pt; line-height: 1.25; overflow: hidden; color: #111; }
.card h1 { font-size: 8pt; margin: 0 0 1mm 0; color: #264; }
.card ol { margin: 0 0 0 3.2mm; padding: 0; }
.card li { margin: 0 0 0.6mm 0; }
.card p { margin: 0.8mm 0 0 0; }
.card .small { font-size: 5.4pt; color: #444; }
"""


def card_html(result: CardResult) -> str:
    """The chosen card as a self-contained HTML page sized to a pocket card (84 x 54 mm on 90 x 60 mm)."""
    p = result.chosen
    lines = p.card.lines()
    items = "".join(f"<li>{html.escape(line.split('. ', 1)[1])}</li>" for line in lines[:-1])
    rules = f"<ol>{items}</ol>" if items else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Strategy card: {html.escape(result.paytable)}</title>
<style>{CARD_CSS}</style></head><body>
<div class="card"><h1>Caribbean Stud &middot; {html.escape(result.paytable)}</h1>
{rules}<p><b>{html.escape(lines[-1])}</b></p>
<p class="small">{html.escape(_footer(p, result))} Exact over all 19,933,230,517,200 deals.</p></div>
</body></html>
"""


def card_format(path: str | os.PathLike[str]) -> str:
    """The format of an output file from its suffix; CardSearchError for any other."""
    suffix = Path(path).suffix.lower().lstrip(".")
    suffix = "html" if suffix == "htm" else suffix
    if suffix not in FORMATS:
        raise CardSearchError(f"--out must end in .txt, .html, .pdf, .json or .py (a strategy file), "
                              f"got {Path(path).name!r}")
    return suffix


def write_card(result: CardResult, path: str | os.PathLike[str]) -> str:
    """Write the card to ``path`` in the format its suffix names, atomically; return the format."""
    fmt = card_format(path)
    if fmt == "txt":
        atomic_write_text(path, card_text(result))
    elif fmt == "html":
        atomic_write_text(path, card_html(result))
    elif fmt == "pdf":
        atomic_write_bytes(path, pdf_bytes(card_html(result)))
    elif fmt == "json":
        atomic_write_text(path, json.dumps(result.to_dict(), indent=2) + "\n")
    else:
        write_strategy_file(result.chosen.card, path, paytable=result.paytable)
    return fmt
