# cardlab: `make demo` runs the main job, `make test` the whole suite.
# Both create and fill .venv on first use, then compile the rules core.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMPS := .build-stamps

# The hot path, compiled to C with mypyc (the same .py files run interpreted
# when no compiler is around; the results are identical, see the tests).
COMPILED := simcore/api.py simcore/rng.py simcore/seeding.py simcore/play.py simcore/records.py \
	simcore/agents/random_agent.py simcore/games/divvy/rules.py simcore/games/divvy/agents.py \
	simcore/games/theseus/rules.py simcore/games/theseus/agents.py \
	simcore/games/party_wanted/config.py simcore/games/party_wanted/rules.py simcore/games/party_wanted/agents.py \
	simcore/games/ring_of_chaos/config.py simcore/games/ring_of_chaos/rules.py simcore/games/ring_of_chaos/agents.py

.PHONY: demo test lint bench bench-memory bench-report scale compile clean dashboard docker-check

$(STAMPS)/venv: pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11)' || { echo "need Python 3.11+ (set PYTHON=...)"; exit 2; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@# The project root on sys.path too: mypyc puts the compiled core's shared
	@# library there, and Ray's worker processes import it from there.
	$(PY) -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], 'cardlab-project-root.pth').write_text(str(pathlib.Path.cwd()) + '\n')"
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/compiled: $(STAMPS)/venv $(COMPILED) Makefile
	$(VENV)/bin/mypyc $(COMPILED) > build-mypyc.log 2>&1 || { tail -30 build-mypyc.log; exit 1; }
	@rm -f build-mypyc.log
	@# mypyc leaves unchanged per-module stubs untouched; mark them fresh for simcore's staleness check.
	@find simcore -name '*.so' -exec touch {} +
	@touch $@

compile: $(STAMPS)/compiled

demo: compile
	$(VENV)/bin/cardlab run experiments/divvy_baseline.toml --overwrite
	$(VENV)/bin/cardlab report divvy_baseline
	@echo
	@echo "Open the dashboard with:  $(VENV)/bin/cardlab dashboard"

test: compile lint docker-check
	$(PY) -m pytest -q

lint: $(STAMPS)/venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy simcore workers analytics experiments dashboard cardlab tests docker/check_manifests.py

# The container files, checked statically (no Docker engine needed).
docker-check: $(STAMPS)/venv
	$(VENV)/bin/hadolint --config docker/.hadolint.yaml docker/Dockerfile
	$(VENV)/bin/yamllint --strict -c docker/.yamllint.yaml docker
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.compose-spec docker/compose.yaml docker/compose.s3.yaml
	$(PY) docker/check_manifests.py docker/kuberay

bench: compile
	$(VENV)/bin/cardlab bench

# 10,000,000 Divvy games on 1 worker, then on 2 (not in CI; about 25 minutes on 2 cores).
scale: compile
	$(VENV)/bin/cardlab run experiments/divvy_scale.toml --workers 1 --overwrite --results build/scale-1 --no-progress
	$(VENV)/bin/cardlab run experiments/divvy_scale.toml --workers 2 --overwrite --results build/scale-2 --no-progress

# Peak memory of one worker playing 1,000,000 Divvy games shard after shard.
bench-memory: compile
	$(VENV)/bin/cardlab bench --memory --games 1000000 --shard-size 20000

# Not run by CI: synthesizes a 10,000,000-game Divvy experiment once (~1.5 GiB
# under bench-results/, see analytics/benchmark.py), then times `cardlab report`
# on it twice (the first run also fills the per-shard count cache) with its peak memory.
bench-report: compile
	$(PY) -m analytics.benchmark --games 10000000 --results bench-results --cold
	$(PY) -m analytics.benchmark --games 10000000 --results bench-results

dashboard: compile
	$(VENV)/bin/cardlab dashboard

clean:
	rm -rf build $(STAMPS) *.so
	find simcore -name '*.so' -delete
