"""How ``make test`` spreads the suite over xdist workers (``tests/conftest.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import SLOW_FILES_FIRST, SPREAD_FILES, handout_rank, scheduling_unit

PROJECT_ROOT = Path(__file__).resolve().parents[2]

TEST_FILE_WITH_A_COSTLY_MODULE_FIXTURE = '''
import os
import time

import pytest


@pytest.fixture(scope="module")
def costly(request):
    with open(os.environ["SETUP_LOG"], "a") as log:
        log.write(f"{request.module.__name__} {os.environ['PYTEST_XDIST_WORKER']}\\n")
    return 1


@pytest.mark.parametrize("index", range(4))
def test_uses_the_fixture(costly, index):
    time.sleep(0.2)  # long enough for the other worker to ask for work meanwhile
    assert costly == 1
'''


def test_a_test_file_is_one_unit_of_work_and_a_spread_file_one_unit_per_test() -> None:
    assert scheduling_unit("tests/workers/test_resume.py::test_a") == "tests/workers/test_resume.py"
    assert scheduling_unit("tests/workers/test_resume.py::TestX::test_a[1]") == "tests/workers/test_resume.py"
    spread = sorted(SPREAD_FILES)[0]
    assert scheduling_unit(f"{spread}::test_a[divvy]") == f"{spread}::test_a[divvy]"


def test_under_two_workers_each_file_builds_its_module_fixture_once(tmp_path: Path) -> None:
    for name in ("test_first.py", "test_second.py"):
        (tmp_path / name).write_text(TEST_FILE_WITH_A_COSTLY_MODULE_FIXTURE)
    setup_log = tmp_path / "setups.log"
    environment = {**os.environ, "SETUP_LOG": str(setup_log), "PYTHONPATH": str(PROJECT_ROOT)}
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "-p", "tests.conftest",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    setups = sorted(setup_log.read_text().splitlines())
    assert [line.split()[0] for line in setups] == ["test_first", "test_second"], setups


def test_every_file_the_scheduler_names_exists_and_the_spread_tests_come_last() -> None:
    named = [*SLOW_FILES_FIRST, *SPREAD_FILES]
    assert [name for name in named if not (PROJECT_ROOT / name).is_file()] == []  # a moved file is renamed here too
    assert len(set(SLOW_FILES_FIRST)) == len(SLOW_FILES_FIRST)
    ranks = [handout_rank(f"{name}::test_x") for name in SLOW_FILES_FIRST]
    assert ranks == sorted(ranks) and ranks[0] == 0
    unlisted = handout_rank("tests/experiments/test_spec.py::test_x")
    assert ranks[-1] < unlisted < min(handout_rank(f"{name}::test_x") for name in SPREAD_FILES)


TEST_FILE_LOGGING_ITS_START = '''
import os
import time

import pytest


@pytest.mark.parametrize("index", range({count}))
def test_logs_its_start(index):
    with open(os.environ["START_LOG"], "a") as log:
        log.write(f"{{os.environ['PYTEST_XDIST_WORKER']}} {{__name__}}\\n")
    time.sleep(0.2)
'''


def test_under_two_workers_the_slowest_file_is_handed_out_first_whatever_its_number_of_tests(tmp_path: Path) -> None:
    # xdist's own order would hand out the files with the most tests first: the slowest file,
    # with one test, would then start after both of these.
    slowest = tmp_path / SLOW_FILES_FIRST[0]
    slowest.parent.mkdir(parents=True)
    slowest.write_text(TEST_FILE_LOGGING_ITS_START.format(count=1))
    for name, count in (("test_many.py", 8), ("test_several.py", 5)):
        (tmp_path / name).write_text(TEST_FILE_LOGGING_ITS_START.format(count=count))
    start_log = tmp_path / "starts.log"
    environment = {**os.environ, "START_LOG": str(start_log), "PYTHONPATH": str(PROJECT_ROOT)}
    finished = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadgroup", "-p", "tests.conftest",
         "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path)],
        cwd=tmp_path, env=environment, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stdout + finished.stderr
    first_of_each_worker: dict[str, str] = {}
    for line in start_log.read_text().splitlines():
        worker, module = line.split()
        first_of_each_worker.setdefault(worker, module)
    assert sorted(first_of_each_worker.values()) == sorted(["test_many", slowest.stem]), first_of_each_worker
