"""The same spec gives the same results whatever the worker count or shard size."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import duckdb
import pytest

from dataset.location import ResultsPath
from experiments.spec import ExperimentSpec, parse_spec
from tests.embedded_ray import join_shared_ray
from workers.runner import RunOptions, run_experiment

SMALL_SPEC = {
    "name": "determinism",
    "game": "divvy",
    "games": 600,
    "seed": 11,
    "agents": ["heuristic", "random"],
    "rotate_seats": True,
    "shard_size": 100,
    "variants": {"four_rounds": {"rules.rounds": 4}},
}

ORDERS = {"games": "variant, game_index", "players": "variant, game_index, seat",
          "cards": "variant, game_index, seat, card"}


def _run(spec: ExperimentSpec, results: Path, workers: int) -> ResultsPath:
    # On the shared Ray of two CPUs, the one-worker run plays its shards one at a time only
    # with one in flight (the runner keeps two per worker in flight).
    options = RunOptions(results_root=results, workers=workers, progress=False,
                         max_in_flight=1 if workers == 1 else None)
    return run_experiment(spec, options).experiment_dir


def _contents(folder: ResultsPath) -> dict[str, list[tuple[object, ...]]]:
    connection = duckdb.connect()
    contents = {}
    for table, order in ORDERS.items():
        files = str(folder / table / "**" / "*.parquet")
        contents[table] = connection.execute(
            f"SELECT * FROM read_parquet('{files}', hive_partitioning=false) ORDER BY {order}").fetchall()
    return contents


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, ResultsPath]:
    spec = parse_spec(SMALL_SPEC, "test-spec")
    resharded = dataclasses.replace(spec, shard_size=250)
    join_shared_ray()  # of two CPUs
    one = _run(spec, tmp_path_factory.mktemp("one"), 1)
    two = _run(spec, tmp_path_factory.mktemp("two"), 2)
    other_shard_size = _run(resharded, tmp_path_factory.mktemp("resharded"), 2)
    return {"one worker": one, "two workers": two, "other shard size": other_shard_size}


def test_one_and_two_workers_write_identical_games_players_and_cards(runs: dict[str, ResultsPath]) -> None:
    assert _contents(runs["one worker"]) == _contents(runs["two workers"])


def test_a_different_shard_size_writes_identical_games_players_and_cards(runs: dict[str, ResultsPath]) -> None:
    assert _contents(runs["two workers"]) == _contents(runs["other shard size"])


def test_every_game_index_appears_once_per_variant(runs: dict[str, ResultsPath]) -> None:
    files = str(runs["two workers"] / "games" / "**" / "*.parquet")
    rows = duckdb.connect().execute(
        f"SELECT variant, count(*), count(DISTINCT game_index), min(game_index), max(game_index) "
        f"FROM read_parquet('{files}', hive_partitioning=false) GROUP BY variant ORDER BY variant").fetchall()
    assert rows == [("baseline", 600, 600, 0, 599), ("four_rounds", 600, 600, 0, 599)]


def test_the_results_are_not_all_the_same_game(runs: dict[str, ResultsPath]) -> None:
    contents = _contents(runs["one worker"])["games"]
    seeds = {row[5] for row in contents}
    assert len(seeds) == len(contents)
