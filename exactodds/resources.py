"""Where the data that exactodds reads at run time lives: paytable profiles, published figures, side bets,
stud opponent models.

The data ships inside the package (``exactodds/data/<kind>/*.toml``) and is found through
:mod:`importlib.resources`, so it works from a wheel installed anywhere. Setting
``$EXACTODDS_TABLES`` to a folder replaces the shipped data with ``$EXACTODDS_TABLES/<kind>/``
(for example to try a corrected published-figures file without reinstalling).

>>> sorted(data_files("paytables"))[:3]
['betmgm', 'microgaming', 'royal200']
>>> data_file("published", "caribbean_stud.toml").name
'caribbean_stud.toml'
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from exactodds.errors import ExactOddsError

TABLES_ENV = "EXACTODDS_TABLES"
KINDS = ("counts", "opponents", "paytables", "published", "sidebets")


class DataError(ExactOddsError):
    """Shipped data that cannot be found (an unknown kind, or a bad ``$EXACTODDS_TABLES``)."""


def data_dir(kind: str) -> Path:
    """The folder holding the data of ``kind`` (one of :data:`KINDS`): ``$EXACTODDS_TABLES/<kind>``
    when that variable is set, else the package's own ``data/<kind>``. The folder may not exist."""
    if kind not in KINDS:
        raise DataError(f'unknown data kind "{kind}" (expected one of: {", ".join(KINDS)})')
    override = os.environ.get(TABLES_ENV)
    if override:
        root = Path(override)
        if not root.is_dir():
            raise DataError(f"${TABLES_ENV} is {override!r}, which is not a folder "
                            f"(expected a folder holding {', '.join(KINDS)})")
        return root / kind
    # The package is installed as files (setuptools wheels are never zip-safe here), so the
    # resource is a real path.
    return Path(str(files("exactodds") / "data" / kind))


def data_files(kind: str) -> dict[str, Path]:
    """Every ``*.toml`` file of ``kind``, by name without the suffix, sorted by name."""
    folder = data_dir(kind)
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.toml"))}


def data_file(kind: str, filename: str) -> Path:
    """The path of one data file of ``kind`` (it may not exist; callers say what is missing)."""
    return data_dir(kind) / filename
