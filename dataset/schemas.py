"""Arrow schemas of the results dataset (``games``, ``players``, ``cards``).

The generic columns are the same for every game; ``GameInfo.game_columns``
adds game-specific ``games`` columns and ``GameInfo.card_counters`` the
per-card counters. Every table starts with ``experiment`` and ``variant`` so
that a file read on its own still says where it came from.

``table_contract`` is the column contract of the base view over a table
(``dataset.contracts``): the columns of these schemas with their DuckDB types,
each described here (``DESCRIPTIONS``) or, for a game's own columns, by the
game (``GameInfo.column_descriptions``).
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from dataset.contracts import EXPERIMENT, N_PLAYERS, SEAT, VARIANT, Column, ViewContract
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
        # Who led and by how much the winner won (simcore.standings); NULL without standings.
        pa.field("margin", pa.int32()),
        pa.field("lead_changes", pa.int16()),
        pa.field("winner_deficit", pa.int32()),
        pa.field("leader_first_third", pa.int8()),
        pa.field("leader_second_third", pa.int8()),
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


TABLE_DESCRIPTIONS = {
    "games": "One row per game played.",
    "players": "One row per seat of each game: who played it and how it ended for that seat.",
    "cards": "One row per (game, seat, card) the seat drew, played or otherwise touched (which counters "
             "give a card a row is the game's own), with the game's per-card counters.",
}
"""What one row of each base view is."""

_GAME = {
    "experiment": EXPERIMENT.description,
    "variant": VARIANT.description,
    "game": "Game id: `divvy`, `ring_of_chaos`, `party_wanted` or `theseus` (or a game of your own).",
    "game_index": "The game's number within its variant and player count, from 0; with experiment, variant and "
                  "n_players it identifies the game (join the three tables on these four columns).",
    "n_players": N_PLAYERS.description,
}
_NO_STANDINGS = ("in games without standings (cooperative: the seats share one outcome) and in results written "
                 "before cardlab recorded it")
DESCRIPTIONS: dict[str, dict[str, str]] = {
    "games": {
        **_GAME,
        "seed": "The seed the game was dealt from; variants played on the baseline's seeds (`paired_seeds`) "
                "have the same seed at the same game index.",
        "winner": "The sole winner's seat; NULL when nobody won (a draw, a lost cooperative game) or several "
                  "seats did (a won cooperative game).",
        "winners": "The seats that won; empty when nobody did (a draw, a lost cooperative game).",
        "draw": "Nobody won and the result was shared (a lost cooperative game is no draw).",
        "end_reason": "Why the game ended, a short identifier of the game's own (`turn_cap` and the like: "
                      "stopped by the turn limit).",
        "turns": "Turns played (rounds, where the game counts rounds).",
        "decisions": "Decisions the agents made: steps with more than one legal action (forced moves excluded).",
        "legal_actions": "Legal actions summed over the decisions; divided by `decisions`, the mean number of "
                         "choices per decision. NULL in results written before cardlab recorded it.",
        "margin": f"The margin of victory: the sole winner's final standing minus the best final standing of the "
                  f"other seats, in the game's own units (coins, VP, points). 0 or less when the game was won "
                  f"otherwise (a tiebreaker, an elimination). NULL without a sole winner (a draw, a shared win), "
                  f"{_NO_STANDINGS}.",
        "lead_changes": f"Times the lead passed to another seat: readings of the standings (after every turn and at "
                        f"the end) whose sole leader differs from the last sole leader (seats level at the top lead "
                        f"nobody and change nothing). NULL {_NO_STANDINGS}.",
        "winner_deficit": f"The largest deficit the sole winner came back from: the most its standing ever fell "
                          f"short of the best standing of a reading (0: never behind). NULL without a sole winner, "
                          f"{_NO_STANDINGS}.",
        "leader_first_third": f"The seat leading alone at the end of the first third of the game (reading ⌈m/3⌉ of "
                              f"its m readings of the standings); NULL when seats were level at the top then, "
                              f"{_NO_STANDINGS}.",
        "leader_second_third": f"The seat leading alone at the end of the second third (reading ⌈2m/3⌉ of m); NULL "
                               f"when seats were level at the top then, {_NO_STANDINGS}.",
    },
    "players": {
        **_GAME,
        "seat": SEAT.description,
        "agent": "The agent (AI player) at this seat, as the spec names it, e.g. `heuristic`.",
        "faction": "The seat's faction (a Ring of Chaos party, a Party Wanted hero class); NULL in games "
                   "without factions.",
        "won": "The seat won the game (in a draw nobody did; in a cooperative game every seat shares the outcome).",
        "score": "The seat's final score as the rulebook counts it (points, VP, Summoning Points...).",
        "rank": "The seat's final place, 1 = best; tied seats share a place.",
    },
    "cards": {
        **_GAME,
        "seat": SEAT.description,
        "card": "Card id, as in the game's card data.",
        "copies": "Copies of this card in the game (the card data's count at this variant's parameters).",
        "first_played_turn": "The first turn the seat played the card; NULL if it never played it.",
        "won": "The seat won the game (`players.won` of this seat), repeated on each of its card rows.",
    },
}
"""The fixed columns' descriptions, by table (the game's own columns are described by the game)."""


def duckdb_type(kind: pa.DataType) -> str:
    """The DuckDB type a Parquet column of Arrow type ``kind`` reads as, as ``DESCRIBE`` prints it."""
    if pa.types.is_list(kind):
        return f"{duckdb_type(kind.value_type)}[]"
    names = {pa.bool_(): "BOOLEAN", pa.int8(): "TINYINT", pa.int16(): "SMALLINT", pa.int32(): "INTEGER",
             pa.int64(): "BIGINT", pa.float64(): "DOUBLE", pa.string(): "VARCHAR"}
    return names[kind]


def table_contract(table: str, info: GameInfo) -> ViewContract:
    """The column contract of the base view ``table`` for the game ``info``: the table's
    schema, each column described (a game's own column by ``info.column_descriptions``;
    an empty description where it declares none, which the tests refuse)."""
    described = {**info.column_descriptions, **DESCRIPTIONS[table]}
    return ViewContract(table, TABLE_DESCRIPTIONS[table], tuple(
        Column(field.name, duckdb_type(field.type), described.get(field.name, ""))
        for field in schemas(info)[table]))
