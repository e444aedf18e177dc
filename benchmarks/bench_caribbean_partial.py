"""Partial information: the exact edge-sort and flashed-rank counts beside the hole-carding counts.

In one run: the whole game with aces and kings edge-sorted (up card seen), one hidden card's rank
seen without its suit, and the K = 2 hole-carding count (``--dealer-known 2``), the game whose
situations the flashed rank coarsens; plus the normal game's count from its kernels. The partial
counts bypass their cache (the chunks are run directly). ``--quick`` times a spread of the
edge-sort tasks and extrapolates.
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from common import best_time, ratio, report  # noqa: E402


def count_partial(info, share: int = 1) -> float:
    """Seconds of the exact partial count (every ``share``-th chunk, extrapolated). A full count is
    also compared with the counts shipped in ``data/counts/partial.toml``, where it has an entry."""
    from exactodds.caribbean.holecard.partial import counts_key, partial_chunk, partial_chunks, shipped_sums
    from exactodds.caribbean.profile import load_profile

    profile = load_profile("standard")
    chunks = partial_chunks(profile, info)
    partial_chunk(*chunks[0])  # compile / load the kernel cache
    chosen = chunks[::share]
    start = time.perf_counter()
    parts = [partial_chunk(*args) for args in chosen]
    seconds = (time.perf_counter() - start) * len(chunks) / len(chosen)
    shipped = shipped_sums(counts_key(profile, info))
    if share == 1 and shipped is not None:
        counted = [sum(c) for c in zip(*parts, strict=True)]
        print(f"shipped counts for {info.describe()}: {'the same' if counted == shipped else 'DIFFERENT'}")
        if counted != shipped:
            raise SystemExit("the shipped partial-information counts differ from a fresh count")
    return seconds


def main() -> None:
    from exactodds.caribbean.holecard.exact import analyze_known
    from exactodds.caribbean.holecard.partial import edge_sort, rank_seen

    share = 8 if "--quick" in sys.argv else 1
    what = "extrapolated from every 8th chunk" if share > 1 else "full count"
    print(f"(machine: {os.cpu_count()} cores; wall times; the machine may be shared)")
    analyze_known("standard", dealer_known=2)  # compile or load the hole-carding kernels
    known2 = best_time(lambda: analyze_known("standard", dealer_known=2), 1)
    report("--dealer-known 2 exact counting (full run)", known2)
    sorted_ak = count_partial(edge_sort("AK"), share)
    report(f"--edge-sort AK exact counting ({what})", sorted_ak)
    ratio("--edge-sort AK exact counting", sorted_ak, known2, "--dealer-known 2 exact counting")
    flashed = count_partial(rank_seen(), share)
    report(f"--dealer-rank-seen exact counting ({what})", flashed)
    ratio("--dealer-rank-seen exact counting", flashed, known2, "--dealer-known 2 exact counting")


if __name__ == "__main__":
    main()
