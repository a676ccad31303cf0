"""A real multi-node Ray cluster on loopback: shards land on several nodes and
the results equal those of a local run."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest
import ray
from ray.cluster_utils import Cluster

from dataset.location import ResultsPath
from experiments.spec import parse_spec
from workers.runner import LOCAL_RAY_NODE_IP, RunOptions, run_experiment

SPEC = {"name": "cluster", "game": "divvy", "games": 1200, "seed": 4, "agents": ["heuristic", "random"],
        "rotate_seats": True, "shard_size": 50}


def _games(folder: ResultsPath) -> list[tuple[object, ...]]:
    files = str(folder / "games" / "**" / "*.parquet")
    return duckdb.connect().execute(
        f"SELECT * FROM read_parquet('{files}', hive_partitioning=false) ORDER BY game_index").fetchall()


@pytest.fixture
def three_node_cluster() -> Iterator[Cluster]:
    if ray.is_initialized():
        ray.shutdown()
    node: dict[str, Any] = {"num_cpus": 1, "node_ip_address": LOCAL_RAY_NODE_IP, "include_dashboard": False}
    cluster = Cluster(initialize_head=True, head_node_args=node)
    cluster.add_node(**node)
    cluster.add_node(**node)
    cluster.wait_for_nodes()
    yield cluster
    ray.shutdown()
    cluster.shutdown()


def test_a_run_on_a_three_node_cluster_uses_several_nodes_and_matches_a_local_run(
    three_node_cluster: Cluster, tmp_path: Path
) -> None:
    spec = parse_spec(SPEC, "cluster.toml")
    summary = run_experiment(spec, RunOptions(results_root=tmp_path / "cluster", address=three_node_cluster.address,
                                              progress=False))
    nodes = {entry["node"] for entry in summary.shard_entries}
    assert len(nodes) >= 2
    assert summary.workers == 3
    ray.shutdown()
    local = run_experiment(spec, RunOptions(results_root=tmp_path / "local", workers=1, progress=False))
    assert _games(summary.experiment_dir) == _games(local.experiment_dir)


def test_a_worker_node_removed_mid_run_loses_no_game_and_doubles_none(tmp_path: Path) -> None:
    import threading
    import time

    from workers.runner import RunSummary

    if ray.is_initialized():
        ray.shutdown()
    node: dict[str, Any] = {"num_cpus": 1, "node_ip_address": LOCAL_RAY_NODE_IP, "include_dashboard": False}
    cluster = Cluster(initialize_head=True, head_node_args=node)
    doomed = cluster.add_node(**node)
    cluster.wait_for_nodes()
    spec = parse_spec({**SPEC, "name": "node_lost", "games": 16000, "shard_size": 1000}, "node_lost.toml")
    outcome: list[RunSummary] = []
    try:
        runner = threading.Thread(target=lambda: outcome.append(run_experiment(
            spec, RunOptions(results_root=tmp_path, address=cluster.address, progress=False))))
        runner.start()
        manifest = tmp_path / "node_lost" / "_manifest"
        deadline = time.monotonic() + 120
        while (not manifest.is_dir() or len(list(manifest.glob("*.json"))) < 2) and time.monotonic() < deadline:
            time.sleep(0.05)
        cluster.remove_node(doomed)
        runner.join(timeout=300)
    finally:
        ray.shutdown()
        cluster.shutdown()
    assert outcome and outcome[0].shards_played == 16
    games = _games(tmp_path / "node_lost")
    assert len(games) == 16000
    assert len({row[3] for row in games}) == 16000
