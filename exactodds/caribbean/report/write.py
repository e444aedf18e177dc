"""Write the report: one self-contained HTML file, or a PDF of the same page through WeasyPrint."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from exactodds.cache import atomic_write_bytes, atomic_write_text
from exactodds.caribbean.report.appendix import APPENDIX_NAME, appendix_json
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


def report_html(data: ReportData, *, appendix_attached: bool = False) -> str:
    """The report page (appendix A's JSON in the page, or only announced when it is attached)."""
    return render_html(data, charts(data), appendix_attached=appendix_attached)


def pdf_bytes(html: str, *, attachments: Mapping[str, str] | None = None) -> bytes:
    """The PDF of a report page (WeasyPrint; the page has no external resource to fetch), with
    ``attachments`` (file name -> text) attached to the PDF as embedded files."""
    try:
        from weasyprint import HTML, Attachment
    except ImportError as exc:  # the dependency, or a system library it needs, is missing
        raise ReportError(f"PDF output needs WeasyPrint (pip install 'exactodds[pdf]'), which cannot be "
                          f"loaded here ({exc}); write .html instead") from None
    files = [Attachment(string=text.encode("utf-8"), name=name) for name, text in (attachments or {}).items()]
    pdf: bytes = HTML(string=html, base_url=None).write_pdf(attachments=files)  # WeasyPrint is untyped
    return pdf


def write_report(data: ReportData, path: str | os.PathLike[str]) -> str:
    """Write the report to ``path`` (.html or .pdf) atomically; return the format written. A PDF
    carries appendix A (the exact values as JSON) as the attached file APPENDIX_NAME."""
    fmt = report_format(path)
    if fmt == "html":
        atomic_write_text(path, report_html(data))
    else:
        html = report_html(data, appendix_attached=True)
        atomic_write_bytes(path, pdf_bytes(html, attachments={APPENDIX_NAME: appendix_json(data)}))
    return fmt
