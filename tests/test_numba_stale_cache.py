"""A numba cache written by another version (an argument's bundle class renamed since) never stops a
kernel: without exactodds' guard numba fails to read its own index (numba issue 6018); with it, the
kernel compiles again. Real numba, real cache files, in fresh processes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

KERNEL = """
from numba import njit

@njit(cache=True)
def total(bundle):
    return bundle.values.sum()
"""
RUN = """
import sys
import numpy as np
if sys.argv[1] == "guarded":
    import exactodds.kernels.cache_patch  # noqa: F401
import bundles, kernel
print(kernel.total(bundles.{name}(values=np.arange(4.0))))
"""


def _bundles(folder: Path, name: str) -> None:
    (folder / "bundles.py").write_text(textwrap.dedent(f"""
        from typing import NamedTuple
        import numpy as np

        class {name}(NamedTuple):
            values: np.ndarray
        """))


def _run(folder: Path, name: str, mode: str) -> subprocess.CompletedProcess[str]:
    (folder / "run.py").write_text(RUN.format(name=name))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(folder)}
    return subprocess.run([sys.executable, "run.py", mode], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120)


def test_a_stale_index_stops_numba_but_not_a_guarded_kernel(tmp_path: Path) -> None:
    (tmp_path / "kernel.py").write_text(KERNEL)
    _bundles(tmp_path, "Outcomes")
    first = _run(tmp_path, "Outcomes", "plain")
    assert first.returncode == 0 and first.stdout.strip() == "6.0", first.stderr
    assert list((tmp_path / "cache").rglob("*.nbi")), "numba wrote its index"
    _bundles(tmp_path, "Showdowns")  # the bundle class renamed, as an upgrade may do
    broken = _run(tmp_path, "Showdowns", "plain")
    assert broken.returncode != 0 and "Can't get attribute 'Outcomes'" in broken.stderr
    healed = _run(tmp_path, "Showdowns", "guarded")
    assert healed.returncode == 0 and healed.stdout.strip() == "6.0", healed.stderr
    again = _run(tmp_path, "Showdowns", "plain")  # the guarded run rewrote a fresh index
    assert again.returncode == 0 and again.stdout.strip() == "6.0", again.stderr


def test_every_kernel_package_installs_the_guard() -> None:
    root = Path(__file__).resolve().parents[1] / "exactodds"
    packages = [p for p in root.rglob("kernels/__init__.py") if p.parent != root / "kernels"]
    assert len(packages) >= 6
    for init in packages:
        assert "import exactodds.kernels.cache_patch" in init.read_text(), init


PROBE_CONSTANTS = "SCALE = {scale}\n"
PROBE_KERNEL = """
from numba import njit

from probe.constants import SCALE


@njit(cache=True)
def scaled(x):
    return x * SCALE
"""
PROBE_RUN = """
import sys
from pathlib import Path
if sys.argv[1] == "guarded":
    import exactodds.kernels.cache as kernel_cache
    kernel_cache.PACKAGE = Path.cwd() / "probe"  # the guard widens the stamps of this package's kernels
    import exactodds.kernels.cache_patch  # noqa: F401
from probe.kernel import scaled
print(scaled(3))
"""


def _probe(folder: Path, *, scale: int, stamp: int) -> None:
    constants = folder / "probe" / "constants.py"
    constants.write_text(PROBE_CONSTANTS.format(scale=scale))
    os.utime(constants, (stamp, stamp))  # a whole second later each time: the change is seen


def _run_probe(folder: Path, mode: str) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(folder)}
    done = subprocess.run([sys.executable, "run.py", mode], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_kernel_is_compiled_again_when_a_module_it_reads_changes(tmp_path: Path) -> None:
    """numba stamps a cached kernel with its own file only: a constant changed in another module
    leaves it running the old machine code. The guard stamps exactodds' kernels with every file of
    the package they import, so the change is compiled in."""
    (tmp_path / "probe").mkdir()
    (tmp_path / "probe" / "__init__.py").write_text("")
    (tmp_path / "probe" / "kernel.py").write_text(PROBE_KERNEL)
    (tmp_path / "run.py").write_text(PROBE_RUN)
    _probe(tmp_path, scale=2, stamp=1_000_000_000)
    assert _run_probe(tmp_path, "plain") == "6"
    _probe(tmp_path, scale=5, stamp=1_000_000_010)
    assert _run_probe(tmp_path, "plain") == "6", "numba alone keeps the stale kernel"
    assert _run_probe(tmp_path, "guarded") == "15"
    _probe(tmp_path, scale=7, stamp=1_000_000_020)
    assert _run_probe(tmp_path, "guarded") == "21"
    assert _run_probe(tmp_path, "guarded") == "21"  # and cached again under the new stamp


def test_missing_kernels_counts_a_change_to_a_file_a_kernel_imports() -> None:
    from exactodds.kernels.cache import PACKAGE, source_dependencies

    whole_game = PACKAGE / "caribbean" / "analysis" / "kernels" / "whole_game.py"
    files = {path.relative_to(PACKAGE).as_posix() for path in source_dependencies(whole_game)}
    assert {"caribbean/analysis/kernels/whole_game.py", "counting/kernels/hand_counters.py",
            "combinatorics.py"} <= files
    assert "cli/main.py" not in files and "stud/engine/state.py" not in files
