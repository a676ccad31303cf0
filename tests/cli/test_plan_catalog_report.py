"""``cardlab plan``, ``cardlab catalog`` and ``cardlab report --sections/--card-rows``."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import duckdb
import pytest

from analytics.stats import games_for_difference, games_for_interval
from cardlab.cli import main

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment


def test_plan_prints_the_games_per_arm_for_a_difference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--p", "0.5", "--delta", "0.02"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{games_for_difference(0.5, 0.02):,} games per arm")
    assert "50.0% to 52.0% with 80% power at two-sided alpha 0.05" in out


def test_plan_in_json_divides_alpha_among_the_tests_and_sizes_an_interval(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "--delta", "-0.03", "--tests", "48", "--width", "0.02", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["alpha_per_test"] == pytest.approx(0.05 / 48)
    assert data["games_per_arm"] == games_for_difference(0.5, -0.03, 0.8, 0.05 / 48)
    assert data["achieved_power"] >= 0.8
    assert data["games_for_width"] == games_for_interval(0.5, 0.02)


@pytest.mark.parametrize(("arguments", "message"), [
    ([], "plan: give --delta D"),
    (["--delta", "0"], "--delta: expected a non-zero difference"),
    (["--delta", "0.6"], "--delta: expected a non-zero difference"),
    (["--delta", "0.1", "--power", "1.5"], "--power: expected a number strictly between 0 and 1"),
    (["--width", "0"], "--width: expected a number strictly between 0 and 1"),
    (["--delta", "0.1", "--tests", "0"], "--tests: expected a positive integer"),
])
def test_plan_refuses_impossible_questions_in_one_line(
        arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", *arguments]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error: ") and message in err and err.count("\n") == 1


def test_catalog_writes_a_file_the_duckdb_client_can_open(
        small_experiment: SmallExperiment, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "one.duckdb"
    assert main(["catalog", str(small_experiment.folder), "--output", str(output)]) == 0
    assert str(output) in capsys.readouterr().out
    con = duckdb.connect(str(output), read_only=True)
    try:
        assert con.sql("SELECT count(*) FROM games").fetchall() == [(600,)]
        # Two variants of a heuristic-against-random lineup: seat balance per agent, two rows each.
        assert con.sql("SELECT count(*) FROM seat_balance").fetchall() == [(4,)]
    finally:
        con.close()


@pytest.mark.parametrize(("output", "message"), [
    (".", "{output}: is a folder; expected the catalog file to write, such as {output}/catalog.duckdb"),
    ("missing/one.duckdb", "{output}: the folder {parent} does not exist"),
    ("read_only/one.duckdb", "{output}: cannot write the catalog file ("),
])
def test_catalog_refuses_an_output_it_cannot_write_in_one_line_and_leaves_nothing(
        small_experiment: SmallExperiment, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        output: str, message: str) -> None:
    (tmp_path / "read_only").mkdir(mode=0o555)
    target = tmp_path / output if output != "." else tmp_path
    if output.startswith("read_only") and os.access(target.parent, os.W_OK):
        target = Path("/proc") / "one.duckdb"  # root may write anywhere on disk, not in /proc
    before = sorted(tmp_path.rglob("*"))
    assert main(["catalog", str(small_experiment.folder), "--output", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("cardlab: error: ") and captured.err.count("\n") == 1, captured.err
    assert message.format(output=target, parent=target.parent) in captured.err
    assert sorted(tmp_path.rglob("*")) == before  # no catalog, no temporary file, no folder made
    assert not (tmp_path / "missing").exists() and captured.out == ""


def test_report_sections_keep_only_the_asked_tables(
        small_experiment: SmallExperiment, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(small_experiment.folder)
    assert main(["report", folder, "--sections", "seats,deltas", "--format", "json"]) == 0
    tables = json.loads(capsys.readouterr().out)["tables"]
    assert set(tables) == {"seat_stats", "seat_balance", "variant_deltas"}
    assert main(["report", folder, "--sections", "cards", "--card-rows", "2"]) == 0
    text = capsys.readouterr().out
    assert "Cards: baseline, 2 players, held by heuristic (top and bottom 2 of 48 cards" in text
    assert "Win rate by seat" not in text
    assert main(["report", folder, "--sections", "bogus"]) == 2
    assert "report section 'bogus': expected one of findings, variants, seats" in capsys.readouterr().err


def test_report_help_lists_every_section_with_what_it_shows(capsys: pytest.CaptureFixture[str]) -> None:
    from analytics.sections import SECTIONS

    assert main(["report", "--help"]) == 0  # main turns argparse's exit into its return code
    text = " ".join(capsys.readouterr().out.split())
    for section in SECTIONS:
        assert f"{section}: " in text, section


def test_report_as_csv_writes_one_file_per_table_into_the_output_folder(
        small_experiment: SmallExperiment, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(small_experiment.folder)
    assert main(["report", folder, "--format", "csv"]) == 2
    assert "--format csv writes one CSV file per table: give --output DIR" in capsys.readouterr().err
    assert main(["report", folder, "--format", "csv", "--output", str(tmp_path / "tables")]) == 0
    assert "CSV files in" in capsys.readouterr().out
    files = sorted(path.name for path in (tmp_path / "tables").iterdir())
    assert {"summary.csv", "findings.csv", "variants.csv", "seat_stats.csv", "card_stats.csv"} <= set(files)
    (tmp_path / "a_file").write_text("x")
    assert main(["report", folder, "--format", "csv", "--output", str(tmp_path / "a_file")]) == 2
    assert "expected a folder for the CSV files" in capsys.readouterr().err
    assert main(["report", folder, "--format", "markdown", "--output", str(tmp_path / "report.md")]) == 0
    assert (tmp_path / "report.md").read_text().startswith("# cardlab report: divvy_small")


@pytest.mark.parametrize(("output", "message"), [
    (".", "--output {output}: is a folder; expected a file to write"),
    ("missing/report.txt", "--output {output}: the folder {parent} does not exist"),
    ("/proc/report.txt", "--output {output}: cannot write ("),
])
def test_report_refuses_an_output_file_it_cannot_write_in_one_line_and_leaves_nothing(
        small_experiment: SmallExperiment, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        output: str, message: str) -> None:
    target = tmp_path if output == "." else Path(output) if output.startswith("/") else tmp_path / output
    before = sorted(tmp_path.rglob("*"))
    assert main(["report", str(small_experiment.folder), "--output", str(target)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("cardlab: error: ") and captured.err.count("\n") == 1, captured.err
    assert message.format(output=target, parent=target.parent) in captured.err
    assert sorted(tmp_path.rglob("*")) == before and captured.out == ""  # no file, no folder made
