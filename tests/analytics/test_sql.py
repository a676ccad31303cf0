"""``cardlab sql``: one query in three formats, and the interactive shell."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl
import pyarrow.parquet as pq
import pytest
from polars.testing import assert_frame_equal

from analytics.catalog import open_catalog
from analytics.partials import CACHE_FOLDER
from analytics.sql import (
    CONTINUATION_PROMPT,
    PROMPT,
    QueryError,
    execute,
    format_table,
    interactive_shell,
    open_sql_catalog,
    reads_descriptions,
    run_schema,
    run_sql,
)
from analytics.stats import wilson_interval
from analytics.views import METRIC_VIEW_CONTRACTS, view_contracts
from cardlab.cli import main
from dataset.count_views import CACHE_VERSION
from dataset.storage import MANIFEST_FOLDER
from simcore.registry import GAMES

if TYPE_CHECKING:
    from tests.conftest import SmallExperiment

GAMES_PER_VARIANT = (
    "SELECT variant, count(*) AS games, avg(turns) AS turns FROM games GROUP BY variant ORDER BY variant")


def test_a_query_prints_as_an_aligned_table_with_a_row_count(small_experiment: SmallExperiment) -> None:
    text = run_sql(small_experiment.folder, GAMES_PER_VARIANT)
    lines = text.splitlines()
    assert lines[0].split() == ["variant", "games", "turns"]
    assert set(lines[1]) <= {"-", " "}
    assert lines[2].split()[:2] == ["baseline", "300"] and lines[3].split() == ["four_rounds", "300", "4.0"]
    assert lines[-1] == "(2 rows)"


def test_a_query_prints_as_csv(small_experiment: SmallExperiment) -> None:
    frame = pl.read_csv(io.StringIO(run_sql(small_experiment.folder, GAMES_PER_VARIANT, "csv")))
    assert frame["variant"].to_list() == ["baseline", "four_rounds"]
    assert frame["games"].to_list() == [300, 300]
    assert frame["turns"][1] == 4.0


@pytest.mark.parametrize("read_only", [False, True])
def test_lists_and_structs_print_as_their_text_in_csv(small_experiment: SmallExperiment, read_only: bool) -> None:
    query = ("SELECT game_index, winners, {'seat': 1} AS \"a struct\" FROM games "
             "WHERE variant = 'baseline' ORDER BY game_index LIMIT 5")
    frame = pl.read_csv(io.StringIO(run_sql(small_experiment.folder, query, "csv", read_only=read_only)))
    expected = pl.read_ndjson(io.StringIO(run_sql(small_experiment.folder, query, "json", read_only=read_only)))
    assert frame.columns == ["game_index", "winners", "a struct"]
    assert frame["winners"].to_list() == [str(winners).replace(" ", "").replace(",", ", ")
                                          for winners in expected["winners"].to_list()]
    assert set(frame["a struct"].to_list()) == {"{'seat': 1}"}
    empty = run_sql(small_experiment.folder, "SELECT winners FROM games WHERE false", "csv", read_only=read_only)
    assert empty.splitlines() == ["winners"]


def test_a_query_prints_as_json_lines(small_experiment: SmallExperiment) -> None:
    text = run_sql(small_experiment.folder, GAMES_PER_VARIANT + " ", "json")
    rows = [json.loads(line) for line in text.splitlines()]
    assert [(row["variant"], row["games"]) for row in rows] == [("baseline", 300), ("four_rounds", 300)]
    assert run_sql(small_experiment.folder, "SELECT 1 AS x WHERE false", "json") == ""


def test_the_wilson_macros_are_available_to_sql_users(small_experiment: SmallExperiment) -> None:
    text = run_sql(small_experiment.folder, """
        SELECT count(*) FILTER (WHERE won) AS wins, count(*) AS n,
               wilson_low(wins, n) AS low, wilson_high(wins, n) AS high
        FROM players WHERE variant = 'baseline' AND agent = 'heuristic'""", "json")
    row = json.loads(text)
    assert (row["low"], row["high"]) == pytest.approx(wilson_interval(row["wins"], row["n"]), abs=1e-12)


def test_the_table_format_shows_the_first_rows_and_says_how_many_there_are(small_experiment: SmallExperiment) -> None:
    text = run_sql(small_experiment.folder, "SELECT * FROM players")
    assert text.splitlines()[-1] == "(1200 rows, first 1000 shown; use --format csv or json for all)"
    assert len(text.splitlines()) == 2 + 1000 + 1


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_a_bad_query_is_one_line_naming_the_problem(small_experiment: SmallExperiment, fmt: str) -> None:
    with pytest.raises(QueryError) as caught:
        run_sql(small_experiment.folder, "SELECT nope FROM games", fmt)
    message = str(caught.value)
    assert "\n" not in message and "nope" in message


def test_an_empty_query_and_an_unknown_format_are_refused(small_experiment: SmallExperiment) -> None:
    with pytest.raises(QueryError, match="empty query"):
        run_sql(small_experiment.folder, " ; ")
    with pytest.raises(QueryError, match="sql format 'xml': expected one of table, csv, json"):
        run_sql(small_experiment.folder, "SELECT 1", "xml")


def test_several_statements_print_the_last_result(small_experiment: SmallExperiment) -> None:
    text = run_sql(small_experiment.folder,
                   "CREATE VIEW wins AS SELECT * FROM players WHERE won; SELECT count(*) AS n FROM wins", "csv")
    assert text.splitlines()[0] == "n" and int(text.splitlines()[1]) > 0


def _metric_rows(con: Any, view: str) -> pl.DataFrame:
    return con.sql(f"SELECT * FROM {view}").pl().sort(pl.all())


def test_the_metric_views_read_the_shards_counts_and_give_the_numbers_of_every_row(
        small_experiment: SmallExperiment) -> None:
    # card_stats over every card row took 25 s on make demo's 600,000 games; over the shards'
    # counts (as the report reads them) it takes under a second, with the same numbers.
    every_row = open_catalog(small_experiment.folder, cached=False)
    for read_only in (False, True):
        con = open_sql_catalog(small_experiment.folder, read_only=read_only)
        try:
            tables = {row[0] for row in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
            assert {"card_counts", "agent_counts"} <= tables, read_only  # the counts, summed once
            for view in ("card_stats", "agent_stats", "variant_deltas"):
                assert_frame_equal(_metric_rows(con, view), _metric_rows(every_row, view), rel_tol=1e-9)
        finally:
            con.close()
    every_row.close()


def test_the_confined_catalog_counts_older_results_in_memory_and_writes_no_cache(
        small_experiment: SmallExperiment, tmp_path: Path) -> None:
    # Results from before shard tasks counted their rows: their manifest entries hold no counts.
    folder = tmp_path / small_experiment.folder.name
    shutil.copytree(small_experiment.folder, folder)
    for marker in (folder / MANIFEST_FOLDER).glob("*.json"):
        entry = json.loads(marker.read_text())
        del entry["counts"]
        marker.write_text(json.dumps(entry))
    con = open_sql_catalog(folder, read_only=True)
    try:
        cards = _metric_rows(con, "card_stats")
    finally:
        con.close()
    assert not (folder / CACHE_FOLDER / CACHE_VERSION).exists()
    every_row = open_catalog(small_experiment.folder, cached=False)
    assert_frame_equal(cards, _metric_rows(every_row, "card_stats"), rel_tol=1e-9)
    every_row.close()
    # The full catalog of cardlab sql keeps the count cache, as the report does.
    open_sql_catalog(folder).close()
    assert (folder / CACHE_FOLDER / CACHE_VERSION).is_dir()


def test_format_table_right_aligns_numbers_and_shows_nulls() -> None:
    text = format_table(["name", "value"], [("a", 1.5), ("bb", None), ("c", 10)])
    assert text.splitlines() == ["name  value", "----  -----", "a       1.5", "bb     NULL", "c        10",
                                 "(3 rows)"]


def test_the_shell_runs_queries_lists_views_and_survives_errors(small_experiment: SmallExperiment) -> None:
    script = "\n".join([
        ".tables",
        "SELECT count(*) AS n",   # continues on the next line until ';'
        "FROM games;",
        "SELECT nope;",
        "SELECT 41 + 1 AS answer",
        "",                        # an empty line runs the pending query too
        ".bogus",
        ".quit",
        "SELECT 'never reached';",
    ]) + "\n"
    out = io.StringIO()
    interactive_shell(small_experiment.folder, io.StringIO(script), out)
    text = out.getvalue()
    assert text.count(PROMPT) == 6 and text.count(CONTINUATION_PROMPT) == 2
    lines = [" ".join(line.split()) for line in text.replace(CONTINUATION_PROMPT, "").replace(PROMPT, "").splitlines()]
    tables = lines.index("view rows")
    # The row counts of the Parquet files themselves: 300 games of 2 variants, 2 seats each.
    card_files = (small_experiment.folder / "cards").rglob("*.parquet")
    card_rows = sum(pq.ParquetFile(path).metadata.num_rows for path in card_files)
    assert card_rows > 0
    assert [line.split() for line in lines[tables + 2: tables + 6]] == [
        ["cards", str(card_rows)], ["games", "600"], ["players", "1200"], ["(3", "rows)"]]
    count = lines.index("n")
    assert lines[count + 1: count + 4] == ["---", "600", "(1 row)"]
    error = next(line for line in lines if line.startswith("Error: Binder Error"))
    assert "nope" in error
    answer = lines.index("answer")
    assert lines[answer + 2] == "42"
    assert "Error: unknown command .bogus; try .help" in lines
    assert "never reached" not in text


def test_the_shell_leaves_at_end_of_input(small_experiment: SmallExperiment) -> None:
    out = io.StringIO()
    interactive_shell(small_experiment.folder, io.StringIO("SELECT 1 AS x;"), out)
    assert out.getvalue().endswith("cardlab> \n")


def test_execute_reuses_an_open_connection(small_experiment: SmallExperiment) -> None:
    con = open_catalog(small_experiment.folder)
    try:
        assert execute(con, "SELECT count(*) AS n FROM cards", "csv").startswith("n\n")
    finally:
        con.close()


@pytest.mark.parametrize("order", ["options first", "options between", "options last"])
@pytest.mark.parametrize("query", [
    "SELECT count(*) AS games FROM games",
    # What `cardlab sql NAME --format json "$(cat experiments/divvy_readings.sql)"` passes.
    "-- how many games\nSELECT count(*) AS games FROM games",
], ids=["plain", "opening with a SQL comment"])
def test_the_sql_command_takes_its_options_before_between_or_after_the_positionals(
        small_experiment: SmallExperiment, capsys: pytest.CaptureFixture[str], order: str, query: str) -> None:
    folder = str(small_experiment.folder)
    argv = {"options first": ["sql", "--format", "json", folder, query],
            "options between": ["sql", folder, "--format", "json", query],
            "options last": ["sql", folder, query, "--format", "json"]}[order]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == {"games": 600}


def test_an_unknown_option_of_the_sql_command_is_still_refused(
        small_experiment: SmallExperiment, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sql", str(small_experiment.folder), "--formats", "SELECT 1"]) == 2
    assert "--formats" in capsys.readouterr().err


def test_a_stray_argument_to_the_sql_command_is_one_line_error(
        small_experiment: SmallExperiment, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sql", str(small_experiment.folder), "SELECT 1", "SELECT 2"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and error.startswith("cardlab: error: unrecognized arguments: SELECT 2")


@pytest.mark.parametrize("read_only", [False, True])
def test_schema_lists_every_view_with_what_it_holds(small_experiment: SmallExperiment, read_only: bool) -> None:
    rows = [json.loads(line) for line in run_schema(small_experiment.folder, "", "json", read_only).splitlines()]
    contracts = view_contracts([GAMES["divvy"].info])
    assert rows == [{"view": name, "description": contracts[name].description} for name in sorted(contracts)]


@pytest.mark.parametrize("read_only", [False, True])
def test_schema_of_a_view_prints_its_description_then_each_column_with_its_type_and_description(
        small_experiment: SmallExperiment, read_only: bool) -> None:
    contract = METRIC_VIEW_CONTRACTS["card_stats"]
    lines = run_schema(small_experiment.folder, "card_stats", "table", read_only).splitlines()
    assert lines[0] == f"card_stats: {contract.description}"
    assert lines[1].split() == ["column", "type", "description"]
    assert [line.split(maxsplit=2) for line in lines[3:-1]] == [
        [column.name, column.type, column.description] for column in contract.columns]
    assert lines[-1] == f"({len(contract.columns)} rows)"


@pytest.mark.parametrize("read_only", [False, True])
@pytest.mark.parametrize("query", [
    "SELECT comment FROM duckdb_views() WHERE view_name = 'card_stats'",
    "SELECT description FROM describe_view('card_stats') LIMIT 0; SELECT comment FROM duckdb_views() "
    "WHERE view_name = 'card_stats'",
    "SELECT table_comment AS comment FROM information_schema.tables WHERE table_name = 'card_stats'"],
    ids=["duckdb_views", "describe_view", "information_schema"])
def test_a_one_off_query_reading_the_descriptions_finds_them(
        small_experiment: SmallExperiment, query: str, read_only: bool) -> None:
    if read_only and ";" in query:
        query = query.split("; ", 1)[1]  # the confined catalog takes one statement
    rows = [json.loads(line) for line in run_sql(small_experiment.folder, query, "json", read_only).splitlines()]
    assert rows == [{"comment": METRIC_VIEW_CONTRACTS["card_stats"].description}]


def test_only_a_query_naming_the_catalogs_functions_schemas_or_comments_is_taken_to_read_descriptions() -> None:
    assert reads_descriptions("FROM describe_view('card_stats')")
    assert reads_descriptions("select view_name, comment from DUCKDB_VIEWS()")
    assert reads_descriptions("SELECT * FROM information_schema.columns")
    assert reads_descriptions("SELECT * FROM pg_catalog.pg_description")
    assert not reads_descriptions("SELECT card, gih_win_rate FROM card_stats ORDER BY 2 DESC")
    assert not reads_descriptions("SELECT count(*) FROM games WHERE variant = 'baseline'")


def test_the_shell_describes_a_view_and_names_the_command_that_lists_them_for_an_unknown_one(
        small_experiment: SmallExperiment) -> None:
    out = io.StringIO()
    interactive_shell(small_experiment.folder, io.StringIO(".schema seat_balance\n.schema nope\n"), out)
    text = out.getvalue()
    assert f"seat_balance: {METRIC_VIEW_CONTRACTS['seat_balance'].description}" in text
    chi2 = METRIC_VIEW_CONTRACTS["seat_balance"].column("chi2")
    assert f"chi2 DOUBLE {chi2.description}" in " ".join(text.split())
    assert "Error: no view named 'nope'; `.schema` (or --schema) lists them" in text


def test_the_sql_command_prints_a_views_columns_with_schema_and_refuses_it_beside_a_query(
        small_experiment: SmallExperiment, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(small_experiment.folder)
    assert main(["sql", folder, "--schema", "games", "--format", "csv"]) == 0
    frame = pl.read_csv(io.StringIO(capsys.readouterr().out))
    contract = view_contracts([GAMES["divvy"].info])["games"]
    assert frame.rows() == [(column.name, column.type, column.description) for column in contract.columns]
    assert main(["sql", folder, "SELECT 1", "--schema"]) == 2
    error = capsys.readouterr().err
    assert error == "cardlab: error: sql: give a query or --schema, not both\n"
