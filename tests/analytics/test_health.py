"""An experiment's run health (``analytics.health.run_health``): games and shards done of
planned, the run's status, and the finished shards' files that are damaged or missing, with
the command that repairs them."""

from __future__ import annotations

import shutil
from pathlib import Path

from analytics.health import run_health
from dataset.storage import MANIFEST_FOLDER
from tests.conftest import SmallExperiment
from tests.damage import flip_game_index_bytes


def copy_of(small_experiment: SmallExperiment, tmp_path: Path) -> Path:
    folder = tmp_path / small_experiment.folder.name
    shutil.copytree(small_experiment.folder, folder)
    return folder


def test_a_whole_run_is_intact_with_every_game_and_shard(small_experiment: SmallExperiment) -> None:
    health = run_health(small_experiment.folder)
    assert (health.games_played, health.games_planned) == (600, 600)  # 300 games x 2 variants
    assert (health.shards_finished, health.shards_planned, health.shards_missing) == (6, 6, 0)
    assert health.intact and health.problems == () and health.summary == ""


def test_a_shard_never_finished_is_missing_from_the_plan(small_experiment: SmallExperiment, tmp_path: Path) -> None:
    folder = copy_of(small_experiment, tmp_path)
    entry = sorted((folder / MANIFEST_FOLDER).glob("*.json"))[-1]
    entry.unlink()
    health = run_health(folder)
    assert (health.games_played, health.shards_finished, health.shards_missing) == (500, 5, 1)
    assert health.status == "incomplete" and health.intact
    assert health.repair.startswith("cardlab run") and health.repair.endswith(f"--resume --results {tmp_path}")


def test_a_damaged_file_is_named_with_the_repair(small_experiment: SmallExperiment, tmp_path: Path) -> None:
    folder = copy_of(small_experiment, tmp_path)
    damaged = sorted((folder / "games").rglob("*.parquet"))[0]
    flip_game_index_bytes(damaged)
    health = run_health(folder)
    assert not health.intact and len(health.problems) == 1
    assert health.problems[0].startswith(f"damaged: {damaged}: checksum differs")
    assert "nothing is read until `cardlab run" in health.summary
