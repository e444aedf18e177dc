"""Cold start: the first whole-game count (time and peak memory) beside the tree before this work and the
previous release's method, the first run of each command with fresh cache folders, `exactodds warm-up`
(parallel, and in one process), and the same commands warm; all in one run.

Every run is a fresh process with its own ``EXACTODDS_CACHE_DIR`` (and, cold, ``NUMBA_CACHE_DIR``);
each line gives the wall seconds, the CPU seconds of the process and the processes it waited for,
the peak resident memory and the load average (the machine is shared: CPU seconds are steadier).

* ``first-count``: the whole-game count of a paytable whose count is not cached, kernels warm: (1)
  the first run (an empty exactodds cache: the hand tables are built too) and (2) a new qualifier
  (the hand tables cached; a pair-qualifier paytable). Ours (the compact count from one sort)
  against the same command on the tree before this work (``--baseline-ref``, a ``git archive`` of
  that commit, its kernels compiled first) and the previous release's method (the full situation
  count, ``analysis.game.analyze``), alternating, best of ``--repeat``. Targets (issue 23): <= 2.5 s
  and <= 600 MB.
* ``cold``: the first run of each command with fresh caches, ours beside the tree at
  ``--baseline-ref``; ``exactodds warm-up`` cold with 2 processes and with 1 (and that tree's
  warm-up); each command warm after the warm-ups, ours beside that tree's. Targets: the first run of
  any one command <= 20 s, ``exactodds warm-up`` <= 90 s, warm timings unchanged.

* ``memory``: where the first count's peak memory comes from: resident and peak memory after each
  stage of the first run (/proc/self/status), this tree beside the tree at ``--baseline-ref``.

``--only first-count`` (or ``cold``, ``memory``) runs one part.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

here = pathlib.Path(__file__).parent
sys.path.insert(0, str(here))
import common  # noqa: E402

REPO = here.parent
BASELINE_REF = "172c2b1"  # main before the kernels' parallel loops became threads over spans
COMMANDS = {
    "caribbean decide": ["caribbean", "decide", "Qh Qs 9d 6c 2h", "--up", "Jh"],
    "caribbean analyze": ["caribbean", "analyze"],
    "stud equity heads-up": ["stud", "equity", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c"],
    "stud equity three-way": ["stud", "equity", "--player", "Kh | 9c", "--player", "? | Qh",
                              "--player", "? | 2c"],
    "stud equity four-way": ["stud", "equity", "--player", "Kh | 9c 4d", "--player", "? | Qh 4c",
                             "--player", "? | 2c 7d", "--player", "? | 3c 8h"],
    "stud solve": ["stud", "solve", "--player", "Kh | Kd 9c 4d 2s", "--player", "? | Qc Js 7d 7h",
                   "--pot", "14", "--stacks", "20,20", "--history", "cc"],
    "caribbean analyze --dealer-known 2": ["caribbean", "analyze", "--dealer-known", "2"],
    "caribbean card": ["caribbean", "card"],
}
PREVIOUS_METHOD = "import sys; from exactodds.caribbean.analysis.game import analyze; analyze(sys.argv[1])"
PAIR_PAYTABLE = """name = "pair-qualifier"
description = "the standard pays, the dealer qualifying with a pair or better"
qualifier = "pair"
[pays]
royal_flush = 100
straight_flush = 50
four_of_a_kind = 20
full_house = 7
flush = 5
straight = 4
three_of_a_kind = 3
two_pair = 2
pair = 1
ak_high = 1
"""


def _run(argv: list[str], cache: pathlib.Path, *, numba_cache: pathlib.Path | None = None,
         tree: pathlib.Path | None = None) -> common.Run:
    """One fresh process ``python ARGV``: wall and CPU seconds (its waited-for children's included)
    and peak resident MB. ``tree``: the exactodds sources to import instead of the installed ones."""
    env = {**os.environ, "EXACTODDS_CACHE_DIR": str(cache)}
    env.pop("NUMBA_CACHE_DIR", None)
    if numba_cache is not None:
        env["NUMBA_CACHE_DIR"] = str(numba_cache)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return common.fresh_process(argv, env=env, cwd=cache.parent)


def _load() -> str:
    return "load " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def _line(label: str, run: common.Run) -> None:
    common.report(f"{label} ({run.cpu:.1f} s CPU, {run.mb:,.0f} MB peak; {_load()})", run.seconds)


def _seed_tables(cache: pathlib.Path) -> None:
    """A cache holding the hand tables and the standard qualifier's count (a new qualifier is next)."""
    _run(["-m", "exactodds", "caribbean", "analyze"], cache)


def first_count(root: pathlib.Path, tree: pathlib.Path, ref: str, repeat: int) -> None:
    paytable = root / "pair.toml"
    paytable.write_text(PAIR_PAYTABLE)
    # Kernels warm for both trees (numba's cache beside each tree's sources), caches still empty.
    _run(["-m", "exactodds", "caribbean", "analyze"], root / "scratch-ours")
    _run(["-m", "exactodds", "caribbean", "analyze"], root / "scratch-base", tree=tree)
    _run(["-c", PREVIOUS_METHOD, "standard"], root / "scratch-prev")
    seeded = {"ours": root / "seed-ours", "base": root / "seed-base", "prev": root / "seed-prev"}
    _seed_tables(seeded["ours"])
    _run(["-m", "exactodds", "caribbean", "analyze"], seeded["base"], tree=tree)
    _run(["-c", PREVIOUS_METHOD, "standard"], seeded["prev"])
    analyze = ["-m", "exactodds", "caribbean", "analyze", "--paytable"]
    previous = ["-c", PREVIOUS_METHOD]
    contenders = {"ours": (analyze, None), "base": (analyze, tree), "prev": (previous, None)}
    names = {"ours": "this tree", "base": f"the tree at {ref}", "prev": "the previous release's full count"}
    for scenario, profile in (("first run", "standard"), ("new qualifier", str(paytable))):
        best: dict[str, common.Run] = {}
        for i in range(repeat):
            for who, (argv, where) in contenders.items():
                cache = root / f"{scenario[:5]}-{who}-{i}"
                if scenario == "new qualifier":
                    shutil.copytree(seeded[who], cache)
                run = _run([*argv, profile], cache, tree=where)
                peak = max(run.mb, best[who].mb) if who in best else run.mb
                if who not in best or run.seconds < best[who].seconds:
                    best[who] = run
                best[who] = best[who]._replace(mb=peak)  # the highest peak of the runs
        for who, run in best.items():
            _line(f"first whole-game count, {scenario}: {names[who]}", run)
        for who in ("base", "prev"):
            common.ratio(f"first whole-game count, {scenario}", best["ours"].seconds, best[who].seconds,
                         names[who])
            print(f"memory {names[who]} / this tree: {best[who].mb / best['ours'].mb:.2f}x")


def cold(root: pathlib.Path, tree: pathlib.Path, ref: str) -> None:
    """Fresh numba and exactodds caches for each first run, ours beside the tree at ``ref``; then
    the warm-ups; then each command warm, ours beside that tree's (its kernels compiled by then)."""
    trees = {"this tree": None, f"the tree at {ref}": tree}
    for name, args in COMMANDS.items():
        runs = {}
        for label, where in trees.items():
            key = f"{len(name)}-{name[:4]}-{where is None}"
            runs[label] = _run(["-m", "exactodds", *args], root / f"cold-{key}",
                               numba_cache=root / f"numba-{key}", tree=where)
            _line(f"cold first run: {name}, {label}", runs[label])
        common.ratio(f"cold first run: {name}", runs["this tree"].seconds, runs[f"the tree at {ref}"].seconds,
                     f"the tree at {ref}")
    for jobs in ("2", "1"):
        run = _run(["-m", "exactodds", "warm-up", "--jobs", jobs], root / f"warm-{jobs}",
                   numba_cache=root / f"warm-numba-{jobs}")
        _line(f"cold exactodds warm-up --jobs {jobs}", run)
    run = _run(["-m", "exactodds", "warm-up"], root / "warm-base", numba_cache=root / "warm-numba-base",
               tree=tree)
    _line(f"cold exactodds warm-up, the tree at {ref}", run)
    run = _run(["-m", "exactodds", "warm-up"], root / "warm-2", numba_cache=root / "warm-numba-2")
    _line("exactodds warm-up again (everything cached)", run)
    for name, args in COMMANDS.items():
        ours = _run(["-m", "exactodds", *args], root / "warm-2", numba_cache=root / "warm-numba-2")
        base = _run(["-m", "exactodds", *args], root / "warm-base", numba_cache=root / "warm-numba-base",
                    tree=tree)
        _line(f"warm run after warm-up: {name}, this tree", ours)
        _line(f"warm run after warm-up: {name}, the tree at {ref}", base)
        common.ratio(f"warm run: {name}", ours.seconds, base.seconds, f"the tree at {ref}")


STAGES = """
import sys, time
def peak():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1024
def now():
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmRSS")) / 1024
start = time.perf_counter()
def stage(label, before):
    seconds = time.perf_counter() - start
    print(f"{label}|{seconds:.2f}|{now():.0f}|{peak():.0f}|{peak() - before:.0f}", flush=True)
import numba
stage("python, numpy and numba imported", 0)
from exactodds.handrank import rank_table
p = peak(); rank_table(); stage("hand-rank table built (empty cache)", p)
from exactodds.counting.deck import strength_deck
p = peak(); strength_deck(); stage("strength deck (masks, order)", p)
from exactodds.symmetry import hand_classes
p = peak(); hand_classes(); stage("suit classes built", p)
from exactodds.caribbean.analysis.game import counts_for
from exactodds.caribbean.profile import QUALIFIERS
p = peak(); counts_for(QUALIFIERS["ak"]); stage("situation counts (the kernels)", p)
from exactodds.caribbean.analysis.compact import build_compact
p = peak(); build_compact("ak"); stage("compact table from the counts", p)
"""


def memory(root: pathlib.Path, tree: pathlib.Path, ref: str) -> None:
    """Where the peak memory of the first count comes from: /proc/self/status after each stage of
    the first run (an empty exactodds cache), in one fresh process per tree."""
    for label, where in (("this tree", None), (f"the tree at {ref}", tree)):
        env = {**os.environ, "EXACTODDS_CACHE_DIR": str(root / f"memory-{where is None}")}
        env.pop("NUMBA_CACHE_DIR", None)
        if where is not None:
            env["PYTHONPATH"] = str(where)
        out = subprocess.run([sys.executable, "-c", STAGES], env=env, cwd=root, capture_output=True,
                             text=True, check=True).stdout
        print(f"memory by stage, {label} ({_load()}): seconds, resident MB, peak MB, peak added by the stage")
        for line in out.strip().splitlines():
            name, seconds, rss, peak, added = line.split("|")
            print(f"  {name:<40} {seconds:>6} s  {rss:>5} MB  peak {peak:>5} MB  (+{added} MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["cold", "first-count", "memory"], default=None)
    parser.add_argument("--baseline-ref", default=BASELINE_REF,
                        help="the commit to compare the first count with")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each first count (the best is shown)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="exactodds-cold-") as tmp:
        root = pathlib.Path(tmp)
        tree = common.baseline_tree(root, args.baseline_ref)
        if args.only in (None, "memory"):
            memory(root, tree, args.baseline_ref)
        if args.only in (None, "first-count"):
            first_count(root, tree, args.baseline_ref, args.repeat)
        if args.only in (None, "cold"):
            cold(root, tree, args.baseline_ref)


if __name__ == "__main__":
    main()
