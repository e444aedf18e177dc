"""Write the report: one self-contained HTML file, or a PDF of the same page through WeasyPrint."""

from __future__ import annotations

import os
from pathlib import Path

from exactodds.cache import atomic_write_bytes, atomic_write_text
from exactodds.caribbean.report.build import ReportData, ReportError
from exactodds.caribbean.report.charts import ak_chart_png, data_uri, meter_chart_png, session_chart_png
from exactodds.caribbean.report.html import render_html

FORMATS = ("html", "pdf")


def report_format(path: str | os.PathLike[str]) -> str:
    """"html" or "pdf" from the output file's name; ReportError otherwise."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix == "htm":
        suffix = "html"
    if suffix not in FORMATS:
        raise ReportError(f"--out must end in .html or .pdf, got {Path(path).name!r}")
    return suffix


def charts(data: ReportData) -> dict[str, str]:
    """Every chart of the report as a data URI."""
    out = {"ak": data_uri(ak_chart_png(data.summary)), "session": data_uri(session_chart_png(data.session))}
    for i, odds in enumerate(data.sidebets):
        if odds.profile.is_progressive:
            out[f"meter{i}"] = data_uri(meter_chart_png(odds))
    return out


def report_html(data: ReportData) -> str:
    return render_html(data, charts(data))


def pdf_bytes(html: str) -> bytes:
    """The PDF of a report page (WeasyPrint; the page has no external resource to fetch)."""
    try:
        from weasyprint import HTML
    except ImportError as exc:  # the dependency, or a system library it needs, is missing
        raise ReportError(f"PDF output needs WeasyPrint (pip install 'exactodds[pdf]'), which cannot be "
                          f"loaded here ({exc}); write .html instead") from None
    pdf: bytes = HTML(string=html, base_url=None).write_pdf()
    return pdf


def write_report(data: ReportData, path: str | os.PathLike[str]) -> str:
    """Write the report to ``path`` (.html or .pdf) atomically; return the format written."""
    fmt = report_format(path)
    html = report_html(data)
    if fmt == "html":
        atomic_write_text(path, html)
    else:
        atomic_write_bytes(path, pdf_bytes(html))
    return fmt
