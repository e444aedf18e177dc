"""The report's machine-readable appendix: every exact value of the report as one JSON object.

The page prints figures to the precision a reader needs; the exact fractions (some over a thousand
digits, such as P(player ahead after 100 hands)) are here, in the JSON vocabulary of the commands'
``--json`` (docs/json.md). The HTML report carries it in the page (``<pre id="exact-values">``),
the PDF as an attached file (:data:`APPENDIX_NAME`).
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from exactodds.caribbean.report.build import ReportData
from exactodds.jsonable import JSONDict, exact

APPENDIX_NAME = "exact-values.json"
APPENDIX_ID = "exact-values"  # the HTML element holding the JSON


def exact_values(d: ReportData) -> JSONDict:
    """The report's exact values: the return table, the figures, dealer qualifying, the built-in
    strategies, the strategy card, the session distribution, P(ahead / even / behind) after each
    number of hands, and the side bets (each the ``to_dict()`` its own command prints)."""
    return {
        "exact": True,
        "paytable": d.profile.name,
        "strategy": d.strategy,
        "return_table": d.result.to_dict(),
        "figures": d.figures.to_dict(),
        "dealer_qualifying": d.qualifying.to_dict(),
        "strategies": [item.to_dict() for item in d.strategies],
        "card": d.card.to_dict(),
        "session": d.session.to_dict(),
        "session_odds": [a.to_dict() for a in d.ahead],
        "sidebets": [o.to_dict() for o in d.sidebets],
    }


def _fraction(value: Any) -> str:
    if isinstance(value, Fraction):
        return exact(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def appendix_json(d: ReportData) -> str:
    """:func:`exact_values` as JSON text (fractions as "p/q", every digit kept)."""
    return json.dumps(exact_values(d), indent=1, default=_fraction) + "\n"
