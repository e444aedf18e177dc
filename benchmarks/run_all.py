"""Run every benchmarks/bench_*.py in turn (``make bench``)."""

from __future__ import annotations

import pathlib
import runpy

here = pathlib.Path(__file__).parent
for path in sorted(here.glob("bench_*.py")):
    print(f"== {path.name}", flush=True)
    runpy.run_path(str(path), run_name="__main__")
    print(flush=True)
