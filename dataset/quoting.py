"""Text written into SQL: a string literal and an identifier, quoted as DuckDB reads them.

One module that imports nothing, so that ``analytics.views`` (which must not import the
catalog) and every other module building SQL share the same two functions.
"""

from __future__ import annotations


def sql_string(text: str) -> str:
    """``text`` as a SQL string literal: ``'it''s'``."""
    return "'" + text.replace("'", "''") + "'"


def sql_identifier(name: str) -> str:
    """``name`` as a quoted SQL identifier (a column or view name with any characters)."""
    return '"' + name.replace('"', '""') + '"'
