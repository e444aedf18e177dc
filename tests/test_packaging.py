"""The package works wherever it is installed: data through importlib.resources, nothing built at
import, numba's cache somewhere writable, strategy tables without pandas, ``python -m exactodds``.

The wheel itself is installed and used from another folder by ``scripts/wheel-smoke.sh`` (run by
``make test``, also with site-packages and $HOME read-only).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import exactodds
from exactodds.caribbean.profile import AK_HIGH_FLOOR, available_profiles, load_profile
from exactodds.errors import ExactOddsError
from exactodds.handrank import evaluate
from exactodds.kernels import cache as numba_cache
from exactodds.resources import DataError, data_dir, data_file, data_files

PACKAGE = Path(exactodds.__file__).resolve().parent


def run_python(code: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, **env}, timeout=300)


def test_shipped_data_is_inside_the_package():
    assert data_dir("paytables") == PACKAGE / "data" / "paytables"
    assert available_profiles() == ["betmgm", "microgaming", "royal200", "royal250", "royal500", "standard"]
    assert {"caribbean_stud", "caribbean_progressive", "holecard"} <= set(data_files("published"))
    assert data_file("published", "holecard.toml").is_file()
    assert load_profile("betmgm").pays["four_of_a_kind"] == 25


def test_tables_override_replaces_the_shipped_data(tmp_path, monkeypatch):
    (tmp_path / "paytables").mkdir()
    text = (PACKAGE / "data" / "paytables" / "standard.toml").read_text().replace(
        'name = "standard"', 'name = "house"')
    (tmp_path / "paytables" / "house.toml").write_text(text)
    monkeypatch.setenv("EXACTODDS_TABLES", str(tmp_path))
    assert available_profiles() == ["house"]
    assert load_profile("house").name == "house"
    with pytest.raises(ExactOddsError, match='unknown paytable "standard"'):
        load_profile("standard")
    assert data_files("sidebets") == {}
    monkeypatch.setenv("EXACTODDS_TABLES", str(tmp_path / "house.toml"))
    with pytest.raises(DataError, match="not a folder"):
        data_dir("paytables")
    with pytest.raises(DataError, match='unknown data kind "strategy"'):
        data_dir("strategy")


def test_ak_high_floor_constant_is_the_weakest_ak_hand():
    assert AK_HIGH_FLOOR == evaluate("Ac Kd 4h 3s 2c") == evaluate("Ah Ks 2d 3c 4s")
    assert evaluate("Ac Qd Jh 9s 8c") < AK_HIGH_FLOOR


def test_importing_every_module_builds_and_writes_nothing(tmp_path):
    cache = tmp_path / "cache"
    code = (
        "import importlib, pkgutil, exactodds\n"
        "names = [m.name for m in pkgutil.walk_packages(exactodds.__path__, 'exactodds.')]\n"
        "for name in names:\n"
        "    if name != 'exactodds.__main__':\n"
        "        importlib.import_module(name)\n"
        "import exactodds.handrank as h\n"
        "print(len(names), h.rank_table.cache_info().currsize)\n"
    )
    result = run_python(code, EXACTODDS_CACHE_DIR=str(cache), HOME=str(tmp_path / "home"))
    assert result.returncode == 0, result.stderr
    modules, tables_built = map(int, result.stdout.split())
    assert modules > 30 and tables_built == 0
    assert not cache.exists(), f"importing wrote {sorted(p.name for p in cache.rglob('*'))}"
    assert not (tmp_path / "home").exists()


def test_numba_cache_moves_under_the_exactodds_cache_when_the_package_is_read_only(tmp_path, monkeypatch):
    assert numba_cache.numba_cache_dir(PACKAGE) is None  # this checkout is writable: numba's default
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    read_only_package = blocker / "exactodds"  # no folder can be made under a file
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(tmp_path / "cache"))
    assert numba_cache.numba_cache_dir(read_only_package) == tmp_path / "cache" / "numba"
    monkeypatch.setenv("EXACTODDS_CACHE_DIR", str(blocker / "cache"))  # not writable either
    fallback = numba_cache.numba_cache_dir(read_only_package)
    assert fallback is not None and fallback.name == "numba" and fallback.parent.name.startswith("exactodds-")


def test_an_explicit_numba_cache_dir_wins(tmp_path):
    result = run_python("import exactodds, os; print(os.environ['NUMBA_CACHE_DIR'])",
                        NUMBA_CACHE_DIR=str(tmp_path))
    assert result.stdout.strip() == str(tmp_path)


@pytest.mark.parametrize("fmt", ["csv", "parquet", "json"])
def test_strategy_tables_are_read_without_pandas(tmp_path, fmt):
    rows = [{"hand": "Ac Kd 9h 5c 2s", "up": "8c", "decision": "raise"},
            {"hand": "Qh Qs 9d 6c 2h", "up": "Jh", "decision": "fold"}]
    path = tmp_path / f"mine.{fmt}"
    if fmt == "json":
        path.write_text(json.dumps(rows))
    else:
        import pyarrow as pa
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq

        table = pa.Table.from_pylist(rows)
        (pacsv.write_csv if fmt == "csv" else pq.write_table)(table, path)
    code = (
        "import sys\n"
        "class NoPandas:\n"  # any import of pandas now fails, as in a plain install
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] == 'pandas':\n"
        "            raise ImportError('pandas is not installed')\n"
        "sys.meta_path.insert(0, NoPandas())\n"
        "from exactodds.caribbean.strategy.strategies import load_strategy\n"
        f"s = load_strategy({str(path)!r}); print(s.name, 'pandas' in sys.modules)\n"
    )
    result = run_python(code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [path.name, "False"]


def test_python_dash_m_runs_the_command_line():
    result = subprocess.run([sys.executable, "-m", "exactodds", "caribbean", "decide", "Qh Qs 9d 6c 2h",
                             "--up", "Jh", "--json"], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["ev_raise"] == "42797/32637"


def test_licence_file_matches_the_declared_licence():
    root = PACKAGE.parent
    assert (root / "LICENSE").read_text().startswith("MIT License")
    assert 'license = "MIT"' in (root / "pyproject.toml").read_text()


@pytest.mark.slow
def test_the_editable_install_prints_no_warning_banner(tmp_path):
    """``make install`` (pip install -e) shows a new user no "BuildBackendWarning ... !!" banner:
    setuptools makes the editable install a plain .pth entry for the package's folder."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
                           "--editable", str(PACKAGE.parent)], capture_output=True, text=True, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Successfully installed exactodds" in output
    assert "BuildBackendWarning" not in output and "!!" not in output, output
    where = "import importlib.util as u; print(u.find_spec('exactodds').origin)"
    found = subprocess.run([str(python), "-c", where], capture_output=True, text=True, check=True, timeout=60)
    assert Path(found.stdout.strip()) == PACKAGE / "__init__.py"
