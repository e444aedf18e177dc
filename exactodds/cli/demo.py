"""``make demo`` (``python -m exactodds.cli.demo``): the main job, run end to end through the command line."""

from __future__ import annotations

import shlex
import sys

from click.testing import CliRunner

from exactodds.cli.main import cli

STEPS = [
    # the main job: reproduce every published Caribbean Stud figure from first principles
    "caribbean verify",
    "caribbean analyze --paytable betmgm",
    # the worked example of the home rules (BetMGM base paytable), decided exactly
    "caribbean decide 'Qh Qs 9d 6c 2h' --up Jh",
    "rank 'Kh Kd 7s 7c Qd'",
    "compare 'Ah 2c 3d 4s 5h' '6h 2c 3d 4s 5h'",
]


def main() -> int:
    """Run every step, echo its output, and return non-zero if any step failed."""
    failed = 0
    for step in STEPS:
        print(f"$ exactodds {step}", flush=True)
        result = CliRunner().invoke(cli, shlex.split(step))
        print(result.output, flush=True)
        if result.exit_code != 0:
            failed += 1
            print(f"step failed with exit code {result.exit_code}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
