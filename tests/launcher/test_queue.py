"""The queue: runs played by `cardlab run` in processes of their own, at most N at once,
cancellable, with their state in the results folder so that a new reader (a restarted
dashboard) sees the same queue; a run outlives the process that launched it; a failed run's
one-line reason; a dead supervisor."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from analytics.explore import experiment_overview
from dataset.storage import SPEC_FILE, finished_shards
from drivers.launcher import (
    LaunchedRun,
    advance,
    cancel,
    launch,
    launch_log,
    list_runs,
    log_file,
    read_run,
    run_command,
    spec_file,
)
from experiments.spec import load_spec
from tests.launcher.helpers import LOCAL, small_whatif, wait_for
from workers.reaper import process_table


def test_two_launches_one_at_a_time_the_second_cancelled_while_queued(tmp_path: Path) -> None:
    first, first_text = small_whatif("first", games=40)
    second, second_text = small_whatif("second", games=40, copies=2)
    assert launch(tmp_path, first, first_text, LOCAL, None).state == "running"
    assert launch(tmp_path, second, second_text, LOCAL, None).state == "queued"  # at most one at once
    # A restarted dashboard has nothing but the folder: it sees the same queue.
    assert [(run.name, run.state) for run in list_runs(tmp_path)] == [("first", "running"), ("second", "queued")]
    assert cancel(tmp_path, "second", LOCAL, None).state == "cancelled"
    done = wait_for(tmp_path, "first")
    assert (done.state, done.reason) == ("finished", ""), log_file(tmp_path, "first").read_text()
    # The supervisor moved the queue on when the first ended: the cancelled run never started.
    assert [(run.name, run.state) for run in list_runs(tmp_path)] == [("first", "finished"),
                                                                     ("second", "cancelled")]
    assert not (tmp_path / "second").exists()
    # The first was played by `cardlab run` from its written-out spec, into an ordinary experiment folder.
    folder = tmp_path / "first"
    stored = json.loads((folder / SPEC_FILE).read_text())
    assert stored == load_spec(spec_file(tmp_path, "first")).to_json_dict()
    assert stored["paired_seeds"] and set(stored["variants"]) == {"baseline", "whatif"}
    assert sorted(finished_shards(folder)) == ["baseline-2p-0000000000", "whatif-2p-0000000000"]
    overview = experiment_overview(tmp_path)
    assert overview["experiment"].to_list() == ["first"]
    assert overview.row(0, named=True)["status"] == "finished"
    assert "cardlab run: first: 80 games of divvy" in log_file(tmp_path, "first").read_text()
    assert [(entry["action"], entry["experiment"]) for entry in launch_log(tmp_path)] == [
        ("launch", "first"), ("launch", "second"), ("cancel", "second")]


def test_a_running_run_cancelled_ends_cancelled_and_the_next_one_starts(tmp_path: Path) -> None:
    long, long_text = small_whatif("long", games=400_000)
    after, after_text = small_whatif("after", games=20)
    launch(tmp_path, long, long_text, LOCAL, None)
    launch(tmp_path, after, after_text, LOCAL, None)
    wait_for(tmp_path, "long", states=("running",))
    cancelled = cancel(tmp_path, "long", LOCAL, None)
    assert cancelled.cancel_requested
    ended = wait_for(tmp_path, "long")
    assert (ended.state, ended.reason) == ("cancelled", "cancelled by local")
    assert wait_for(tmp_path, "after").state == "finished"


def test_a_run_that_fails_records_the_one_line_reason(tmp_path: Path) -> None:
    spec, text = small_whatif("doomed")
    launch(tmp_path, spec, text, LOCAL, None, start=False)
    (tmp_path / "doomed").mkdir()  # something takes the name before the run starts
    (tmp_path / "doomed" / "stray.txt").write_text("not cardlab's")
    advance(tmp_path, max_running=1)
    failed = wait_for(tmp_path, "doomed", timeout=120)
    assert failed.state == "failed"
    assert failed.reason == (f"{tmp_path.resolve() / 'doomed'}: results already exist; use --resume to finish "
                             "them or --overwrite to start again")


def test_a_run_whose_supervisor_died_silently_is_marked_failed(tmp_path: Path) -> None:
    spec, text = small_whatif("orphan")
    launch(tmp_path, spec, text, LOCAL, None, start=False)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    start = process_table()[gone.pid][1]
    gone.wait()
    stored = read_run(tmp_path, "orphan")
    assert isinstance(stored, LaunchedRun)
    from drivers.launcher import _write_record

    _write_record(tmp_path, replace(stored, state="running", supervisor_pid=gone.pid, supervisor_start=start))
    [run] = list_runs(tmp_path)
    assert run.state == "failed"
    assert run.reason == (f"its launcher process (pid {gone.pid}) died without recording how the run ended (it was "
                          "killed, or the machine restarted); the run was stopped with it; its finished shards are "
                          "kept")
    assert read_run(tmp_path, "orphan") == run


def test_a_supervisor_started_while_the_queue_is_read_is_not_taken_for_dead(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Another process (a supervisor moving the queue on) starts a run's supervisor and records it
    # while list_runs waits for the queue's lock: the table of processes it judges by must hold it.
    from drivers import launcher

    for name in ("first", "second"):
        spec, text = small_whatif(name)
        launch(tmp_path, spec, text, LOCAL, None, start=False)
    sleepers: list[subprocess.Popen[bytes]] = []

    def record_running(name: str) -> None:
        sleepers.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"]))
        run = read_run(tmp_path, name)
        assert run is not None
        launcher._write_record(tmp_path, replace(run, state="running", supervisor_pid=sleepers[-1].pid,
                                                 supervisor_start=process_table()[sleepers[-1].pid][1]))

    table_read = threading.Event()

    def spied_table() -> dict[int, tuple[int, int, str]]:
        table = process_table()
        table_read.set()
        return table

    monkeypatch.setattr(launcher, "process_table", spied_table)
    pool = ThreadPoolExecutor(max_workers=1)
    try:
        record_running("first")
        with launcher._queue_lock(tmp_path):
            reading = pool.submit(list_runs, tmp_path)
            table_read.wait(timeout=2)  # where the table was read before the lock: now
            record_running("second")
        listed = {run.name: run.state for run in reading.result(timeout=30)}  # as they were before the lock
        assert listed["first"] == "running" and listed["second"] != "failed", listed
        second = read_run(tmp_path, "second")
        assert second is not None and second.state == "running"
    finally:
        pool.shutdown()
        for sleeper in sleepers:
            sleeper.kill()
            sleeper.wait()


def test_the_command_is_cardlab_run_on_the_written_spec(tmp_path: Path) -> None:
    assert run_command(tmp_path, "x", 2)[1:] == ["-m", "cardlab", "run", str(spec_file(tmp_path, "x")),
                                                 "--results", str(tmp_path.resolve()), "--no-progress",
                                                 "--workers", "2"]


LAUNCH_AND_WAIT = """
import sys, time
from pathlib import Path
from tests.launcher.helpers import LOCAL, small_whatif
from drivers.launcher import launch
spec, text = small_whatif("orphaned_by_its_dashboard", games=40)
launch(Path(sys.argv[1]), spec, text, LOCAL, None)
print("launched", flush=True)
time.sleep(600)
"""


def test_a_run_outlives_the_process_that_launched_it(tmp_path: Path) -> None:
    # The launching process stands for the dashboard: it is killed, with its whole process group,
    # right after the launch; the run goes on in its supervisor's own session and finishes.
    dashboard = subprocess.Popen([sys.executable, "-c", LAUNCH_AND_WAIT, str(tmp_path)], stdout=subprocess.PIPE,
                                 text=True, start_new_session=True, cwd=Path(__file__).resolve().parents[2])
    assert dashboard.stdout is not None and dashboard.stdout.readline().strip() == "launched"
    os.killpg(dashboard.pid, signal.SIGKILL)
    dashboard.wait()
    done = wait_for(tmp_path, "orphaned_by_its_dashboard")
    assert (done.state, done.reason) == ("finished", ""), log_file(tmp_path, "orphaned_by_its_dashboard").read_text()
    assert len(finished_shards(tmp_path / "orphaned_by_its_dashboard")) == 2
