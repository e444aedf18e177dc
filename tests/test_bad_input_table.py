# ruff: noqa: E501  (a table reads best one case a line)
"""Bad input across every command, as a table: exit 2, exactly one line starting "Error:", no traceback,
and nothing written or changed in the folder the command was pointed at.

Each case is (command line, a fragment the error line must hold, files to create first). "{tmp}" in
an argument is the case's own folder; ``files`` maps a name in that folder to its text.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from exactodds.cli.main import cli

HAND = "Ks Qd 9h 5c 2s"
PAYS = {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7, "flush": 5,
        "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "pair": 1, "ak_high": 1}


def paytable(name: str = "custom", **pays: object) -> str:
    values = PAYS | pays
    return f'name = "{name}"\n[pays]\n' + "".join(f"{k} = {v}\n" for k, v in values.items())


HEADER = "hand,up,decision\n"
HEADS_UP = ["--player", "Kh | 9c 4d", "--player", "Qc | Qh 7d"]

CASES: list[tuple[str, list[str], str, dict[str, str]]] = [
    # ----------------------------------------------------------------- the command line itself
    ("unknown-command", ["nosuch"], "No such command", {}),
    ("unknown-subcommand", ["caribbean", "nosuch"], "No such command", {}),
    ("unknown-option", ["rank", "--nosuch", HAND], "No such option", {}),
    ("extra-argument", ["rank", HAND, "extra"], "unexpected extra argument", {}),
    # ----------------------------------------------------------------- rank / compare
    ("rank-short-hand", ["rank", "As Kd"], "5 cards", {}),
    ("rank-duplicate", ["rank", "As As Kd Qh Jc"], "As", {}),
    ("rank-bad-card", ["rank", "Zz Kd Qh Jc 2c"], "Zz", {}),
    ("rank-empty", ["rank", ""], "5 cards", {}),
    ("compare-short", ["compare", HAND, "As"], "5 cards", {}),
    ("compare-missing", ["compare", HAND], "Missing argument", {}),
    # ----------------------------------------------------------------- decide and paytables
    ("decide-no-up", ["caribbean", "decide", HAND], "Missing option '--up'", {}),
    ("decide-empty-up", ["caribbean", "decide", HAND, "--up", ""], "up", {}),
    ("decide-up-in-hand", ["caribbean", "decide", HAND, "--up", "Ks"], "Ks", {}),
    ("decide-too-many-holes", ["caribbean", "decide", HAND, "--up", "8c", "--hole", "2c 3c 4c 5c 6c"],
     "hole", {}),
    ("decide-dead-in-hand", ["caribbean", "decide", HAND, "--up", "8c", "--dead", "Qd"], "Qd", {}),
    ("decide-four-cards", ["caribbean", "decide", "Ks Qd 9h 5c", "--up", "8c"], "5 cards", {}),
    ("paytable-empty-name-option", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", ""],
     'the paytable name is empty, got ""', {}),
    ("paytable-blank-name-option", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "  "],
     "the paytable name is empty", {}),
    ("paytable-unknown", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "nosuch"],
     'unknown paytable "nosuch"', {}),
    ("paytable-name-too-long", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "x" * 300],
     "File name too long", {}),
    ("paytable-empty-name-field", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "field 'name' must not be empty", {"p.toml": paytable(name="")}),
    ("paytable-huge-float", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "field 'pays.royal_flush' is too large: 1e+308", {"p.toml": paytable(royal_flush="1e308")}),
    ("paytable-huge-text", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "field 'pays.pair' is too large", {"p.toml": paytable(pair='"1e99999999"')}),
    ("paytable-not-a-number", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "field 'pays.pair' must be a number", {"p.toml": paytable(pair='"abc"')}),
    ("paytable-negative", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "field 'pays.flush' must not be negative", {"p.toml": paytable(flush=-5)}),
    ("paytable-too-fine", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "too fine a fraction", {"p.toml": paytable(pair='"1/3333333333333333333333333"')}),
    ("paytable-bad-toml", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "is not valid TOML", {"p.toml": "this is = = not toml"}),
    ("paytable-unknown-field", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/p.toml"],
     "is not a profile field", {"p.toml": "bonus = 5\n" + paytable()}),
    ("paytable-missing-file", ["caribbean", "decide", HAND, "--up", "8c", "--paytable", "{tmp}/none.toml"],
     "does not exist", {}),
    # ----------------------------------------------------------------- analyze / verify
    ("analyze-known-0", ["caribbean", "analyze", "--dealer-known", "0"], "1<=x<=5", {}),
    ("analyze-known-6", ["caribbean", "analyze", "--dealer-known", "6"], "1<=x<=5", {}),
    ("analyze-samples-1", ["caribbean", "analyze", "--samples", "1"], "samples must be 2 to", {}),
    ("analyze-samples-negative", ["caribbean", "analyze", "--samples", "-5"], "--samples", {}),
    ("analyze-samples-huge", ["caribbean", "analyze", "--samples", "100000000000"], "--samples", {}),
    ("analyze-seed-negative", ["caribbean", "analyze", "--samples", "10", "--seed", "-1"], "--seed", {}),
    ("analyze-paytable", ["caribbean", "analyze", "--paytable", "nosuch"], "unknown paytable", {}),
    ("verify-no-figures", ["caribbean", "verify"], "no published figures", {"env:EXACTODDS_TABLES": "{tmp}"}),
    # ----------------------------------------------------------------- strategy / chart (file outputs)
    ("strategy-empty-out", ["caribbean", "strategy", "--out", ""], "the output file name is empty", {}),
    ("strategy-no-folder", ["caribbean", "strategy", "--out", "{tmp}/nodir/x.csv"], "does not exist", {}),
    ("strategy-out-is-folder", ["caribbean", "strategy", "--out", "{tmp}", "--format", "csv"],
     "is a directory", {}),
    ("strategy-format-mismatch", ["caribbean", "strategy", "--out", "{tmp}/x.csv", "--format", "parquet"],
     "--format parquet does not match", {"x.csv": "old table\n"}),
    ("strategy-unknown-extension", ["caribbean", "strategy", "--out", "{tmp}/x.txt"],
     "cannot tell the format", {}),
    ("strategy-bad-format", ["caribbean", "strategy", "--out", "{tmp}/x.csv", "--format", "xml"],
     "--format", {}),
    ("strategy-bad-only", ["caribbean", "strategy", "--out", "{tmp}/x.csv", "--only", "aq"], "--only", {}),
    ("strategy-bad-paytable-keeps-file", ["caribbean", "strategy", "--out", "{tmp}/x.csv", "--paytable", "no"],
     "unknown paytable", {"x.csv": "old table\n"}),
    ("chart-empty-out", ["caribbean", "chart", "--out", ""], "the output file name is empty", {}),
    ("chart-bad-extension", ["caribbean", "chart", "--out", "{tmp}/x.gif"], "must end in .png or .svg", {}),
    ("chart-no-folder", ["caribbean", "chart", "--out", "{tmp}/nodir/x.png"], "does not exist", {}),
    # ----------------------------------------------------------------- strategies and user strategies
    ("strategies-unknown", ["caribbean", "strategies", "--strategy", "nosuch"], 'unknown strategy "nosuch"', {}),
    ("strategies-missing-file", ["caribbean", "strategies", "--strategy", "{tmp}/none.py"],
     "does not exist", {}),
    ("strategies-empty-table", ["caribbean", "strategies", "--strategy", "{tmp}/t.csv"], "has no rows",
     {"t.csv": HEADER}),
    ("strategies-contradicting-rows", ["caribbean", "strategies", "--strategy", "{tmp}/t.csv"],
     "rows 1 and 2 decide the same situation",
     {"t.csv": HEADER + "Ac Kd 7h 4s 2c,9h,raise\nAc Kd 7h 4s 2c,9h,fold\n"}),
    ("strategies-contradicting-renamed-suits", ["caribbean", "strategies", "--strategy", "{tmp}/t.csv"],
     "rows 1 and 2 decide the same situation",
     {"t.csv": HEADER + "Ac Kd 7h 4s 2c,9h,raise\nAd Kc 7h 4s 2d,9h,fold\n"}),
    ("strategies-bad-decision", ["caribbean", "strategies", "--strategy", "{tmp}/t.csv"],
     "decision must be raise or fold", {"t.csv": HEADER + "Ac Kd 7h 4s 2c,9h,maybe\n"}),
    ("strategies-up-in-hand", ["caribbean", "strategies", "--strategy", "{tmp}/t.csv"],
     "the up card is in the hand", {"t.csv": HEADER + "Ac Kd 7h 4s 2c,2c,raise\n"}),
    ("strategies-missing-column", ["caribbean", "strategies", "--strategy", "{tmp}/t.csv"],
     "lacks the column decision", {"t.csv": "hand,up\nAc Kd 7h 4s 2c,9h\n"}),
    ("strategy-sys-exit-on-load", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "called sys.exit(3) while loading", {"s.py": "import sys\nsys.exit(3)\n"}),
    ("strategy-syntax-error", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "failed to load: SyntaxError", {"s.py": "def raise_hand(hand, up)\n    return True\n"}),
    ("strategy-no-function", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "defines neither raise_hand", {"s.py": "x = 1\n"}),
    ("strategy-returns-none", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "returned None; expected True or False", {"s.py": "def raise_hand(hand, up):\n    return None\n"}),
    ("strategy-returns-text", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "returned 'yes'; expected True or False", {"s.py": "def raise_hand(hand, up):\n    return 'yes'\n"}),
    ("strategy-returns-nan", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "returned nan; expected True or False",
     {"s.py": "def raise_hand(hand, up):\n    return float('nan')\n"}),
    ("strategy-batch-returns-floats", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "expected an array of booleans",
     {"s.py": "import numpy as np\ndef raise_batch(hands, ups):\n    return np.full(len(ups), np.nan)\n"}),
    ("strategy-sys-exit-when-called", ["caribbean", "strategies", "--strategy", "{tmp}/s.py"],
     "called sys.exit(3)", {"s.py": "import sys\ndef raise_hand(hand, up):\n    sys.exit(3)\n"}),
    # ----------------------------------------------------------------- session
    ("session-hands-0", ["caribbean", "session", "--hands", "0"], "1<=x<=100", {}),
    ("session-hands-101", ["caribbean", "session", "--hands", "101"], "1<=x<=100", {}),
    ("session-hands-text", ["caribbean", "session", "--hands", "abc"], "--hands", {}),
    ("session-chart-extension", ["caribbean", "session", "--chart", "{tmp}/x.gif"], ".png or .svg", {}),
    ("session-chart-no-folder", ["caribbean", "session", "--chart", "{tmp}/nodir/x.png"], "does not exist", {}),
    ("session-strategy", ["caribbean", "session", "--strategy", "nosuch"], "unknown strategy", {}),
    # ----------------------------------------------------------------- progressive
    ("progressive-meter-huge", ["caribbean", "progressive", "--meter", "1e400"], "--meter is too large: 1e400", {}),
    ("progressive-meter-inf", ["caribbean", "progressive", "--meter", "inf"], "--meter is too large", {}),
    ("progressive-meter-text", ["caribbean", "progressive", "--meter", "lots"], "--meter must be a number", {}),
    ("progressive-meter-negative", ["caribbean", "progressive", "--meter", "-5"], "must not be negative", {}),
    ("progressive-pays-huge", ["caribbean", "progressive", "--pays", "quads=1e400"], "quads is too large", {}),
    ("progressive-pays-unknown", ["caribbean", "progressive", "--pays", "nosuch=5"], "NAME=AMOUNT", {}),
    ("progressive-pays-twice", ["caribbean", "progressive", "--pays", "quads=1,quads=2"], "given twice", {}),
    # ----------------------------------------------------------------- simulate / collusion
    ("simulate-hands-1", ["caribbean", "simulate", "--hands", "1"], "--hands", {}),
    ("simulate-hands-huge", ["caribbean", "simulate", "--hands", "100000000000"], "--hands", {}),
    ("simulate-seed-negative", ["caribbean", "simulate", "--seed", "-1"], "--seed", {}),
    ("simulate-strategy", ["caribbean", "simulate", "--strategy", "{tmp}/t.csv"], "has no rows", {"t.csv": HEADER}),
    ("collusion-players-0", ["caribbean", "collusion", "--players", "0"], "1<=x<=7", {}),
    ("collusion-players-8", ["caribbean", "collusion", "--players", "8"], "1<=x<=7", {}),
    ("collusion-no-players", ["caribbean", "collusion"], "Missing option '--players'", {}),
    ("collusion-samples-1", ["caribbean", "collusion", "--players", "2", "--samples", "1"], "--samples", {}),
    # ----------------------------------------------------------------- stud
    ("equity-one-player", ["stud", "equity", "--player", "Kh | 9c 4d"], "player", {}),
    ("equity-samples-huge", ["stud", "equity", *HEADS_UP, "--samples", "1000000000"], "--samples", {}),
    ("equity-samples-1", ["stud", "equity", *HEADS_UP, "--samples", "1"], "--samples", {}),
    ("equity-budget-negative", ["stud", "equity", *HEADS_UP, "--budget", "-1"], "--budget", {}),
    ("equity-pot-huge", ["stud", "equity", *HEADS_UP, "--pot", "1e400", "--to-call", "1"],
     "--pot is too large", {}),
    ("equity-pot-alone", ["stud", "equity", *HEADS_UP, "--pot", "10"], "--pot and --to-call go together", {}),
    ("equity-bad-card", ["stud", "equity", "--player", "Zz | 9c", "--player", "? | Qh"], "Zz", {}),
    ("equity-dead-duplicate", ["stud", "equity", *HEADS_UP, "--dead", "Kh"], "Kh", {}),
    ("replay-missing-file", ["stud", "replay", "{tmp}/none.phh"], "none.phh", {}),
    ("replay-empty-file", ["stud", "replay", "{tmp}/h.phh"], "h.phh", {"h.phh": ""}),
    ("deal-players-1", ["stud", "deal", "--players", "1"], "2<=x<=8", {}),
]


def snapshot(folder) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(("args", "fragment", "files"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_one_error_line_and_exit_2(tmp_path, args, fragment, files):
    env = {}
    for name, text in files.items():
        if name.startswith("env:"):
            env[name.removeprefix("env:")] = text.replace("{tmp}", str(tmp_path))
        else:
            (tmp_path / name).write_text(text)
    before = snapshot(tmp_path)
    result = CliRunner().invoke(cli, [a.replace("{tmp}", str(tmp_path)) for a in args], env=env)
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    assert fragment in lines[0], result.output
    assert "Traceback" not in result.output
    assert snapshot(tmp_path) == before  # nothing written, changed or left behind


def test_the_table_is_large_and_covers_every_command():
    assert len(CASES) >= 60
    assert len({c[0] for c in CASES}) == len(CASES)
    covered = {tuple(a for a in c[1][:2] if not a.startswith("-")) for c in CASES}
    for command in ("decide", "analyze", "verify", "strategy", "chart", "strategies", "session", "progressive",
                    "simulate", "collusion"):
        assert ("caribbean", command) in covered
    for command in ("equity", "replay", "deal"):
        assert ("stud", command) in covered
    assert any(c[1][0] == "rank" for c in CASES) and any(c[1][0] == "compare" for c in CASES)
