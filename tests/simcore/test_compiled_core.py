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


TALLY_SCRIPT = """
import hashlib, struct
import simcore.card_tally as tally
# 300 games of 3 seats (seats 0 and 2 one agent: groups of two rows), 12 cards,
# rows for the cards each seat touched, counters from a fixed arithmetic sequence.
rows = {name: [] for name in ("game", "seat", "card", "drawn", "opening", "played", "playable", "first", "won")}
for game in range(300):
    for seat in range(3):
        for card in range(12):
            value = (game * 31 + seat * 7 + card * 13) % 17
            if value < 5:
                continue
            for name, number in (("game", game), ("seat", seat), ("card", card), ("drawn", value % 3),
                                 ("opening", value % 2), ("played", value % 4), ("playable", value % 5),
                                 ("first", value % 6 - 1 if value % 4 else -1), ("won", (game + seat) % 2)):
                rows[name].append(number)
def packed(name, code):
    return struct.pack(f"<{len(rows[name])}{code}", *rows[name])
agents = struct.pack("<900h", *[0 if seat != 1 else 1 for game in range(300) for seat in range(3)])
card_rows = tally.CardRows(len(rows["game"]), packed("game", "i"), packed("seat", "h"), packed("card", "i"),
                           packed("drawn", "h"), packed("opening", "h"), packed("played", "h"),
                           packed("playable", "h"), packed("first", "h"), packed("won", "h"), agents, 3, 12, 2,
                           True, True, True)
result = tally.tally_card_rows(card_rows)
digest = hashlib.sha256(result.patterns + result.key_sums + result.rate_groups + result.turn_sums)
print(tally.__file__.endswith(".py"), digest.hexdigest(), sum(struct.unpack(f"<{len(result.rate_groups) // 8}q",
                                                                            result.rate_groups)))
"""


def test_the_compiled_and_the_interpreted_card_tally_add_up_the_same(tmp_path: Path) -> None:
    project = Path(simcore.__file__).parent.parent
    shutil.copytree(project / "simcore", tmp_path / "simcore", ignore=shutil.ignore_patterns("*.so", "__pycache__"))

    def tally(python_path: Path) -> list[str]:
        return subprocess.run([sys.executable, "-c", TALLY_SCRIPT], capture_output=True, text=True, check=True,
                              cwd=python_path, env={"PYTHONPATH": str(python_path), "PATH": "/usr/bin:/bin"}
                              ).stdout.split()

    interpreted, compiled = tally(tmp_path), tally(project)
    assert interpreted[0] == "True" and compiled[0] == "False"
    assert compiled[1] == interpreted[1]
    assert int(compiled[2]) > 0  # groups were counted
