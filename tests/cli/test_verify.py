"""``cardlab verify EXPERIMENT``: every finished shard's files re-hashed against the
manifest; damaged, missing and unexpected files listed; exit 1 when any."""

from __future__ import annotations

import json
import os
import shutil
import socket
from pathlib import Path

import pytest

from cardlab.cli import main
from dataset import integrity
from dataset.count_views import COUNT_VIEWS
from dataset.integrity import CACHE_FILE, list_files
from dataset.storage import LOCK_FILE, MANIFEST_FOLDER, counts_path, table_path
from tests.conftest import SmallExperiment
from tests.damage import flip_game_index_bytes

FILES = 6 * (3 + len(COUNT_VIEWS))
"""The small experiment's files: per finished shard, its three tables and one file per count view."""


def _part(folder: Path, table: str, variant: str, shard: str) -> Path:
    """A shard's Parquet file (always local here)."""
    return Path(str(table_path(folder, table, variant, shard)))


def _counts(folder: Path, view: str, variant: str, shard: str) -> Path:
    """A shard's count file of one count view."""
    return Path(str(counts_path(folder, view, variant, shard)))


@pytest.fixture
def folder(small_experiment: SmallExperiment, tmp_path: Path) -> Path:
    """A private copy of the small experiment (6 shards, each 3 table files and 9 count files)."""
    copy = tmp_path / "results" / "divvy_small"
    shutil.copytree(small_experiment.folder, copy, ignore=shutil.ignore_patterns("_analytics"))
    return copy


def _verify(folder: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[str]]:
    code = main(["verify", "divvy_small", "--results", str(folder.parent), *extra])
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, captured.out.splitlines()


def test_an_intact_experiment_verifies_with_exit_code_zero(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = _verify(folder, capsys)
    size = sum(path.stat().st_size for path in folder.rglob("*.parquet"))
    assert code == 0
    assert lines == [f"{folder}: every file matches the manifest (6 finished shard(s), {FILES} file(s), "
                     f"{size / 1e6:,.1f} MB re-hashed in {lines[0].rsplit(' in ', 1)[1]}"]


def test_damaged_missing_and_unexpected_files_are_each_listed_with_exit_code_one(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    flipped = _part(folder, "games", "baseline", "baseline-2p-0000000000")
    flip_game_index_bytes(flipped)
    truncated = _part(folder, "cards", "four_rounds", "four_rounds-2p-0000000100")
    truncated.write_bytes(truncated.read_bytes()[:100])
    missing = _part(folder, "players", "baseline", "baseline-2p-0000000200")
    missing.unlink()
    miscounted = _counts(folder, "card_counts", "four_rounds", "four_rounds-2p-0000000000")
    miscounted.write_bytes(miscounted.read_bytes()[:100])
    uncounted = _counts(folder, "seat_counts", "baseline", "baseline-2p-0000000000")
    uncounted.unlink()
    stray = folder / "notes.txt"
    stray.write_text("not ours")
    unfinished = _part(folder, "games", "baseline", "baseline-2p-0000000300")
    shutil.copy(flipped, unfinished)  # a shard whose run died before its marker
    unfinished_counts = _counts(folder, "card_counts", "baseline", "baseline-2p-0000000300")
    unfinished_counts.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(miscounted, unfinished_counts)
    temporary = folder / "cards" / "variant=baseline" / ".part-baseline-2p-0000000300.parquet.4242.tmp"
    temporary.write_bytes(b"half")
    code, lines = _verify(folder, capsys)
    assert code == 1
    never_finished = "not in the manifest: a shard that never finished (`cardlab run --resume` plays it again)"
    assert lines[:9] == [
        f"damaged     {truncated}: 100 bytes, the manifest says {lines[0].rsplit(' ', 1)[1]}",
        f"damaged     {miscounted}: 100 bytes, the manifest says {lines[1].rsplit(' ', 1)[1]}",
        f"missing     {uncounted}: missing, though the manifest marks its shard finished",
        f"damaged     {flipped}: checksum differs from the manifest (damaged)",
        f"missing     {missing}: missing, though the manifest marks its shard finished",
        f"unexpected  {temporary}: a temporary file of an interrupted write (`cardlab run --resume` removes it)",
        f"unexpected  {unfinished_counts}: {never_finished}",
        f"unexpected  {unfinished}: {never_finished}",
        f"unexpected  {stray}: not a file cardlab writes here (cardlab never reads it)",
    ]
    assert lines[9].startswith(f"{folder}: 3 damaged, 2 missing, 4 unexpected (6 finished shard(s), {FILES} file(s), ")
    assert lines[9].endswith(f"; `cardlab run SPEC --resume --results {folder.parent}` repairs the damaged and "
                             "missing files; cardlab never reads the unexpected files")
    assert len(lines) == 10


def test_the_json_form_lists_the_same_problems(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _part(folder, "games", "four_rounds", "four_rounds-2p-0000000000").unlink()
    code, lines = _verify(folder, capsys, "--json")
    report = json.loads("\n".join(lines))
    assert code == 1
    assert report["shards"] == 6 and report["files_checked"] == FILES and report["running"] is False
    assert report["problems"] == [{
        "kind": "missing", "path": str(_part(folder, "games", "four_rounds", "four_rounds-2p-0000000000")),
        "detail": "missing, though the manifest marks its shard finished", "shard": "four_rounds-2p-0000000000"}]


def test_the_files_of_a_running_runs_unfinished_shards_are_not_problems(
        folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _part(folder, "games", "baseline", "baseline-2p-0000000000")
    shutil.copy(source, _part(folder, "games", "baseline", "baseline-2p-0000000300"))  # being written
    (folder / LOCK_FILE).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "run": "x"}))
    code, lines = _verify(folder, capsys)
    assert code == 0
    assert lines[0] == (f"note: a run (pid {os.getpid()} on {socket.gethostname()}) is writing these results; "
                        "the files of its unfinished shards are not listed")


def test_verify_rehashes_what_the_readers_identity_cache_trusts(
        folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # Damage the file system cannot see (bits flipped on the disk itself) leaves the
    # identity as it was: simulated by putting the damaged file's identity in the cache.
    monkeypatch.setattr(integrity, "RACY_SECONDS", 0.0)
    assert main(["sql", "divvy_small", "SELECT 1", "--results", str(folder.parent)]) == 0
    rotten = _part(folder, "games", "baseline", "baseline-2p-0000000100")
    flip_game_index_bytes(rotten)
    cache = json.loads((folder / CACHE_FILE).read_text())
    key = "games/variant=baseline/part-baseline-2p-0000000100.parquet"
    cache["files"][key] = [cache["files"][key][0], *list_files(folder / "games")[str(rotten)].identity]
    (folder / CACHE_FILE).write_text(json.dumps(cache))
    integrity._remembered.clear()
    assert main(["sql", "divvy_small", "SELECT count(*) FROM games", "--results", str(folder.parent)]) == 0
    capsys.readouterr()
    code, lines = _verify(folder, capsys)
    assert code == 1 and lines[0] == f"damaged     {rotten}: checksum differs from the manifest (damaged)"


def test_an_unknown_experiment_is_a_one_line_user_error(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "nothing_here", "--results", str(folder.parent)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"cardlab: error: {folder.parent / 'nothing_here'}: no such folder")
    assert len(error.splitlines()) == 1


def test_an_unreadable_manifest_entry_is_a_one_line_error(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = folder / MANIFEST_FOLDER / "baseline-2p-0000000000.json"
    entry.write_text("{")
    assert main(["verify", "divvy_small", "--results", str(folder.parent)]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith(f"cardlab: error: {entry}: unreadable manifest entry (") and "\n" not in error
