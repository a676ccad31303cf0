"""Shared fixtures: a small real experiment, played once per test session.

``small_experiment`` plays ``experiments/divvy_baseline.toml`` cut down to 300
games per variant (shards of 100) and two variants, baseline and
four_rounds, through ``workers.shard.run_shard``: the same code path as
``cardlab run``, without Ray. ``small_ladder`` plays a cut-down Divvy skill
ladder (``LADDER_CUT``) the same way.

The suite runs on every core (``make test``: pytest-xdist, ``--dist
loadgroup``): ``pytest_xdist_make_scheduler`` keeps each test file on one
worker, so that a file's module fixtures (Ray clusters, servers, played
experiments) are built once, except the files in ``SPREAD_FILES``, whose
tests share nothing costly: each of their tests is a unit of its own. The
units are handed out longest first, so that the two workers end together:
``pytest_collection_modifyitems`` puts the files of ``SLOW_FILES_FIRST``
first (in its order), then the other files, then the spread tests, many
short units that fill the last minutes (xdist's own order, files with the
most tests first, is turned off: it handed the single long tests out last).

The tests that play on Ray in this process share one embedded Ray per worker
(the ``shared_ray`` fixture, ``tests/embedded_ray.py``) rather than each
starting its own.

Why a scheduler of our own rather than ``xdist_group`` marks: pytest-xdist
3.8 tells its scheduler a test's group by appending it to the test's node
id, which pytest 9.2's structured node ids silently ignore
(pytest-dev/pytest-xdist#1386); every test was then scheduled on its own and
a file's module fixtures were built again on each worker that ran one of its
tests (the four tuning runs of ``tests/tuning/test_known_answer.py`` twice).
"""

from __future__ import annotations

import fcntl
import os
import pickle
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from dataset.storage import SPEC_FILE, write_json_atomically
from experiments.spec import ExperimentSpec, parse_spec
from workers.shard import run_shard

BASELINE_TOML = Path(__file__).resolve().parent.parent / "experiments" / "divvy_baseline.toml"
LADDER_TOML = BASELINE_TOML.with_name("divvy_skill_ladder.toml")
SPREAD_FILES = frozenset({"tests/golden/test_golden_tables.py", "tests/golden/test_written_files.py",
                          "tests/agents/test_strength.py", "tests/simcore/test_conformance.py"})
"""Test files whose tests may run on different workers (each plays its own games)."""
SLOW_FILES_FIRST = (
    "tests/docs/test_examples.py", "tests/analytics/test_view_contracts.py", "tests/dashboard/test_pages.py",
    "tests/workers/test_damaged_shards.py", "tests/analytics/test_balance_metrics.py",
    "tests/dashboard/test_browser.py", "tests/workers/test_run_endings.py", "tests/analytics/test_sql.py",
    "tests/launcher/test_queue.py", "tests/storage/test_s3_runs.py", "tests/analytics/test_interval_coverage.py",
    "tests/analytics/test_report.py", "tests/storage/test_s3_faults.py", "tests/workers/test_ray_job_submit.py",
    "tests/dashboard/test_browser_whatif.py", "tests/impact/test_removal.py", "tests/impact/test_dashboard_page.py",
    "tests/workers/test_warm_ray.py", "tests/tuning/test_known_answer.py", "tests/workers/test_faults.py",
    "tests/agents/test_own_agents.py", "tests/dashboard/test_new_run.py", "tests/storage/test_s3_sql_confinement.py",
    "tests/workers/test_resume.py", "tests/workers/test_cluster.py", "tests/tuning/test_cli_report_dashboard.py",
    "tests/workers/test_run_determinism.py", "tests/workers/test_run_talks.py",
    "tests/workers/test_embedded_ray_processes.py", "tests/analytics/test_ratings.py",
    "tests/analytics/test_delta_intervals.py", "tests/cli/test_plan_catalog_report.py",
    "tests/launcher/test_ray_jobs.py", "tests/analytics/test_clustered_intervals.py",
    "tests/security/test_sql_live_server.py")
"""The test files that take longest (wall time of a whole ``make test``: Ray clusters and runs,
servers, browsers, thousands of games), longest first. A file not listed comes after them."""

# A warm Ray cluster the developer keeps (`cardlab ray start`) is not the tests': each run here
# starts its own Ray, as on a machine without one. tests/workers/test_warm_ray.py names its own.
os.environ["CARDLAB_WARM_RAY"] = "off"

LADDER_CUT = {"games": 20, "shard_size": 10, "sweep": {"agents": [
    ["heuristic"], ["ismcts(iterations=4)"], ["random", "heuristic"], ["heuristic", "ismcts(iterations=4)"]]}}
"""divvy_skill_ladder cut down: rungs random (baseline), heuristic, ismcts(4)
(variants sweep-000, sweep-001) and two head-to-head variants (sweep-002
random vs heuristic, sweep-003 heuristic vs ismcts(4)), 20 games each."""


def handout_rank(nodeid: str) -> int:
    """When a test's unit is handed out: by its file's place in ``SLOW_FILES_FIRST``, then
    the files not listed, then the tests of ``SPREAD_FILES``."""
    test_file = nodeid.split("::")[0]
    if test_file in SPREAD_FILES:
        return len(SLOW_FILES_FIRST) + 1
    return SLOW_FILES_FIRST.index(test_file) if test_file in SLOW_FILES_FIRST else len(SLOW_FILES_FIRST)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the tests by ``handout_rank``: the scheduler hands their units out in this order."""
    items.sort(key=lambda item: handout_rank(item.nodeid))  # stable: each file keeps its own order


def scheduling_unit(nodeid: str) -> str:
    """The unit of work an xdist worker takes whole: the test's file, or the test
    itself in one of ``SPREAD_FILES``."""
    test_file = nodeid.split("::")[0]
    return nodeid if test_file in SPREAD_FILES else test_file


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under ``--dist loadgroup``, schedule by ``scheduling_unit`` (see the module docstring)."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling  # type: ignore[import-untyped]  # under xdist only

    # xdist would hand out the files with the most tests first (--loadscope-reorder, its default),
    # which put the single long tests (clusters, killed runs) last, where one worker waits for the other.
    config.option.loadscopereorder = False

    class FileScheduling(LoadScopeScheduling):
        """xdist's scope scheduling with ``scheduling_unit`` as the scope."""

        def _split_scope(self, nodeid: str) -> str:
            return scheduling_unit(nodeid)

    return FileScheduling(config, log)


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


def small_paired_spec(name: str = "divvy_paired") -> ExperimentSpec:
    """divvy_baseline with its four_rounds variant on the baseline's seeds, 200 games per
    variant in shards of 100."""
    raw = tomllib.loads(BASELINE_TOML.read_text())
    raw.update(name=name, games=200, shard_size=100, paired_seeds=True,
               variants={"four_rounds": raw["variants"]["four_rounds"]})
    return parse_spec(raw, f"{BASELINE_TOML} (cut down for tests, paired)")


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


Made = TypeVar("Made")


def made_once_per_session(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Made]) -> Made:
    """``make(folder)``'s value, made once per test session however many xdist workers ask.

    A session fixture runs once per worker; for what takes long to make (played runs
    on Ray), the first worker to ask makes it in a folder every worker of the session
    sees, under a lock the others wait on, and leaves the value pickled beside it for
    them. Treat the folder as read-only."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if "PYTEST_XDIST_WORKER" in os.environ else base  # the session's, shared by its workers
    folder, made = root / name, root / f"{name}.pickle"
    with (root / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not made.exists():
            folder.mkdir(exist_ok=True)
            made.write_bytes(pickle.dumps(make(folder)))
        value: Made = pickle.loads(made.read_bytes())
        return value


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


@pytest.fixture(scope="session", autouse=True)
def _scan_streamlit_components_once() -> Iterator[None]:
    """Every ``AppTest`` run would scan the metadata of every installed package for Streamlit
    components (about 0.35 s of CPU): the first scan's answer serves the session
    (``dashboard.timing.scan_components_once``)."""
    from dashboard.timing import scan_components_once  # imports Streamlit: not at collection

    put_back = scan_components_once()
    yield
    put_back()


@pytest.fixture
def shared_ray() -> None:
    """This test process's shared embedded Ray, connected (started if need be; see ``tests/embedded_ray.py``)."""
    from tests.embedded_ray import join_shared_ray  # imports Ray: only in the processes that play on it

    join_shared_ray()
