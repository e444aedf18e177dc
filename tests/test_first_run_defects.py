"""Issue 23 §4: the smaller defects a new user met, each checked here (each fails before its fix)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import exactodds
from exactodds.caribbean.profile import load_profile
from exactodds.caribbean.sidebets.profile import SideBetError, load_sidebet
from exactodds.resources import data_files
from tests.cli_checks import one_line_error, run

ROOT = Path(__file__).resolve().parents[1]


def test_progressive_with_custom_pays_is_not_titled_with_the_shipped_pays() -> None:
    text = run("caribbean", "progressive", "--meter", "250000", "--pays", "quads=150,full_house=100")
    assert text.exit_code == 0, text.output
    assert "100/75/50" not in text.output.splitlines()[0]
    assert "four of a kind 150, full house 100, flush 50" in text.output
    data = json.loads(run("caribbean", "progressive", "--pays", "quads=150", "--json").output)
    assert "100/75/50" not in data["description"] and data["sidebet"] != "progressive-100-75-50"
    unchanged = json.loads(run("caribbean", "progressive", "--pays", "quads=100", "--json").output)
    assert unchanged["sidebet"] == "progressive-100-75-50"  # the same pays: the shipped bet


def test_a_byte_order_mark_is_accepted_in_paytable_and_sidebet_toml(tmp_path: Path) -> None:
    paytable = tmp_path / "bom.toml"
    paytable.write_bytes(b"\xef\xbb\xbf" + data_files("paytables")["standard"].read_bytes())
    assert load_profile(paytable).pays == load_profile("standard").pays
    sidebet = tmp_path / "side.toml"
    sidebet.write_bytes(b"\xef\xbb\xbf" + data_files("sidebets")["progressive-100-75-50"].read_bytes())
    assert load_sidebet(str(sidebet)).pays == load_sidebet().pays
    assert run("caribbean", "analyze", "--paytable", str(paytable)).exit_code == 0


def test_sidebet_folder_is_called_a_directory(tmp_path: Path) -> None:
    folder = tmp_path / "FOLDER.toml"
    folder.mkdir()
    one_line_error(run("caribbean", "sidebet", str(folder)), "is a directory")
    try:
        load_sidebet(str(folder))
    except SideBetError as exc:
        assert "does not exist" not in str(exc)


def test_table_db_in_a_missing_folder_is_refused_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "MISSING"
    one_line_error(run("caribbean", "table", "--db", str(missing / "t.sqlite3")), "does not exist")
    assert not missing.exists()


def test_closed_pipe_exits_141(tmp_path: Path) -> None:
    commands = (["caribbean", "decide", "Qh Qs 9d 6c 2h", "--up", "Jh"],
                ["rank", "As Kd 10h 9c 2s", "--json"])
    for args in commands:
        proc = subprocess.Popen([sys.executable, "-m", "exactodds", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # the reader has gone before the first line is written
        err = proc.stderr.read()
        assert proc.wait(timeout=60) == 141, err
        assert err == b""


def test_play_says_the_hand_is_over_and_names_the_new_bet() -> None:
    result = run("caribbean", "play", "--hands", "3", "--seed", "1", input="a 5\nd\nf\nq\n")
    assert result.exit_code == 0, result.output
    after = result.output.split("you folded", 1)[1]
    assert "Ante spot: empty" not in after.split(">", 1)[0]
    assert "hand 1 of 3 over" in after and "b = rebet" in after and "n = new bet" in after
    assert "new game" not in result.output


def test_stud_equity_result_shows_each_players_cards() -> None:
    r = exactodds.stud_equity(["Kh | 9c 4d", "? | Qh 4c"])
    for shown in (repr(r), str(r)):
        assert "Kh | 9c 4d" in shown and "? | Qh 4c" in shown
    assert "hands" not in r.to_dict()  # the JSON already lists each player's cards (CLI)


def test_docs_cli_page_is_in_the_navigation_and_linked() -> None:
    nav = (ROOT / "mkdocs.yml").read_text().splitlines()
    assert "cli.md" in [line.split(":")[-1].strip() for line in nav]
    index = (ROOT / "docs" / "index.md").read_text()
    assert "](cli.md)" in index
    assert "`stud table`" in index
    help_text = run("stud", "replay", "--help").output
    assert "examples/" not in help_text and "stud play" in help_text


def test_bytes_that_are_not_utf8_are_shown_escaped() -> None:
    result = run("rank", "2\udcff 3c 4d 5h 6s")
    one_line_error(result, 'unknown card "2\\xff"')
    assert "\udcff" not in result.output


def test_corrupt_cache_is_one_note_line(tmp_path: Path) -> None:
    (tmp_path / "handrank-v1.npy").write_bytes(b"not a numpy file")
    env = {**os.environ, "EXACTODDS_CACHE_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "exactodds", "rank", "As Kd 10h 9c 2s"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("note: hand-rank table cache"), done.stderr
    assert "CacheWarning" not in done.stderr and "warnings.warn" not in done.stderr


def test_replay_of_an_empty_file_names_the_file() -> None:
    one_line_error(run("stud", "replay", "/dev/null"), "/dev/null: missing fields variant")
