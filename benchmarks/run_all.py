"""Run every benchmarks/bench_*.py in turn (``make bench``) and write the performance page's table.

The table (every timing each benchmark reports, with the machine, date and commit it was
measured on, and each benchmark's full output) goes to ``docs/generated/benchmarks.md``,
which ``docs/performance.md`` includes: the figures live there and nowhere else.
``--out FILE`` writes it elsewhere; ``--no-write`` only prints. ``--only NAME`` (repeatable, e.g.
``stud_solve``) runs those benchmarks alone and replaces their rows and output in the existing table,
which then says which benchmarks were measured again, when, at which commit and under what load.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import io
import os
import pathlib
import platform
import runpy
import subprocess
import sys
import traceback

here = pathlib.Path(__file__).parent
sys.path.insert(0, str(here))
import common  # noqa: E402

DEFAULT_OUT = here.parent / "docs" / "generated" / "benchmarks.md"


class _Tee(io.TextIOBase):
    """Write to the terminal and keep a copy."""

    def __init__(self, stream) -> None:
        self.stream, self.copy = stream, io.StringIO()

    def write(self, text: str) -> int:
        self.stream.write(text)
        self.copy.write(text)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()


def machine() -> list[tuple[str, str]]:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    memory = ""
    with contextlib.suppress(OSError, ValueError, IndexError):
        kib = int(pathlib.Path("/proc/meminfo").read_text().split()[1])
        memory = f", {kib / 2**20:.0f} GiB memory"
    versions = []
    for name in ("numpy", "numba"):
        with contextlib.suppress(ImportError):
            versions.append(f"{name} {__import__(name).__version__}")
    return [
        ("machine", f"{cpu}, {os.cpu_count()} cores{memory}"),
        ("system", f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
                   + ", ".join(versions)),
    ]


def commit() -> str:
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=here.parent, capture_output=True, text=True).stdout.strip()

    sha = git("rev-parse", "--short=10", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--",
                "exactodds", "benchmarks", "pyproject.toml")
    return sha + (" (with uncommitted changes to the code)" if dirty else "")


def load() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def render(outputs: list[tuple[str, str]], *, started: str, load_before: str, load_after: str) -> str:
    lines = ["<!-- Written by `make bench` (benchmarks/run_all.py); do not edit by hand. -->", ""]
    lines += ["| | |", "|---|---|"]
    lines += [f"| {key} | {value} |" for key, value in machine()]
    lines += [f"| date | {started} |", f"| commit | `{commit()}` |",
              f"| load average (1/5/15 min) | {load_before} before, {load_after} after |", ""]
    failed = [name for name, text in outputs if "Traceback (most recent call last)" in text]
    if failed:
        lines += [f"**Failed in this run:** {', '.join(failed)} (see its output below).", ""]
    lines += ["| benchmark | what | time | rate or ratio |", "|---|---|---|---|"]
    for row in common.RESULTS:
        lines.append(f"| {row['benchmark']} | {row['what'].strip()} | {common._seconds(row['seconds'])} | "
                     f"{row['rate']} |")
    lines.append("")
    for name, text in outputs:
        lines += [f'??? note "{name}: full output"', "", "    ```text"]
        lines += [f"    {line}".rstrip() for line in text.rstrip().splitlines()]
        lines += ["    ```", ""]
    return "\n".join(lines)


def merge(old: str, new: str, *, names: list[str], started: str) -> str:
    """The table ``old`` with the rows and full outputs of the benchmarks ``names`` taken from ``new``
    (a run of those alone), and a header line saying when and where they were measured again."""
    def rows(text: str) -> list[str]:
        return [line for line in text.splitlines() if line.startswith("| ") and line.count(" | ") >= 3
                and not line.startswith("| benchmark |")]

    def notes(text: str) -> dict[str, str]:
        out = {}
        for block in text.split('??? note "')[1:]:
            out[block.split(":", 1)[0]] = '??? note "' + block.rstrip() + "\n"
        return out

    header_new = {key[2:]: value.removesuffix(" |") for key, value in
                  (line.split(" | ", 1) for line in new.splitlines()[:12]
                   if line.startswith("| ") and line.count(" | ") == 1)}
    again = (f"| measured again | {', '.join(names)}: {started}, commit {header_new.get('commit', '?')}, "
             f"load average {header_new.get('load average (1/5/15 min)', '?')} |")
    def benchmark(row: str) -> str:
        return row.split(" | ")[0][2:]

    # a full run lists benchmarks in name order (sorted files): a stable sort by name keeps each one's rows
    merged = sorted([r for r in rows(old) if benchmark(r) not in names] + rows(new), key=benchmark)
    head = old.split("| benchmark | what |")[0].rstrip().splitlines()
    head = [line for line in head if not line.startswith(f"| measured again | {', '.join(names)}:")]
    body = head + [again, "", "| benchmark | what | time | rate or ratio |", "|---|---|---|---|", *merged, ""]
    blocks = notes(old)
    blocks.update(notes(new))
    return "\n".join(body) + "\n" + "\n".join(blocks[k] for k in sorted(blocks))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="run only bench_NAME.py and update its rows in the existing table")
    args = parser.parse_args(argv)
    paths = sorted(here.glob("bench_*.py"))
    if args.only:
        known = {p.stem.removeprefix("bench_"): p for p in paths}
        unknown = [n for n in args.only if n not in known]
        if unknown:
            parser.error(f"no benchmark named {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        paths = [known[n] for n in args.only]

    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    load_before = load()
    outputs = []
    failed: list[str] = []
    for path in paths:
        print(f"== {path.name}", flush=True)
        common.CURRENT["benchmark"] = path.stem.removeprefix("bench_")
        tee = _Tee(sys.stdout)
        saved_argv, sys.argv = sys.argv, [str(path)]  # each benchmark sees its own command line
        with contextlib.redirect_stdout(tee):
            try:
                runpy.run_path(str(path), run_name="__main__")
            except Exception:  # one broken benchmark must not lose the others' figures
                failed.append(path.name)
                print(traceback.format_exc())
            finally:
                sys.argv = saved_argv
        outputs.append((path.name, tee.copy.getvalue()))
        print(flush=True)
    if not args.no_write:
        from exactodds.cache import atomic_write_text

        args.out.parent.mkdir(parents=True, exist_ok=True)
        text = render(outputs, started=started, load_before=load_before, load_after=load())
        if args.only:
            text = merge(args.out.read_text(), text, names=args.only, started=started)
        atomic_write_text(args.out, text)
        print(f"wrote {args.out}")
    if failed:
        print(f"FAILED: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
