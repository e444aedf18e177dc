"""A link as a QR code (SVG), for a phone's camera: drawn by segno (pure Python, no image library).

>>> svg = link_svg("http://192.168.1.20:8766/play#abc")
>>> svg.startswith("<?xml") and "<path" in svg
True
"""

from __future__ import annotations

import io

import segno


def link_svg(link: str) -> str:
    """The QR code of ``link`` as a standalone SVG document (dark on white, a quiet zone of 4)."""
    code = segno.make(link, error="m", micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", scale=4, border=4, dark="#111", light="#fff", title="join link")
    return out.getvalue().decode()
