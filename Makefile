# Two entry points: `make demo` and `make test`. Each creates .venv and installs what it needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell sha1sum pyproject.toml | cut -c1-12)

.PHONY: demo test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The sample event has illegal players on purpose: exit status 1 ("violations found") is
# the expected outcome of the demo, not a failure.
demo: $(STAMP)
	@mkdir -p out
	$(BIN)/deckcheck event sample_decklists/regional-tcg.xlsx --decks decks/tcg --cards demo \
		--report out/report.xlsx --json out/report.json; status=$$?; \
	if [ $$status -gt 1 ]; then exit $$status; fi

lint: $(STAMP)
	$(BIN)/ruff check validator tests bench hatch_build.py
	$(BIN)/mypy
	$(BIN)/lint-imports

test: lint
	$(BIN)/pytest; status=$$?; \
	if [ $$status -eq 5 ]; then echo "pytest collected no tests"; exit 1; fi; exit $$status

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'
	$(BIN)/python -m bench.run $(BENCH_ARGS)

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache
