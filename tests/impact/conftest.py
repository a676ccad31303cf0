"""The token duel impact runs the tests of this folder read: played once per session on a local Ray."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray

from drivers.run import run
from experiments.spec import ExperimentSpec, parse_spec
from tests.conftest import made_once_per_session
from tests.embedded_ray import fresh_ray
from tests.impact.token_duel import register, unregister
from workers.runner import RunOptions, RunSummary

GAMES = 8000


def impact_spec(name: str, **impact: Any) -> ExperimentSpec:
    """A token duel impact run over every card and both arms."""
    return parse_spec({"name": name, "game": "token_duel", "games": GAMES, "seed": 11, "agents": ["random"],
                       "rotate_seats": True, "shard_size": 2000, "impact": {"cards": "all", **impact}},
                      f"{name}.toml")


def play(results: Path) -> dict[str, tuple[Path, RunSummary]]:
    """The full run and one that stops each arm at an interval 6 points wide, on a local Ray of 2 workers."""
    with fresh_ray():
        ray.init(address="local", num_cpus=2, include_dashboard=False, _node_ip_address="127.0.0.2",
                 logging_level=logging.WARNING,
                 runtime_env={"worker_process_setup_hook": "tests.impact.token_duel.register"})
        finished = {}
        for name, impact in (("full", {}), ("stopped", {"max_width": 0.06, "min_games": 400})):
            spec = impact_spec(f"token_{name}", **impact)
            summary = run(spec, RunOptions(results_root=results, workers=2, progress=False))
            finished[name] = (results / spec.name, summary)
        return finished


@pytest.fixture(scope="session")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, tuple[Path, RunSummary]]]:
    """``play``'s runs, played once per test session (the first worker to need them plays them);
    the token duel registered in this process while they are read."""
    register()
    try:
        yield made_once_per_session(tmp_path_factory, "impact-runs", play)
    finally:
        unregister()
