# cardlab: `make demo` runs the main job, `make test` the whole suite.
# Both create and fill .venv on first use, then compile the rules core.

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
# uv installs the packages (with the system's certificates, as pip uses them);
# pip only when uv cannot (e.g. an index reachable through pip's own configuration only).
# Both leave the packages' bytecode compiled (uv only when asked: --compile-bytecode):
# where Python may not write it (PYTHONDONTWRITEBYTECODE, a read-only tree) every
# process would otherwise compile what it imports from source, every time; on this
# project's machine that made `ray.init` 5.2 s instead of 3.4 s, and every Ray
# worker, CLI and test subprocess slower to start.
define install
$(VENV)/bin/uv pip install --quiet --system-certs --compile-bytecode --python $(PY) $(1) || { \
    echo "== make: uv could not install $(1); installing with pip =="; $(PY) -m pip install --quiet $(1); }
endef
STAMPS := .build-stamps

# The hot path, compiled to C with mypyc (the same .py files run interpreted
# when no compiler is around; the results are identical, see the tests). The
# list is built from the tree: every module of simcore/ and simcore/kit/, and
# every game's rules.py, agents.py and config.py, but the modules that only
# set up, describe or look up (INTERPRETED); a new game or kit module is
# compiled without an edit here (the kit's game object too: its new_state runs
# once per game). Of the agents, the random one, the search agents (their tree
# walk and rollout loop run once per search step) and the registry (make_agent
# runs once per seat and game).
INTERPRETED := simcore/__init__.py simcore/describe.py simcore/effects.py simcore/parameters.py simcore/registry.py \
	simcore/trace.py simcore/kit/__init__.py simcore/kit/view.py
COMPILED := $(sort $(filter-out $(INTERPRETED), $(wildcard simcore/*.py simcore/kit/*.py \
	simcore/games/*/rules.py simcore/games/*/agents.py simcore/games/*/config.py)) simcore/agents/random_agent.py \
	simcore/agents/search.py simcore/agents/ismcts.py simcore/agents/sm_ismcts.py simcore/agents/osla.py simcore/agents/registry.py)

# The C build of the compiled core: -O1 without debug info plays as fast as -O3
# here (README, "Development") and builds in a fraction of the time; override
# with e.g. `make compile MYPYC_OPT_LEVEL=3`. The C files compile in parallel,
# one per core (CARDLAB_BUILD_JOBS).
MYPYC_OPT_LEVEL ?= 1
MYPYC_DEBUG_LEVEL ?= 0
export MYPYC_OPT_LEVEL MYPYC_DEBUG_LEVEL

.PHONY: demo test validate docs lint bench bench-memory bench-report scale compile clean dashboard docker-check reference browser

# Two steps: what running and compiling need (`make demo`, `make compile`), then
# the test and lint tools (`make test`, `make lint`), so that the demo does not
# wait for packages only the tests use.
$(STAMPS)/venv: pyproject.toml
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11)' || { echo "need Python 3.11+ (set PYTHON=...)"; exit 2; }
	@echo "== make: the Python environment ($(VENV): cardlab and what compiling it needs) =="
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@# uv: on this 2-core machine pip took 4.4 min of wall time (2.2 min of CPU)
	@# for both install steps, uv 45 s with an empty cache, for the same versions.
	$(PY) -m pip install --quiet uv
	$(call install,-e '.[build]')
	@# The project root on sys.path too: mypyc puts the compiled core's shared
	@# library there, and Ray's worker processes import it from there.
	$(PY) -c "import pathlib, sysconfig; pathlib.Path(sysconfig.get_paths()['purelib'], 'cardlab-project-root.pth').write_text(str(pathlib.Path.cwd()) + '\n')"
	@mkdir -p $(STAMPS) && touch $@

$(STAMPS)/venv-dev: $(STAMPS)/venv
	@echo "== make: the test and lint tools in $(VENV) =="
	$(call install,-e '.[dev]')
	@touch $@

$(STAMPS)/compiled: $(STAMPS)/venv $(COMPILED) Makefile bench/compile_core.py
	@echo "== make: compiling the rules core with mypyc (-O$(MYPYC_OPT_LEVEL), C files in parallel; log: build-mypyc.log) =="
	$(PY) bench/compile_core.py $(COMPILED) > build-mypyc.log 2>&1 || { tail -30 build-mypyc.log; exit 1; }
	@grep -h '^compiled core' build-mypyc.log || true
	@rm -f build-mypyc.log
	@touch $@

compile: $(STAMPS)/compiled

# The demo: Party of the Theseus with the heuristic in every seat (experiments/theseus_demo.toml),
# so that seats and cards win or lose by the game's doing; its report opens with the findings.
demo: compile
	@echo "== make: playing experiments/theseus_demo.toml (40,000 games of Party of the Theseus, the heuristic in every seat, on local Ray) =="
	$(VENV)/bin/cardlab run experiments/theseus_demo.toml --overwrite
	@echo "== make: the findings of theseus_demo, its variant and its seats =="
	$(VENV)/bin/cardlab report theseus_demo --sections findings,variants,seats
	@echo
	@echo "The whole report (cards, game length, every difference):  $(VENV)/bin/cardlab report theseus_demo"
	@echo "The dashboard:  $(VENV)/bin/cardlab dashboard"

# The tests run on every core (pytest-xdist; TEST_WORKERS=1 for one process);
# tests/conftest.py says how they are grouped; the 30 slowest are listed at the end.
# Three workers for every two cores: many tests wait (for Ray to start, a killed run, a
# server, a browser) and a third worker computes meanwhile; on 2 cores, about 10 min
# instead of about 11 (docs/development/performance.md).
TEST_WORKERS ?= $(shell echo $$(( ($$(getconf _NPROCESSORS_ONLN) * 3 + 1) / 2 )))
# The compile and the container checks first (the tests need the compiled core),
# then the tests with the lint and the documentation build beside them: mypy
# keeps one core busy for about a minute, time in which the tests' workers often
# wait (for Ray, a server, a subprocess) rather than compute. Their output comes
# after the tests' (kept in build/lint.log); any failing fails `make test`.
test: $(STAMPS)/venv-dev
	$(MAKE) -j2 --output-sync=target compile docker-check browser
	@mkdir -p build
	@echo "== make: lint (ruff, import layers, mypy) and docs beside the tests; their output follows =="
	@$(MAKE) --no-print-directory lint docs > build/lint.log 2>&1 & linting=$$!; \
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist loadgroup --durations=30; tested=$$?; \
	wait $$linting; linted=$$?; \
	echo "== make: lint and docs =="; cat build/lint.log; \
	[ $$linted = 0 ] || echo "make test: the lint or the docs build failed (above)"; \
	[ $$tested = 0 ] && [ $$linted = 0 ]

# Interval coverage by simulation: many independent synthetic experiments with known
# true rates through the metric views; per metric, how often its 95% interval missed
# the truth below and above (docs/reference/validation.md). Minutes, so not part of
# `make test`, which runs a cut-down version (tests/analytics/test_interval_coverage.py).
# VALIDATE_SCALE=0.2 runs a fifth of the experiments.
VALIDATE_SCALE ?= 1
validate: $(STAMPS)/venv-dev
	$(PY) -m tests.analytics.validate --scale $(VALIDATE_SCALE)

# The documentation site (mkdocs.yml), strict: a broken link or anchor, a page
# missing from the nav or a command without a help text fails the build. Its
# command reference imports the CLI, so the compiled core comes first.
docs: $(STAMPS)/venv-dev compile
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict
	@echo "documentation site: build/site/index.html"

lint: $(STAMPS)/venv-dev
	$(VENV)/bin/ruff check .
	@# The layers and their order: pyproject.toml [tool.importlinter] (docs/development/architecture.md).
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy simcore experiments dataset workers analytics drivers dashboard cardlab tests docker/check_manifests.py \
		docs/hooks/cli_reference.py docs/hooks/views_reference.py
	@# bench/ is no installed package (its scripts run by path): mypy checks it on its own, as one.
	$(VENV)/bin/mypy -p bench

# The dashboard's browser tests drive Debian's headless Chromium: installed
# here when it is missing and this machine can (root with apt-get, as on CI);
# otherwise `make test` stops with what to run, rather than skip those tests.
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	    if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	        echo "== make: installing Debian's chromium for the browser tests =="; \
	        apt-get update && apt-get install -y chromium; \
	    else echo "make test: the browser tests need Debian's chromium: run 'sudo apt-get install -y chromium'"; exit 2; fi; }

# The container files, checked statically (no Docker engine needed).
docker-check: $(STAMPS)/venv-dev
	$(VENV)/bin/hadolint --config docker/.hadolint.yaml docker/Dockerfile
	$(VENV)/bin/yamllint --strict -c docker/.yamllint.yaml docker
	$(VENV)/bin/check-jsonschema --builtin-schema vendor.compose-spec docker/compose.yaml docker/compose.s3.yaml
	$(PY) docker/check_manifests.py docker/kuberay

bench: compile reference
	$(VENV)/bin/cardlab bench --games 5000 --rounds 3

# The C reference playout of Divvy: the reference line of `cardlab bench`.
reference: build/divvy_playout

build/divvy_playout: bench/divvy_playout.c
	@mkdir -p build
	cc -O2 -Wall -Wextra -o $@ $<

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
	rm -f simcore/compiled-sources.sha256
