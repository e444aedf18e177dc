"""The on-disk cache: location override, atomic write, corrupt files rebuilt with a warning."""

import numpy as np
import pytest

from exactodds import handrank
from exactodds.cache import CACHE_ENV, CacheWarning, atomic_output, cache_dir, keep_in_cache


@pytest.fixture
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    handrank.rank_table.cache_clear()
    yield tmp_path
    handrank.rank_table.cache_clear()


def test_env_var_overrides_cache_dir(private_cache):
    assert cache_dir() == private_cache


def test_first_use_builds_and_caches(private_cache, table):
    built = handrank.rank_table()
    assert (private_cache / handrank.TABLE_FILE).exists()
    assert np.array_equal(built, table)
    assert not built.flags.writeable
    handrank.rank_table.cache_clear()
    assert np.array_equal(handrank.rank_table(), table)  # loaded, not rebuilt


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage"])
def test_corrupt_cache_is_rebuilt_with_warning(private_cache, table, damage):
    handrank.rank_table()
    path = private_cache / handrank.TABLE_FILE
    data = bytearray(path.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[-10] ^= 0xFF
    else:
        data = bytearray(b"not a numpy file")
    path.write_bytes(bytes(data))
    handrank.rank_table.cache_clear()
    with pytest.warns(CacheWarning):
        rebuilt = handrank.rank_table()
    assert np.array_equal(rebuilt, table)
    handrank.rank_table.cache_clear()
    assert handrank.table_digest(np.load(path)) == handrank.TABLE_SHA256


def test_atomic_output_keeps_old_file_on_error(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_output(target, "w") as fh:
        fh.write("partial")
        raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert list(tmp_path.iterdir()) == [target]


def test_hand_class_table_is_cached_and_verified(private_cache):
    from exactodds import symmetry

    symmetry.hand_classes.cache_clear()
    try:
        classes = symmetry.hand_classes()
        path = private_cache / symmetry.CLASSES_FILE
        assert path.exists() and len(classes.weights) == 134_459
        path.write_bytes(path.read_bytes()[:-8])  # truncated
        symmetry.hand_classes.cache_clear()
        with pytest.warns(CacheWarning, match="hand-class table"):
            again = symmetry.hand_classes()
        assert np.array_equal(again.representatives, classes.representatives)
    finally:
        symmetry.hand_classes.cache_clear()


def test_a_cache_that_cannot_be_written_warns_and_keeps_nothing(tmp_path):
    missing = tmp_path / "not a folder" / "result.json"  # the write fails as a read-only or full cache would
    with pytest.warns(CacheWarning, match="strategy card search cache .* cannot be written"):
        keep_in_cache(missing, b"{}", what="strategy card search")
    assert not missing.parent.exists()
    keep_in_cache(tmp_path / "result.json", b"{}", what="strategy card search")
    assert (tmp_path / "result.json").read_bytes() == b"{}"
