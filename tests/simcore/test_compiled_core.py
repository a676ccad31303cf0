"""The mypyc-compiled rules core and the plain Python sources play the same games."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import simcore

DIGEST_SCRIPT = """
import hashlib, sys
import simcore.games.divvy.rules as rules
from simcore.agents.registry import parse_agent_spec
from simcore.play import play_game
from simcore.registry import GAMES
from simcore.trace import TraceRecorder, event_to_json
digest = hashlib.sha256()
for game_id, game in sorted(GAMES.items()):
    config = game.configure(game.default_parameters())
    for seed in range(60):
        lineup = [parse_agent_spec(("random", "heuristic")[(seed + seat) % 2]) for seat in range(game.info.min_players)]
        recorder = TraceRecorder()
        played = play_game(game, config, game.info.min_players, seed, lineup, recorder.record)
        for event in recorder.events:
            digest.update(event_to_json(event).encode())
        digest.update(repr((played.decisions, played.state.scores(), played.state.winners())).encode())
print(rules.__file__.endswith(".py"), digest.hexdigest())
"""


def _digest(python_path: Path) -> tuple[str, str]:
    # Run from python_path: `python -c` puts the working folder first on sys.path.
    finished = subprocess.run([sys.executable, "-c", DIGEST_SCRIPT], capture_output=True, text=True, check=True,
                              cwd=python_path, env={"PYTHONPATH": str(python_path), "PATH": "/usr/bin:/bin"})
    interpreted, digest = finished.stdout.split()
    return interpreted, digest


def test_the_compiled_and_the_interpreted_core_play_identical_games(tmp_path: Path) -> None:
    project = Path(simcore.__file__).parent.parent
    shutil.copytree(project / "simcore", tmp_path / "simcore", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    interpreted_flag, interpreted_digest = _digest(tmp_path)
    assert interpreted_flag == "True"
    _, project_digest = _digest(project)
    assert project_digest == interpreted_digest
