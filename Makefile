# All set-up happens here: a fresh machine needs only python3 and pip.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test typecheck demo bench lint clean strategy-tables wheel-smoke docs docs-strict chromium

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,docs]'
	touch $(STAMP)

test: $(STAMP) chromium
	$(VENV)/bin/ruff check exactodds tests benchmarks
	$(MAKE) typecheck
	$(MAKE) docs-strict
	$(VENV)/bin/exactodds warm-up  # every kernel compiled once, in parallel, before the two test workers
	$(PY) -m pytest -n 2 -q
	$(MAKE) wheel-smoke

# The table's browser test drives Debian's headless Chromium and its driver: installed when missing.
chromium:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; else \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium chromium-driver; fi

# The built wheel in a fresh venv, used from another folder; then again with site-packages
# and $$HOME read-only (that part needs root for a private mount namespace; CI runs as root).
wheel-smoke:
	bash scripts/wheel-smoke.sh

demo: $(STAMP)
	$(VENV)/bin/exactodds warm-up  # compiles every kernel once: the demo then runs without waits
	$(PY) -m exactodds.cli.demo

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

# Regenerate the committed strategy summaries (tests check they are current).
strategy-tables: $(STAMP)
	$(PY) -m exactodds.caribbean.strategy.table tables/strategy

# The documentation site, into site/ (docs-strict: any warning is an error, as in make test).
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build

docs-strict: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet

lint: $(STAMP)
	$(VENV)/bin/ruff check exactodds tests benchmarks

# Static types: strict for the library and the CLI (settings in pyproject.toml's [tool.mypy]).
typecheck: $(STAMP)
	$(VENV)/bin/mypy exactodds

clean:
	rm -rf $(VENV) build dist site *.egg-info .pytest_cache
