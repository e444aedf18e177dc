"""The game math report: the standard game's exact figures, valid self-contained HTML, the PDF's pages."""

from __future__ import annotations

import hashlib
import json
import re
from fractions import Fraction
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli.main import cli
from exactodds.resources import data_files

SECTIONS = ["1. The game", "2. The main wager", "3. The strategy", "4. The strategy card", "5. Volatility",
            "6. Side bets", "7. Verification", "8. Reproducibility",
            "Appendix A. Exact values (machine-readable)"]
LONGEST_NUMBER = 40  # digits: the page prints decimals; longer exact values belong in appendix A
VOID = {"meta", "br", "img", "hr", "link", "input", "col", "wbr", "source", "area", "base"}


def _report(tmp_path: Path, name: str, *extra: str) -> tuple[Path, str]:
    out = tmp_path / name
    args = ["caribbean", "report", "--sidebet", "progressive-100-75-50", "--sidebet", "bonus-5plus1-example",
            *extra, "--out", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    return out, result.output


@pytest.fixture(scope="module")
def html(tmp_path_factory) -> str:
    path, _ = _report(tmp_path_factory.mktemp("report"), "report.html")
    return path.read_text(encoding="utf-8")


class _Checker(HTMLParser):
    """Every non-void element closed in order; collects attribute values that could fetch something."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.fetches: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for key, value in attrs:
            if key in ("src", "href", "srcset", "data", "poster") and value is not None:
                self.fetches.append(value)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1] if self.stack else 'nothing'}")
        else:
            self.stack.pop()


def test_report_has_the_standard_games_exact_figures(html):
    assert "5.2243%" in html and "2.5553%" in html  # house edge per ante, element of risk per unit wagered
    assert "142031221/2718662100" in html  # the house edge as an exact fraction
    assert "19,933,230,517,200" in html and "166,005" in html
    for title in SECTIONS:
        assert f"<h2>{title}</h2>" in html
    assert html.index(SECTIONS[0]) < html.index(SECTIONS[-1])
    card = html[html.index("4. The strategy card"):html.index("5. Volatility")]
    assert "44,846,352" in card and "1,066,300,128" in card and "higher than your fourth-highest card" in card
    assert "Proven cheapest over every card of the grammar: 0 to 2 rules." in card
    assert "EXAMPLE PAY TABLE" in html  # the 5+1 Bonus table is labelled as an example
    assert "break-even meter" in html.lower() and "5000900/19" in html
    assert "53 match, 0 mismatch" in html or re.search(r"\d+ match, 0 mismatch", html)


def test_html_is_valid_and_self_contained(html):
    checker = _Checker()
    checker.feed(html)
    checker.close()
    assert not checker.errors and not checker.stack
    assert html.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in html
    assert checker.tags.count("html") == checker.tags.count("body") == 1
    assert checker.fetches and all(v.startswith("data:image/png;base64,") for v in checker.fetches)
    assert checker.tags.count("img") == 3  # A-K chart, session chart, one progressive's meter chart
    for needle in ("http://", "https://", "<link", "@import", "url(", "<script"):
        assert needle not in html


def test_reproducibility_section(html):
    paytable = data_files("paytables")["standard"]
    assert hashlib.sha256(paytable.read_bytes()).hexdigest() in html
    bonus = data_files("sidebets")["bonus-5plus1-example"]
    assert hashlib.sha256(bonus.read_bytes()).hexdigest() in html
    assert "c266188bf74c1a996a0415392a9a3293dbed9444185fca638f995c28b80fca59" in html  # the rank table
    assert re.search(r"exactodds caribbean report --paytable standard --sidebet progressive-100-75-50 "
                     r"--sidebet bonus-5plus1-example --strategy optimal --out \S+report.html", html)


class _Appendix(HTMLParser):
    """The text of the element ``<pre id="exact-values">`` (appendix A's JSON)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside = False
        self.text = ""

    def handle_starttag(self, tag, attrs):
        self.inside = self.inside or (tag == "pre" and ("id", "exact-values") in attrs)

    def handle_endtag(self, tag):
        self.inside = self.inside and tag != "pre"

    def handle_data(self, data):
        if self.inside:
            self.text += data


def _appendix(html: str) -> dict:
    parser = _Appendix()
    parser.feed(html)
    return json.loads(parser.text)


def _page_without_appendix(html: str) -> str:
    return re.sub(r'<pre class="json" id="exact-values">.*?</pre>', "", html, flags=re.S)


def _longest_number(text: str) -> int:
    return max(len(run) for run in re.findall(r"\d+", re.sub(r"data:image/png;base64,[^\"]+", "", text)))


def test_the_page_prints_decimals_and_appendix_a_the_exact_values(html):
    """The volatility table printed exact fractions of 600 to 1,231 digits: the page prints each
    probability to a thousandth of a percentage point and says so; appendix A holds every digit."""
    from exactodds.caribbean.analysis.game import analyze
    from exactodds.caribbean.report.build import AHEAD_HANDS, session_odds

    page = _page_without_appendix(html)
    assert _longest_number(page) <= LONGEST_NUMBER
    volatility = page[page.index("5. Volatility"):page.index("6. Side bets")]
    assert "nearest thousandth of a percentage point" in volatility and "appendix A" in volatility
    rows = re.findall(r'<tr><td class="">([\d,]+)</td><td class="n">([\d.]+)%</td>'
                      r'<td class="n">([\d.]+)%</td><td class="n">([\d.]+)%</td></tr>', volatility)
    assert [int(r[0].replace(",", "")) for r in rows] == list(AHEAD_HANDS)
    values = _appendix(html)
    assert values["exact"] is True and values["paytable"] == "standard"
    optimal = analyze("standard")
    for row, odds in zip(rows, values["session_odds"], strict=True):
        expected = session_odds(optimal, odds["hands"])
        ahead, even, behind = (Fraction(odds[k]) for k in ("p_ahead", "p_even", "p_behind"))
        assert (ahead, even, behind) == (expected.ahead, expected.even, expected.behind)
        assert ahead + even + behind == 1
        assert row[1:] == tuple(f"{float(p) * 100:.3f}" for p in (ahead, even, behind))
    assert len(values["session_odds"][-1]["p_ahead"]) > 2_000  # 100 hands: every digit kept
    assert Fraction(values["figures"]["house_edge_per_ante"]) == Fraction(142031221, 2718662100)
    assert values["return_table"]["combinations"] == 19_933_230_517_200
    assert [s["sidebet"] for s in values["sidebets"]] == ["progressive-100-75-50", "bonus-5plus1-example"]


@pytest.mark.slow
def test_pdf_has_the_expected_pages(html, tmp_path):
    """The PDF as the command writes it: the page of the HTML report, appendix A attached as a file."""
    import pypdf

    path, _ = _report(tmp_path, "report.pdf")
    data = path.read_bytes()
    assert data.startswith(b"%PDF-")
    reader = pypdf.PdfReader(str(path))
    texts = [page.extract_text() for page in reader.pages]
    assert 8 <= len(texts) <= 20
    # every section starts a page, in order, and the footer numbers the pages
    starts = [next(i for i, t in enumerate(texts) if title in t) for title in SECTIONS]
    assert starts == sorted(starts) and starts[0] == 0 and len(set(starts)) == len(SECTIONS)
    assert all(f"page {i + 1} of {len(texts)}" in t for i, t in enumerate(texts))
    assert "5.2243%" in texts[starts[1]] + texts[starts[1] + 1]
    assert max(_longest_number(t) for t in texts) <= LONGEST_NUMBER
    assert "attached to this PDF as the file exact-values.json" in texts[-1]
    (attached,) = reader.attachments["exact-values.json"]
    assert json.loads(attached) == _appendix(html)


@pytest.mark.parametrize("args, message", [
    (["--out", "report.docx"], "--out must end in .html or .pdf"),
    (["--out", "/no/such/folder/report.html"], "does not exist"),
    (["--sidebet", "nope", "--out", "r.html"], 'unknown side bet "nope"'),
    (["--paytable", "nope", "--out", "r.html"], 'unknown paytable "nope"'),
    (["--strategy", "nope", "--out", "r.html"], 'unknown strategy "nope"'),
])
def test_bad_report_options_are_one_line(args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["caribbean", "report", *args])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1
    assert message in result.output
    assert not (tmp_path / "r.html").exists()


def test_custom_paytable_and_strategy(html, tmp_path):
    """A file named like a shipped profile gets none of that profile's published figures; the main
    wager follows --strategy; the input file's digest is the file's."""
    from exactodds.caribbean.report.build import build_report
    from exactodds.caribbean.report.html import render_html

    shipped = data_files("paytables")["standard"].read_text(encoding="utf-8")
    custom = tmp_path / "mine.toml"
    custom.write_text(shipped.replace("royal_flush = 100", "royal_flush = 250"), encoding="utf-8")
    data = build_report(paytable=str(custom), strategy="pair-plus")
    assert data.strategy == "pair-plus" and data.profile.pays["royal_flush"] == 250
    pair_plus = next(item.result for item in data.strategies if item.result.strategy == "pair-plus")
    assert data.figures.house_edge_per_ante == pair_plus.house_edge
    assert all("[standard]" not in c.label for c in data.checks)  # the deck's hand counts remain
    assert any(c.label.startswith("hand_count") for c in data.checks)
    assert data.inputs[0].sha256 == hashlib.sha256(custom.read_bytes()).hexdigest()
    page = render_html(data, {"ak": "data:,", "session": "data:,"})  # the charts are tested above
    assert "<b>pair-plus</b>" in page and "250 to 1" in page
