"""Which kernel families still have to be compiled (numba's on-disk cache holds none of them yet).

numba compiles a kernel on its first call and caches the machine code (``*.nbi`` index files
beside the source in ``__pycache__``, or under ``$NUMBA_CACHE_DIR``). :func:`is_compiled` looks
for a module's cache index without importing numba, so the command line can say "compiling the
counting kernels, first run only: about N s" before the wait rather than look hung.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from pathlib import Path

# Kernel modules and the seconds their first compile takes (2-core machine, cold cache).
COMPILE_SECONDS = {
    "exactodds.stud.equity.kernels.deal_counts": 6,
    "exactodds.stud.equity.kernels.sampling": 4,
    "exactodds.stud.equity.rank_profile.kernels.primitives": 20,
    "exactodds.stud.equity.rank_profile.kernels.threeway": 60,
    "exactodds.stud.equity.rank_profile.kernels.fourway": 90,
    "exactodds.caribbean.analysis.kernels.whole_game": 15,
    "exactodds.caribbean.holecard.kernels.seen_cards": 20,
    "exactodds.caribbean.sidebets.kernels.best_of_six": 5,
    "exactodds.caribbean.card.kernels.conjunctions": 13,
}


def _cache_folders(source: Path) -> list[Path]:
    folders = [source.parent / "__pycache__"]
    override = os.environ.get("NUMBA_CACHE_DIR")
    if override:  # numba's layout: <dir>/<parent folder name>_<sha1 of the folder path>
        parent = str(source.parent.resolve())
        folders.append(Path(override) / f"{source.parent.name}_{hashlib.sha1(parent.encode()).hexdigest()}")
    return folders


def is_compiled(module: str) -> bool:
    """Whether numba's cache holds compiled kernels of ``module`` (a dotted module name)."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return True
    source = Path(spec.origin)
    return any(any(folder.glob(f"{source.stem}.*.nbi")) for folder in _cache_folders(source))
