"""Serial kernels over spans on threads (exactodds.threaded): every item once, results in order,
failures raised, and a compiled kernel's threaded sum equal to its one call."""

import threading

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactodds.threaded import chunk_bounds, run_spans, thread_count, threaded_sum


@given(count=st.integers(0, 500), chunks=st.integers(1, 64))
def test_chunk_bounds_cover_the_range_once_in_order(count: int, chunks: int) -> None:
    bounds = chunk_bounds(count, chunks)
    covered = [i for lo, hi in bounds for i in range(lo, hi)]
    assert covered == list(range(count))
    assert all(hi > lo for lo, hi in bounds)
    assert len(bounds) == min(chunks, count)
    sizes = [hi - lo for lo, hi in bounds]
    assert not sizes or max(sizes) - min(sizes) <= 1


@given(count=st.integers(0, 300), threads=st.integers(1, 5), chunks=st.integers(1, 40))
def test_run_spans_gives_every_span_once_in_chunk_order(count: int, threads: int, chunks: int) -> None:
    spans = run_spans(lambda lo, hi: (lo, hi), count, threads=threads, chunks=chunks)
    if threads == 1 or min(chunks, count) <= 1:
        assert spans == [(0, count)]
    else:
        assert spans == chunk_bounds(count, chunks)


@given(start=st.integers(0, 50), size=st.integers(0, 100), chunks=st.integers(1, 20))
def test_spans_can_start_past_zero(start: int, size: int, chunks: int) -> None:
    spans = run_spans(lambda lo, hi: (lo, hi), start + size, threads=2, chunks=chunks, start=start)
    assert [i for lo, hi in spans for i in range(lo, hi)] == list(range(start, start + size))
    total = threaded_sum(lambda lo, hi: np.array([hi - lo]), start + size, threads=3, start=start)
    assert int(total[0]) == size


def test_run_spans_uses_several_threads_and_writes_disjoint_rows() -> None:
    seen: set[str] = set()
    out = np.zeros(1000, np.int64)

    def kernel(lo: int, hi: int, target: np.ndarray) -> None:
        seen.add(threading.current_thread().name)
        for i in range(lo, hi):
            target[i] = i * i

    run_spans(kernel, len(out), out, threads=3, chunks=50)
    assert np.array_equal(out, np.arange(1000) ** 2)
    assert len(seen) >= 1 and all(name.startswith("exactodds-kernel-") for name in seen)


def test_threaded_sum_adds_the_spans_exactly() -> None:
    big = 2**61

    def kernel(lo: int, hi: int) -> np.ndarray:
        return np.array([hi - lo, big // 1000 * (hi - lo)], np.int64)

    assert threaded_sum(kernel, 1000, threads=4).tolist() == [1000, big // 1000 * 1000]
    assert threaded_sum(kernel, 1000, threads=1).tolist() == [1000, big // 1000 * 1000]


def test_a_failing_span_raises_on_the_calling_thread() -> None:
    def kernel(lo: int, hi: int) -> np.ndarray:
        if lo <= 500 < hi:
            raise ValueError("span holding 500")
        return np.zeros(1, np.int64)

    with pytest.raises(ValueError, match="span holding 500"):
        threaded_sum(kernel, 1000, threads=3)


def test_thread_count_honours_numba_num_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    assert thread_count() == 1
    monkeypatch.setenv("NUMBA_NUM_THREADS", "3")
    assert thread_count() == 3
    monkeypatch.delenv("NUMBA_NUM_THREADS")
    assert thread_count() >= 1


def test_a_compiled_kernel_sums_the_same_on_threads_as_in_one_call() -> None:
    """The three-way kernels on a position with every flush term: two threads in many spans
    against one call over every outer class."""
    from exactodds.stud.equity.position import parse_position
    from exactodds.stud.equity.rank_profile.kernels.threeway import (
        outer_counts,
        three_flush_counts,
        two_flush_counts,
    )
    from exactodds.stud.equity.rank_profile.multiway import position_profiles
    from exactodds.stud.equity.rank_profile.profiles import key_table

    profiles, avail = position_profiles(parse_position(["Kh | 9h 4h", "? | Qc Jc", "? | 2d 7d"]))
    keys = key_table()
    n = len(profiles[0].strength)
    for kernel, flags in ((outer_counts, (False,)), (outer_counts, (True,)), (two_flush_counts, ()),
                          (three_flush_counts, ())):
        args = (avail, *flags, *profiles, keys.start, keys.mult)
        whole = kernel(0, n, *args)
        assert whole.any()
        assert np.array_equal(threaded_sum(kernel, n, *args, threads=2, chunks=37), whole)
