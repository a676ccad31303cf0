"""Every way out of the confined SQL we could think of, as queries: file-reading table
functions, another experiment's files, object-store and web URLs, writes (COPY,
EXPLAIN ANALYZE of a write, CREATE, INSERT, ATTACH), extensions (INSTALL, LOAD,
autoloading), configuration (SET, RESET, PRAGMA), several statements.

Each route is (name, query, text the one-line refusal contains). Queries may
name ``{own_file}`` (a shard file of the chosen experiment), ``{other}`` (the
other experiment's folder) and ``{target}`` (a path in a scratch folder that
nothing may create); ``queries`` fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass

STATEMENT_REFUSED = "refused: this box is read-only"
FILE_REFUSED = "refused: Permission Error"


@dataclass(frozen=True)
class Route:
    """One attempt and what its refusal says."""

    name: str
    query: str
    refusal: str


ROUTES = [
    Route("read_text of the process environment", "SELECT * FROM read_text('/proc/self/environ')", FILE_REFUSED),
    Route("read_blob of a system file", "SELECT * FROM read_blob('/etc/hostname')", FILE_REFUSED),
    Route("read_csv of a system file", "SELECT * FROM read_csv('/etc/passwd')", FILE_REFUSED),
    Route("read_json of a system file", "FROM read_json_auto('/etc/hosts')", FILE_REFUSED),
    Route("glob of the root folder", "SELECT * FROM glob('/*')", FILE_REFUSED),
    Route("read_parquet of another experiment", "SELECT count(*) FROM read_parquet('{other}/games/*/*.parquet')",
          FILE_REFUSED),
    Route("another experiment's file by name", "SELECT * FROM '{other}/spec.json'", FILE_REFUSED),
    Route("read_parquet of the experiment's own file", "SELECT count(*) FROM read_parquet('{own_file}')",
          FILE_REFUSED),
    Route("parquet_metadata of a shard", "SELECT * FROM parquet_metadata('{own_file}')", FILE_REFUSED),
    Route("an s3:// object", "SELECT * FROM read_parquet('s3://cardlab-test/other/games.parquet')", FILE_REFUSED),
    Route("an https:// file", "SELECT * FROM read_csv('https://example.com/data.csv')", FILE_REFUSED),
    Route("stored secrets", "SELECT * FROM duckdb_secrets()", FILE_REFUSED),
    Route("COPY to a file", "COPY (SELECT 1 AS x) TO '{target}'", "COPY " + STATEMENT_REFUSED),
    Route("COPY over a shard without a temporary file",
          "COPY (SELECT 1 AS x) TO '{own_file}' (FORMAT parquet, USE_TMP_FILE false)", "COPY " + STATEMENT_REFUSED),
    Route("EXPLAIN ANALYZE of a COPY", "EXPLAIN ANALYZE COPY (SELECT 1 AS x) TO '{target}'",
          "EXPLAIN of COPY " + STATEMENT_REFUSED),
    Route("EXPLAIN ANALYZE of a CREATE TABLE", "EXPLAIN ANALYZE CREATE TABLE stolen AS SELECT * FROM games",
          "EXPLAIN of CREATE " + STATEMENT_REFUSED),
    Route("EXPLAIN ANALYZE behind a comment", "EXPLAIN /* looks harmless */ ANALYZE CREATE TABLE t AS SELECT 1",
          "EXPLAIN of CREATE " + STATEMENT_REFUSED),
    Route("EXPLAIN with options of an INSERT", "EXPLAIN (ANALYZE, FORMAT json) INSERT INTO games SELECT * FROM games",
          "EXPLAIN of INSERT " + STATEMENT_REFUSED),
    Route("CREATE TABLE", "CREATE TABLE stolen AS SELECT * FROM games", "CREATE " + STATEMENT_REFUSED),
    Route("INSERT", "INSERT INTO games SELECT * FROM games", "INSERT " + STATEMENT_REFUSED),
    Route("DROP VIEW", "DROP VIEW games", "DROP " + STATEMENT_REFUSED),
    Route("ATTACH a database file", "ATTACH '{target}' AS elsewhere", "ATTACH " + STATEMENT_REFUSED),
    Route("ATTACH an in-memory database", "ATTACH ':memory:' AS scratch", "ATTACH " + STATEMENT_REFUSED),
    Route("INSTALL an extension", "INSTALL httpfs", "INSTALL/LOAD " + STATEMENT_REFUSED),
    Route("LOAD an extension", "LOAD httpfs", "INSTALL/LOAD " + STATEMENT_REFUSED),
    Route("LOAD an extension file", "LOAD '{target}'", "INSTALL/LOAD " + STATEMENT_REFUSED),
    Route("extension autoloading by a function", "SELECT * FROM sqlite_scan('{target}', 't')",
          "exists in the sqlite_scanner extension"),
    Route("extension autoloading by a file suffix", "SELECT * FROM '{target}.xlsx'", "does not exist"),
    Route("SET file access back on", "SET enable_external_access = true", "SET " + STATEMENT_REFUSED),
    Route("RESET the configuration lock", "RESET lock_configuration", "SET " + STATEMENT_REFUSED),
    Route("PRAGMA", "PRAGMA enable_profiling", "PRAGMA " + STATEMENT_REFUSED),
    Route("CALL", "CALL pragma_version()", "CALL " + STATEMENT_REFUSED),
    Route("a SELECT then a COPY", "SELECT 1; COPY (SELECT 1 AS x) TO '{target}'",
          "only one statement at a time, got 2"),
    Route("a write inside query()", "SELECT * FROM query('CREATE TABLE t AS SELECT 1')",
          "Expected a single SELECT statement"),
]


def queries(own_file: str, other: str, target: str) -> list[tuple[Route, str]]:
    """Every route with its query's placeholders filled in."""
    return [(route, route.query.format(own_file=own_file, other=other, target=target)) for route in ROUTES]
