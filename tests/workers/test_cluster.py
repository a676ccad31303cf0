"""A real multi-node Ray cluster on loopback: shards land on several nodes and
the results equal those of a local run; a worker node lost mid-run loses no game.

One cluster of three nodes (one CPU each) serves the module (starting one costs
seconds per node): the first test plays on all three, the second removes one of
the two worker nodes while a run plays, so it comes last.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import ray
from ray.cluster_utils import Cluster

from dataset.location import ResultsPath
from experiments.spec import ExperimentSpec, parse_spec
from tests.embedded_ray import join_shared_ray
from workers.runner import LOCAL_RAY_NODE_IP, RunOptions, RunSummary, run_experiment

SPEC = {"name": "cluster", "game": "divvy", "games": 1200, "seed": 4, "agents": ["heuristic", "random"],
        "rotate_seats": True, "shard_size": 50}


def _games(folder: ResultsPath) -> list[tuple[object, ...]]:
    files = str(folder / "games" / "**" / "*.parquet")
    return duckdb.connect().execute(
        f"SELECT * FROM read_parquet('{files}', hive_partitioning=false) ORDER BY game_index").fetchall()


def _run_on(cluster: Cluster, spec: ExperimentSpec, results: Path) -> RunSummary:
    """``spec`` played on ``cluster`` (this process leaves any other Ray first: a connected
    process plays on the Ray it is connected to)."""
    if ray.is_initialized():
        ray.shutdown()
    return run_experiment(spec, RunOptions(results_root=results, address=cluster.address, progress=False))


@pytest.fixture(scope="module")
def local_games(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    """The games of ``SPEC`` as a local run plays them (on this process's shared embedded Ray, one worker)."""
    join_shared_ray()
    local = run_experiment(parse_spec(SPEC, "cluster.toml"),
                           RunOptions(results_root=tmp_path_factory.mktemp("local"), workers=1, progress=False))
    return _games(local.experiment_dir)


@pytest.fixture(scope="module")
def three_node_cluster() -> Iterator[Cluster]:
    """A head and two worker nodes on loopback, one CPU each."""
    node: dict[str, Any] = {"num_cpus": 1, "node_ip_address": LOCAL_RAY_NODE_IP, "include_dashboard": False}
    cluster = Cluster(initialize_head=True, head_node_args=node)
    try:
        cluster.add_node(**node)
        cluster.add_node(**node)
        cluster.wait_for_nodes()
        yield cluster
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_a_run_on_a_three_node_cluster_uses_several_nodes_and_matches_a_local_run(
    local_games: list[tuple[object, ...]], three_node_cluster: Cluster, tmp_path: Path
) -> None:
    summary = _run_on(three_node_cluster, parse_spec(SPEC, "cluster.toml"), tmp_path / "cluster")
    nodes = {entry["node"] for entry in summary.shard_entries}
    assert len(nodes) >= 2
    assert summary.workers == 3
    assert _games(summary.experiment_dir) == local_games


def test_a_worker_node_removed_mid_run_loses_no_game_and_doubles_none(
    three_node_cluster: Cluster, tmp_path: Path
) -> None:
    spec = parse_spec({**SPEC, "name": "node_lost", "games": 16000, "shard_size": 1000}, "node_lost.toml")
    doomed = next(iter(three_node_cluster.worker_nodes))
    outcome: list[RunSummary] = []
    runner = threading.Thread(target=lambda: outcome.append(_run_on(three_node_cluster, spec, tmp_path)))
    runner.start()
    manifest = tmp_path / "node_lost" / "_manifest"
    deadline = time.monotonic() + 120
    while (not manifest.is_dir() or len(list(manifest.glob("*.json"))) < 2) and time.monotonic() < deadline:
        time.sleep(0.05)
    three_node_cluster.remove_node(doomed)
    runner.join(timeout=300)
    assert outcome and outcome[0].shards_played == 16
    games = _games(tmp_path / "node_lost")
    assert len(games) == 16000
    assert len({row[3] for row in games}) == 16000
