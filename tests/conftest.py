"""Shared fixtures: a small real experiment, played once per test session.

``small_experiment`` plays ``experiments/divvy_baseline.toml`` cut down to 300
games per variant (shards of 100) and two variants, baseline and
four_rounds, through ``workers.shard.run_shard``: the same code path as
``cardlab run``, without Ray. ``small_ladder`` plays a cut-down Divvy skill
ladder (``LADDER_CUT``) the same way.

The suite runs on every core (``make test``: pytest-xdist, ``--dist
loadgroup``): ``pytest_collection_modifyitems`` keeps each test file on one
worker, so that a file's module fixtures (Ray clusters, servers, played
experiments) are built once, except the files in ``SPREAD_FILES``, whose
tests share nothing costly and are long one by one; and it puts the slow
folders first, so that the short unit tests fill the last minutes.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

from experiments.spec import ExperimentSpec, parse_spec
from workers.shard import run_shard
from workers.storage import SPEC_FILE, write_json_atomically

BASELINE_TOML = Path(__file__).resolve().parent.parent / "experiments" / "divvy_baseline.toml"
LADDER_TOML = BASELINE_TOML.with_name("divvy_skill_ladder.toml")
SPREAD_FILES = frozenset({"tests/golden/test_golden_tables.py", "tests/golden/test_written_files.py",
                          "tests/agents/test_strength.py"})
"""Test files whose tests may run on different workers (each plays its own games)."""
SLOW_FOLDERS_FIRST = ("tests/golden", "tests/agents", "tests/workers", "tests/storage", "tests/tuning",
                      "tests/launcher", "tests/dashboard", "tests/security", "tests/analytics", "tests/cli")
"""Folders of the longest tests (Ray clusters, servers, thousands of games), longest first."""

LADDER_CUT = {"games": 20, "shard_size": 10, "sweep": {"agents": [
    ["heuristic"], ["ismcts(iterations=4)"], ["random", "heuristic"], ["heuristic", "ismcts(iterations=4)"]]}}
"""divvy_skill_ladder cut down: rungs random (baseline), heuristic, ismcts(4)
(variants sweep-000, sweep-001) and two head-to-head variants (sweep-002
random vs heuristic, sweep-003 heuristic vs ismcts(4)), 20 games each."""


def _slowness_rank(nodeid: str) -> int:
    """Where a test's folder stands in ``SLOW_FOLDERS_FIRST`` (the rest after)."""
    return next((rank for rank, folder in enumerate(SLOW_FOLDERS_FIRST) if nodeid.startswith(folder + "/")),
                len(SLOW_FOLDERS_FIRST))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Group each test file on one xdist worker (but ``SPREAD_FILES``) and order the slow folders first."""
    items.sort(key=lambda item: _slowness_rank(item.nodeid))  # stable: each file keeps its own order
    for item in items:
        test_file = item.nodeid.split("::")[0]
        if test_file not in SPREAD_FILES:
            item.add_marker(pytest.mark.xdist_group(test_file))


@dataclass(frozen=True)
class SmallExperiment:
    """A finished experiment on disk: ``root`` is the results folder, ``folder`` the experiment's."""

    root: Path
    folder: Path
    spec: ExperimentSpec


def small_spec() -> ExperimentSpec:
    """divvy_baseline with 300 games per variant, shards of 100, variants baseline and four_rounds."""
    raw = tomllib.loads(BASELINE_TOML.read_text())
    raw.update(name="divvy_small", games=300, shard_size=100,
               variants={"four_rounds": raw["variants"]["four_rounds"]})
    return parse_spec(raw, f"{BASELINE_TOML} (cut down for tests)")


def small_ladder_spec(name: str = "divvy_ladder_small") -> ExperimentSpec:
    """divvy_skill_ladder cut down to ``LADDER_CUT`` (a few seconds of play)."""
    raw = tomllib.loads(LADDER_TOML.read_text())
    raw.update(name=name, **LADDER_CUT)
    return parse_spec(raw, f"{LADDER_TOML} (cut down for tests)")


def write_experiment(spec: ExperimentSpec, root: Path) -> Path:
    """Play every shard of ``spec`` into ``root/<spec.name>`` and write its spec.json; return that folder."""
    folder = root / spec.name
    for shard in spec.shards():
        run_shard(spec, shard, str(folder))
    write_json_atomically(spec.to_json_dict(), folder / SPEC_FILE)
    return folder


@pytest.fixture(scope="session")
def small_experiment(tmp_path_factory: pytest.TempPathFactory) -> SmallExperiment:
    """The small experiment, written once for the whole session; treat it as read-only."""
    root = tmp_path_factory.mktemp("results")
    spec = small_spec()
    return SmallExperiment(root=root, folder=write_experiment(spec, root), spec=spec)


@pytest.fixture(scope="session")
def small_ladder(tmp_path_factory: pytest.TempPathFactory) -> SmallExperiment:
    """The small skill ladder, written once for the whole session; treat it as read-only."""
    root = tmp_path_factory.mktemp("ladder-results")
    spec = small_ladder_spec()
    return SmallExperiment(root=root, folder=write_experiment(spec, root), spec=spec)
