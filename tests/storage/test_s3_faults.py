"""Faults on object storage: a damaged shard object, a second run while the
first holds the lock, a driver killed mid-run. Each is detected and either
refused with one line (exit 2) or repaired by ``--resume``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from analytics.catalog import open_catalog
from cardlab.cli import main
from dataset.location import ResultsPath, results_path
from dataset.storage import (
    LOCK_FILE,
    ExperimentLockedError,
    acquire_lock,
    finished_shards,
    release_lock,
    table_path,
)
from tests.storage.conftest import S3Server

SPEC = """
name = "s3_faults"
game = "divvy"
games = 400
seed = 3
agents = ["heuristic", "random"]
shard_size = 100
"""

pytestmark = pytest.mark.usefixtures("shared_ray")  # the in-process runs play on the shared Ray


def _spec_file(tmp_path: Path, text: str = SPEC) -> Path:
    spec_file = tmp_path / "s3_faults.toml"
    spec_file.write_text(text)
    return spec_file


def _game_indexes(folder: ResultsPath) -> tuple[int, int, int, int]:
    con = open_catalog(folder, metrics=False)
    try:
        row = con.execute("SELECT count(*), count(DISTINCT game_index), min(game_index), max(game_index) "
                          "FROM games").fetchone()
    finally:
        con.close()
    assert row is not None
    return (int(row[0]), int(row[1]), int(row[2]), int(row[3]))


def test_a_truncated_shard_object_is_detected_reported_and_played_again_by_resume(
        s3: S3Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_file, results = _spec_file(tmp_path), s3.uri("truncated")
    assert main(["run", str(spec_file), "--results", results, "--no-progress", "--workers", "2"]) == 0
    folder = results_path(results) / "s3_faults"
    shard_id = sorted(finished_shards(folder))[1]
    damaged = table_path(folder, "cards", "baseline", shard_id)
    intact = damaged.read_bytes()
    damaged.write_bytes(intact[: len(intact) // 2])
    capsys.readouterr()

    assert main(["run", str(spec_file), "--results", results, "--no-progress", "--resume"]) == 0

    output = capsys.readouterr()
    assert f"shard {shard_id}: {damaged}: {len(intact) // 2} bytes, the manifest says {len(intact)}; " \
           "playing it again" in output.err
    assert "shards: 1 played (3 already done) of 4" in output.out
    assert damaged.read_bytes() == intact  # deterministic: the same bytes again
    assert _game_indexes(folder) == (400, 400, 0, 399)


def test_a_flipped_byte_in_a_shard_object_is_caught_by_the_checksum(
        s3: S3Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_file, results = _spec_file(tmp_path), s3.uri("flipped")
    assert main(["run", str(spec_file), "--results", results, "--no-progress", "--workers", "2"]) == 0
    folder = results_path(results) / "s3_faults"
    damaged = table_path(folder, "games", "baseline", sorted(finished_shards(folder))[0])
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF
    damaged.write_bytes(bytes(data))
    capsys.readouterr()
    assert main(["run", str(spec_file), "--results", results, "--no-progress", "--resume"]) == 0
    assert f"{damaged}: checksum differs from the manifest (damaged); playing it again" in capsys.readouterr().err
    assert _game_indexes(folder) == (400, 400, 0, 399)


def test_a_second_run_while_a_live_run_holds_the_s3_lock_is_refused_with_one_line(
        s3: S3Server, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_file, results = _spec_file(tmp_path), s3.uri("locked")
    folder = results_path(results) / "s3_faults"
    lock = acquire_lock(folder)  # held by this (live) process, as by a run in progress
    try:
        assert json.loads(lock.read_text())["pid"] == os.getpid()
        assert main(["run", str(spec_file), "--results", results, "--no-progress"]) == 2
        error = capsys.readouterr().err.strip()
        assert error == (f"cardlab: error: {folder}: another run (pid {os.getpid()} on {os.uname().nodename}) is "
                         f"writing these results; wait for it to finish, or delete {folder / LOCK_FILE} if that "
                         "run is gone")
    finally:
        release_lock(folder)
    assert not lock.exists()
    assert main(["run", str(spec_file), "--results", results, "--no-progress", "--workers", "2", "--overwrite"]) == 0


def test_of_two_runs_taking_the_s3_lock_at_the_same_moment_exactly_one_gets_it(s3: S3Server) -> None:
    folder = results_path(s3.uri("race")) / "experiment"
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def take() -> None:
        start.wait()
        try:
            acquire_lock(folder)
            outcomes.append("locked")
        except ExperimentLockedError as error:
            outcomes.append(str(error))

    racers = [threading.Thread(target=take) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    release_lock(folder)
    assert outcomes.count("locked") == 1, outcomes
    refused = next(outcome for outcome in outcomes if outcome != "locked")
    assert refused.startswith(f"{folder}: another run (pid {os.getpid()} on ")


def test_an_s3_lock_left_by_a_dead_run_on_this_host_is_taken_over(s3: S3Server) -> None:
    folder = results_path(s3.uri("stale")) / "experiment"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (folder / LOCK_FILE).write_text(json.dumps({"pid": dead.pid, "host": os.uname().nodename, "run": "old"}))
    acquire_lock(folder)
    assert json.loads((folder / LOCK_FILE).read_text())["pid"] == os.getpid()
    release_lock(folder)
    assert not (folder / LOCK_FILE).exists()


KILLED_SPEC = """
name = "s3_interrupted"
game = "divvy"
games = 6000
seed = 5
agents = ["heuristic"]
shard_size = 200
"""


def test_a_driver_killed_mid_run_on_s3_is_finished_by_resume_with_every_game_once(
        s3: S3Server, tmp_path: Path) -> None:
    spec_file = _spec_file(tmp_path, KILLED_SPEC)
    results = s3.uri("killed")
    folder = results_path(results) / "s3_interrupted"
    manifest = folder / "_manifest"
    driver = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "run", str(spec_file), "--results", results, "--workers", "2",
         "--no-progress"],
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while len(list(manifest.glob("*.json"))) < 3 and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.1)
    finally:
        os.killpg(driver.pid, signal.SIGKILL)  # the driver and the local Ray it started
        driver.wait()
    done_before = len(list(manifest.glob("*.json")))
    assert 3 <= done_before < 30, "the driver must die mid-run for this test to mean anything"
    assert (folder / LOCK_FILE).exists()  # left behind by the killed driver

    assert main(["run", str(spec_file), "--results", results, "--resume", "--no-progress", "--workers", "2"]) == 0

    assert len(list(manifest.glob("*.json"))) == 30
    assert _game_indexes(folder) == (6000, 6000, 0, 5999)
    assert not (folder / LOCK_FILE).exists()
