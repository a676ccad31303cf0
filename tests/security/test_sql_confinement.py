"""The confined SQL (the dashboard's SQL page, ``cardlab sql --read-only``) reads the
chosen experiment's views and nothing else, writes nothing, and refuses every
route of ``tests.security.routes`` in one line; ``cardlab sql`` without the
flag stays the analyst's full DuckDB."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from analytics.sql import QueryError, open_confined_catalog, read_only_query
from cardlab.cli import main
from tests.security.conftest import Confined, fingerprint
from tests.security.routes import ROUTES, queries

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def _attempts(confined: Confined) -> list[tuple[str, str, str]]:
    return [(route.name, query, route.refusal)
            for route, query in queries(str(confined.own_file), str(confined.other), str(confined.target))]


def _nothing_written(confined: Confined, before: dict[str, str]) -> None:
    assert list(confined.scratch.iterdir()) == []
    assert fingerprint(confined.root) == before


@pytest.fixture(scope="module")
def confined_connection(confined: Confined) -> Iterator[duckdb.DuckDBPyConnection]:
    """One confined connection for every route (as the page shares one between sessions)."""
    con = open_confined_catalog(confined.chosen)
    yield con
    con.close()


@pytest.mark.parametrize("index", range(len(ROUTES)), ids=[route.name for route in ROUTES])
def test_every_route_out_of_the_confined_connection_is_refused_in_one_line(
        confined: Confined, confined_connection: duckdb.DuckDBPyConnection, index: int) -> None:
    name, query, refusal = _attempts(confined)[index]
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
    _nothing_written(confined, before)


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
    _nothing_written(confined, before)


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


def _sql_page(confined: Confined, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("CARDLAB_RESULTS", str(confined.root))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.session_state["experiment"] = "chosen"
    at.switch_page("pages/sql.py")
    at.run()
    assert not at.exception, at.exception
    return at


def test_the_sql_page_refuses_every_route_with_one_clear_line(
        confined: Confined, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _sql_page(confined, monkeypatch)
    before = fingerprint(confined.root)
    for name, query, refusal in _attempts(confined):
        at.text_area[0].input(query).run()
        assert not at.exception, f"{name}: {at.exception}"
        errors = [error.value for error in at.error]
        assert len(errors) == 1 and refusal in errors[0] and "\n" not in errors[0], f"{name}: {errors}"
        assert not at.dataframe, f"{name}: a table was shown"
    _nothing_written(confined, before)
    at.text_area[0].input("SELECT DISTINCT experiment FROM games").run()
    assert not at.error
    assert at.dataframe[0].value["experiment"].tolist() == ["chosen"]


def test_the_sql_page_reads_every_experiment_only_when_its_toggle_says_so(
        confined: Confined, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _sql_page(confined, monkeypatch)
    query = "SELECT experiment, count(*) AS games FROM games GROUP BY ALL ORDER BY ALL"
    at.text_area[0].input(query).run()
    assert at.dataframe[0].value.values.tolist() == [["chosen", 40]]
    at.toggle[0].set_value(True).run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value.values.tolist() == [["chosen", 40], ["other", 60]]
    assert "every experiment in" in at.caption[0].value
    at.text_area[0].input("SELECT * FROM read_text('/proc/self/environ')").run()
    assert len(at.error) == 1 and at.error[0].value.startswith("refused: Permission Error")


CLI_ROUTES = ("read_text of the process environment", "read_parquet of another experiment",
              "COPY over a shard without a temporary file", "EXPLAIN ANALYZE of a CREATE TABLE", "LOAD an extension",
              "SET file access back on", "a SELECT then a COPY")
"""A sample of the routes for the command line (each opens a catalog); the page takes them all."""


def test_cardlab_sql_read_only_refuses_what_the_page_refuses(
        confined: Confined, capsys: pytest.CaptureFixture[str]) -> None:
    before = fingerprint(confined.root)
    for name, query, refusal in [attempt for attempt in _attempts(confined) if attempt[0] in CLI_ROUTES]:
        code = main(["sql", "chosen", query, "--read-only", "--results", str(confined.root)])
        error = capsys.readouterr().err.strip()
        assert code == 2, name
        assert error.startswith("cardlab: error: ") and refusal in error and "\n" not in error, f"{name}: {error}"
    _nothing_written(confined, before)
    assert main(["sql", "chosen", "SELECT count(*) AS n FROM games", "--read-only", "--format", "csv",
                 "--results", str(confined.root)]) == 0
    assert capsys.readouterr().out == "n\n40\n"


def test_cardlab_sql_without_read_only_is_the_analysts_full_duckdb(
        confined: Confined, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    exported = tmp_path / "games.csv"
    assert main(["sql", "chosen", f"COPY (SELECT game_index FROM games ORDER BY 1) TO '{exported}' (HEADER)",
                 "--results", str(confined.root)]) == 0
    assert exported.read_text().splitlines()[:3] == ["game_index", "0", "1"]
    assert main(["sql", "chosen", f"SELECT count(*) AS n FROM read_parquet('{confined.other}/games/*/*.parquet')",
                 "--format", "csv", "--results", str(confined.root)]) == 0
    assert capsys.readouterr().out.endswith("n\n60\n")
    assert main(["sql", "--help"]) == 0
    assert "--read-only" in capsys.readouterr().out


def test_the_interactive_read_only_shell_refuses_a_write_and_goes_on(confined: Confined) -> None:
    import io

    from analytics.sql import interactive_shell

    stdin = io.StringIO(f"COPY (SELECT 1) TO '{confined.target}';\nSELECT count(*) AS n FROM games;\n")
    stdout = io.StringIO()
    interactive_shell(confined.chosen, stdin, stdout, read_only=True)
    text = stdout.getvalue()
    assert "Error: COPY refused: this box is read-only" in text
    assert "40" in text
    assert not confined.target.exists()
