"""One shard: play its games and write its three Parquet files and manifest.

``play_shard`` is pure (games in, Arrow tables out); ``run_shard`` adds the
writes. The Ray task in ``workers.runner`` calls ``run_shard``; tests and
``cardlab bench`` call both directly.
"""

from __future__ import annotations

import gc
import time
from pathlib import Path
from typing import Any

import numpy
import pyarrow as pa

from experiments.spec import ExperimentSpec, Shard
from simcore.api import Game
from simcore.play import play_game
from simcore.records import ResultColumns
from simcore.registry import get_game
from simcore.seeding import game_seed
from workers.location import ResultsPath, results_path
from workers.schemas import TABLES, schemas
from workers.storage import manifest_path, table_path, write_json_atomically, write_parquet_atomically


def play_shard(spec: ExperimentSpec, shard: Shard) -> dict[str, pa.Table]:
    """Play every game of ``shard`` and return its ``games``, ``players`` and ``cards`` tables."""
    game = get_game(spec.game)
    config = game.configure(spec.variant(shard.variant).parameters)
    columns = ResultColumns(game.info)
    # Finished games hold many small objects; skip the cyclic collector's
    # repeated scans of them (nothing here makes reference cycles).
    collector_was_on = gc.isenabled()
    gc.disable()
    try:
        _play_into(spec, shard, game, config, columns)
    finally:
        if collector_was_on:
            gc.enable()
    return to_tables(spec, shard, columns)


def _play_into(spec: ExperimentSpec, shard: Shard, game: Game, config: Any, columns: ResultColumns) -> None:
    for game_index in range(shard.start, shard.stop):
        seed = game_seed(spec.seed, spec.seed_variant(shard.variant), shard.n_players, game_index)
        lineup = spec.lineup(shard.n_players, game_index, shard.variant)
        columns.add(game_index, seed, play_game(game, config, shard.n_players, seed, lineup))


def to_tables(spec: ExperimentSpec, shard: Shard, columns: ResultColumns) -> dict[str, pa.Table]:
    """Arrow tables of the gathered columns, with the key columns filled in."""
    table_schemas = schemas(get_game(spec.game).info)
    cards = columns.cards
    card_data: dict[str, Any] = {
        "game_index": columns.card_game_index, "n_players": columns.card_n_players, "seat": cards.seat,
        "copies": cards.copies, "won": columns.card_won,
        **dict(zip(get_game(spec.game).info.card_counters, cards.counters, strict=True)),
    }
    card_names = pa.DictionaryArray.from_arrays(
        pa.array(numpy.array(cards.card, dtype=numpy.int32)), pa.array(cards.names, type=pa.string()))
    first_played = numpy.array(cards.first_played_turn, dtype=numpy.int64)
    computed = {
        "card": card_names.cast(pa.string()),
        "first_played_turn": pa.array(first_played, mask=first_played < 0).cast(pa.int16()),
    }
    sources = {"games": columns.games, "players": columns.players, "cards": card_data}
    constant = {"experiment": spec.name, "variant": shard.variant, "game": spec.game}
    tables = {}
    for name in TABLES:
        data = sources[name]
        rows = len(data["game_index"])
        arrays = []
        for field in table_schemas[name]:
            if field.name in constant:
                arrays.append(pa.repeat(pa.scalar(constant[field.name], field.type), rows))
            elif name == "cards" and field.name in computed:
                arrays.append(computed[field.name])
            else:
                arrays.append(_to_arrow(data[field.name], field))
        tables[name] = pa.Table.from_arrays(arrays, schema=table_schemas[name])
    # A sweep's grid values, as columns named by their dotted paths, so that SQL can group by them.
    for path, value in spec.sweep_values(shard.variant).items():
        games = tables["games"]
        tables["games"] = games.append_column(path, pa.repeat(pa.scalar(value), games.num_rows))
    return tables


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
    """Play ``shard`` and write it under ``root`` (a local folder or an ``s3://`` prefix);
    return its manifest entry.

    The manifest marker is written last: a shard without one is unfinished and
    will be played again (to the same file names) by ``--resume``.
    """
    started = time.perf_counter()
    tables = play_shard(spec, shard)
    played = time.perf_counter()
    folder = results_path(root)
    files = {
        name: write_parquet_atomically(table, table_path(folder, name, shard.variant, shard.id))
        for name, table in tables.items()
    }
    entry = {
        "shard": shard.id,
        "variant": shard.variant,
        "n_players": shard.n_players,
        "start": shard.start,
        "stop": shard.stop,
        "rows": {name: table.num_rows for name, table in tables.items()},
        "files": files,
        "play_seconds": round(played - started, 4),
        "write_seconds": round(time.perf_counter() - played, 4),
    }
    write_json_atomically(entry, manifest_path(folder, shard.id))
    return entry
