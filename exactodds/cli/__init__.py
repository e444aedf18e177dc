"""The ``exactodds`` command line: a click group with one module per command family."""
