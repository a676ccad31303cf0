"""How ``make test`` spreads the suite over xdist workers (``tests/conftest.py``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import SPREAD_FILES, scheduling_unit

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
