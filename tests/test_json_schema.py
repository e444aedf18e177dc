"""Every command's --json against its documented schema (exactodds/json_schema.py, docs/json.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli.main import cli
from exactodds.json_schema import SCHEMAS, forbidden_keys, markdown, problems

HEADS_UP = ["--player", "Kh | 9c 4d", "--player", "Qc | Qh 7d"]
RUNS = {
    "rank": ["rank", "As Kd 10h 9c 2s"],
    "compare": ["compare", "Ah Ad 7c 7s 2h", "Kh Kd Kc 3s 2d"],
    "caribbean decide": ["caribbean", "decide", "Qh Qs 9d 6c 2h", "--up", "Jh", "--hole", "3c",
                         "--dead", "Ad"],
    "caribbean analyze": ["caribbean", "analyze"],
    # about 100 s; verify counts the same game (the second reads it from the cache)
    "caribbean analyze --edge-sort": ["caribbean", "analyze", "--edge-sort", "AK"],
    "caribbean analyze (several paytables)": ["caribbean", "analyze", "--paytable", "standard",
                                              "--paytable", "royal500"],
    "caribbean analyze --samples": ["caribbean", "analyze", "--dealer-known", "2", "--samples", "4"],
    "caribbean verify": ["caribbean", "verify"],
    "caribbean strategies": ["caribbean", "strategies"],
    "caribbean card": ["caribbean", "card"],
    "caribbean session": ["caribbean", "session", "--hands", "3"],
    "caribbean sidebet": ["caribbean", "sidebet", "bonus-5plus1-example"],
    "caribbean progressive": ["caribbean", "progressive", "--meter", "250000"],
    "caribbean simulate": ["caribbean", "simulate", "--hands", "60000"],
    "caribbean collusion": ["caribbean", "collusion", "--players", "2", "--samples", "3"],
    "stud equity": ["stud", "equity", *HEADS_UP, "--pot", "10", "--to-call", "2"],
    "stud deal": ["stud", "deal", "--players", "3", "--seed", "7"],
    "stud replay": ["stud", "replay", "examples/hands/four_way_all_in_side_pots.phh"],
    "stud replay (session)": ["stud", "replay", "examples/hands/home_session_two_hands.phhs"],
    "stud solve": ["stud", "solve", "--player", "? | Kd 9c 4d 2s", "--player", "Ah | Qc Js 7d 7h",
                   "--pot", "14", "--stacks", "20,20"],
    "stud solve --all": ["stud", "solve", "--phh", "examples/hands/heads_up_evening.phhs", "--all",
                         "--last-round-only"],
    "stud decide": ["stud", "decide", "--player", "Kh | 9c 4d Ks 2h", "--player", "? | Qh 4c 2d 7s",
                    "--pot", "14", "--stacks", "20,20"],
    "stud decide --all": ["stud", "decide", "--phh", "examples/hands/heads_up_evening.phhs", "--all",
                          "--samples", "100"],
    "stud table": ["stud", "table", "--workers", "0"],
    "stud table --players 3": ["stud", "table", "--players", "3", "--budget", "0", "--samples", "10",
                               "--workers", "0"],
}
EXTRA = {  # the same schema, other members of the command's outputs
    "stud decide": [["stud", "decide", "--player", "? | 9c", "--player", "Kh | 2s", "--player", "? | Qh",
                     "--samples", "200"],
                    ["stud", "decide", "--phh", "examples/hands/heads_up_against_bots.phh", "--at", "10",
                     "--opponents", "rock"]],
    "stud equity": [["stud", "equity", *HEADS_UP, "--player", "? | 2s 3s", "--budget", "0",
                     "--samples", "500"]],
    "caribbean decide": [["caribbean", "decide", "2c 3d 4h 5s 7c", "--up", "Jh"]],
    "stud solve": [["stud", "solve", "--phh", "examples/hands/heads_up_against_bots.phh", "--at", "10",
                    "--against", "bots"],
                   ["stud", "solve", "--player", "? | Kd 9c 4d", "--player", "? | Qc Js 7d", "--pot", "10",
                    "--stacks", "8,8", "--next-up", "2s 7h", "--dead", "Ah Ad As 2c 2d 3c 3d 3h 3s"]],
}


def test_every_json_command_has_a_schema_and_a_run():
    assert set(RUNS) == set(SCHEMAS)


@pytest.mark.parametrize("name", list(RUNS))
def test_json_matches_the_documented_schema(name, small_tables, monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[1])  # the example paths are relative to it
    for args in [RUNS[name], *EXTRA.get(name, [])]:
        result = CliRunner().invoke(cli, [*args, "--json"])
        assert result.exit_code in (0, 1), result.output  # verify exits 1 only on a mismatch
        payload = json.loads(result.stdout)
        assert problems(payload, SCHEMAS[name]) == []
        assert forbidden_keys(payload) == []


def test_the_schema_checker_finds_each_kind_of_departure():
    spec = {"a": "exact", "b": ["card"], "c?": {"d": "int"}}
    assert problems({"a": "1/2", "b": ["As"]}, spec) == []
    found = problems({"a": 0.5, "b": ["A spades"], "c": {"d": True}, "e": 1}, spec)
    assert len(found) == 4 and any("undocumented key 'e'" in p for p in found)
    assert problems({"b": []}, spec) == ["$: missing key 'a'"]
    assert forbidden_keys({"x": [{"profile": 1, "ci95": 2}]}) == [
        "$.x[0].profile: say 'paytable'", "$.x[0].ci95: say 'interval_95'"]
    assert forbidden_keys({"completions": 3, "players": 2, "edge_float": 0.5, "standard_deviation_float": 1,
                           "mean": "1/2", "mean_float": 0.5}) == [
        "$.completions: say 'combinations'", "$.players: a list of players; a count is 'player_count'",
        "$.edge_float: a float without its exact 'edge'"]


def test_docs_page_holds_the_generated_key_tables():
    page = (Path(__file__).resolve().parents[1] / "docs" / "json.md").read_text(encoding="utf-8")
    assert markdown() in page, "regenerate docs/json.md: python -m exactodds.json_schema"
