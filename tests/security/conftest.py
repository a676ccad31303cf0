"""Two small real experiments in one results folder: the one the SQL is confined to
(``chosen``) and another one (``other``) it must not read, plus a scratch
folder where nothing may appear."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pytest

from dataset.storage import table_path
from experiments.spec import parse_spec
from tests.conftest import write_experiment
from tests.security.routes import queries


def tiny_divvy(name: str, games: int) -> dict[str, object]:
    """A Divvy spec of ``games`` games in shards of 20."""
    return {"name": name, "game": "divvy", "games": games, "seed": 14, "agents": ["heuristic", "random"],
            "shard_size": 20}


def fingerprint(root: Path) -> dict[str, str]:
    """SHA-256 of every file under ``root`` (the verification cache left out: reading may refresh it)."""
    return {str(path.relative_to(root)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(root.rglob("*")) if path.is_file() and "_analytics" not in path.parts}


@dataclass(frozen=True)
class Confined:
    """The results folder, its two experiments and the scratch folder."""

    root: Path
    chosen: Path
    other: Path
    scratch: Path

    @property
    def own_file(self) -> Path:
        """A shard file of the chosen experiment."""
        return table_path(self.chosen, "games", "baseline", "baseline-2p-0000000000")  # type: ignore[return-value]

    @property
    def target(self) -> Path:
        """A path nothing may create."""
        return self.scratch / "leak.csv"


@pytest.fixture(scope="session")
def confined(tmp_path_factory: pytest.TempPathFactory) -> Confined:
    """The two experiments (40 and 60 games), written once; treat as read-only."""
    root = tmp_path_factory.mktemp("confined-results")
    chosen = write_experiment(parse_spec(tiny_divvy("chosen", 40), "chosen.toml"), root)
    other = write_experiment(parse_spec(tiny_divvy("other", 60), "other.toml"), root)
    scratch = tmp_path_factory.mktemp("scratch")
    return Confined(root=root, chosen=chosen, other=other, scratch=scratch)


def attempts(confined: Confined) -> list[tuple[str, str, str]]:
    """Every route of ``tests.security.routes`` as (name, query, refusal) against ``confined``."""
    return [(route.name, query, route.refusal)
            for route, query in queries(str(confined.own_file), str(confined.other), str(confined.target))]


def nothing_written(confined: Confined, before: dict[str, str]) -> None:
    """The scratch folder is still empty and every result file as ``before``."""
    assert list(confined.scratch.iterdir()) == []
    assert fingerprint(confined.root) == before
