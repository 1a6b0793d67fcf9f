# Every target that runs code first makes sure .venv exists and holds the project.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test bench strength lint format clean three fluent

# `make test` (and lint, bench...) installs everything: the test tools, Ray, the RL and
# PostgreSQL extras, and tests/plugin_game, a game from another package (Nim) installed only
# for the tests (the check that plug-in games work everywhere, docs/plugins.md); `make play`
# only what playing needs (the `play` extra), into the same .venv, so a later `make test`
# adds the rest
PLAY_STAMP := $(VENV)/.installed-play

$(STAMP): pyproject.toml tests/plugin_game/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]' -e tests/plugin_game
	touch $(STAMP) $(PLAY_STAMP)

$(PLAY_STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[play]'
	touch $(PLAY_STAMP)

# `make play PORT=8080 HOST=0.0.0.0` serves on another port or address
PORT ?= 8000
HOST ?= 127.0.0.1

play: $(PLAY_STAMP)  ## the web app on http://$(HOST):$(PORT) (embedded SQLite database)
	$(BIN)/cubegames compile --part bots
	$(BIN)/cubegames serve --host $(HOST) --port $(PORT)

# `make test`: the kernels compile in two processes (some 3 minutes of one core on a new
# machine: the learning kernels in one, the bots' and the simulator's in the other) while the
# checks run beside them; any of them failing stops the run before the tests
test: $(STAMP)  ## lint, type-check and run the whole test suite
	scripts/ensure-chromium.sh
	scripts/ensure-postgres.sh
	scripts/ensure-nginx.sh
	$(BIN)/cubegames compile --part learning & learning=$$!; \
	  $(BIN)/cubegames compile --part bots --part simulator & playing=$$!; \
	  $(BIN)/ruff check src tests benchmarks scripts examples \
	  && $(BIN)/mypy \
	  && $(BIN)/mypy --strict tests/plugin_game/src/nimplugin \
	  && $(BIN)/lint-imports; checked=$$?; \
	  wait $$learning; learnt=$$?; wait $$playing; played=$$?; \
	  test $$checked -eq 0 && test $$learnt -eq 0 && test $$played -eq 0
	$(BIN)/pytest -n 2 --dist worksteal --durations=30

bench: $(STAMP)  ## speed figures, printed as the Markdown tables of benchmarks/README.md
	$(BIN)/python benchmarks/run.py
	$(BIN)/python benchmarks/kernel.py
	$(BIN)/python benchmarks/solo_random.py
	$(BIN)/python benchmarks/alphabeta.py
	$(BIN)/python benchmarks/rl.py
	$(BIN)/python benchmarks/simulate.py
	$(BIN)/python benchmarks/room_cpu.py --parts
	$(BIN)/python benchmarks/server_parts.py
	$(BIN)/python benchmarks/web_load.py --quick
	$(BIN)/python benchmarks/bot_crowd.py
	$(BIN)/python benchmarks/lobby_load.py --quick

strength: $(STAMP)  ## the bots' strength ladder, benchmarks/strength.md (about 1.5 hours on 2 cores)
	$(BIN)/python benchmarks/strength.py --games 400 --jobs 2

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts examples
	$(BIN)/ruff format --check src tests benchmarks scripts examples
	$(BIN)/mypy
	$(BIN)/mypy --strict tests/plugin_game/src/nimplugin
	$(BIN)/lint-imports

format: $(STAMP)
	$(BIN)/ruff format src tests benchmarks scripts examples
	$(BIN)/ruff check --fix src tests benchmarks scripts examples

fluent:  ## re-vendor Project Fluent's page runtime (needs npm; the files are committed)
	scripts/vendor-fluent.sh

three:  ## re-vendor three.js into the page's static files (needs npm; the files are committed)
	scripts/vendor-three.sh

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
