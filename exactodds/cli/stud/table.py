"""``exactodds stud table``: the heads-up starting-hand equity table (first round, exact)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import click
import pyarrow as pa

from exactodds.cli.options import check_output_path, echo_json, json_option, progress_bar, render_table
from exactodds.cli.scale_options import scale_options
from exactodds.scale import ChunkRunner, check_workers, local_workers, open_runner, scheduler_address
from exactodds.stud.equity.sampling import MAX_BUDGET, MAX_SAMPLES
from exactodds.stud.table.build import TableError, starting_table, table_cached, table_chunks
from exactodds.stud.table.headsup import DEALS_PER_SITUATION
from exactodds.stud.table.io import hands_arrow, rows_arrow, table_format, write_arrow
from exactodds.stud.table.report import HeadsUpTableRun, ThreeWayTableRun
from exactodds.stud.table.summary import starting_hands
from exactodds.stud.table.threeway import (
    DEFAULT_ROW_BUDGET,
    DEFAULT_ROW_SAMPLES,
    ROWS_PER_CHUNK,
    threeway_arrow,
    threeway_classes,
    threeway_hands,
    threeway_hands_arrow,
    threeway_table,
)


@click.command(name="table")
@click.option("--players", "players", type=int, default=2, show_default=True,
              help="Players in the hand: 2 (exact) or 3 (each row exact within --budget, else sampled).")
@click.option("--out", "out", type=click.Path(dir_okay=False), default=None, metavar="FILE.parquet|csv",
              help="Write every situation class (exact counts and weight) to this file.")
@click.option("--hands-out", "hands_out", type=click.Path(dir_okay=False), default=None,
              metavar="FILE.parquet|csv", help="Write the 169 starting hands' equities and ranking here.")
@click.option("--chart", "chart", type=click.Path(dir_okay=False), default=None, metavar="FILE.png|svg",
              help="Draw the heat map: starting hands x the opponent's up-card rank.")
@click.option("--top", "top", type=click.IntRange(0, 169), default=25, show_default=True,
              help="Starting hands to list (0: all 169).")
@click.option("--samples", "samples", type=click.IntRange(2, MAX_SAMPLES), default=DEFAULT_ROW_SAMPLES,
              show_default=True,
              help="Three-way: deals sampled per row when a row is not counted exactly.")
@click.option("--seed", "seed", type=int, default=2026, show_default=True,
              help="Three-way: the table's seed (row k samples with a seed fixed by it and k).")
@click.option("--budget", "budget", type=click.FloatRange(0, MAX_BUDGET), default=DEFAULT_ROW_BUDGET,
              show_default=True,
              help="Three-way: seconds allowed per row for an exact count (stud equity's --budget; an "
                   "exact first-round row takes about 3 s on two cores; 0 samples every row).")
@scale_options(default_workers="the CPUs of this machine")
@json_option
def table(players: int, out: str | None, hands_out: str | None, chart: str | None, top: int, samples: int,
          seed: int, budget: float, scheduler: str | None, workers: int | None, as_json: bool) -> None:
    """Exact equity of every heads-up first-round situation, and the starting hands ranked.

    A situation is our hole card, our up card and the opponent's up card, the opponent's
    hole card unknown; every way to deal the rest is counted (3,006,520,440 deals per
    situation). Situations equal up to a renaming of suits are one row, with its weight
    (the weights sum to the 132,600 ordered deals). A starting hand's equity against a
    random opponent up card is the weighted mean of its rows.

    Example: exactodds stud table --top 10 --hands-out starting-hands.csv
    """
    from exactodds.stud.table.chart import chart_format, starting_hand_chart

    if players not in (2, 3):
        raise TableError(f"--players must be 2 or 3, got {players}")
    if players == 3 and chart is not None:
        raise TableError("--chart is drawn for the heads-up table (--players 2)")
    for path in (out, hands_out):
        if path is not None:
            table_format(path)
            check_output_path(path)
    if chart is not None:
        chart_format(chart)
        check_output_path(chart)
    if players == 3:
        _threeway(out=out, hands_out=hands_out, top=top, samples=samples, seed=seed, budget=budget,
                  scheduler=scheduler, workers=workers, as_json=as_json)
        return
    check_workers(workers)
    scheduler_address(scheduler)  # the options are checked even when the table is read from the cache
    if table_cached():  # counted before: read from the cache, no workers to start
        start = time.perf_counter()
        result = starting_table()
        where = "the cached table (counted once, checked against its SHA-256)"
        seconds = time.perf_counter() - start
    else:
        result, where, seconds = _run(
            "counting situations", len(table_chunks()),
            lambda runner, on_chunk: starting_table(runner=runner, on_chunk=on_chunk),
            scheduler=scheduler, workers=workers, as_json=as_json)
    hands = starting_hands(result)
    written = _write([(out, lambda: rows_arrow(result)), (hands_out, lambda: hands_arrow(hands))])
    if chart is not None:
        starting_hand_chart(hands, chart)
        written.append(chart)
    run = HeadsUpTableRun(table=result, hands=hands, ran_on=where, seconds=seconds, written=tuple(written))
    if as_json:
        echo_json(run.to_dict())
        return
    shown = hands if top == 0 else hands[:top]
    click.echo("\n".join([
        "Five-card stud, heads-up, first round: exact equity of every starting situation",
        "(our hole card, our up card, the opponent's up card; the opponent's hole card unknown)",
        f"{len(result.rows):,} suit classes, weights summing to {result.total_weight:,} deals; "
        f"{DEALS_PER_SITUATION:,} deals counted per situation",
        f"ran on {where} in {seconds:.1f} s",
        "",
        f"starting hands against a random opponent up card ({len(shown)} of {len(hands)}, best first):",
        render_table(["rank", "hand", "equity", "vs A up", "vs K up", "vs 2 up"],
                     [(h.rank, h.name, f"{float(h.equity):.4%}", f"{float(h.by_opp_rank[12]):.2%}",
                       f"{float(h.by_opp_rank[11]):.2%}", f"{float(h.by_opp_rank[0]):.2%}") for h in shown],
                     align="rlrrrr"),
        "(equity: our share of the pot at showdown, ties split; s = suited, o = offsuit; exact)",
    ] + [f"wrote {p}" for p in written]))


T = TypeVar("T")


def _run(label: str, chunks: int, build: Callable[[ChunkRunner, Callable[[int], None] | None], T], *,
         scheduler: str | None, workers: int | None, as_json: bool) -> tuple[T, str, float]:
    """Build a table on the runner asked for, with a progress bar of its chunks: (result, where, seconds)."""
    start = time.perf_counter()
    with open_runner(scheduler=scheduler, workers=workers, default_workers=local_workers()) as runner:
        with progress_bar(label, chunks, enabled=not as_json) as advance:
            result = build(runner, (lambda _i: advance(1)) if advance else None)
        where = runner.where
    return result, where, time.perf_counter() - start


def _write(files: list[tuple[str | None, Callable[[], pa.Table]]]) -> list[str]:
    """Write each asked-for table (path, a function building it); the paths written, in order."""
    written = []
    for path, make in files:
        if path is not None:
            write_arrow(make(), path)
            written.append(path)
    return written


def _threeway(*, out: str | None, hands_out: str | None, top: int, samples: int, seed: int, budget: float,
              scheduler: str | None, workers: int | None, as_json: bool) -> None:
    """``--players 3``: every row by stud_equity (exact within the budget, else sampled)."""
    from exactodds.stud.equity import check_sampling

    check_sampling(budget=budget, samples=samples, seed=seed)
    classes = len(threeway_classes()[0])
    result, where, seconds = _run(
        "three-way rows", -(-classes // ROWS_PER_CHUNK),
        lambda runner, on_chunk: threeway_table(samples=samples, seed=seed, budget=budget, runner=runner,
                                                on_chunk=on_chunk),
        scheduler=scheduler, workers=workers, as_json=as_json)
    hands = threeway_hands(result)
    written = _write([(out, lambda: threeway_arrow(result)),
                      (hands_out, lambda: threeway_hands_arrow(hands))])
    run = ThreeWayTableRun(table=result, hands=hands, budget=budget, ran_on=where, seconds=seconds,
                           written=tuple(written))
    if as_json:
        echo_json(run.to_dict())
        return
    sampled = run.sampled_rows
    shown = hands if top == 0 else hands[:top]
    click.echo("\n".join([
        "Five-card stud, three-way, first round: our equity in every starting situation",
        "(our hole card, our up card, the two opponents' up cards; their hole cards unknown)",
        f"{len(result.rows):,} suit classes; {sampled:,} rows SAMPLED ({samples:,} deals each, seed {seed}, "
        "standard error per row), the others exact",
        f"ran on {where} in {seconds:.1f} s",
        "",
        render_table(["rank", "hand", "equity", "standard error"],
                     [(h.rank, h.name, f"{float(h.equity):.3%}",
                       "exact" if h.exact else f"{h.standard_error:.3%}") for h in shown], align="rlrr"),
    ] + [f"wrote {p}" for p in written]))
