"""The paired tests of ``variant_deltas`` read sums over the seed-matched games cached per
pair of shards (``analytics.partials.pair_sums``): the same numbers as pairing every row,
read from the cache by the next report, computed again when a shard changes."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from analytics.catalog import open_catalog
from analytics.folders import read_manifest
from analytics.partials import CACHE_FOLDER, PAIRS_FOLDER, shard_pairs
from dataset.count_views import CACHE_VERSION
from dataset.location import results_path
from dataset.storage import table_path
from tests.conftest import small_paired_spec, write_experiment


@pytest.fixture(scope="module")
def paired_experiment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Divvy's baseline and one variant on the baseline's seeds, two shards each; read-only."""
    return write_experiment(small_paired_spec(), tmp_path_factory.mktemp("paired"))


@pytest.fixture
def copy(paired_experiment: Path, tmp_path: Path) -> Path:
    folder = tmp_path / paired_experiment.name
    shutil.copytree(paired_experiment, folder, ignore=shutil.ignore_patterns(CACHE_FOLDER))
    return folder


def _deltas(folder: Path, *, cached: bool = True, write_cache: bool = True) -> pl.DataFrame:
    con = open_catalog(folder, cached=cached, write_cache=write_cache)
    try:
        return con.sql("SELECT * FROM variant_deltas").pl()
    finally:
        con.close()


def _pair_folders(folder: Path) -> list[Path]:
    return sorted((folder / CACHE_FOLDER / CACHE_VERSION / PAIRS_FOLDER).iterdir())


def test_the_deltas_from_the_cached_pairs_are_the_deltas_from_pairing_every_row(copy: Path) -> None:
    from_rows = _deltas(copy, cached=False)
    from_cache = _deltas(copy)
    assert_frame_equal(from_cache, from_rows, check_exact=False, rel_tol=1e-12)
    assert set(from_cache["test"]) >= {"mcnemar", "paired_z"}  # the paired tests were used
    # One cached pair per variant shard: its baseline twin over the same 100 games.
    assert [path.name for path in _pair_folders(copy)] == [
        "four_rounds-2p-0000000000+baseline-2p-0000000000", "four_rounds-2p-0000000100+baseline-2p-0000000100"]


def test_the_next_report_reads_the_pairs_from_the_cache(copy: Path) -> None:
    before = _deltas(copy)
    _double_the_first_pairs_games(copy)
    after = _deltas(copy)
    family = pl.col("family") == "game"
    assert set(before.filter(family)["test"]) == {"mcnemar", "paired_z"}
    assert set(after.filter(family)["test"]) == {"z", "welch"}


def _double_the_first_pairs_games(folder: Path) -> None:
    """Double one cached pair's count of matched games: the games then no longer all look
    matched, so the game family falls back to the unpaired tests."""
    games = _pair_folders(folder)[0] / "games.parquet"
    duckdb.execute(f"COPY (SELECT * REPLACE (pairs * 2 AS pairs) FROM read_parquet('{games}')) "
                   f"TO '{games}.new' (FORMAT parquet)")
    os.replace(f"{games}.new", games)


def _has_cached_pairs_table(folder: Path) -> bool:
    con = open_catalog(folder, write_cache=False)
    try:
        return con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = '_paired_games'"
                           ).fetchall() == [(1,)]
    finally:
        con.close()


def test_a_catalog_that_may_not_write_reads_the_cached_pairs_and_writes_none(copy: Path) -> None:
    from_rows = _deltas(copy, cached=False)
    assert_frame_equal(_deltas(copy, write_cache=False), from_rows, check_exact=False, rel_tol=1e-12)
    # Nothing cached yet: the pairing is left to the queries that read variant_deltas
    # (opening pairs no rows), and nothing is written.
    assert not _has_cached_pairs_table(copy)
    assert not (copy / CACHE_FOLDER / CACHE_VERSION / PAIRS_FOLDER).exists()
    _deltas(copy)
    assert _has_cached_pairs_table(copy)
    _double_the_first_pairs_games(copy)
    assert set(_deltas(copy, write_cache=False).filter(pl.col("family") == "game")["test"]) == {"z", "welch"}


def test_a_pair_whose_shard_changed_is_computed_again(copy: Path) -> None:
    from_rows = _deltas(copy, cached=False)
    _deltas(copy)
    _double_the_first_pairs_games(copy)
    shard = table_path(results_path(copy), "games", "baseline", "baseline-2p-0000000000")
    stat = Path(str(shard)).stat()
    os.utime(Path(str(shard)), ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # same rows, a newer file
    assert_frame_equal(_deltas(copy), from_rows, check_exact=False, rel_tol=1e-12)


def test_an_experiment_not_on_the_baseline_seeds_caches_no_pairs(copy: Path) -> None:
    spec = copy / "spec.json"
    spec.write_text(spec.read_text().replace('"paired_seeds": true', '"paired_seeds": false'))
    deltas = _deltas(copy)
    assert not (copy / CACHE_FOLDER / CACHE_VERSION / PAIRS_FOLDER).exists()
    assert set(deltas["test"]) <= {"z", "welch"}


def _entry(variant: str, players: int, start: int, stop: int) -> dict[str, Any]:
    return {"variant": variant, "n_players": players, "start": start, "stop": stop}


def test_shards_pair_with_the_baseline_shards_of_their_player_count_over_the_same_games() -> None:
    manifest: dict[str, dict[str, Any]] = {
        "b2-0": _entry("baseline", 2, 0, 100), "b2-100": _entry("baseline", 2, 100, 200),
        "b3-0": _entry("baseline", 3, 0, 100),
        "v2-0": _entry("v", 2, 0, 100), "v2-50": _entry("v", 2, 50, 150), "v3-0": _entry("v", 3, 0, 100),
        "w2-200": _entry("w", 2, 200, 300),  # no baseline games there yet
        "old": {"variant": "v"},  # an entry that does not say its games: paired with every baseline shard
    }
    assert shard_pairs(manifest) == [
        ("v2-0", "b2-0"), ("v2-50", "b2-0"), ("v2-50", "b2-100"), ("v3-0", "b3-0"),
        ("old", "b2-0"), ("old", "b2-100"), ("old", "b3-0")]


def test_the_paired_experiment_has_the_manifest_ranges_the_pairing_reads(paired_experiment: Path) -> None:
    manifest = read_manifest(results_path(paired_experiment))
    assert len(shard_pairs(manifest)) == 2 == len(manifest) // 2
