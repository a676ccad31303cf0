"""The views' descriptions in DuckDB: ``COMMENT ON`` statements from the contracts, the
base views' contracts for the columns a catalog really has, and reading them back.

DuckDB keeps a view's and its columns' comments in its catalog: ``duckdb_views()``
and ``duckdb_columns()`` (and ``information_schema.columns.column_comment``) show
them, and a catalog file keeps them for the plain ``duckdb`` client. Its
``DESCRIBE`` does not print them (DuckDB 2.0 and the 1.5 command-line client), so
the catalogs also hold the table macro ``describe_view('name')``: the view's
columns with their types and descriptions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import duckdb

from dataset.contracts import Column, ViewContract
from dataset.quoting import sql_identifier, sql_string
from dataset.schemas import DESCRIPTIONS, TABLE_DESCRIPTIONS, TABLES, table_contract
from simcore.api import GameInfo

DESCRIBE_VIEW_MACRO = """
CREATE OR REPLACE MACRO describe_view(view_name) AS TABLE
SELECT column_name, data_type AS column_type, comment AS description
FROM duckdb_columns()
WHERE table_name = view_name
ORDER BY column_index
"""
"""``FROM describe_view('card_stats')``: a view's columns, types and descriptions, the
``DESCRIBE`` with comments that DuckDB's own does not print."""


def base_contracts(game_infos: Sequence[GameInfo],
                   con: duckdb.DuckDBPyConnection | None = None) -> dict[str, ViewContract]:
    """The contracts of ``games``, ``players`` and ``cards``: with ``con``, the columns
    its base views really have (results of several games, or written by an older
    cardlab, differ), else those of the first game's schemas; each described by
    ``dataset.schemas`` or, for a game's own column, by the first of ``game_infos``
    that declares it (none: an empty description)."""
    if con is None:
        return {table: table_contract(table, game_infos[0]) for table in TABLES} if game_infos else {}
    described = {table: {**_declared(game_infos), **DESCRIPTIONS[table]} for table in TABLES}
    contracts = {}
    for table in TABLES:
        columns = con.execute(f"DESCRIBE {sql_identifier(table)}").fetchall()
        contracts[table] = ViewContract(table, TABLE_DESCRIPTIONS[table], tuple(
            Column(name, kind, described[table].get(name, "")) for name, kind, *_ in columns))
    return contracts


def _declared(game_infos: Sequence[GameInfo]) -> dict[str, str]:
    """Each game-specific column's description, from the first game that declares it."""
    declared: dict[str, str] = {}
    for info in reversed(game_infos):
        declared.update(info.column_descriptions)
    return declared


def comment_statements(contracts: Iterable[ViewContract], tables: set[str]) -> list[str]:
    """``COMMENT ON`` every view of ``contracts`` (``TABLE`` for those in ``tables``: the
    count views a catalog holds as tables) and every described column of it."""
    statements = []
    for view in contracts:
        name = sql_identifier(view.name)
        kind = "TABLE" if view.name in tables else "VIEW"
        statements.append(f"COMMENT ON {kind} {name} IS {sql_string(view.description)}")
        statements.extend(f"COMMENT ON COLUMN {name}.{sql_identifier(column.name)} IS {sql_string(column.description)}"
                          for column in view.columns if column.description)
    return statements


VIEWS_SQL = ("SELECT view_name AS view, comment AS description FROM duckdb_views() "
             "WHERE NOT internal AND NOT starts_with(view_name, '_') UNION ALL "
             "SELECT table_name, comment FROM duckdb_tables() WHERE NOT starts_with(table_name, '_') ORDER BY 1")
"""SQL: every view (and count table) of a catalog with its description, by name; the
connection's own helpers (names starting with ``_``) left out."""


def described_views(con: duckdb.DuckDBPyConnection) -> list[tuple[str, str | None]]:
    """``VIEWS_SQL``'s rows: (view, description)."""
    return [(name, comment) for name, comment in con.execute(VIEWS_SQL).fetchall()]


def described_columns(con: duckdb.DuckDBPyConnection,
                      view: str | None = None) -> list[tuple[str, str, str, str | None]]:
    """(view, column, type, description) of every column of ``view`` (of every view of
    ``described_views`` without one), in order."""
    names = [name for name, _ in described_views(con)]
    if view is not None:
        names = [name for name in names if name == view]
    if not names:
        return []
    return [(table, column, kind, comment) for table, column, kind, comment in con.execute(
        "SELECT table_name, column_name, data_type, comment FROM duckdb_columns() "
        "WHERE table_name IN (SELECT unnest(?)) ORDER BY table_name, column_index", [names]).fetchall()]
