"""The report reads the counts its shard tasks wrote (``workers.counts``) and gives,
number for number, what it gave when it counted the shards' rows itself: an
experiment written before shard tasks counted is still counted from its rows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from analytics.catalog import open_catalog
from analytics.partials import CACHE_FOLDER, shard_counts
from cardlab.cli import main
from dataset.count_views import CACHE_VERSION, COUNT_VIEWS
from dataset.storage import counts_path
from tests.conftest import SmallExperiment
from tests.damage import as_written_before_task_counts


@pytest.fixture
def twins(small_experiment: SmallExperiment, tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of the small experiment: as written, and as an older cardlab left it (no task counts)."""
    counted, uncounted = tmp_path / "counted" / "divvy_small", tmp_path / "uncounted" / "divvy_small"
    for copy in (counted, uncounted):
        shutil.copytree(small_experiment.folder, copy, ignore=shutil.ignore_patterns(CACHE_FOLDER))
    as_written_before_task_counts(uncounted)
    return counted, uncounted


def _report(folder: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    capsys.readouterr()
    assert main(["report", "divvy_small", "--results", str(folder.parent), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    report.pop("folder")
    for row in report["tables"]["agent_cost"]:  # wall-clock numbers, different in any two runs
        del row["seconds_per_game"], row["ms_per_decision"]
    return report


def test_the_report_from_the_tasks_counts_is_the_report_counted_from_the_rows(
        twins: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    counted, uncounted = twins
    from_tasks = _report(counted, capsys)
    assert from_tasks == _report(uncounted, capsys)
    assert from_tasks["games_played"] == 600
    assert not (counted / CACHE_FOLDER / CACHE_VERSION).exists()  # nothing counted again
    assert len(list((uncounted / CACHE_FOLDER / CACHE_VERSION).iterdir())) == 6  # each shard counted once, and cached


def test_the_summed_count_tables_are_the_count_views_over_every_row(twins: tuple[Path, Path]) -> None:
    counted, _ = twins
    from_counts, from_rows = open_catalog(counted, cached=True), open_catalog(counted, cached=False)
    try:
        for view in COUNT_VIEWS:
            query = f"SELECT * FROM {view} ORDER BY ALL"
            summed, scanned = from_counts.execute(query).fetchall(), from_rows.execute(query).fetchall()
            assert summed == scanned, view
            assert summed or view in ("faction_counts", "matchup_counts"), view  # Divvy has no factions
    finally:
        from_counts.close()
        from_rows.close()


def test_a_shard_whose_counts_are_of_another_format_is_counted_from_its_rows(twins: tuple[Path, Path]) -> None:
    counted, _ = twins
    marker = counted / "_manifest" / "baseline-2p-0000000100.json"
    entry = json.loads(marker.read_text())
    entry["counts"]["format"]["views"] = "written-by-another-version"
    marker.write_text(json.dumps(entry))
    sources = shard_counts(counted)
    written = counts_path(counted, "card_counts", "baseline", "baseline-2p-0000000100")
    assert written not in sources["card_counts"]
    cached = counted / CACHE_FOLDER / CACHE_VERSION / "baseline-2p-0000000100" / "card_counts.parquet"
    assert cached in sources["card_counts"]
    assert counts_path(counted, "card_counts", "baseline", "baseline-2p-0000000000") in sources["card_counts"]
