"""User errors across commands: one line, exit 2, nothing computed or written in vain."""

import pytest

from .cli_checks import one_line_error, run


@pytest.mark.parametrize(
    "args,fragment",
    [
        (["caribbean", "strategy", "--only", "ak", "--out", "/nonexistent-dir/x.csv"],
         "output folder '/nonexistent-dir' does not exist"),
        (["caribbean", "strategy", "--only", "ak", "--out", "", "--format", "csv"],
         "output file name is empty"),
        (["caribbean", "chart", "--out", "/nonexistent-dir/x.png"], "does not exist"),
        (["caribbean", "decide", "Ks Qd 9h 5c 2s", "--up", "8c", "--paytable", "x" * 300],
         "File name too long"),
        (["caribbean", "strategies", "--strategy", "y" * 300 + ".py"], "File name too long"),
        (["caribbean", "decide", "Ks Qd 9h 5c 2s"], "Missing option '--up'"),
        (["nosuch"], "No such command"),
    ],
)
def test_one_line_errors(args, fragment):
    one_line_error(run(*args), fragment)


def test_output_folder_is_checked_before_the_work(tmp_path):
    target = tmp_path / "existing.csv"
    target.write_text("keep me")
    result = run("caribbean", "strategy", "--only", "ak", "--out", str(target / "x.csv"))
    one_line_error(result, "does not exist")
    assert target.read_text() == "keep me"


def test_huge_paytable_amounts_are_refused_quickly(tmp_path):
    pays = {"royal_flush": 100, "straight_flush": 50, "four_of_a_kind": 20, "full_house": 7, "flush": 5,
            "straight": 4, "three_of_a_kind": 3, "two_pair": 2, "ak_high": 1}
    lines = ['name = "x"', "[pays]"] + [f"{k} = {v}" for k, v in pays.items()] + ['pair = "1e99999999"']
    path = tmp_path / "huge.toml"
    path.write_text("\n".join(lines) + "\n")
    result = run("caribbean", "decide", "Ks Qd 9h 5c 2s", "--up", "8c", "--paytable", str(path))
    one_line_error(result, "'pays.pair'")


def test_verify_refuses_an_empty_or_broken_figures_folder(tmp_path):
    env = {"EXACTODDS_TABLES": str(tmp_path)}
    one_line_error(run("caribbean", "verify", env=env), "no published figures")
    (tmp_path / "published").mkdir()
    (tmp_path / "published" / "bad.toml").write_text("this is = = not toml")
    one_line_error(run("caribbean", "verify", env=env), "cannot be read")
    (tmp_path / "published" / "bad.toml").write_text(
        '[[figure]]\nquantity = "house_edge"\nvalue = "abc"\nkind = "rounded"\nsource = "x"\n')
    one_line_error(run("caribbean", "verify", env=env), "bad figure")


def test_user_strategy_named_like_a_built_in_is_not_confused(tmp_path):
    import json

    path = tmp_path / "optimal.py"
    path.write_text("def raise_batch(hands, ups):\n    return ups < 0\n")  # folds everything
    result = run("caribbean", "strategies", "--strategy", str(path), "--json")
    assert result.exit_code == 0, result.output
    mine = json.loads(result.output)["strategies"][-1]
    assert mine["strategy"] == "optimal.py"
    assert mine["house_edge"] == "1/1" and mine["raise_frequency"] == "0/1"


@pytest.mark.parametrize("cell", ["", "12"])
def test_strategy_table_cells_must_be_cards(tmp_path, cell):
    path = tmp_path / "t.csv"
    path.write_text(f"hand,up,decision\n{cell},Kd,raise\n")
    result = run("caribbean", "strategies", "--strategy", str(path))
    one_line_error(result, "row 1: hand must be cards as text")
