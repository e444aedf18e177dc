"""A stand-in worker for exactodds.kernels.workers.run_in_workers (tests/test_warm_up.py): for each line of
its input, ``echo WORDS`` prints the words, ``sleep S`` sleeps, ``fail`` exits with status 3; then it
prints the DONE line."""

import sys
import time

from exactodds.kernels.workers import DONE


def serve() -> None:
    for task in sys.stdin:
        verb, _, rest = task.strip().partition(" ")
        if verb == "echo":
            print(rest, flush=True)
        elif verb == "sleep":
            time.sleep(float(rest))
        elif verb == "fail":
            print("failing on purpose", file=sys.stderr, flush=True)
            sys.exit(3)
        print(DONE, flush=True)


if __name__ == "__main__":
    serve()
