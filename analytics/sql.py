"""Ad-hoc SQL on an experiment's results: ``cardlab sql``.

Queries run on the catalog connection of ``analytics.catalog.open_catalog``:
the views ``games``, ``players`` and ``cards``, the metric views and the macros
``wilson_low`` and ``wilson_high``. Every view and column carries its
description: ``schema`` (``.schema [VIEW]`` in the shell, ``cardlab sql
EXPERIMENT --schema [VIEW]``) prints them. Output formats:

- ``table``: an aligned text table with a header and a ``(N rows)`` footer;
  at most ``max_rows`` rows (1000 by default) are shown, and a note says how
  many more there are. Floats are rounded to 6 decimals for display only.
- ``csv``: every row, with a header line (Polars' CSV writer); a list or struct
  value (``games.winners``) is written as DuckDB's text of it, ``[0, 2]``.
- ``json``: JSON lines, one JSON object per row (``{"column": value, ...}``),
  every row; nothing for an empty result. Easy to stream into ``jq`` or to
  read back with ``polars.read_ndjson``.

Several statements separated by ``;`` may be given; the result of the last
one is printed. For a statement without rows (``CREATE VIEW ...``) DuckDB
returns an empty result, printed as such.

``cardlab sql`` is the analyst's own shell and keeps DuckDB's full power:
it can read and write any file the user can (``read_csv``, ``COPY``,
``ATTACH``...) and load extensions. With ``--read-only`` (``read_only=True``)
it gets the dashboard SQL page's confinement instead: ``confine`` (the
connection reads only the experiment's views, writes nothing, and its
settings are locked) and ``check_read_only`` (one ``SELECT`` at a time).
"""

from __future__ import annotations

import contextlib
import math
import re
import sys
from collections.abc import Sequence
from typing import Any, TextIO

import duckdb
import polars as pl

from analytics.catalog import open_catalog, open_results_catalog
from analytics.folders import AnalyticsError
from analytics.views import METRIC_VIEWS
from analytics.views.comments import VIEWS_SQL, described_views
from dataset.location import ResultsPath
from dataset.quoting import sql_identifier, sql_string

SQL_FORMATS = ("table", "csv", "json")
DEFAULT_MAX_ROWS = 1000
PROMPT = "cardlab> "
CONTINUATION_PROMPT = "    ...> "


class QueryError(AnalyticsError, ValueError):
    """A query DuckDB refused (syntax, unknown column...); the message is one line."""


def one_line(error: BaseException) -> str:
    """DuckDB's (multi-line) error message folded into one line.

    Keeps the error and its hints; drops the ``LINE n:`` excerpt and its caret
    line, which only make sense in a fixed-width block.
    """
    kept = []
    for raw in str(error).splitlines():
        line = raw.strip()
        if not line or line.startswith("LINE ") or set(line) <= {"^"}:
            continue
        kept.append(line)
    return " ".join(kept) or type(error).__name__


def _check_format(fmt: str) -> None:
    if fmt not in SQL_FORMATS:
        raise QueryError(f"sql format {fmt!r}: expected one of {', '.join(SQL_FORMATS)}")


def _cell(value: Any) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return str(value)
        return repr(round(value, 6))
    return str(value)


def _is_numeric(values: Sequence[Any]) -> bool:
    present = [value for value in values if value is not None]
    return bool(present) and all(
        isinstance(value, int | float) and not isinstance(value, bool) for value in present)


def format_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], total: int | None = None) -> str:
    """``rows`` as an aligned text table (numbers right-aligned) with a row-count footer.

    ``total`` is the number of rows in the whole result when ``rows`` holds
    only the first few.
    """
    cells = [[_cell(value) for value in row] for row in rows]
    right = [_is_numeric([row[index] for row in rows]) for index in range(len(columns))]
    widths = [max([len(name), *(len(row[index]) for row in cells)]) for index, name in enumerate(columns)]

    def line(values: Sequence[str]) -> str:
        return "  ".join(
            value.rjust(width) if is_right else value.ljust(width)
            for value, width, is_right in zip(values, widths, right, strict=True)).rstrip()

    out = [line(columns), "  ".join("-" * width for width in widths)]
    out.extend(line(row) for row in cells)
    total = len(rows) if total is None else total
    footer = f"({total} row{'' if total == 1 else 's'})"
    if total > len(rows):
        footer = f"({total} rows, first {len(rows)} shown; use --format csv or json for all)"
    out.append(footer)
    return "\n".join(out) + "\n"


def execute(con: duckdb.DuckDBPyConnection, query: str, fmt: str = "table",
            max_rows: int | None = DEFAULT_MAX_ROWS) -> str:
    """Run ``query`` on ``con`` and format its result (see the module docstring).

    Raises ``QueryError`` for an empty query, an unknown format, or any error
    DuckDB reports.
    """
    _check_format(fmt)
    if not query.strip().strip(";").strip():
        raise QueryError("empty query; expected SQL such as: SELECT count(*) FROM games")
    try:
        if fmt == "table":
            cursor = con.execute(query)
            if cursor.description is None:
                return "OK\n"
            columns = [column[0] for column in cursor.description]
            if max_rows is None:
                rows = cursor.fetchall()
                return format_table(columns, rows)
            rows = cursor.fetchmany(max_rows)
            # Count the rest without keeping it in memory.
            rest = 0
            while batch := cursor.fetchmany(10_000):
                rest += len(batch)
            return format_table(columns, rows, total=len(rows) + rest)
        relation = con.sql(query)
        if relation is None:
            return ""
        if fmt == "csv":
            relation = _nested_as_text(relation)
        frame = relation.pl()
    except duckdb.Error as error:
        raise _refused_or_failed(error) from None
    if fmt == "csv":
        return frame.write_csv()
    return _ndjson(frame)


NESTED_TYPES = frozenset({"list", "array", "struct", "map", "union"})
"""DuckDB's type ids of values that hold other values, which CSV has no cell for."""


def _nested_as_text(relation: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    """``relation`` with each list, struct or map column as DuckDB's text of it (``[0, 2]``)."""
    columns = [sql_identifier(name) for name in relation.columns]
    if not any(kind.id in NESTED_TYPES for kind in relation.dtypes):
        return relation
    return relation.project(", ".join(
        f"CAST({column} AS VARCHAR) AS {column}" if kind.id in NESTED_TYPES else column
        for column, kind in zip(columns, relation.dtypes, strict=True)))


def frame_csv(frame: pl.DataFrame) -> str:
    """``frame`` as CSV text with a header line, a list or struct cell written as its text
    (``[0, 2]``, ``{'seat': 1}``) as ``--format csv`` writes DuckDB's: CSV has no nested cell,
    and Polars refuses to write one (the dashboard SQL page's download of ``games``)."""
    nested = [name for name, kind in frame.schema.items() if kind.is_nested()]
    if nested:
        frame = frame.with_columns(pl.col(name).map_elements(_cell_text, return_dtype=pl.String) for name in nested)
    return frame.write_csv()


def _cell_text(value: object) -> str:
    return str(value.to_list() if isinstance(value, pl.Series) else value)


def _ndjson(frame: pl.DataFrame) -> str:
    if frame.height == 0:
        return ""
    text = frame.write_ndjson()
    return text if text.endswith("\n") else text + "\n"


READS_DESCRIPTIONS = re.compile(r"duckdb_|describe|information_schema|pg_catalog|comment", re.IGNORECASE)
"""What in a query may read the views' and columns' descriptions: DuckDB's catalog
functions and schemas, ``describe_view``, a ``comment`` column."""


def reads_descriptions(query: str) -> bool:
    """Whether ``query`` may read the descriptions (``READS_DESCRIPTIONS``): a one-off query
    that cannot is answered from a catalog opened without them, about twice as fast."""
    return READS_DESCRIPTIONS.search(query) is not None


def open_sql_catalog(experiment_dir: ResultsPath, read_only: bool = False,
                     comments: bool = True) -> duckdb.DuckDBPyConnection:
    """The catalog ``cardlab sql`` queries: the full one, or with ``read_only`` the confined one,
    each view and column described (``comments``) unless the caller knows it is not read.

    Both hold the count views as the sums of the shards' counts, as the report
    does (``cached``): a metric view then reads kilobytes instead of every row
    (``card_stats`` of ``make demo``'s 600,000 games: under a second instead of 25 s)."""
    if read_only:
        return open_confined_catalog(experiment_dir, comments=comments)
    return open_catalog(experiment_dir, comments=comments)


def run_schema(experiment_dir: ResultsPath, view: str = "", fmt: str = "table", read_only: bool = False) -> str:
    """``schema`` of the experiment's catalog (``cardlab sql EXPERIMENT --schema [VIEW]``)."""
    _check_format(fmt)
    con = open_sql_catalog(experiment_dir, read_only)
    try:
        return schema(con, view, fmt)
    finally:
        con.close()


def run_sql(experiment_dir: ResultsPath, query: str, fmt: str = "table", read_only: bool = False) -> str:
    """Run ``query`` on the experiment's views and return the formatted result.

    ``fmt`` is ``table``, ``csv`` or ``json`` (JSON lines: one object per
    row). With ``read_only``, the dashboard SQL page's confinement (module
    docstring). Raises ``QueryError`` for bad SQL or format (or a refused
    query), ``NoResultsError`` if the experiment has no finished shards (both
    ``AnalyticsError``).
    """
    _check_format(fmt)
    con = open_sql_catalog(experiment_dir, read_only, comments=reads_descriptions(query))
    try:
        if read_only:
            check_read_only(con, query)
        return execute(con, query, fmt)
    finally:
        con.close()


_HELP = """\
End a query with ';' (or an empty line) to run it; a query may span several lines.
  .tables          list the views and their row counts
  .schema          list the views and what each holds
  .schema VIEW     the view's columns: type and description (SQL: FROM describe_view('VIEW'))
  .help            this help
  .quit            leave (Ctrl-D too)
Macros: wilson_low(wins, n), wilson_high(wins, n): the 95% Wilson interval; erfc, normal_sf,
chi2_sf(x, df), prop_z/prop_p(wa, na, wb, nb), mcnemar_stat/mcnemar_p(only_a, only_b).
Metric views: seat_stats, seat_balance, agent_stats, faction_stats, card_stats, game_stats,
variant_deltas... (analytics/README.md); card impact runs: card_impact, card_impact_vs_gih...
"""


def _tables(con: duckdb.DuckDBPyConnection) -> str:
    names = [row[0] for row in con.execute(
        "SELECT view_name FROM duckdb_views() WHERE NOT internal ORDER BY view_name").fetchall()]
    # Counting a metric view's rows would compute the metric over the whole
    # experiment: list those by name only, after the data views.
    data = [name for name in names if name not in METRIC_VIEWS]
    rows = [(name, con.execute(f'SELECT count(*) FROM "{name}"').fetchone()[0]) for name in data]  # type: ignore[index]
    text = format_table(["view", "rows"], rows)
    metrics = [name for name in names if name in METRIC_VIEWS]
    if metrics:
        text += "metric views: " + ", ".join(metrics) + "\n"
    return text


def schema(con: duckdb.DuckDBPyConnection, view: str = "", fmt: str = "table") -> str:
    """The views and what each holds, or with ``view`` its columns with their types and
    descriptions (``.schema [VIEW]``, ``--schema [VIEW]``), formatted as ``execute`` does.

    In ``table`` format a view's description comes first, as a line. Raises
    ``QueryError`` for a view the catalog does not have (naming the command that lists them)."""
    _check_format(fmt)
    views = dict(described_views(con))
    if not view:
        return execute(con, VIEWS_SQL, fmt, max_rows=None)
    if view not in views:
        raise QueryError(f"no view named {view!r}; `.schema` (or --schema) lists them")
    columns = execute(con, f"SELECT column_name AS column, column_type AS type, description "
                           f"FROM describe_view({sql_string(view)})", fmt, max_rows=None)
    return f"{view}: {views[view] or ''}\n{columns}" if fmt == "table" else columns


def _command(con: duckdb.DuckDBPyConnection, text: str) -> str | None:
    """Output of a dot-command, or None for ``.quit``."""
    name, _, argument = text.partition(" ")
    if name in (".quit", ".exit", ".q"):
        return None
    if name == ".tables":
        return _tables(con)
    if name == ".schema":
        return schema(con, argument.strip())
    if name == ".help":
        return _HELP
    raise QueryError(f"unknown command {name}; try .help")


def _read_line(stdin: TextIO, stdout: TextIO, prompt: str) -> str | None:
    """One line without its newline, or None at end of input."""
    if stdin is sys.stdin and stdout is sys.stdout and stdin.isatty():
        # input() gives line editing and history when readline is available.
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401  (imported for its side effect on input())
        try:
            return input(prompt)
        except EOFError:
            stdout.write("\n")
            return None
    stdout.write(prompt)
    stdout.flush()
    line = stdin.readline()
    if not line:
        stdout.write("\n")
        return None
    return line.rstrip("\n")


def interactive_shell(experiment_dir: ResultsPath, stdin: TextIO, stdout: TextIO, read_only: bool = False) -> None:
    """A small SQL shell on the experiment's views (``cardlab sql EXPERIMENT`` without a query).

    Prompt ``cardlab> ``; a query runs once a line ends with ``;`` or an empty
    line follows it, and prints as a ``table``. ``.tables``, ``.schema``,
    ``.help``; ``.quit`` or end of input leaves. An error prints as one line
    (``Error: ...``) and the shell goes on. Opening the catalog may raise
    ``AnalyticsError`` before the first prompt. ``read_only``: as ``run_sql``.
    """
    con = open_sql_catalog(experiment_dir, read_only)
    try:
        confined = " (read-only: one SELECT at a time, no files)" if read_only else ""
        stdout.write(f"cardlab SQL on {experiment_dir}{confined}: views games, players, cards. .help for help.\n")
        buffer: list[str] = []
        while True:
            line = _read_line(stdin, stdout, CONTINUATION_PROMPT if buffer else PROMPT)
            if line is None:
                break
            stripped = line.strip()
            if not buffer:
                if not stripped:
                    continue
                if stripped.startswith("."):
                    try:
                        output = _command(con, stripped)
                    except (AnalyticsError, duckdb.Error) as error:
                        stdout.write(f"Error: {one_line(error)}\n")
                        continue
                    if output is None:
                        break
                    stdout.write(output)
                    continue
            if stripped:
                buffer.append(line)
            if stripped.endswith(";") or (not stripped and buffer):
                query = "\n".join(buffer)
                buffer = []
                try:
                    if read_only:
                        check_read_only(con, query)
                    stdout.write(execute(con, query, "table"))
                except AnalyticsError as error:
                    stdout.write(f"Error: {error}\n")
            stdout.flush()
    finally:
        con.close()


CONFINEMENT = (
    # No temporary folder: with file access off, DuckDB would otherwise allow its
    # temporary folder (./.tmp of the working folder) for reads and writes
    # (allowed_directories). Large sorts then stay in memory instead of spilling.
    "SET temp_directory = ''",
    # No file, URL, database or extension from SQL: COPY, ATTACH, read_text,
    # read_parquet('/any/path'), glob, INSTALL/LOAD... all fail. The views
    # read registered Arrow datasets, which DuckDB scans without opening a file.
    "SET enable_external_access = false",
    # No Python variable of the calling code by name (DuckDB's replacement scans).
    "SET python_enable_replacements = false",
    # No extension loaded behind a query's back (a function or a file suffix can trigger one).
    "SET autoload_known_extensions = false",
    "SET autoinstall_known_extensions = false",
    "SET allow_community_extensions = false",
    # Last: from here on no SET, RESET or PRAGMA can loosen the lines above.
    "SET lock_configuration = true",
)
"""What ``confine`` runs on a connection, in order."""


def confine(con: duckdb.DuckDBPyConnection) -> duckdb.DuckDBPyConnection:
    """Lock ``con`` down to what is already registered on it (``CONFINEMENT``); return it.

    Why not DuckDB's ``allowed_paths`` / ``allowed_directories`` with file
    access off: they allow *writes* too (``COPY (...) TO 'an allowed file'
    (USE_TMP_FILE false)`` overwrites a shard), so the views are over Arrow
    datasets instead and no path at all is allowed.
    """
    for setting in CONFINEMENT:
        con.execute(setting)
    return con


def open_confined_catalog(experiment_dir: ResultsPath, paired: bool | None = None,
                          comments: bool = True) -> duckdb.DuckDBPyConnection:
    """The experiment's catalog (views, macros, metric views over the shards' counts)
    that reads only its finished shards and writes nothing: ``open_catalog`` over Arrow
    datasets without writing a count cache, then ``confine``; described (``comments``)
    unless the caller knows the descriptions are not read."""
    return confine(open_catalog(experiment_dir, paired=paired, datasets=True, write_cache=False, comments=comments))


def open_confined_results_catalog(results_root: ResultsPath) -> duckdb.DuckDBPyConnection:
    """Like ``open_confined_catalog``, over every experiment under ``results_root``
    (``analytics.catalog.open_results_catalog``)."""
    return confine(open_results_catalog(results_root, datasets=True, comments=True))


READ_STATEMENTS = ("SELECT",)
"""Statement types a read-only query may be (``WITH``, ``FROM``, ``DESCRIBE``,
``SHOW``, ``SUMMARIZE`` and ``VALUES`` are all ``SELECT`` to DuckDB); an
``EXPLAIN`` (``ANALYZE`` too) is allowed when what it explains is one."""
READ_ONLY_HINT = "this box is read-only: expected one SELECT (use `cardlab sql` for anything else)"


def _explained(query: str) -> str:
    """The statement an ``EXPLAIN [ANALYZE | (options)] ...`` query explains (comments skipped)."""
    tokens = [(start, kind) for start, kind in duckdb.tokenize(query) if kind != duckdb.token_type.comment]
    ends = [start for start, _kind in tokens[1:]] + [len(query)]
    words = [query[start:end].strip() for (start, _kind), end in zip(tokens, ends, strict=True)]
    index = 1  # past EXPLAIN
    if index < len(words) and words[index].upper() == "ANALYZE":
        index += 1
    elif index < len(words) and words[index] == "(":
        while index < len(words) and words[index] != ")":
            index += 1
        index += 1
    return query[tokens[index][0]:] if index < len(tokens) else ""


def check_read_only(con: duckdb.DuckDBPyConnection, query: str) -> None:
    """Raise ``QueryError`` unless ``query`` is one read: a ``SELECT``, or an ``EXPLAIN`` of one.

    The second wall of the confined SQL (the first is ``confine``): anything
    else (``CREATE``, ``INSERT``, ``COPY``, ``SET``, ``ATTACH``, ``PRAGMA``,
    ``CALL``, ``EXPLAIN ANALYZE`` of a write, several statements...) is
    refused before it runs, in one line.
    """
    if not query.strip().strip(";").strip():
        raise QueryError("empty query; expected SQL such as: SELECT count(*) FROM games")
    try:
        statements = con.extract_statements(query)
        if len(statements) != 1:
            raise QueryError(f"only one statement at a time, got {len(statements)}; {READ_ONLY_HINT}")
        kind = statements[0].type.name
        if kind == "EXPLAIN":
            inner = con.extract_statements(_explained(statements[0].query))
            explained = inner[0].type.name if len(inner) == 1 else f"{len(inner)} statements"
            if explained not in READ_STATEMENTS:
                raise QueryError(f"EXPLAIN of {explained} refused: {READ_ONLY_HINT}")
        elif kind not in READ_STATEMENTS:
            label = "INSTALL/LOAD" if kind == "LOAD" else kind  # DuckDB types INSTALL as LOAD
            raise QueryError(f"{label} refused: {READ_ONLY_HINT}")
    except duckdb.Error as error:
        raise QueryError(one_line(error)) from None


def _refused_or_failed(error: duckdb.Error) -> QueryError:
    """DuckDB's error as one line; a confinement refusal says that it is one."""
    if isinstance(error, duckdb.PermissionException):
        return QueryError(f"refused: {one_line(error)} (this SQL reads only the results' views)")
    return QueryError(one_line(error))


def read_only_query(con: duckdb.DuckDBPyConnection, query: str,
                    max_rows: int | None = DEFAULT_MAX_ROWS) -> tuple[pl.DataFrame, int]:
    """Run one read-only statement and return (its first ``max_rows`` rows, the total row count).

    ``check_read_only`` first; then the query, whose errors (a confinement
    refusal included, on a ``confine``d connection) are one-line
    ``QueryError``s. The dashboard's SQL page uses it on
    ``open_confined_catalog``.
    """
    check_read_only(con, query)
    try:
        relation = con.sql(query)
        if relation is None:
            return pl.DataFrame(), 0
        frame = relation.limit(max_rows).pl() if max_rows is not None else relation.pl()
        try:
            counted = relation.aggregate("count(*)").fetchall()
            total = int(counted[0][0]) if counted else frame.height
        except duckdb.Error:  # e.g. EXPLAIN: what was fetched is all there is
            total = frame.height
    except duckdb.Error as error:
        raise _refused_or_failed(error) from None
    return frame, max(total, frame.height)
