"""The Makefile's compiled-module list is built from the tree: the hot path of every game and the kit, no more."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import simcore

PROJECT = Path(simcore.__file__).parent.parent


def _make_variable(name: str) -> list[str]:
    database = subprocess.run(["make", "-pn", "--no-print-directory", "-f", "Makefile", "lint"], cwd=PROJECT,
                              capture_output=True, text=True, check=False).stdout
    line = next(line for line in database.splitlines() if line.startswith(f"{name} := "))
    return line.split(" := ", 1)[1].split()


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
def test_every_game_module_and_the_kit_are_compiled_and_set_up_code_is_not() -> None:
    compiled = _make_variable("COMPILED")
    games = sorted(path.name for path in (PROJECT / "simcore" / "games").iterdir() if (path / "rules.py").exists())
    for game in games:
        assert f"simcore/games/{game}/rules.py" in compiled and f"simcore/games/{game}/agents.py" in compiled
    for module in ("api", "rng", "seeding", "play", "records", "kit/zones", "kit/decisions", "kit/cardstats",
                   "kit/state", "agents/random_agent", "agents/search", "agents/ismcts", "agents/sm_ismcts",
                   "agents/osla", "agents/registry", "kit/game"):
        assert f"simcore/{module}.py" in compiled
    for module in ("describe", "effects", "registry", "parameters", "trace", "kit/view", "__init__"):
        assert f"simcore/{module}.py" not in compiled
    assert not any(path.endswith("describe.py") or path.endswith("__init__.py") for path in compiled)
    assert all((PROJECT / path).exists() for path in compiled) and len(compiled) == len(set(compiled))
