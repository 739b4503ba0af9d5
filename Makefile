# zoosim: `make run` and `make test` set everything up on a machine with only python3.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
GAMES ?= 1e6
# pytest-xdist workers for the tests (0: one process); each game's tests share a worker.
TEST_WORKERS ?= 2
TEST_PARALLEL := -n $(TEST_WORKERS) --dist loadgroup

.PHONY: run test test-all lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

## run: simulate 1e6 games of Bluff in Zoo with the default lineup and print the summary
run: $(VENV)/.installed
	$(BIN)/zoosim run --games $(GAMES)

## test: the fast test suite (slow tests: make test-all)
test: $(VENV)/.installed-dev
	$(BIN)/pytest -q $(TEST_PARALLEL)

test-all: $(VENV)/.installed-dev
	$(BIN)/pytest -q $(TEST_PARALLEL) -m "slow or not slow"

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check zooanalysis tests benchmarks

## bench: measure throughput, wall time and memory; overwrites the tracked BENCHMARKS.md
bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/run.py --output BENCHMARKS.md

clean:
	rm -rf $(VENV) runs .pytest_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
