"""exactodds: exact odds of stud poker games by exhaustive counting.

Strength convention everywhere in this package: a hand strength is an integer in
0..7461 and **higher is stronger** (7461 is a royal flush, 0 is 7-5-4-3-2 offsuit).
"""

from importlib.metadata import PackageNotFoundError, version

from exactodds._numba_cache import use_writable_numba_cache

try:
    __version__ = version("exactodds")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0"

use_writable_numba_cache()
