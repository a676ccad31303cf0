"""One shard: play its games and write its three Parquet files, its counts and manifest.

``play_shard`` is pure (games in, Arrow tables out); ``run_shard`` adds the
counts of the report (``workers.counts``, from the tables in memory) and the
writes. The Ray task in ``workers.runner`` calls ``run_shard``; tests and
``cardlab bench`` call both directly.

Both go through ``record_shard``, whose ``cards`` table keeps its text
columns as Arrow dictionaries (``dataset.schemas.CARD_TEXT_COLUMNS``) because
the Parquet writer stores those fastest; ``play_shard`` decodes them into the
``string`` columns of the dataset contract, which is also what the written
files read back as.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy
import pyarrow as pa

from dataset.count_views import COUNTS_FORMAT
from dataset.location import ResultsPath, results_path
from dataset.schemas import cards_schema, parquet_options, schemas
from dataset.storage import counts_path, manifest_path, table_path, write_json_atomically, write_parquet_atomically
from experiments.spec import ExperimentSpec, Shard
from simcore.api import Game, GameInfo, Int16Column
from simcore.play import play_game
from simcore.records import ResultColumns
from simcore.registry import get_game
from simcore.seeding import game_seed
from workers.counts import COUNTS_PARQUET_OPTIONS, count_shard


def play_shard(spec: ExperimentSpec, shard: Shard) -> dict[str, pa.Table]:
    """Play every game of ``shard`` and return its ``games``, ``players`` and ``cards`` tables."""
    tables = record_shard(spec, shard)
    tables["cards"] = tables["cards"].cast(cards_schema(get_game(spec.game).info))
    return tables


@contextmanager
def cyclic_collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off inside the block, as it was afterwards:
    finished games and their rows are many small objects without reference cycles,
    which the collector would otherwise scan again and again."""
    collector_was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collector_was_on:
            gc.enable()


def record_shard(spec: ExperimentSpec, shard: Shard) -> dict[str, pa.Table]:
    """``play_shard``'s tables as a shard task writes them: the ``cards`` text
    columns still as dictionary arrays."""
    game = get_game(spec.game)
    config = game.configure(spec.variant(shard.variant).parameters)
    columns = ResultColumns(game.info)
    # The collector stays off while the tables are built too: turned on with
    # the shard's rows alive, its first full pass would walk all of them.
    with cyclic_collector_paused():
        _play_into(spec, shard, game, config, columns)
        return to_tables(spec, shard, columns)


def _play_into(spec: ExperimentSpec, shard: Shard, game: Game, config: Any, columns: ResultColumns) -> None:
    n_players, seed_variant = shard.n_players, spec.seed_variant(shard.variant)
    # A game's lineup depends on its index only through the seat rotation
    # (index modulo the player count), so there are n_players of them at most.
    lineups = [spec.lineup(n_players, offset, shard.variant) for offset in range(n_players)]
    for game_index in range(shard.start, shard.stop):
        deal, agent_replay = spec.deal(game_index)  # (game_index, 0) unless the spec replays its deals
        seed = game_seed(spec.seed, seed_variant, n_players, deal)
        columns.add(game_index, seed, play_game(game, config, n_players, seed, lineups[deal % n_players], None,
                                                agent_replay))


def to_tables(spec: ExperimentSpec, shard: Shard, columns: ResultColumns) -> dict[str, pa.Table]:
    """Arrow tables of the gathered columns, with the key columns filled in
    (the ``cards`` text columns as dictionary arrays, see ``record_shard``)."""
    info = get_game(spec.game).info
    table_schemas = schemas(info)
    constant = {"experiment": spec.name, "variant": shard.variant, "game": spec.game}
    tables = {}
    for name, data in (("games", columns.games), ("players", columns.players)):
        arrays = [_constant_column(constant[field.name], field, len(data["game_index"])) if field.name in constant
                  else _to_arrow(data[field.name], field) for field in table_schemas[name]]
        tables[name] = pa.Table.from_arrays(arrays, schema=table_schemas[name])
    card_arrays = card_table_arrays(info, columns)
    rows = len(columns.cards)
    for name, value in constant.items():
        card_arrays[name] = pa.DictionaryArray.from_arrays(
            pa.array(numpy.zeros(rows, dtype=numpy.int32)), pa.array([value], type=pa.string()))
    card_fields = [pa.field(field.name, card_arrays[field.name].type, nullable=field.nullable)
                   for field in table_schemas["cards"]]
    tables["cards"] = pa.Table.from_arrays([card_arrays[field.name] for field in card_fields],
                                           schema=pa.schema(card_fields))
    # A sweep's grid values, as columns named by their dotted paths, so that SQL can group by them.
    for path, value in spec.sweep_values(shard.variant).items():
        games = tables["games"]
        tables["games"] = games.append_column(path, pa.repeat(pa.scalar(value), games.num_rows))
    return tables


def card_table_arrays(info: GameInfo, columns: ResultColumns) -> dict[str, pa.Array]:
    """The ``cards`` columns other than the constant keys, each built from a whole
    buffer at once (no Python object per value).

    The games filled ``seat``, ``card``, ``copies``, the counters and the first
    played turn; a row's ``game_index``, ``n_players`` and ``won`` come from
    its game's row in ``games`` and its seat's row in ``players``
    (``columns.card_rows`` says how many card rows each game added)."""
    cards = columns.cards
    rows_per_game = numpy.array(columns.card_rows, dtype=numpy.int64)
    game_index = numpy.array(columns.games["game_index"], dtype=numpy.int64)
    players_per_game = numpy.array(columns.games["n_players"], dtype=numpy.int32)
    seat = _int16_values(cards.seat)
    # The players rows of a game are its seats in order, after those of the earlier games
    # (int32 positions: a shard holds far fewer than 2**31 player rows).
    first_player_row = numpy.cumsum(players_per_game, dtype=numpy.int32) - players_per_game
    player_won = numpy.array(columns.players["won"], dtype=numpy.bool_)
    first_played = _int16_values(cards.first_played_turn)
    arrays = {
        "game_index": pa.array(numpy.repeat(game_index, rows_per_game)),
        "n_players": pa.array(numpy.repeat(players_per_game.astype(numpy.int8), rows_per_game)),
        "seat": pa.array(seat.astype(numpy.int8)),
        "card": pa.DictionaryArray.from_arrays(pa.array(_int16_values(cards.card).astype(numpy.int32)),
                                               pa.array(cards.names, type=pa.string())),
        "copies": pa.array(_int16_values(cards.copies)),
        "first_played_turn": pa.array(first_played, mask=first_played < 0),
        "won": pa.array(player_won[numpy.repeat(first_player_row, rows_per_game) + seat]),
    }
    for name, counter in zip(info.card_counters, cards.counters, strict=True):
        arrays[name] = pa.array(_int16_values(counter))
    return arrays


def _int16_values(column: Int16Column) -> numpy.ndarray:
    """A column's values as a numpy array (one copy of its buffer, no Python object per value)."""
    return numpy.frombuffer(column.to_bytes(), dtype="<i2")


def _constant_column(value: str, field: pa.Field, rows: int) -> pa.Array:
    return pa.repeat(pa.scalar(value, field.type), rows)


_NUMPY_INTEGERS = {"int8": numpy.int8, "int16": numpy.int16, "int32": numpy.int32, "int64": numpy.int64}


def _to_arrow(values: list[Any], field: pa.Field) -> pa.Array:
    """One column; non-null integers go through numpy, which converts Python
    ints to narrow types far faster than pyarrow does."""
    if pa.types.is_integer(field.type) and not field.nullable:
        return pa.array(numpy.array(values, dtype=_NUMPY_INTEGERS[str(field.type)]))
    if pa.types.is_integer(field.type):
        return pa.array(values, type=pa.int64()).cast(field.type)
    return pa.array(values, type=field.type)


def run_shard(spec: ExperimentSpec, shard: Shard, root: str | Path | ResultsPath) -> dict[str, Any]:
    """Play ``shard``, count its rows for the report and write both under ``root``
    (a local folder or an ``s3://`` prefix); return its manifest entry.

    The manifest marker is written last: a shard without one is unfinished and
    will be played again (to the same file names) by ``--resume``.
    """
    started = time.perf_counter()
    tables = record_shard(spec, shard)
    played = time.perf_counter()
    counts = count_shard(tables)
    counted = time.perf_counter()
    folder = results_path(root)
    # The shard's tables hold no Python objects for the cyclic collector to find.
    with cyclic_collector_paused():
        files = {
            name: write_parquet_atomically(table, table_path(folder, name, shard.variant, shard.id),
                                           parquet_options(name, table.schema))
            for name, table in tables.items()
        }
        count_files = {view: write_parquet_atomically(table, counts_path(folder, view, shard.variant, shard.id),
                                                      COUNTS_PARQUET_OPTIONS)
                       for view, table in counts.items()}
    entry = {
        "shard": shard.id,
        "variant": shard.variant,
        "n_players": shard.n_players,
        "start": shard.start,
        "stop": shard.stop,
        "rows": {name: table.num_rows for name, table in tables.items()},
        "files": files,
        "counts": {"format": COUNTS_FORMAT, "files": count_files},
        "play_seconds": round(played - started, 4),
        "count_seconds": round(counted - played, 4),
        "write_seconds": round(time.perf_counter() - counted, 4),
    }
    write_json_atomically(entry, manifest_path(folder, shard.id))
    return entry
