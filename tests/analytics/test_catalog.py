"""Finding experiments and opening their views."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from analytics.catalog import open_catalog
from analytics.folders import (
    ExperimentNotFoundError,
    NoResultsError,
    experiment_version,
    list_experiments,
    resolve_experiment,
)
from analytics.impact import IMPACT_VIEWS
from analytics.views import METRIC_VIEWS
from results.storage import MANIFEST_FOLDER, SPEC_FILE

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment


@pytest.fixture
def copy_of_experiment(small_experiment: SmallExperiment, tmp_path: Path) -> Path:
    """A private copy of the small experiment that a test may damage."""
    folder = tmp_path / "results" / small_experiment.folder.name
    shutil.copytree(small_experiment.folder, folder)
    return folder


def test_an_experiment_name_resolves_to_its_folder_under_the_results_root(small_experiment: SmallExperiment) -> None:
    assert resolve_experiment("divvy_small", small_experiment.root) == small_experiment.root / "divvy_small"


def test_a_path_resolves_to_itself_whatever_the_results_root(small_experiment: SmallExperiment,
                                                              tmp_path: Path) -> None:
    assert resolve_experiment(str(small_experiment.folder), tmp_path) == small_experiment.folder


def test_an_unknown_name_names_the_folder_and_lists_the_experiments_in_one_line(
        small_experiment: SmallExperiment) -> None:
    with pytest.raises(ExperimentNotFoundError) as caught:
        resolve_experiment("nope", small_experiment.root)
    message = str(caught.value)
    assert "\n" not in message
    assert str(small_experiment.root / "nope") in message and SPEC_FILE in message
    assert "divvy_small" in message


def test_an_unknown_name_in_an_empty_results_root_says_how_to_make_an_experiment(tmp_path: Path) -> None:
    with pytest.raises(ExperimentNotFoundError, match="cardlab run"):
        resolve_experiment("nope", tmp_path / "results")


def test_a_folder_without_spec_json_is_not_an_experiment(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(ExperimentNotFoundError, match=re.escape(f"{tmp_path / 'plain'}: no {SPEC_FILE}")):
        resolve_experiment("plain", tmp_path)


@pytest.mark.parametrize("name", [".hidden", "-x", "a b", "x" * 101])
def test_a_name_that_is_not_an_experiment_name_is_refused(name: str, tmp_path: Path) -> None:
    with pytest.raises(ExperimentNotFoundError, match="not a valid experiment name"):
        resolve_experiment(name, tmp_path)


def test_a_name_is_only_looked_up_inside_the_results_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An experiment beside the results root, and the current directory beside it too:
    # a bare name must not find it, neither from the root nor from the current directory.
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / SPEC_FILE).write_text("{}")
    root = tmp_path / "results"
    root.mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ExperimentNotFoundError, match=re.escape(f"{root / 'outside'}: no such folder")):
        resolve_experiment("outside", root)
    # With a slash it is a path, and then it is found where the path says.
    assert resolve_experiment("./outside", root) == Path("outside")


def test_the_error_is_a_lookup_error(tmp_path: Path) -> None:
    with pytest.raises(LookupError):
        resolve_experiment("nope", tmp_path)


def test_list_experiments_finds_only_folders_with_a_spec(small_experiment: SmallExperiment, tmp_path: Path) -> None:
    assert list_experiments(small_experiment.root) == [small_experiment.folder]
    assert list_experiments(tmp_path / "missing") == []


def test_open_catalog_has_the_three_views_with_variant_from_the_files(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        views = con.execute("SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY 1").fetchall()
        assert views == sorted((name,) for name in ("cards", "games", "players", *METRIC_VIEWS, *IMPACT_VIEWS))
        columns = [row[0] for row in con.execute("DESCRIBE games").fetchall()]
        assert columns[:5] == ["experiment", "variant", "game", "game_index", "n_players"]
        assert columns.count("variant") == 1  # no Hive column added beside the stored one
    finally:
        con.close()


def test_temporary_files_and_unfinished_shards_are_not_read(copy_of_experiment: Path) -> None:
    folder = copy_of_experiment
    source = next((folder / "games" / "variant=baseline").glob("part-*.parquet"))
    # A file being written (dot-name), a dot-file that even ends in .parquet,
    # and a whole shard whose manifest marker is not written yet.
    shutil.copy(source, source.with_name(f".{source.name}.123.tmp"))
    shutil.copy(source, source.with_name(".sneaky.parquet"))
    shutil.copy(source, source.with_name("part-baseline-2p-0000000300.parquet"))
    con = open_catalog(folder)
    try:
        assert con.execute("SELECT count(*) FROM games").fetchone() == (600,)
    finally:
        con.close()


def test_an_experiment_without_finished_shards_is_a_clear_error(copy_of_experiment: Path) -> None:
    shutil.rmtree(copy_of_experiment / MANIFEST_FOLDER)
    with pytest.raises(NoResultsError) as caught:
        open_catalog(copy_of_experiment)
    assert str(caught.value) == (
        f"{copy_of_experiment}: no finished shards yet; expected {MANIFEST_FOLDER}/*.json written by `cardlab run`")


def test_a_finished_shard_with_a_missing_file_is_a_clear_error(copy_of_experiment: Path) -> None:
    missing = copy_of_experiment / "cards" / "variant=four_rounds" / "part-four_rounds-2p-0000000100.parquet"
    missing.unlink()
    with pytest.raises(NoResultsError, match=re.escape(f"{missing}: missing")):
        open_catalog(copy_of_experiment)


def test_the_results_version_changes_when_a_shard_finishes(copy_of_experiment: Path) -> None:
    before = experiment_version(copy_of_experiment)
    marker = copy_of_experiment / MANIFEST_FOLDER / "baseline-2p-0000000000.json"
    later = before + 10**9
    os.utime(marker, ns=(later, later))
    assert experiment_version(copy_of_experiment) == later
