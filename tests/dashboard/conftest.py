"""Small real experiments of every game, played once per session for the dashboard tests.

Each is an example spec from ``experiments/`` cut down to tens of games and
played shard by shard with ``workers.shard.run_shard`` (the code path of
``cardlab run``, without Ray), into one results folder.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from experiments.spec import parse_spec
from tests.conftest import LADDER_CUT, write_experiment

EXPERIMENTS = Path(__file__).resolve().parents[2] / "experiments"

CUTS: dict[str, tuple[str, dict[str, Any]]] = {
    "divvy_tiny": ("divvy_baseline.toml", {"games": 40, "shard_size": 20, "variants": {"four_rounds": None}}),
    "sweep_tiny": ("divvy_sweep.toml", {"games": 12, "shard_size": 12, "sweep": {"rules.rounds": [3, 5],
                                                                               "rules.treasure_target": [15, 25]}}),
    "ring_tiny": ("ring_of_chaos_baseline.toml", {"games": 16, "shard_size": 16, "player_counts": [3, 4],
                                                  "variants": {"labyrinth": None}}),
    "party_tiny": ("party_wanted_baseline.toml", {"games": 24, "shard_size": 24, "player_counts": [1, 3],
                                                  "variants": {"hard_mode": None}}),
    "theseus_tiny": ("theseus_baseline.toml", {"games": 16, "shard_size": 16, "player_counts": [2],
                                               "variants": {}}),
    "skill_tiny": ("divvy_skill_ladder.toml", LADDER_CUT),
}
"""Experiment name -> (example file, keys replaced; a variant given as None keeps the file's overrides)."""

GAME_OF = {"divvy_tiny": "divvy", "sweep_tiny": "divvy", "ring_tiny": "ring_of_chaos",
           "party_tiny": "party_wanted", "theseus_tiny": "theseus", "skill_tiny": "divvy"}


@dataclass(frozen=True)
class Results:
    """A results folder holding every tiny experiment."""

    root: Path

    def folder(self, name: str) -> Path:
        """The folder of experiment ``name``."""
        return self.root / name


def tiny_spec(name: str) -> Any:
    """The cut-down spec ``name`` of ``CUTS``."""
    file, changes = CUTS[name]
    raw = tomllib.loads((EXPERIMENTS / file).read_text())
    changes = dict(changes)
    if "variants" in changes:
        changes["variants"] = {key: raw["variants"][key] for key in changes["variants"]}
    raw.update(name=name, **changes)
    return parse_spec(raw, f"{file} (cut down for the dashboard tests)")


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """Every tiny experiment, written once for the session; treat it as read-only."""
    root = tmp_path_factory.mktemp("dashboard-results")
    for name in CUTS:
        write_experiment(tiny_spec(name), root)
    return Results(root)
