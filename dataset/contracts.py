"""Column contracts: what each view of the catalog holds, column by column.

A ``ViewContract`` names a view, says in one line what one of its rows is,
and lists its columns in order, each with its DuckDB type (as ``DESCRIBE``
prints it) and a one-line description a designer or an analyst reads: what
the column is and its unit (a rate in [0, 1], points, games, seat-games),
and for an interval which interval, at what level, over what unit of
evidence. The base views' contracts are in ``dataset.schemas``, the count
views' in ``dataset.count_views``, the metric views' beside their SQL in
``analytics.views``; the catalogs store the descriptions in DuckDB as
comments (``COMMENT ON``), and tests hold every view's real columns to its
contract.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Column:
    """One column: its name, DuckDB type and one-line description."""

    name: str
    type: str
    description: str


@dataclass(frozen=True)
class ViewContract:
    """A view: its name, what one row is, and its columns in order."""

    name: str
    description: str
    columns: tuple[Column, ...]

    def column(self, name: str) -> Column:
        """The column called ``name``; ``KeyError`` if the view has none."""
        for column in self.columns:
            if column.name == name:
                return column
        raise KeyError(f"{self.name} has no column {name!r}")

    def names(self) -> tuple[str, ...]:
        """The column names, in order."""
        return tuple(column.name for column in self.columns)


def contract(name: str, description: str, *columns: Column | Iterable[Column]) -> ViewContract:
    """A ``ViewContract`` from columns and groups of columns (such as a rate with its interval), in order."""
    flat: list[Column] = []
    for item in columns:
        flat.extend([item] if isinstance(item, Column) else item)
    return ViewContract(name, description, tuple(flat))


# The columns every count and metric view starts with, and the keys many share.
EXPERIMENT = Column("experiment", "VARCHAR", "Experiment name (the spec's `name`).")
VARIANT = Column("variant", "VARCHAR", "Variant name: `baseline` (the game's defaults) or one of the spec's variants.")
N_PLAYERS = Column("n_players", "TINYINT", "Number of players (seats) in the game.")
GROUP = (EXPERIMENT, VARIANT, N_PLAYERS)
"""The three columns every count and metric view opens with."""

AGENT = Column("agent", "VARCHAR", "The agent (AI player) that held the seat, as the spec names it, "
               "e.g. `heuristic` or `ismcts(iterations=200)`.")
CARD = Column("card", "VARCHAR", "Card id, as in the game's card data.")
FACTION = Column("faction", "VARCHAR", "The seat's faction: a Ring of Chaos party, a Party Wanted hero class.")
SEAT = Column("seat", "TINYINT", "Seat number, 0 = the first seat.")
