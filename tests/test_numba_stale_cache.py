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
