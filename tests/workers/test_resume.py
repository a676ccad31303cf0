"""A run whose driver is killed mid-way, finished with --resume, has every game once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from cardlab.cli import main
from dataset.storage import SPEC_FILE
from experiments.spec import parse_spec
from workers.runner import RunError, RunOptions, prepare_experiment_dir

SPEC = """
name = "interrupted"
game = "divvy"
games = 12000
seed = 5
agents = ["heuristic"]
shard_size = 200
"""
# 60 shards: enough for the driver to die with some finished and most not.


def _finished_markers(folder: Path) -> int:
    manifest = folder / "_manifest"
    return len(list(manifest.glob("*.json"))) if manifest.is_dir() else 0


@pytest.mark.usefixtures("shared_ray")
def test_a_killed_run_finished_with_resume_has_every_game_exactly_once(tmp_path: Path) -> None:
    spec_file = tmp_path / "interrupted.toml"
    spec_file.write_text(SPEC)
    results = tmp_path / "results"
    folder = results / "interrupted"
    driver = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "run", str(spec_file), "--results", str(results),
         "--workers", "2", "--no-progress"],
        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120
        while _finished_markers(folder) < 4 and time.monotonic() < deadline and driver.poll() is None:
            time.sleep(0.05)
    finally:
        # The whole process group: the driver and the local Ray it started.
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    done_before = _finished_markers(folder)
    assert 4 <= done_before < 60, "the driver must die mid-run for this test to mean anything"

    assert main(["run", str(spec_file), "--results", str(results), "--resume", "--no-progress", "--workers", "2"]) == 0

    assert _finished_markers(folder) == 60
    files = str(folder / "games" / "**" / "*.parquet")
    total, distinct, low, high = duckdb.connect().execute(
        f"SELECT count(*), count(DISTINCT game_index), min(game_index), max(game_index) "
        f"FROM read_parquet('{files}', hive_partitioning=false)").fetchone() or (0, 0, 0, 0)
    assert (total, distinct, low, high) == (12000, 12000, 0, 11999)
    players = str(folder / "players" / "**" / "*.parquet")
    assert duckdb.connect().execute(
        f"SELECT count(*) FROM read_parquet('{players}', hive_partitioning=false)").fetchone() == (24000,)


def test_resume_with_a_changed_spec_is_refused_naming_what_changed(tmp_path: Path) -> None:
    original = parse_spec({"name": "again", "game": "divvy", "games": 100, "seed": 4}, "again.toml")
    prepare_experiment_dir(original, RunOptions(results_root=tmp_path))
    changed = parse_spec({"name": "again", "game": "divvy", "games": 100, "seed": 5}, "again.toml")
    with pytest.raises(RunError) as raised:
        prepare_experiment_dir(changed, RunOptions(results_root=tmp_path, resume=True))
    assert str(raised.value) == (
        f"{tmp_path / 'again' / SPEC_FILE}: the stored spec differs from again.toml (seed: 4 when the run started, "
        "5 now); --resume needs the same games, seed, agents, variants and shard size")


def test_resume_accepts_the_same_spec_with_another_description(tmp_path: Path) -> None:
    raw = {"name": "again", "game": "divvy", "games": 100, "variants": {"short": {"rules.rounds": 4}}}
    prepare_experiment_dir(parse_spec(raw, "again.toml"), RunOptions(results_root=tmp_path))
    described = parse_spec({**raw, "description": "now with words"}, "again.toml")
    root = prepare_experiment_dir(described, RunOptions(results_root=tmp_path, resume=True))
    assert root == tmp_path / "again"
