"""Faults a run survives: damaged shard files, a second run on the same folder."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from cardlab.cli import main
from dataset.storage import LOCK_FILE, acquire_lock, finished_shards, release_lock, table_path
from tests.processes import command_line, tree

SPEC = """
name = "faults"
game = "divvy"
games = 400
seed = 3
agents = ["heuristic", "random"]
shard_size = 100
"""


def _write_spec(tmp_path: Path, text: str = SPEC) -> Path:
    spec_file = tmp_path / "faults.toml"
    spec_file.write_text(text)
    return spec_file


def _games(folder: Path) -> list[tuple[object, ...]]:
    files = str(folder / "games" / "**" / "*.parquet")
    return duckdb.connect().execute(
        f"SELECT * FROM read_parquet('{files}', hive_partitioning=false) ORDER BY game_index").fetchall()


@pytest.mark.usefixtures("shared_ray")
def test_a_truncated_shard_file_is_detected_reported_and_played_again_by_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_file = _write_spec(tmp_path)
    results = tmp_path / "results"
    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--workers", "1"]) == 0
    folder = results / "faults"
    before = _games(folder)
    shard_id = sorted(finished_shards(folder))[1]
    damaged = table_path(folder, "cards", "baseline", shard_id)
    damaged.write_bytes(damaged.read_bytes()[: damaged.stat().st_size // 2])
    capsys.readouterr()

    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--resume"]) == 0

    output = capsys.readouterr()
    assert f"shard {shard_id}: {damaged}:" in output.err and "playing it again" in output.err
    assert "shards: 1 played (3 already done) of 4" in output.out
    assert _games(folder) == before
    cards = str(folder / "cards" / "**" / "*.parquet")
    assert duckdb.connect().execute(f"SELECT count(DISTINCT game_index) FROM read_parquet('{cards}')").fetchone() \
        == (400,)


@pytest.mark.usefixtures("shared_ray")
def test_a_flipped_byte_with_the_same_size_is_caught_by_the_checksum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec_file = _write_spec(tmp_path)
    results = tmp_path / "results"
    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--workers", "1"]) == 0
    folder = results / "faults"
    shard_id = sorted(finished_shards(folder))[0]
    damaged = table_path(folder, "games", "baseline", shard_id)
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--resume"]) == 0
    assert "checksum differs from the manifest" in capsys.readouterr().err
    assert len(_games(folder)) == 400


def test_a_second_run_on_the_same_folder_is_refused_while_the_first_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The first run holds its lock from before Ray starts (seconds) until its 8,000 games are
    # written: long enough for the second to be refused while it runs.
    spec_file = _write_spec(tmp_path, SPEC.replace("games = 400", "games = 8000").replace("shard_size = 100",
                                                                                         "shard_size = 500"))
    results = tmp_path / "results"
    first = subprocess.Popen([sys.executable, "-m", "cardlab", "run", str(spec_file), "--results", str(results),
                              "--no-progress", "--workers", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        lock = results / "faults" / LOCK_FILE
        deadline = time.monotonic() + 60
        while not lock.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert lock.exists()
        code = main(["run", str(spec_file), "--results", str(results), "--no-progress", "--resume"])
        error = capsys.readouterr().err.strip()
        assert code == 2
        assert error.startswith(f"cardlab: error: {results / 'faults'}: another run (pid {first.pid} on ")
        assert len(error.splitlines()) == 1
    finally:
        first.wait(timeout=120)
    assert first.returncode == 0
    assert len(_games(results / "faults")) == 8000


def test_a_lock_left_by_a_dead_run_is_taken_over(tmp_path: Path) -> None:
    folder = tmp_path / "results" / "faults"
    folder.mkdir(parents=True)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (folder / LOCK_FILE).write_text(json.dumps({"pid": dead.pid, "host": os.uname().nodename}))
    acquire_lock(folder)
    assert json.loads((folder / LOCK_FILE).read_text())["pid"] == os.getpid()
    release_lock(folder)
    assert not (folder / LOCK_FILE).exists()


def _kill_process_titled(title: str) -> int | None:
    """SIGKILL the first process of this test process's tree (its embedded Ray's workers) whose
    command line (Ray sets it to the task being run) contains ``title``; return its pid. Only
    this tree: the other tests running on this machine have Ray workers of their own."""
    for pid, _start in tree(os.getpid()):
        if title in command_line(pid):
            os.kill(pid, signal.SIGKILL)
            return pid
    return None


@pytest.mark.usefixtures("shared_ray")
def test_a_ray_worker_killed_while_playing_a_shard_is_retried_and_every_game_lands_once(tmp_path: Path) -> None:
    import threading

    from experiments.spec import parse_spec
    from workers.runner import RunOptions, RunSummary, run_experiment

    spec = parse_spec({"name": "killed", "game": "divvy", "games": 24000, "seed": 8, "agents": ["heuristic"],
                       "shard_size": 3000}, "killed.toml")
    outcome: list[RunSummary] = []
    runner = threading.Thread(target=lambda: outcome.append(
        run_experiment(spec, RunOptions(results_root=tmp_path, workers=2, progress=False))))
    runner.start()
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and time.monotonic() < deadline and runner.is_alive():
        killed = _kill_process_titled("ray::_run_shard_task")
        time.sleep(0.02)
    runner.join(timeout=300)
    assert killed is not None, "a worker must have been caught playing a shard"
    assert outcome and outcome[0].shards_played == 8
    games = _games(tmp_path / "killed")
    assert len(games) == 24000
    assert len({row[3] for row in games}) == 24000
