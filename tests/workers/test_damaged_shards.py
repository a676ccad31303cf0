"""Damaged shards are never counted: every reader (report, sql, catalog, replay, the
dashboard) refuses an experiment whose finished shards differ from their manifest
entry, in one line naming the shard and the repair, a dashboard also when the shard
changed after it had served its pages; a truncated or unreadable file is the same line,
never a traceback; ``--resume`` repairs it."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from cardlab.cli import main
from dataset.storage import MANIFEST_FOLDER, counts_path, table_path
from tests.conftest import SmallExperiment
from tests.damage import as_written_before_task_counts, flip_game_index_bytes, make_a_loser_win

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"
SHARD = "baseline-2p-0000000100"


@pytest.fixture
def copy(small_experiment: SmallExperiment, tmp_path: Path) -> Path:
    """A private copy of the session's small experiment (600 games in 6 shards); returns its results folder."""
    shutil.copytree(small_experiment.folder, tmp_path / "results" / "divvy_small",
                    ignore=shutil.ignore_patterns("_analytics"))
    return tmp_path / "results"


def _games_file(results: Path, shard: str = SHARD) -> Path:
    return table_path(results / "divvy_small", "games", "baseline", shard)  # type: ignore[return-value]


READERS = {
    "report": ["report", "divvy_small"],
    "sql": ["sql", "divvy_small", "SELECT count(DISTINCT game_index) FROM games"],
    "sql --read-only": ["sql", "divvy_small", "SELECT count(*) FROM games", "--read-only"],
    "catalog": ["catalog", "divvy_small"],
    "replay": ["replay", "--experiment", "divvy_small", "--game-index", "3"],
}


def _one_line_refusal(capsys: pytest.CaptureFixture[str], arguments: list[str], results: Path) -> str:
    code = main([*arguments, "--results", str(results)])
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert captured.out == ""
    return lines[0]


@pytest.mark.parametrize("reader", list(READERS))
def test_bytes_flipped_in_a_shard_with_size_and_mtime_kept_are_refused_by_every_reader(
        copy: Path, capsys: pytest.CaptureFixture[str], reader: str) -> None:
    assert main(["report", "divvy_small", "--results", str(copy)]) == 0  # read once: the files are remembered
    capsys.readouterr()
    damaged = _games_file(copy)
    flip_game_index_bytes(damaged)
    line = _one_line_refusal(capsys, READERS[reader], copy)
    assert line == (f"cardlab: error: shard {SHARD}: {damaged}: checksum differs from the manifest (damaged); "
                    f"nothing is read until `cardlab run SPEC --resume --results {copy}` repairs it")


@pytest.mark.parametrize("reader", list(READERS))
def test_a_truncated_shard_is_the_same_one_line_error_for_every_reader(
        copy: Path, capsys: pytest.CaptureFixture[str], reader: str) -> None:
    damaged = table_path(copy / "divvy_small", "cards", "four_rounds", "four_rounds-2p-0000000200")
    size = damaged.stat().st_size
    damaged.write_bytes(damaged.read_bytes()[: size // 2])
    line = _one_line_refusal(capsys, READERS[reader], copy)
    assert line.startswith(f"cardlab: error: shard four_rounds-2p-0000000200: {damaged}: {size // 2} bytes, "
                           f"the manifest says {size}; nothing is read until ")
    assert "`cardlab run SPEC --resume" in line


@pytest.mark.parametrize("reader", list(READERS))
def test_a_damaged_count_file_is_refused_by_every_reader_as_the_tables_are(
        copy: Path, capsys: pytest.CaptureFixture[str], reader: str) -> None:
    assert main(["report", "divvy_small", "--results", str(copy)]) == 0  # read once: the files are remembered
    capsys.readouterr()
    damaged = counts_path(copy / "divvy_small", "card_counts", "baseline", SHARD)
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte, size and inode kept
    with damaged.open("r+b") as handle:
        handle.write(data)
    line = _one_line_refusal(capsys, READERS[reader], copy)
    assert line == (f"cardlab: error: shard {SHARD}: {damaged}: checksum differs from the manifest (damaged); "
                    f"nothing is read until `cardlab run SPEC --resume --results {copy}` repairs it")


def test_a_missing_and_a_garbled_file_are_named_with_how_many_more(copy: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _games_file(copy).unlink()
    garbled = table_path(copy / "divvy_small", "players", "baseline", "baseline-2p-0000000200")
    garbled.write_bytes(os.urandom(garbled.stat().st_size))
    line = _one_line_refusal(capsys, READERS["report"], copy)
    assert f"{_games_file(copy)}: missing, though the manifest marks its shard finished" in line
    assert f"(and 1 more file(s); `cardlab verify {copy / 'divvy_small'}` lists them all)" in line


def test_an_unreadable_manifest_entry_is_one_line_too(copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    entry = copy / "divvy_small" / MANIFEST_FOLDER / f"{SHARD}.json"
    entry.write_text(entry.read_text()[:40])
    line = _one_line_refusal(capsys, READERS["sql"], copy)
    assert line.startswith(f"cardlab: error: {entry}: unreadable manifest entry (")
    assert line.endswith("`cardlab run SPEC --resume --results " + str(copy) + "` repairs it")


def test_the_dashboard_shows_the_refusal_instead_of_numbers(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flip_game_index_bytes(_games_file(copy))
    monkeypatch.setenv("CARDLAB_RESULTS", str(copy))
    for page in ("win_rates", "cards", "sql", "replay"):
        at = AppTest.from_file(str(APP), default_timeout=60)
        at.session_state["experiment"] = "divvy_small"
        at.switch_page(f"pages/{page}.py")
        at.run()
        assert not at.exception, f"{page}: {at.exception}"
        shown = [element.value for element in [*at.warning, *at.error]]
        assert len(shown) == 1 and shown[0].startswith(f"shard {SHARD}: "), f"{page}: {shown}"
        assert not at.dataframe, f"{page}: numbers shown from a damaged experiment"


def _page(name: str) -> AppTest:
    """A session on one dashboard page (every session of this process shares the server's caches), run once."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["experiment"] = "divvy_small"
    at.switch_page(f"pages/{name}.py")
    at.run()
    assert not at.exception, f"{name}: {at.exception}"
    return at


WINS = "SELECT count(*) AS wins FROM players WHERE won"


def test_a_dashboard_that_served_its_pages_refuses_them_once_a_shard_changes_under_it(
        copy: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("CARDLAB_RESULTS", str(copy))
    pages = {name: _page(name) for name in ("win_rates", "cards", "replay", "sql")}
    for name, at in pages.items():
        assert at.dataframe and not at.warning and not at.error, f"{name}: nothing shown before the edit"
    sql = pages["sql"]
    sql.text_area[0].input(WINS).run()
    [wins] = pl.from_pandas(sql.dataframe[0].value)["wins"].to_list()
    edited = table_path(copy / "divvy_small", "players", "baseline", SHARD)
    assert isinstance(edited, Path)
    make_a_loser_win(edited)
    capsys.readouterr()  # what the pages logged
    refusal = _one_line_refusal(capsys, READERS["report"], copy).removeprefix("cardlab: error: ")
    assert refusal.startswith(f"shard {SHARD}: {edited}: ")
    for name, at in pages.items():
        at.run()
        assert not at.exception, f"{name}: {at.exception}"
        shown = [element.value for element in [*at.warning, *at.error]]
        assert shown == [refusal], f"{name}: {shown}"
        assert not at.dataframe, f"{name}: numbers shown from an edited shard"
    # A query not asked before the edit is refused too, not answered from the edited file ({wins} + 1).
    sql.text_area[0].input(WINS + " AND seat >= 0").run()
    assert [element.value for element in sql.error] == [refusal] and not sql.dataframe, wins


@pytest.mark.usefixtures("shared_ray")
def test_resume_repairs_a_damaged_shard_a_lost_count_file_and_a_cut_marker_and_the_hint_names_the_spec_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_file = tmp_path / "repair.toml"
    spec_file.write_text('name = "repair"\ngame = "divvy"\ngames = 300\nseed = 5\nshard_size = 100\n')
    results = tmp_path / "results"
    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["report", "repair", "--results", str(results), "--format", "json"]) == 0
    before = capsys.readouterr().out
    damaged = table_path(results / "repair", "games", "baseline", "baseline-2p-0000000100")
    flip_game_index_bytes(damaged)  # type: ignore[arg-type]
    uncounted = counts_path(results / "repair", "card_counts", "baseline", "baseline-2p-0000000000")
    uncounted.unlink()  # a count file lost
    line = _one_line_refusal(capsys, ["report", "repair"], results)
    assert line.endswith(f"`cardlab run {spec_file.resolve()} --resume --results {results}` repairs it")
    marker = results / "repair" / MANIFEST_FOLDER / "baseline-2p-0000000200.json"
    marker.write_text(marker.read_text()[:30])  # a marker cut short too
    assert main(["run", str(spec_file), "--results", str(results), "--no-progress", "--resume"]) == 0
    repairs = capsys.readouterr().err
    assert f"{damaged}: checksum differs from the manifest (damaged); playing it again" in repairs
    assert f"shard baseline-2p-0000000200: {marker}: unreadable manifest entry (" in repairs
    assert (f"shard baseline-2p-0000000000: {uncounted}: missing, though the manifest marks its shard finished; "
            "playing it again") in repairs
    assert uncounted.is_file()
    assert main(["report", "repair", "--results", str(results), "--format", "json"]) == 0
    after = capsys.readouterr().out
    assert _without_timings(after) == _without_timings(before)


@pytest.mark.usefixtures("shared_ray")
def test_the_repair_hint_of_a_cut_down_run_repeats_its_games_and_repairs_that_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_file = tmp_path / "cut.toml"
    spec_file.write_text('name = "cut"\ngame = "divvy"\ngames = 3000\nseed = 5\nshard_size = 100\n')
    results = tmp_path / "results"
    assert main(["run", str(spec_file), "--games", "200", "--results", str(results), "--no-progress",
                 "--workers", "1"]) == 0
    capsys.readouterr()
    folder = results / "cut-games-200"
    flip_game_index_bytes(table_path(folder, "games", "baseline", "baseline-2p-0000000100"))  # type: ignore[arg-type]
    line = _one_line_refusal(capsys, ["report", "cut-games-200"], results)
    hint = f"cardlab run {spec_file.resolve()} --games 200 --resume --results {results}"
    assert line.endswith(f"`{hint}` repairs it")
    # The hint's command repairs this folder (without --games it would plan 3,000 games in `cut`).
    assert main([*hint.split()[1:], "--no-progress", "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["verify", str(folder)]) == 0
    assert not (results / "cut").exists()


def _without_timings(report_json: str) -> object:
    """The report with its wall-clock numbers (seconds per game, ms per decision) left out."""
    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {key: strip(item) for key, item in value.items()
                    if key not in ("seconds_per_game", "ms_per_decision")}
        if isinstance(value, list):
            return [strip(item) for item in value]
        return value

    return strip(json.loads(report_json))


def test_a_file_that_cannot_be_read_is_the_same_one_line_error(
        copy: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from dataset import integrity

    unreadable = _games_file(copy)
    real = integrity.sha256_of

    def denied(path: object) -> str:
        if str(path) == str(unreadable):  # as for a file of another user, or an I/O error (root reads everything)
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(integrity, "sha256_of", denied)
    line = _one_line_refusal(capsys, READERS["report"], copy)
    assert line.startswith(f"cardlab: error: shard {SHARD}: {unreadable}: unreadable (Permission denied); ")


def test_a_damaged_report_cache_is_rebuilt_instead_of_a_traceback(
        copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    as_written_before_task_counts(copy / "divvy_small")  # the report counts the shards and caches that
    assert main(["report", "divvy_small", "--results", str(copy), "--format", "json"]) == 0
    before = capsys.readouterr().out
    cached = sorted((copy / "divvy_small" / "_analytics").rglob("*.parquet"))
    assert cached
    cached[0].write_bytes(cached[0].read_bytes()[:100])  # cut short, as a full disk would leave it
    assert main(["report", "divvy_small", "--results", str(copy), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert _without_timings(captured.out) == _without_timings(before)
