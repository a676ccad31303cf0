"""The confined connection (``analytics.sql.open_confined_catalog``, behind the
dashboard's SQL page and ``cardlab sql --read-only``) reads the chosen
experiment's views and nothing else, writes nothing, and refuses every route of
``tests.security.routes`` in one line, even without the statement check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from analytics.sql import QueryError, open_confined_catalog, read_only_query
from tests.security.conftest import Confined, attempts, fingerprint, nothing_written
from tests.security.routes import ROUTES


@pytest.fixture(scope="module")
def confined_connection(confined: Confined) -> Iterator[duckdb.DuckDBPyConnection]:
    """One confined connection for every route (as the page shares one between sessions)."""
    con = open_confined_catalog(confined.chosen)
    yield con
    con.close()


@pytest.mark.parametrize("index", range(len(ROUTES)), ids=[route.name for route in ROUTES])
def test_every_route_out_of_the_confined_connection_is_refused_in_one_line(
        confined: Confined, confined_connection: duckdb.DuckDBPyConnection, index: int) -> None:
    name, query, refusal = attempts(confined)[index]
    before = fingerprint(confined.root)
    con = confined_connection
    with pytest.raises(QueryError) as raised:
        read_only_query(con, query)
    message = str(raised.value)
    assert refusal in message, f"{name}: {message}"
    assert "\n" not in message
    # The connection is as confined as before, and still reads its views.
    assert con.execute("SELECT current_setting('enable_external_access'), "
                       "current_setting('lock_configuration')").fetchall() == [(False, True)]
    assert read_only_query(con, "SELECT count(*) AS games FROM games")[0]["games"].to_list() == [40]
    nothing_written(confined, before)


def test_the_confinement_holds_without_the_statement_check(confined: Confined) -> None:
    # The statement check is the second wall: run the writes and reads on the
    # connection directly, and DuckDB itself refuses them.
    before = fingerprint(confined.root)
    con = open_confined_catalog(confined.chosen)
    try:
        for query in (f"COPY (SELECT 1 AS x) TO '{confined.target}'",
                      f"COPY (SELECT 1 AS x) TO '{confined.own_file}' (FORMAT parquet, USE_TMP_FILE false)",
                      f"EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO '{confined.target}'",
                      f"ATTACH '{confined.target}' AS elsewhere", "INSTALL httpfs", "LOAD httpfs",
                      "SELECT * FROM read_text('/proc/self/environ')", f"SELECT * FROM '{confined.other}/spec.json'",
                      "SET enable_external_access = true", "SET lock_configuration = false",
                      "SET python_enable_replacements = true"):
            with pytest.raises(duckdb.Error):
                con.execute(query)
    finally:
        con.close()
    nothing_written(confined, before)


def test_no_folder_is_allowed_not_even_duckdbs_temporary_one_in_the_working_folder(
        confined: Confined, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # With file access off, DuckDB allows its temporary folder (./.tmp) for reads and writes
    # unless the connection has none: a secret there was readable from the dashboard's SQL page.
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".tmp").mkdir()
    (tmp_path / ".tmp" / "secret.txt").write_text("not for the dashboard")
    con = open_confined_catalog(confined.chosen)
    try:
        assert con.execute("SELECT current_setting('allowed_directories')").fetchall() == [([],)]
        for query in ("SELECT * FROM read_text('.tmp/secret.txt')",
                      f"SELECT * FROM read_text('{tmp_path}/.tmp/secret.txt')", "SELECT * FROM glob('.tmp/*')",
                      "COPY (SELECT 1 AS x) TO '.tmp/written.csv'", "ATTACH '.tmp/new.duckdb' AS scratch"):
            with pytest.raises(duckdb.Error):
                con.execute(query)
    finally:
        con.close()
    assert sorted(path.name for path in (tmp_path / ".tmp").iterdir()) == ["secret.txt"]


def test_python_variables_are_not_reachable_by_name(confined: Confined) -> None:
    secret_frame = pl.DataFrame({"secret": ["AKIA-not-for-the-dashboard"]})
    con = open_confined_catalog(confined.chosen)
    try:
        with pytest.raises(duckdb.CatalogException):
            con.sql("SELECT * FROM secret_frame")
        plain = duckdb.connect()
        assert plain.sql("SELECT * FROM secret_frame").fetchall() == [(secret_frame["secret"][0],)]  # unconfined: found
    finally:
        con.close()


def test_reads_of_the_views_work_and_see_only_the_chosen_experiment(confined: Confined) -> None:
    con = open_confined_catalog(confined.chosen)
    try:
        games, _ = read_only_query(con, "SELECT experiment, count(*) AS games, count(DISTINCT game_index) AS distinct "
                                        "FROM games GROUP BY ALL")
        assert games.rows() == [("chosen", 40, 40)]
        seats, _ = read_only_query(con, "SELECT sum(games) AS seat_games FROM seat_stats")
        assert seats["seat_games"].to_list() == [80]  # two seats per game
        explained, _ = read_only_query(con, "EXPLAIN ANALYZE SELECT count(*) FROM cards")
        assert explained.height == 1
        summary, _ = read_only_query(con, "SUMMARIZE players")
        assert "seat" in summary["column_name"].to_list()
    finally:
        con.close()
