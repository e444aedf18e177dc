"""Shared fixtures. The rank table comes from the normal cache (built once per machine)."""

from collections.abc import Iterator

import numpy as np
import pytest
from selenium import webdriver

from exactodds.cli.stud import table as stud_table_cli
from exactodds.combinatorics import all_subsets_colex
from exactodds.handrank import rank_table
from exactodds.stud.table import build, threeway
from exactodds.stud.table.headsup import UpPairCounts
from tests.browser import start_chromium


@pytest.fixture(scope="session")
def table() -> np.ndarray:
    return rank_table()


@pytest.fixture(scope="session")
def chromium() -> Iterator[webdriver.Chrome]:
    """One headless Chromium for every browser test of this test worker (started when first asked)."""
    driver = start_chromium()
    yield driver
    driver.quit()


@pytest.fixture(scope="session")
def all_hands() -> np.ndarray:
    """All 2,598,960 hands, row i being the hand of colex index i."""
    return all_subsets_colex(52, 5)


def _stand_in_counts(up: int, opp_up: int) -> UpPairCounts:
    """Counts that depend on ranks and on which cards share a suit only (so every member of a
    suit class agrees, as the table checks): they test the table's shaping and output, not
    the heads-up kernel (tests/test_stud_table.py does that)."""
    holes = np.arange(52)
    same = lambda a, b: (a & 3) == (b & 3)  # noqa: E731
    win = 1000 * (holes >> 2) + 37 * (up >> 2) + 5 * (opp_up >> 2) + same(holes, up) + 2 * same(up, opp_up) \
        + 4 * same(holes, opp_up)
    tie = (holes >> 2) + (opp_up >> 2)
    for card in (up, opp_up):
        win[card] = tie[card] = 0
    return UpPairCounts(up=up, opp_up=opp_up, win=win.astype(np.int64), tie=tie.astype(np.int64))


@pytest.fixture()
def small_tables(monkeypatch):
    """``stud table`` in seconds: stand-in heads-up counts, and three classes (three-way)."""
    monkeypatch.setattr(build, "up_pair_counts", _stand_in_counts)
    # the stand-in table is neither the real one's pinned digest nor ever read from or kept in the cache
    monkeypatch.setattr(build, "cached_array", lambda _name, *, build, sha256, what: build())
    monkeypatch.setattr(stud_table_cli, "table_cached", lambda: False)
    classes, weights = threeway.threeway_classes()
    monkeypatch.setattr(threeway, "threeway_classes", lambda: (classes[:3], weights[:3]))
    monkeypatch.setattr(threeway, "total_deals", lambda _players: int(weights[:3].sum()))
