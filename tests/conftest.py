"""Shared fixtures. The rank table comes from the normal cache (built once per machine)."""

import numpy as np
import pytest

from exactodds.combinatorics import all_subsets_colex
from exactodds.handrank import rank_table


@pytest.fixture(scope="session")
def table() -> np.ndarray:
    return rank_table()


@pytest.fixture(scope="session")
def all_hands() -> np.ndarray:
    """All 2,598,960 hands, row i being the hand of colex index i."""
    return all_subsets_colex(52, 5)
