"""The catalog file of ``cardlab catalog`` in the plain ``duckdb`` command-line client (the
``duckdb-cli`` package of the dev extra, a real binary): it opens the file and prints every
column of a view with its type and description, and the view's own description."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from analytics.catalog import open_catalog
from analytics.views import METRIC_VIEW_CONTRACTS
from cardlab.cli import main

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment

DUCKDB = Path(sys.executable).with_name("duckdb")
"""The ``duckdb`` client installed beside this Python (``make .build-stamps/venv-dev``)."""


def duckdb_csv(catalog: Path, query: str) -> list[list[str]]:
    """``query``'s rows, header first, as the plain client prints them in CSV."""
    assert DUCKDB.exists(), f"{DUCKDB}: not installed; the dev extra installs the duckdb-cli package"
    done = subprocess.run([str(DUCKDB), "-readonly", "-csv", str(catalog), "-c", query],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return list(csv.reader(io.StringIO(done.stdout)))


def test_the_duckdb_client_prints_each_card_stats_column_with_its_type_and_description(
        small_experiment: SmallExperiment, tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.duckdb"
    assert main(["catalog", str(small_experiment.folder), "--output", str(catalog)]) == 0
    contract = METRIC_VIEW_CONTRACTS["card_stats"]
    assert duckdb_csv(catalog, "FROM describe_view('card_stats')") == [
        ["column_name", "column_type", "description"],
        *([column.name, column.type, column.description] for column in contract.columns)]
    assert duckdb_csv(catalog, "SELECT comment FROM duckdb_views() WHERE view_name = 'card_stats'") == [
        ["comment"], [contract.description]]


def test_the_duckdb_client_reads_the_numbers_cardlab_reads_from_the_catalog_file(
        small_experiment: SmallExperiment, tmp_path: Path) -> None:
    catalog = tmp_path / "catalog.duckdb"
    assert main(["catalog", str(small_experiment.folder), "--output", str(catalog)]) == 0
    query = "SELECT agent, sum(games_in_hand) AS n, round(avg(gih_win_rate), 9) AS rate FROM card_stats GROUP BY ALL"
    con = open_catalog(small_experiment.folder)
    try:
        expected = con.sql(f"{query} ORDER BY agent").fetchall()
    finally:
        con.close()
    assert duckdb_csv(catalog, f"{query} ORDER BY agent") == [
        ["agent", "n", "rate"], *([agent, str(n), str(rate)] for agent, n, rate in expected)]
    assert duckdb_csv(catalog, "SELECT count(*) AS games FROM games") == [["games"], ["600"]]
