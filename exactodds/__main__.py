"""``python -m exactodds``: the same command line as ``exactodds``."""

from exactodds.cli.main import cli

if __name__ == "__main__":
    cli(prog_name="exactodds")
