"""The Parquet files a shard task writes read back as exactly the tables of
``play_shard`` (types, nullability, every value), and give the committed
golden fingerprints: the recording's write path changes no row."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
import polars
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dataset.schemas import CARD_PLAIN_COLUMNS, CARD_STATISTICS_COLUMNS, schemas
from dataset.storage import table_path
from experiments.spec import Shard
from simcore.registry import GAMES, get_game
from tests.golden.golden import SORT_KEYS, golden_file, golden_spec, table_fingerprint
from workers.shard import play_shard, run_shard


def _written(folder: Path, shard: Shard) -> dict[str, pa.Table]:
    return {name: pq.read_table(table_path(folder, name, shard.variant, shard.id))
            for name in ("games", "players", "cards")}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_written_files_read_back_as_the_golden_tables(game_id: str, tmp_path: Path) -> None:
    info = get_game(game_id).info
    n_players = info.bench_players or info.min_players
    spec = golden_spec(game_id, n_players)
    shard = Shard(spec.variants[0].name, n_players, 0, spec.games)
    run_shard(spec, shard, tmp_path)
    written = _written(tmp_path, shard)
    expected = json.loads(golden_file(game_id).read_text())[str(n_players)]
    for name, table in written.items():
        assert table.schema.equals(schemas(info)[name]), name  # no dictionary type leaks into the files
        # Parquet names a list's items "element" where Arrow says "item" (``winners``): the same
        # type, but its text is part of the fingerprint, so read with the contract's names.
        contract = table.cast(schemas(info)[name])
        assert table_fingerprint(contract, SORT_KEYS[name]) == expected[name], f"{game_id} {name}"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_written_files_equal_play_shard_value_for_value(game_id: str, tmp_path: Path) -> None:
    spec = golden_spec(game_id, get_game(game_id).info.min_players)
    shard = Shard(spec.variants[0].name, spec.player_counts[0], 0, 150)
    run_shard(spec, shard, tmp_path)
    for name, table in _written(tmp_path, shard).items():
        assert table.equals(play_shard(spec, shard)[name]), name


def test_the_cards_files_are_read_by_duckdb_with_the_same_totals(tmp_path: Path) -> None:
    spec = golden_spec("divvy", 2)
    shard = Shard(spec.variants[0].name, 2, 0, 300)
    run_shard(spec, shard, tmp_path)
    path = table_path(tmp_path, "cards", shard.variant, shard.id)
    cards = play_shard(spec, shard)["cards"]
    query = (f"SELECT count(*), count(DISTINCT card), sum(drawn), sum(played), count(first_played_turn), "
             f"min(experiment) FROM '{path}'")
    found = duckdb.connect().execute(query).fetchone()
    assert found == (cards.num_rows, len(set(cards.column("card").to_pylist())),
                     sum(cards.column("drawn").to_pylist()), sum(cards.column("played").to_pylist()),
                     cards.column("first_played_turn").drop_null().length(), spec.name)
    # The writer settings chosen for speed: integers delta-encoded, statistics only on the key columns.
    row_group = pq.ParquetFile(path).metadata.row_group(0)
    columns = {row_group.column(index).path_in_schema: row_group.column(index)
               for index in range(row_group.num_columns)}
    assert "DELTA_BINARY_PACKED" in columns["drawn"].encodings
    for name in CARD_PLAIN_COLUMNS:  # long runs of one value: plain, squashed by zstd
        assert "DELTA_BINARY_PACKED" not in columns[name].encodings and "PLAIN" in columns[name].encodings, name
    assert {name for name, column in columns.items() if column.is_stats_set} == set(CARD_STATISTICS_COLUMNS)


def test_the_cards_files_are_read_by_polars_value_for_value(tmp_path: Path) -> None:
    spec = golden_spec("theseus", 3)
    shard = Shard(spec.variants[0].name, 3, 0, 200)
    run_shard(spec, shard, tmp_path)
    read = polars.read_parquet(str(table_path(tmp_path, "cards", shard.variant, shard.id)))
    expected = polars.from_arrow(play_shard(spec, shard)["cards"])
    assert isinstance(expected, polars.DataFrame)
    assert read.schema == expected.schema
    assert read.equals(expected)
