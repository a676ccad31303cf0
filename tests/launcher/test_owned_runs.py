"""A launched run never outlives the supervisor that answers for it: killed (SIGKILL) or
stopped (SIGTERM), the supervisor takes its ``cardlab run`` with it, the record says what
happened, and ``--max-running`` holds meanwhile (the next run starts only once the stopped
one has ended)."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest

from dataset.storage import RUN_FILE, finished_shards
from drivers.launcher import FAILED, RUNNING, advance, launch, launcher_folder, read_run
from tests.launcher.helpers import LOCAL, small_whatif, stopping_runs, wait_for
from tests.processes import command_line
from workers.reaper import ProcessKey, alive, process_table


def _playing(results: Path) -> set[str]:
    """The runs launched under ``results`` that have a live ``cardlab run`` process, by name.

    By run, not by process: a ``cardlab run`` starting Ray forks, and until the fork execs
    (Ray's ``preexec_fn`` runs in between) the child shows the same command line."""
    specs = launcher_folder(results) / "specs"
    return {line.split(f"{specs}/", 1)[1].split(".toml", 1)[0]
            for pid, (_parent, _start, state) in process_table().items()
            if state != "Z" and " -m cardlab run " in (line := command_line(pid)) and f"{specs}/" in line}


def _playing_started(results: Path, name: str, timeout: float = 180) -> tuple[int, ProcessKey]:
    """Once run ``name``'s ``cardlab run`` has finished a shard: its supervisor's pid and its own process."""
    deadline = time.monotonic() + timeout
    while True:
        run = read_run(results, name)
        if run is not None and run.run_pid is not None and finished_shards(results / name):
            assert run.supervisor_pid is not None
            return run.supervisor_pid, (run.run_pid, process_table()[run.run_pid][1])
        assert time.monotonic() < deadline, f"{name}: not playing after {timeout} s ({run})"
        time.sleep(0.2)


@pytest.mark.parametrize(("signal_number", "reason"), [
    (signal.SIGKILL, "its launcher process (pid {pid}) died without recording how the run ended (it was killed, or "
                     "the machine restarted); the run was stopped with it; its finished shards are kept"),
    (signal.SIGTERM, "its launcher process (pid {pid}) was sent SIGTERM; the run was stopped with it; its finished "
                     "shards are kept")])
def test_a_stopped_supervisor_takes_its_run_with_it_and_max_running_holds(
        tmp_path: Path, signal_number: int, reason: str) -> None:
    long, long_text = small_whatif("long", games=400_000)
    after, after_text = small_whatif("after", games=20)
    with stopping_runs(tmp_path):
        launch(tmp_path, long, long_text, LOCAL, None)
        launch(tmp_path, after, after_text, LOCAL, None)
        supervisor, playing = _playing_started(tmp_path, "long")
        os.kill(supervisor, signal_number)
        most = 0
        deadline = time.monotonic() + 120
        while (run := read_run(tmp_path, "long")) is not None and run.state == RUNNING:
            advance(tmp_path, LOCAL.max_running, LOCAL.workers)  # what an open New run page does every 3 s
            most = max(most, len(_playing(tmp_path)))
            assert time.monotonic() < deadline, "the stopped supervisor's run is still marked running"
            time.sleep(0.2)
        assert not alive({playing}), "the run outlived its supervisor"
        assert run is not None and (run.state, run.reason) == (FAILED, reason.format(pid=supervisor))
        # The run itself was stopped as after a Cancel: its folder says interrupted, --resume finishes it.
        assert json.loads((tmp_path / "long" / RUN_FILE).read_text())["status"] == "interrupted"
        while (waiting := read_run(tmp_path, "after")) is not None and waiting.state == RUNNING:
            most = max(most, len(_playing(tmp_path)))
            time.sleep(0.2)
        assert most <= 1, f"{most} runs played at once with --max-running 1"
        finished = wait_for(tmp_path, "after")
        assert finished.state == "finished", finished.reason
