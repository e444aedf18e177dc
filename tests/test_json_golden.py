"""The ``--json`` output of a fixed set of commands, byte for byte, against golden files.

The goldens in tests/golden/json/ were written by the code before the CLI was thinned (every
command's JSON now comes from a library ``to_dict()``): a refactor must leave every byte the same.
Only run-time measurements (``seconds``, ``hands_per_second``) are masked, and decimals are compared
to 13 significant digits: the last bits of a sampled statistic (a least-squares fit through numpy's
BLAS) differ between machines. Rewrite the goldens
after a deliberate change of the JSON with ``EXACTODDS_UPDATE_GOLDEN=1`` (and say so in the
CHANGELOG).
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

import pytest

from tests.cli_checks import run

GOLDEN = Path(__file__).resolve().parent / "golden" / "json"
UPDATE = os.environ.get("EXACTODDS_UPDATE_GOLDEN") == "1"
HEADS_UP = ["--player", "Kh | 9c 4d", "--player", "Qc | Qh 7d"]
COMMANDS = {
    "rank": ["rank", "As Kd 10h 9c 2s"],
    "compare": ["compare", "Ah Ad 7c 7s 2h", "Kh Kd Kc 3s 2d"],
    "caribbean-decide": ["caribbean", "decide", "Qh Qs 9d 6c 2h", "--up", "Jh", "--hole", "3c",
                         "--dead", "Ad"],
    "caribbean-decide-fold": ["caribbean", "decide", "2c 3d 4h 5s 7c", "--up", "Jh"],
    "caribbean-analyze": ["caribbean", "analyze"],
    "caribbean-analyze-paytables": ["caribbean", "analyze", "--paytable", "standard", "--paytable",
                                    "royal500"],
    "caribbean-analyze-sampled": ["caribbean", "analyze", "--dealer-known", "2", "--samples", "4"],
    "caribbean-verify": ["caribbean", "verify"],
    "caribbean-strategies": ["caribbean", "strategies"],
    "caribbean-session": ["caribbean", "session", "--hands", "3"],
    "caribbean-sidebet": ["caribbean", "sidebet", "bonus-5plus1-example"],
    "caribbean-progressive": ["caribbean", "progressive", "--meter", "250000"],
    "caribbean-simulate": ["caribbean", "simulate", "--hands", "60000"],
    "caribbean-collusion": ["caribbean", "collusion", "--players", "2", "--samples", "3"],
    "stud-equity": ["stud", "equity", *HEADS_UP, "--pot", "10", "--to-call", "2"],
    "stud-equity-sampled": ["stud", "equity", *HEADS_UP, "--player", "? | 2s 3s", "--budget", "0",
                            "--samples", "500"],
    "stud-deal": ["stud", "deal", "--players", "3", "--seed", "7"],
    "stud-replay": ["stud", "replay", "examples/hands/four_way_all_in_side_pots.phh"],
    "stud-replay-session": ["stud", "replay", "examples/hands/home_session_two_hands.phhs"],
    "stud-table": ["stud", "table", "--workers", "0"],
    "stud-table-threeway": ["stud", "table", "--players", "3", "--budget", "0", "--samples", "10",
                            "--workers", "0"],
}
_MEASURED = re.compile(r'("(?:seconds|hands_per_second)": )[-0-9.eE+]+')
_DECIMAL = re.compile(r"-?\d+\.\d+(?:[eE][-+]?\d+)?")


def _settled(text: str) -> str:
    """``text`` with every decimal number written to 13 significant digits."""
    return _DECIMAL.sub(lambda m: format(float(m.group()), ".13g"), text)


def _check(name: str, text: str) -> None:
    path = GOLDEN / f"{name}.json"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; write it with EXACTODDS_UPDATE_GOLDEN=1"
    assert _settled(text) == _settled(path.read_text(encoding="utf-8")), f"--json of {name} changed"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_json_is_byte_identical_to_its_golden_file(name, small_tables, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])  # the example paths are relative to it
    result = run(*COMMANDS[name], "--json")
    assert result.exit_code == 0, result.output
    _check(name, _MEASURED.sub(r"\g<1>0", result.stdout))


def test_strategy_file_records_are_byte_identical(tmp_path):
    out = tmp_path / "ak.json"
    result = run("caribbean", "strategy", "--only", "ak", "--out", str(out))
    assert result.exit_code == 0, result.output
    data = out.read_bytes()
    head = data[:data.index(b"}", data.index(b"}") + 1) + 1].decode()  # the first two records
    _check("caribbean-strategy-ak-file", f"{len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}\n"
           f"{head}\n")

