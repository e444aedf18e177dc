"""The heads-up starting-hand table (all 9,997 classes): 1 process, 2 plain local processes and a
local Dask cluster of 2 worker processes, against the previous method (one exact position per class).

To keep the run short, every method times a fixed fraction of the work and the full-table
time is extrapolated from it (the chunks are alike in cost): ``FRACTION_PAIRS`` of the 325
up-pair classes for the sweeps, ``SITUATIONS`` situation classes for the per-position method.
The cluster's start-up (once per job, as in ``stud table --workers 2``) is timed apart.
"""

from __future__ import annotations

import random
import time
from concurrent.futures import ProcessPoolExecutor

from common import ratio, report

from exactodds.cards import format_card
from exactodds.scale import open_runner
from exactodds.stud.equity import parse_position, stud_equity
from exactodds.stud.table.build import pair_chunk, starting_table, table_chunks
from exactodds.stud.table.classes import situation_classes, up_pair_classes

FRACTION_PAIRS = 26     # of 325 up-pair classes (8%)
SITUATIONS = 40         # of 9,997 situation classes for the per-position method


class PoolRunner:
    """Chunks on a plain ProcessPoolExecutor (no Dask): the baseline for the Dask runner."""

    where = "2 local processes (ProcessPoolExecutor)"

    def __init__(self, pool: ProcessPoolExecutor) -> None:
        self.pool = pool

    def map(self, fn, chunks, *, on_done=None):
        return list(self.pool.map(fn, *zip(*chunks, strict=True)))


def warm(hold: float = 0.0) -> None:
    """Load the rank table and the compiled kernel in this process (then hold it busy a moment,
    so that the next warm-up call goes to another pool process)."""
    pair_chunk(table_chunks([0])[0][0])
    time.sleep(hold)


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    n_pairs, n_classes = len(up_pair_classes()), len(situation_classes(2)[0])
    pairs = random.Random(7).sample(range(n_pairs), FRACTION_PAIRS)
    scale = n_pairs / FRACTION_PAIRS
    pair_chunk(table_chunks([0])[0][0])  # compile the kernel once, outside the timings
    serial_rows = starting_table(pairs=pairs)

    one = timed(lambda: starting_table(pairs=pairs))
    with ProcessPoolExecutor(2) as pool:
        for future in [pool.submit(warm, 2.0) for _ in range(2)]:  # both processes warm, off the clock
            future.result()
        two = timed(lambda: starting_table(pairs=pairs, runner=PoolRunner(pool)))

    start = time.perf_counter()
    with open_runner(workers=2) as runner:
        runner.client.run(warm)  # every worker warm, off the clock
        startup = time.perf_counter() - start
        dask = timed(lambda: starting_table(pairs=pairs, runner=runner))
        assert starting_table(pairs=[0, 1], runner=runner) == starting_table(pairs=[0, 1])

    reps, _ = situation_classes(2)
    sample = random.Random(8).sample(range(n_classes), SITUATIONS)

    def per_position() -> None:
        for i in sample:
            hole, up, opp = (format_card(int(c)) for c in reps[i])
            stud_equity(parse_position([f"{hole} | {up}", f"? | {opp}"]))

    previous = timed(per_position)
    prev_full = previous * n_classes / SITUATIONS

    print(f"timed {FRACTION_PAIRS} of {n_pairs} up-pair classes ({len(serial_rows.rows)} rows) per sweep "
          f"method, {SITUATIONS} of {n_classes} classes per position; full-table times extrapolated")
    for label, seconds in [("previous: one stud_equity per class, 1 process", prev_full),
                           ("sweep per up-pair class, 1 process", one * scale),
                           ("sweep, 2 local processes (ProcessPoolExecutor)", two * scale),
                           ("sweep, local Dask cluster, 2 workers", dask * scale)]:
        report(f"{label} (full table)", seconds)
    report("local Dask cluster start-up and warm-up (once per job)", startup)
    ratio("sweep per up-pair class, 1 process", one * scale, prev_full, "one stud_equity per class")
    ratio("sweep on 2 local processes", two, one, "the sweep in 1 process")
    ratio("sweep on a local Dask cluster of 2 workers", dask, one, "the sweep in 1 process")


if __name__ == "__main__":
    main()
