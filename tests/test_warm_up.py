"""exactodds warm-up, the compile notice and the cached stud table (issue 23 §2, §4)."""

from __future__ import annotations

import hashlib
import io
import sys
from pathlib import Path

import pytest

from exactodds.cache import cache_dir
from exactodds.cli import compile_notice
from exactodds.compiling import COMPILE_SECONDS, is_compiled
from exactodds.progress import RecordingProgress
from exactodds.stud.table.build import TABLE_FILE, starting_table, table_cached
from exactodds.warmup import FAMILIES, warm_up
from tests.cli_checks import run


def test_warm_up_runs_every_family_with_one_step_each(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    fake = tuple((name, (lambda n=name: calls.append(n))) for name, _ in FAMILIES)
    monkeypatch.setattr("exactodds.warmup.FAMILIES", fake)
    log = RecordingProgress()
    assert warm_up(progress=log) == [name for name, _ in FAMILIES] == calls
    assert log.stages() == [("compiling the counting kernels", len(FAMILIES), len(FAMILIES))]


def test_warm_up_command_is_listed_and_documented() -> None:
    assert "warm-up" in run("--help").output
    assert "Compile every counting kernel" in run("warm-up", "--help").output
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    assert "exactodds warm-up" in makefile.split("demo:", 1)[1].split("\n\n", 1)[0]


def test_is_compiled_reads_numbas_cache_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import exactodds.wording as plain  # a module without kernels: numba never caches anything for it

    folder = Path(plain.__file__).resolve().parent
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert not is_compiled("exactodds.wording")
    target = tmp_path / f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    target.mkdir()
    (target / "wording.duration-16.py311.nbi").write_bytes(b"")
    assert is_compiled("exactodds.wording")
    assert is_compiled("exactodds.no_such_module")  # nothing to compile


def test_compile_seconds_name_kernel_modules_that_exist() -> None:
    """The notice looks modules up by name: a moved kernel module must be renamed here too."""
    import importlib.util

    for module in COMPILE_SECONDS:
        spec = importlib.util.find_spec(module)
        assert spec is not None and spec.origin is not None, module
        assert Path(spec.origin).parent.name == "kernels", module


def test_compile_notice_says_it_once_for_a_cold_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(compile_notice, "is_compiled", lambda module: False)
    notice = compile_notice._CompileNotice()
    module = "exactodds.stud.equity.rank_profile.kernels.threeway"
    monkeypatch.delitem(sys.modules, module, raising=False)
    assert notice.find_spec(module, None) is None
    assert notice.find_spec("exactodds.caribbean.analysis.kernels.whole_game", None) is None
    seconds = COMPILE_SECONDS[module]
    assert err.getvalue() == (f"compiling the counting kernels, first run only: about {seconds} s "
                              "(exactodds warm-up compiles them all)\n")


def test_stud_table_is_read_from_the_cache_when_counted_once() -> None:
    if not table_cached():
        pytest.skip(f"the whole heads-up table ({cache_dir() / TABLE_FILE}) is not cached on this machine")
    cached = {(r.hole, r.up, r.opp_up): r for r in starting_table().rows}
    fresh = starting_table(pairs=[0, 100]).rows
    assert fresh and all(cached[(r.hole, r.up, r.opp_up)] == r for r in fresh)
    assert "cached table" in run("stud", "table", "--top", "3").output
