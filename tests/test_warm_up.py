"""exactodds warm-up, compiling in parallel processes, the compile notice and its bar, the cached stud
table (issue 23 §2, §4)."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import io
import os
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np
import psutil
import pytest

from exactodds.cache import cache_dir
from exactodds.cli import warm_up as cli_warm_up
from exactodds.kernels.cache import kernel_functions, missing_kernels
from exactodds.kernels.families import KernelFamily, WarmPart, compile_families
from exactodds.kernels.workers import CompileError, run_in_workers
from exactodds.progress import RecordingProgress
from exactodds.stud.table.build import TABLE_FILE, starting_table, table_cached
from exactodds.warmup import FAMILIES, WORKER, family_of, warm_up
from tests.cli_checks import run

PACKAGE = Path(__file__).resolve().parents[1] / "exactodds"
WHOLE_GAME = "exactodds.caribbean.analysis.kernels.whole_game"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)


def _kernel_modules() -> dict[str, Path]:
    """Every kernel module of the package that defines cached kernels."""
    return {_module(p): p for p in sorted(PACKAGE.glob("**/kernels/*.py")) if kernel_functions(p)}


def _plain_imports() -> set[str]:
    """The modules that plain (non-kernel) modules import, at any depth of their code."""
    imported = set()
    for path in PACKAGE.glob("**/*.py"):
        if path.parent.name == "kernels":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                imported.add(node.module)
                imported.update(f"{node.module}.{alias.name}" for alias in node.names)
            elif isinstance(node, ast.Import):
                imported.update(alias.name for alias in node.names)
    return imported


def test_every_kernel_module_a_command_imports_belongs_to_one_family() -> None:
    kernel_modules = _kernel_modules()
    listed = [m for family in FAMILIES for m in family.modules]
    assert len(listed) == len(set(listed)), "a module in two families"
    assert set(listed) <= set(kernel_modules), "a family names a module that is not a kernel module"
    imported = _plain_imports()
    entry = {m for m in kernel_modules if m in imported}
    helpers = {"exactodds.counting.kernels.hand_counters", "exactodds.counting.kernels.subset_counters",
               "exactodds.stud.equity.rank_profile.kernels.primitives"}  # shared: compiled by each family
    assert entry - helpers <= set(listed)
    assert family_of(WHOLE_GAME) is not None and family_of(WHOLE_GAME).name == "Caribbean whole-game count"
    assert family_of("exactodds.wording") is None


def test_kernel_functions_lists_the_cached_kernels_of_a_module() -> None:
    path = PACKAGE / "caribbean/analysis/kernels/whole_game.py"
    names = [name for name, _ in kernel_functions(path)]
    assert names == ["sweep_weaker", "sweep_weaker_chunks", "query_each_class", "count_ties",
                     "situation_events", "class_sums"]
    source = path.read_text().splitlines()
    assert all(source[line - 1].startswith("@numba.njit") for _, line in kernel_functions(path))
    inlined = [name for name, _ in kernel_functions(PACKAGE / "counting/kernels/hand_counters.py")]
    assert "add_hand" not in inlined and "counters_below" in inlined  # inline="always" has no cache entry


def _parsed_kernels(path: Path) -> list[tuple[str, int]]:
    """What kernel_functions' line scan must find, by a full parse."""
    kernels = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.FunctionDef):
            continue
        calls = [d for d in node.decorator_list if "njit" in ast.unparse(d)]
        if calls and "inline='always'" not in ast.unparse(calls[0]):
            kernels.append((node.name, node.decorator_list[0].lineno))
    return kernels


def test_the_line_scan_finds_every_kernel_a_parse_finds() -> None:
    for path in sorted(PACKAGE.glob("**/kernels/*.py")):
        assert kernel_functions(path) == _parsed_kernels(path), path


def test_missing_kernels_reads_numbas_cache_layout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from exactodds.kernels import cache

    source = PACKAGE / "caribbean/analysis/kernels/whole_game.py"
    folder = source.parent.resolve()
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    assert cache.cache_folder(source) == source.parent / "__pycache__"
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    target = tmp_path / f"{folder.name}_{hashlib.sha1(str(folder).encode()).hexdigest()}"
    assert cache.cache_folder(source) == target
    # numba reads only $NUMBA_CACHE_DIR when it is set: the sources' own __pycache__ does not count
    assert missing_kernels(WHOLE_GAME) == [name for name, _ in kernel_functions(source)]
    target.mkdir()
    version = f"py{sys.version_info[0]}{sys.version_info[1]}"
    for name, line in kernel_functions(source)[1:]:
        (target / f"whole_game.{name}-{line}.{version}.nbi").write_bytes(b"")
    assert missing_kernels(WHOLE_GAME) == ["sweep_weaker"]
    first, line = kernel_functions(source)[0]
    index = target / f"whole_game.{first}-{line}.{version}.nbi"
    index.write_bytes(b"")
    assert missing_kernels(WHOLE_GAME) == []
    os.utime(index, (0, 0))  # older than the source: numba would not use it
    assert missing_kernels(WHOLE_GAME) == ["sweep_weaker"]
    assert missing_kernels("exactodds.no_such_module") == []


TEST_WORKER = "tests.compile_worker"


def test_run_in_workers_hands_out_every_task_and_passes_their_lines_on() -> None:
    lines: list[str] = []
    done: list[int] = []
    tasks = [f"echo task {i}" for i in range(5)]
    run_in_workers(TEST_WORKER, tasks, jobs=2, on_line=lines.append, on_done=done.append)
    assert sorted(done) == list(range(5)) and sorted(lines) == [f"task {i}" for i in range(5)]
    with pytest.raises(CompileError, match="exit status 3: failing on purpose"):
        run_in_workers(TEST_WORKER, ["echo fine", "fail", "echo never"], jobs=1)


def test_run_in_workers_stops_every_worker_when_the_parent_is_interrupted() -> None:
    me = psutil.Process()

    def interrupt(_i: int) -> None:
        raise KeyboardInterrupt

    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_in_workers(TEST_WORKER, ["sleep 60", "echo quick"], jobs=2, on_done=interrupt)
    assert time.monotonic() - start < 20  # not the minute the slow task sleeps
    # the workers only: a process another test of this worker started may still be ending
    assert [p for p in me.children() if TEST_WORKER in _cmdline(p)] == []


def _cmdline(process: psutil.Process) -> list[str]:
    try:
        return process.cmdline()
    except psutil.NoSuchProcess:  # ended meanwhile
        return []


def _fake_families(calls: list[str]) -> tuple[KernelFamily, ...]:
    return tuple(KernelFamily(f"family {f}", (f"exactodds.no_such_kernels_{f}",),
                              tuple(WarmPart(lambda n=f"{f}.{p}": calls.append(n), p + 1) for p in range(2)))
                 for f in range(3))


def test_warm_up_runs_every_part_with_one_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    fake = _fake_families(calls)
    monkeypatch.setattr("exactodds.warmup.FAMILIES", fake)
    monkeypatch.setattr("exactodds.caribbean.analysis.compact.is_cached", lambda qualifier: True)
    monkeypatch.setattr(KernelFamily, "compiled", lambda self: False)
    log = RecordingProgress()
    assert warm_up(progress=log, jobs=1) == [f.name for f in fake]
    assert calls == ["0.0", "0.1", "1.0", "1.1", "2.0", "2.1"]  # the tables family first, in this process
    monkeypatch.setattr(KernelFamily, "compiled", lambda self: self.name == "family 1")
    calls.clear()
    warm_up(jobs=1)
    assert calls == ["0.0", "0.1", "2.0", "2.1"]  # a family in numba's cache is not run again
    assert log.stages() == [("compiling the counting kernels", 0, 0)]  # nothing to compile: no kernel missing


def test_the_compile_bar_counts_the_kernels_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    expected = {WHOLE_GAME: ["sweep_weaker", "count_ties"]}
    monkeypatch.setattr("exactodds.kernels.families.missing_kernels", lambda module: expected.get(module, []))

    def fake_run(module, tasks, *, jobs, on_line, on_done=None):  # type: ignore[no-untyped-def]
        for line in (f"{WHOLE_GAME} count_ties", "exactodds.other kernel", f"{WHOLE_GAME} count_ties"):
            on_line(line)

    monkeypatch.setattr("exactodds.kernels.families.run_in_workers", fake_run)
    family = family_of(WHOLE_GAME)
    assert family is not None
    log = RecordingProgress()
    compile_families([family], worker=WORKER, progress=log, jobs=2)
    # one step as count_ties is heard (once, the stranger ignored), the rest at the end: the bar ends full
    assert log.events == [("stage", "compiling the counting kernels", 2), ("step", 1), ("step", 1), ("end",)]


SUITS = "exactodds.counting.kernels.suits"


def _watched(notice: cli_warm_up._CompileNotice, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A fresh copy of the suit-signature kernel module, loaded through the notice's finder."""
    import exactodds.counting.kernels as package

    monkeypatch.delitem(sys.modules, SUITS, raising=False)  # the finder passes loaded modules by
    spec = notice.find_spec(SUITS, package.__path__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compile_notice_compiles_a_cold_family_at_its_first_call(monkeypatch: pytest.MonkeyPatch) -> None:
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    compiled: list[list[str]] = []
    monkeypatch.setattr(KernelFamily, "compiled", lambda self: False)
    monkeypatch.setattr(cli_warm_up, "compile_families",
                        lambda families, **kw: compiled.append([f.name for f in families]))
    notice = cli_warm_up._CompileNotice(show=True)
    assert notice.find_spec("exactodds.wording", None) is None  # not a kernel module: Python's own finders
    module = _watched(notice, monkeypatch)
    assert compiled == []  # imported, never called: nothing compiled
    hands = np.array([[0, 4, 8, 12, 17]], dtype=np.int8)
    first = module.suit_signatures(hands)
    assert compiled == [["hand-rank and suit-class tables"]]
    assert np.array_equal(module.suit_signatures(hands), first)
    assert compiled == [["hand-rank and suit-class tables"]]  # once per process
    # a line of its own ("\r" and, on a terminal, the escape that clears it: click drops it here)
    assert err.getvalue().startswith("\rcompiling the counting kernels, first run only: about ")
    assert err.getvalue().endswith(" s (exactodds warm-up compiles them all)\n")

    def failing(families: object, **kw: object) -> None:
        raise CompileError("a child failed")

    monkeypatch.setattr(cli_warm_up, "compile_families", failing)
    quiet = _watched(cli_warm_up._CompileNotice(show=False), monkeypatch)
    assert np.array_equal(quiet.suit_signatures(hands), first)  # compiled (or loaded) in this process
    assert err.getvalue().count("compiling") == 1


def test_compile_ahead_compiles_a_commands_cold_families_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    compiled: list[list[str]] = []
    monkeypatch.setattr(cli_warm_up, "compile_families",
                        lambda families, **kw: compiled.append([f.name for f in families]))
    whole_game = "exactodds.caribbean.analysis.kernels.whole_game"
    card = "exactodds.caribbean.strategy.card.kernels.conjunctions"
    cli_warm_up.compile_ahead(whole_game, card)
    assert compiled == []  # the hook is not installed (a library user, a test runner): nothing
    monkeypatch.setattr(KernelFamily, "compiled", lambda self: self.name == "Caribbean side bets")
    monkeypatch.setattr(sys, "meta_path", [cli_warm_up._CompileNotice(show=False), *sys.meta_path])
    cli_warm_up.compile_ahead(whole_game, card, "exactodds.caribbean.sidebets.kernels.best_of_six",
                                 "exactodds.wording")
    # one batch of the cold families (their parts share the cores); a cached one and a plain module: not
    assert compiled == [["Caribbean whole-game count", "Caribbean strategy card search"]]
    cli_warm_up.compile_ahead(card)
    assert len(compiled) == 1  # once per process


def test_compile_notice_is_installed_only_for_the_program_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a test runner's captured stream
    cli_warm_up.install()
    assert not any(isinstance(f, cli_warm_up._CompileNotice) for f in sys.meta_path)


def test_warm_up_command_is_listed_and_documented() -> None:
    assert "warm-up" in run("--help").output
    assert "Compile every counting kernel" in run("warm-up", "--help").output
    assert "--jobs" in run("warm-up", "--help").output
    makefile = (Path(__file__).resolve().parents[1] / "Makefile").read_text()
    assert "exactodds warm-up" in makefile.split("demo:", 1)[1].split("\n\n", 1)[0]


def test_stud_table_is_read_from_the_cache_when_counted_once() -> None:
    if not table_cached():
        pytest.skip(f"the whole heads-up table ({cache_dir() / TABLE_FILE}) is not cached on this machine")
    cached = {(r.hole, r.up, r.opp_up): r for r in starting_table().rows}
    fresh = starting_table(pairs=[0, 100]).rows
    assert fresh and all(cached[(r.hole, r.up, r.opp_up)] == r for r in fresh)
    assert "cached table" in run("stud", "table", "--top", "3").output


SIGNATURES = """
import importlib, json, sys
from exactodds.kernels.cache import missing_kernels
from exactodds.warmup import FAMILIES
called = {}  # kernel -> the argument types it was called with from Python
for module in sys.argv[1:]:
    loaded = importlib.import_module(module)
    for name, value in vars(loaded).items():
        if getattr(value, "__module__", None) == module and hasattr(value, "_compile_for_args"):
            def watch(*args, _kernel=value, _name=f"{module}.{name}", _original=value._compile_for_args):
                called.setdefault(_name, set()).add(str(tuple(_kernel.typeof_pyval(a) for a in args)))
                return _original(*args)
            value._compile_for_args = watch
for family in FAMILIES:
    for part in family.parts:
        part.run()
report = {name: sorted(types) for name, types in called.items()}
for module in sys.argv[1:]:
    report[module + " missing"] = missing_kernels(module)
print(json.dumps(report))
"""
# Kernels that only the tests call (the numba twins of numpy helpers, checked against them).
TEST_ONLY = {"exactodds.counting.kernels.bits": {"count_bits", "row_masks"}}


@pytest.mark.slow
def test_warm_up_compiles_every_kernel_with_one_signature_each() -> None:
    """Every part of every family in one process: then every kernel of the package is in numba's
    cache, and the package calls each kernel from Python with one signature only, so processes
    compiling in parallel never race on a kernel's overload numbers (exactodds.kernels.workers). (The
    calls from Python are recorded, not the compiled overloads: the callees a kernel compiled in
    this process would show, those loaded from the cache would not.)"""
    import json
    import subprocess

    modules = sorted(_kernel_modules())
    out = subprocess.run([sys.executable, "-c", SIGNATURES, *modules], capture_output=True, text=True,
                         check=True).stdout
    report = json.loads(out.strip().splitlines()[-1])
    for module in modules:
        assert set(report.pop(module + " missing")) <= TEST_ONLY.get(module, set()), module
    several = {name: sigs for name, sigs in report.items() if len(sigs) > 1}
    assert several == {}
