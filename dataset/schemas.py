"""Arrow schemas of the results dataset (``games``, ``players``, ``cards``).

The generic columns are the same for every game; ``GameInfo.game_columns``
adds game-specific ``games`` columns and ``GameInfo.card_counters`` the
per-card counters. Every table starts with ``experiment`` and ``variant`` so
that a file read on its own still says where it came from.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from simcore.api import GameInfo

TABLES = ("games", "players", "cards")

_TYPES: dict[str, pa.DataType] = {
    "bool": pa.bool_(),
    "int8": pa.int8(),
    "int16": pa.int16(),
    "int32": pa.int32(),
    "int64": pa.int64(),
    "float64": pa.float64(),
    "string": pa.string(),
}

_KEY_FIELDS = [
    pa.field("experiment", pa.string(), nullable=False),
    pa.field("variant", pa.string(), nullable=False),
    pa.field("game", pa.string(), nullable=False),
    pa.field("game_index", pa.int64(), nullable=False),
    pa.field("n_players", pa.int8(), nullable=False),
]


def arrow_type(name: str) -> pa.DataType:
    """The Arrow type for a type name used in ``GameInfo.game_columns``."""
    return _TYPES[name]


def games_schema(info: GameInfo) -> pa.Schema:
    """One row per game."""
    return pa.schema([
        *_KEY_FIELDS,
        pa.field("seed", pa.int64(), nullable=False),
        pa.field("winner", pa.int8()),  # the sole winner's seat; null for a draw or shared result
        pa.field("winners", pa.list_(pa.int8()), nullable=False),
        pa.field("draw", pa.bool_(), nullable=False),
        pa.field("end_reason", pa.string(), nullable=False),
        pa.field("turns", pa.int32(), nullable=False),
        pa.field("decisions", pa.int32(), nullable=False),
        # Legal actions summed over the decisions; / decisions = mean branching.
        pa.field("legal_actions", pa.int32()),
        *[pa.field(name, arrow_type(kind)) for name, kind in info.game_columns.items()],
    ])


def players_schema(info: GameInfo) -> pa.Schema:
    """One row per seat per game."""
    return pa.schema([
        *_KEY_FIELDS,
        pa.field("seat", pa.int8(), nullable=False),
        pa.field("agent", pa.string(), nullable=False),
        pa.field("faction", pa.string()),
        pa.field("won", pa.bool_(), nullable=False),
        pa.field("score", pa.int32(), nullable=False),
        pa.field("rank", pa.int8(), nullable=False),
        *[pa.field(name, arrow_type(kind)) for name, kind in info.player_columns.items()],
    ])


def cards_schema(info: GameInfo) -> pa.Schema:
    """One row per (game, seat, card) the seat owned or saw."""
    return pa.schema([
        *_KEY_FIELDS,
        pa.field("seat", pa.int8(), nullable=False),
        pa.field("card", pa.string(), nullable=False),
        pa.field("copies", pa.int16(), nullable=False),
        *[pa.field(name, pa.int16(), nullable=False) for name in info.card_counters],
        pa.field("first_played_turn", pa.int16()),
        pa.field("won", pa.bool_(), nullable=False),
    ])


def schemas(info: GameInfo) -> dict[str, pa.Schema]:
    """The three schemas by table name."""
    return {"games": games_schema(info), "players": players_schema(info), "cards": cards_schema(info)}


CARD_TEXT_COLUMNS = ("experiment", "variant", "game", "card")
"""``cards`` columns that a shard task hands to the Parquet writer as Arrow
dictionary arrays (indices into a few names): the writer then stores the
dictionary it is given instead of hashing ~60 strings per game to build one.
The files hold dictionary-encoded UTF-8 strings, as before, and read back as
``string``."""

PARQUET_OPTIONS: dict[str, Any] = {"compression": "zstd"}
"""How the ``games`` and ``players`` files are written (a few rows per game:
their settings hardly matter)."""

CARD_PLAIN_COLUMNS = ("n_players", "seat", "copies")
"""``cards`` integer columns stored ``PLAIN``: long runs of one value (a
shard's player count, a seat's rows, copies that are 1 for most cards), which
zstd squashes as well as delta encoding does, at a third of the writer's time
for these columns (README, "Speed")."""

CARD_STATISTICS_COLUMNS = ("game_index", "n_players", "seat")
"""The ``cards`` columns with min/max statistics in their files (what a reader
filters card rows by); the others have none, which saves a quarter of the
writer's time (nothing in cardlab reads them)."""


def card_parquet_options(schema: pa.Schema) -> dict[str, Any]:
    """How the ``cards`` files are written (~60 rows per game, so the writer's
    time counts; measured in the README's Speed section):

    - the text columns (``CARD_TEXT_COLUMNS``) arrive as Arrow dictionaries and
      are stored dictionary-encoded as given;
    - the integer columns are stored ``DELTA_BINARY_PACKED`` (small counters,
      sorted game indices: several times faster to write than dictionary
      encoding and about as small after zstd; every Parquet reader since format
      2.0 decodes it, unlike ``BYTE_STREAM_SPLIT`` for integers), but for
      ``CARD_PLAIN_COLUMNS``, stored ``PLAIN``;
    - statistics only for ``CARD_STATISTICS_COLUMNS``;
    - no stored Arrow schema, so that the dictionary columns read back as the
      ``string`` columns of ``cards_schema`` (the table holds only flat
      columns, whose Parquet types map back to the same Arrow types and
      nullability).
    """
    return {
        "compression": "zstd",
        "store_schema": False,
        "use_dictionary": list(CARD_TEXT_COLUMNS),
        "write_statistics": list(CARD_STATISTICS_COLUMNS),
        "column_encoding": {field.name: "PLAIN" if field.name in CARD_PLAIN_COLUMNS else "DELTA_BINARY_PACKED"
                            for field in schema if pa.types.is_integer(field.type)},
    }


def encode_parquet(table: pa.Table, options: dict[str, Any] | None = None) -> bytes:
    """The Parquet file of ``table``, as bytes (``PARQUET_OPTIONS`` unless told otherwise)."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, **(PARQUET_OPTIONS if options is None else options))
    return bytes(sink.getvalue())


def parquet_options(table: str, schema: pa.Schema) -> dict[str, Any]:
    """The Parquet writer settings of a ``table`` file of ``schema``."""
    return card_parquet_options(schema) if table == "cards" else PARQUET_OPTIONS
