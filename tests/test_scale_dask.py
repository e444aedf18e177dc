"""Scale-out on a real Dask cluster: a scheduler and two worker processes on 127.0.0.1.

The equity table sample, a collusion run and a hole-card run give identical results on the
cluster and in one process; a worker killed mid-job does not change the result.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from math import comb
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.caribbean.analysis.game import situation_outcomes
from exactodds.caribbean.holecard.exact import seen_set_classes, seen_sets_chunk
from exactodds.caribbean.studies.collusion import CHUNK_SAMPLES, collusion
from exactodds.cli.main import cli
from exactodds.counting.layout import Acc
from exactodds.errors import ScaleError
from exactodds.progress import RecordingProgress
from exactodds.scale import SCHEDULER_ENV, SerialRunner, open_runner, scheduler_address
from exactodds.stud.table.build import starting_table
from exactodds.stud.table.threeway import threeway_chunk

DASK = Path(sys.executable).with_name("dask")
TABLE_PAIRS = [3, 150, 260, 324]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(args: list[str], log: Path) -> subprocess.Popen:
    env = dict(os.environ, NUMBA_NUM_THREADS="1")
    with log.open("wb") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen([str(DASK), *args], stdout=out, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """(scheduler address, {worker name: process}): real processes, torn down after the module."""
    if not DASK.exists() and shutil.which("dask") is None:
        pytest.fail("the dask command is not installed (pip install distributed)")
    logs = tmp_path_factory.mktemp("dask")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    processes = [_start(["scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                        logs / "scheduler.log")]
    workers = {}
    try:
        for name in ("w1", "w2"):
            # --no-nanny: the worker is this process, so killing it is a real loss of a worker
            workers[name] = _start(["worker", address, "--name", name, "--nthreads", "1", "--no-nanny",
                                    "--host", "127.0.0.1", "--no-dashboard"], logs / f"{name}.log")
            processes.append(workers[name])
        from distributed import Client

        with Client(address, timeout="30s") as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for process in reversed(processes):
            _stop(process)


@pytest.fixture(scope="module")
def table_sample():
    return starting_table(pairs=TABLE_PAIRS)


def test_equity_table_sample_is_identical_on_the_cluster(cluster, table_sample):
    address, _ = cluster
    serial = table_sample
    done = []
    with open_runner(scheduler=address) as runner:
        assert runner.where == f"the Dask cluster at {address}"
        distributed = starting_table(pairs=TABLE_PAIRS, runner=runner, on_chunk=done.append)
    assert distributed == serial and len(serial.rows) > 100
    assert sorted(done) == list(range(len(TABLE_PAIRS)))


def test_collusion_is_identical_on_the_cluster(cluster):
    address, _ = cluster
    outcomes = situation_outcomes("standard")
    samples = CHUNK_SAMPLES + 7  # two chunks, the second a short one
    serial = collusion(outcomes, players=7, samples=samples, seed=11)
    progress = RecordingProgress()
    with open_runner(scheduler=address) as runner:
        distributed = collusion(outcomes, players=7, samples=samples, seed=11, runner=runner,
                                progress=progress)
    assert distributed == serial and serial.samples == samples
    assert progress.stages() == [("sampling table deals", samples, samples)]


def test_collusion_command_on_the_cluster_from_the_environment(cluster, monkeypatch):
    address, _ = cluster
    args = ["caribbean", "collusion", "--players", "7", "--samples", "30", "--seed", "3", "--json"]
    here = CliRunner().invoke(cli, [*args, "--workers", "0"])
    monkeypatch.setenv(SCHEDULER_ENV, address)
    there = CliRunner().invoke(cli, args)
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    assert json.loads(here.output) == json.loads(there.output)


def test_hole_carding_is_identical_on_the_cluster(cluster):
    """Three dealer cards seen: a few seen-set classes of two profiles (the chunks of the whole-game
    sweep, :func:`seen_sets_games`), on the cluster and here."""
    address, _ = cluster
    from exactodds.caribbean.profile import load_profile

    tasks = [(load_profile(name), 3, classes)
             for name in ("standard", "betmgm") for classes in ([0, 5], [40])]
    serial = SerialRunner().map(seen_sets_chunk, tasks)
    with open_runner(scheduler=address) as runner:
        distributed = runner.map(seen_sets_chunk, tasks)
    assert distributed == serial
    # every chunk counts each player hand x completion of its classes once (weights: class sizes)
    _, weights = seen_set_classes(3)
    for (_, _, classes), sums in zip(tasks, serial, strict=True):
        assert sum(sums[:Acc.RAISED]) == sum(int(weights[c]) for c in classes) * comb(49, 5) * comb(44, 2)


def test_sampled_threeway_rows_are_identical_on_the_cluster(cluster):
    """Sampled rows: each row's seed comes from the table's seed and the row number, not from where
    or beside which rows it ran (rows: number, hole, up, two opponent up cards, weight)."""
    address, _ = cluster
    rows = [(7, 51, 47, 2, 30, 24), (8, 3, 7, 50, 46, 24), (9000, 20, 1, 44, 0, 24)]
    tasks = [(rows[:2], 300, 4, 0), (rows[2:], 300, 4, 0)]
    serial = SerialRunner().map(threeway_chunk, [(rows, 300, 4, 0)])[0]
    with open_runner(scheduler=address) as runner:
        distributed = [row for part in runner.map(threeway_chunk, tasks) for row in part]
    assert distributed == serial and not any(r.exact for r in serial)


def test_a_worker_killed_mid_job_changes_nothing(cluster, table_sample):
    address, workers = cluster
    serial = table_sample
    killed = []

    def kill_one(_chunk: int) -> None:
        if not killed:
            os.killpg(workers["w2"].pid, signal.SIGKILL)
            killed.append(time.monotonic())

    with open_runner(scheduler=address) as runner:
        result = starting_table(pairs=TABLE_PAIRS, runner=runner, on_chunk=kill_one)
        alive = len(runner.client.scheduler_info()["workers"])
    assert killed and workers["w2"].wait(timeout=10) == -signal.SIGKILL
    assert result == serial and alive == 1


def test_local_processes_and_errors():
    with open_runner(workers=2) as runner:
        assert runner.where == "a local Dask cluster of 2 worker processes"
        assert runner.map(divmod, [(7, 2), (9, 4)]) == [(3, 1), (2, 1)]
    with pytest.raises(ScaleError, match="must look like tcp://HOST:PORT"):
        scheduler_address("127.0.0.1:8786")
    with pytest.raises(ScaleError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:"):
        with open_runner(scheduler=f"tcp://127.0.0.1:{_free_port()}"):
            pass


@pytest.mark.parametrize("args", [["--dealer-known", "5"], ["--dealer-known", "3", "--samples", "100"]])
def test_several_paytables_need_an_exact_seen_card_sweep(args):
    paytables = ["--paytable", "standard", "--paytable", "betmgm"]
    result = CliRunner().invoke(cli, ["caribbean", "analyze", *paytables, *args])
    assert result.exit_code == 2
    assert result.output == ("Error: several --paytable options need the normal game (--dealer-known 1) or "
                             "2 to 4 dealer cards seen, counted exactly (no --samples)\n")


def test_a_session_priced_on_the_cluster_is_priced_as_here(cluster):
    """``stud decide --phh FILE.phhs --all``: every decision of a session, each a chunk with a fixed
    sample, gives the same figures on the cluster as in this process."""
    address, _ = cluster
    args = ["stud", "decide", "--phh", "examples/hands/heads_up_evening.phhs", "--all", "--samples", "200",
            "--json"]
    here = CliRunner().invoke(cli, [*args, "--workers", "0"])
    there = CliRunner().invoke(cli, [*args, "--scheduler", address])
    assert here.exit_code == 0 and there.exit_code == 0, there.output
    priced = json.loads(here.output)
    assert priced == json.loads(there.output)
    assert len(priced["decisions"]) == 18 and set(priced["cost_by_seat"]) == {"1", "2"}
