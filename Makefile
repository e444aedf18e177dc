# All set-up happens here: a fresh machine needs only python3 and pip.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: install test demo bench lint clean strategy-tables wheel-smoke

install: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

test: $(STAMP)
	$(VENV)/bin/ruff check exactodds tests benchmarks
	$(PY) -m pytest -n 2 -q
	$(MAKE) wheel-smoke

# The built wheel in a fresh venv, used from another folder; then again with site-packages
# and $$HOME read-only (that part needs root for a private mount namespace; CI runs as root).
wheel-smoke:
	bash scripts/wheel-smoke.sh

demo: $(STAMP)
	$(PY) -m exactodds.demo

bench: $(STAMP)
	$(PY) benchmarks/run_all.py

# Regenerate the committed strategy summaries (tests check they are current).
strategy-tables: $(STAMP)
	$(PY) -m exactodds.caribbean.strategy.table tables/strategy

lint: $(STAMP)
	$(VENV)/bin/ruff check exactodds tests benchmarks

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
