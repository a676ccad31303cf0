"""When readers re-hash a shard file (``dataset.integrity``): once while its identity
(size, modification and change time, inode) holds, again after any write, and
always when it changed within the racy window; a read-only results folder still
verifies."""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pytest

from analytics.catalog import open_catalog
from analytics.folders import DamagedResultsError, read_manifest
from dataset import integrity
from dataset.count_views import COUNT_VIEWS
from dataset.integrity import CACHE_FILE, check_shards
from dataset.storage import recorded_files, table_path
from tests.conftest import SmallExperiment
from tests.damage import flip_game_index_bytes

SHARD_FILE = "games/variant=baseline/part-baseline-2p-0000000100.parquet"


@pytest.fixture
def folder(small_experiment: SmallExperiment, tmp_path: Path) -> Path:
    """A private copy of the session's small experiment (6 shards of 3 table files and 9 count files)."""
    copy = tmp_path / "divvy_small"
    shutil.copytree(small_experiment.folder, copy, ignore=shutil.ignore_patterns("_analytics"))
    return copy


def _games_file(folder: Path) -> Path:
    return Path(str(table_path(folder, "games", "baseline", "baseline-2p-0000000100")))


def _remembered(folder: Path) -> dict[str, list[object]]:
    return dict(json.loads((folder / CACHE_FILE).read_text())["files"])


def test_a_file_is_hashed_once_while_its_identity_holds_and_again_after_any_write(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = read_manifest(folder)
    monkeypatch.setattr(integrity, "RACY_SECONDS", 0.0)  # the copy is seconds old; see the racy test below
    findings, hashed = check_shards(folder, manifest)
    recorded = [file for shard, entry in manifest.items() for _path, file in recorded_files(folder, shard, entry)]
    assert findings == [] and hashed == sum(file["bytes"] for file in recorded)
    assert len(recorded) == len(_remembered(folder)) == 6 * (3 + len(COUNT_VIEWS))
    integrity._remembered.clear()  # a new process: only the cache file remains
    assert check_shards(folder, manifest) == ([], 0)
    flip_game_index_bytes(_games_file(folder))  # size and mtime kept: the change time moves
    findings, hashed = check_shards(folder, manifest)
    assert [(finding.kind, finding.path) for finding in findings] == [("damaged", _games_file(folder))]
    assert hashed == _games_file(folder).stat().st_size
    assert SHARD_FILE not in _remembered(folder)
    assert check_shards(folder, manifest, trust_identity=False)[1] > 0


def test_a_file_changed_within_the_racy_window_is_not_remembered(folder: Path) -> None:
    time.sleep(integrity.RACY_SECONDS + 0.1)  # the copied files are now old enough to be remembered
    fresh = _games_file(folder)
    os.utime(fresh)  # ... but this one changed just now
    findings, _ = check_shards(folder, read_manifest(folder))
    assert findings == []
    remembered = _remembered(folder)
    assert len(remembered) == 6 * (3 + len(COUNT_VIEWS)) - 1
    assert SHARD_FILE not in remembered
    assert check_shards(folder, read_manifest(folder))[1] == fresh.stat().st_size  # hashed again


def test_readers_on_a_read_only_results_folder_still_verify(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:

    def refuse(data: bytes, path: object) -> None:
        raise PermissionError(13, "Read-only file system")

    monkeypatch.setattr(integrity, "write_bytes_atomically", refuse)
    con = open_catalog(folder)
    con.close()
    assert not (folder / CACHE_FILE).exists()
    flip_game_index_bytes(_games_file(folder))
    with pytest.raises(DamagedResultsError):
        open_catalog(folder)
