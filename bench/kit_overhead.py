"""The game kit's cost, measured on its example game (issue 20, for issue 21).

Plays Orchard built with the kit (``tests/example_game/rules.py``) and its
hand-written twin (``tests/example_game/handwritten.py``, the same games
without the kit, as ``test_handwritten_twin.py`` shows) in alternating
rounds in one process, the order swapped every round, with random agents
through ``simcore.play.play_game``; then clones every state of a few games.
Prints games/s and clones/s of each, the median of the per-round ratios, and
the load average before and after, so a figure is never quoted without its
load.

Usage: .venv/bin/python -m bench.kit_overhead [--games 2000] [--rounds 7] [--players 3] [--both-compiled]
       [--copy DIR] [--only kit|hand-written]

As it stands (after ``make compile``) the kit is compiled and the example
game and its twin run interpreted on it. ``--both-compiled`` copies the
sources to a temporary folder, compiles the core, the kit, the example game
and its twin there with mypyc (a few minutes), and runs the measure in that
copy: the comparison issue 21 cares about, where the rules are compiled too
(``--copy DIR`` keeps that copy in DIR). ``--only SIDE`` just plays
``--games`` games of one side, untimed: the README's instruction counts are
``valgrind --tool=callgrind python -m bench.kit_overhead --only kit --games
1000`` (and ``--games 0``, the start-up) run in such a copy
(``PYTHONPATH=DIR``, from DIR).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import simcore.kit.state as kit_state
from simcore.agents.registry import parse_agent_spec
from simcore.api import Game, GameState
from simcore.play import play_game
from tests.example_game import GAME
from tests.example_game.handwritten import HANDWRITTEN_GAME


def _games_per_second(game: Game, config: Any, n_players: int, first_seed: int, games: int) -> float:
    lineup = [parse_agent_spec("random")] * n_players
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        play_game(game, config, n_players, seed, lineup)
    return games / (time.perf_counter() - start)


def _states(game: Game, config: Any, n_players: int, seeds: range) -> list[GameState]:
    states = []
    for seed in seeds:
        state = game.new_state(config, n_players, seed)
        step = 0
        while not state.is_terminal():
            states.append(state.clone())
            actions = state.legal_actions()
            state.apply(actions[step % len(actions)])
            step += 1
    return states


def _clones_per_second(states: list[GameState], repeats: int) -> float:
    start = time.perf_counter()
    for _ in range(repeats):
        for state in states:
            state.clone()
    return repeats * len(states) / (time.perf_counter() - start)


# What the measure imports, compiled in one mypyc group in the copy.
COMPILED_IN_COPY = (
    "simcore/agents/random_agent.py", "simcore/api.py", "simcore/kit/cardstats.py", "simcore/kit/decisions.py",
    "simcore/kit/state.py", "simcore/kit/zones.py", "simcore/play.py", "simcore/records.py", "simcore/rng.py",
    "simcore/seeding.py", "tests/example_game/rules.py", "tests/example_game/handwritten.py",
    "tests/example_game/agents.py",
)


def run_both_compiled(arguments: list[str], keep: str | None) -> int:
    """Copy the sources (to ``keep``, or a temporary folder), compile them
    with the example game, and run this measure there."""
    project = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory(prefix="kit-overhead-") as folder:
        copy = Path(keep) if keep else Path(folder)
        copy.mkdir(parents=True, exist_ok=True)
        ignore = shutil.ignore_patterns("*.so", "__pycache__")
        for part in ("simcore", "tests/example_game", "bench"):
            shutil.copytree(project / part, copy / part, ignore=ignore)
        for name in ("tests/__init__.py", "tests/conftest.py", "tests/gamekit.py"):
            shutil.copy(project / name, copy / name)
        environment = {**os.environ, "PYTHONPATH": str(copy), "MYPYC_OPT_LEVEL": "1", "MYPYC_DEBUG_LEVEL": "0"}
        print(f"compiling in {copy} (log: {copy / 'build.log'})", flush=True)
        with (copy / "build.log").open("w") as log:
            subprocess.run([sys.executable, "bench/compile_core.py", *COMPILED_IN_COPY], cwd=copy, env=environment,
                           stdout=log, stderr=subprocess.STDOUT, check=True)
        for extension in copy.rglob("*.so"):
            extension.touch()  # newer than its source, for simcore's staleness check
        return subprocess.run([sys.executable, "-m", "bench.kit_overhead", *arguments], cwd=copy,
                              env=environment, check=False).returncode


def main() -> None:
    """Measure and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--both-compiled", action="store_true",
                        help="compile the example game and its twin too, in a temporary copy")
    parser.add_argument("--copy", help="with --both-compiled: keep the compiled copy in this folder")
    parser.add_argument("--only", choices=("kit", "hand-written"), help="play --games games of one side, untimed")
    options = parser.parse_args()
    if options.both_compiled:
        sys.exit(run_both_compiled([f"--games={options.games}", f"--rounds={options.rounds}",
                                    f"--players={options.players}"], options.copy))
    if options.only:
        side: Game = GAME if options.only == "kit" else HANDWRITTEN_GAME
        side_config = side.configure(side.default_parameters())
        lineup = [parse_agent_spec("random")] * options.players
        for seed in range(options.games):
            play_game(side, side_config, options.players, seed, lineup)
        return
    config = GAME.configure(GAME.default_parameters())
    import tests.example_game.rules as example_rules

    compiled = not kit_state.__file__.endswith(".py")
    example_compiled = not example_rules.__file__.endswith(".py")
    print(f"kit compiled: {compiled}; example game and twin compiled: {example_compiled}; "
          f"load average before: {os.getloadavg()}")
    implementations: list[tuple[str, Game]] = [("kit", GAME), ("hand-written", HANDWRITTEN_GAME)]
    rates: dict[str, list[float]] = {"kit": [], "hand-written": []}
    clone_rates: dict[str, list[float]] = {"kit": [], "hand-written": []}
    kit_states = _states(GAME, config, options.players, range(20))
    twin_states = _states(HANDWRITTEN_GAME, config, options.players, range(20))
    for round_number in range(options.rounds):
        order = implementations if round_number % 2 == 0 else implementations[::-1]
        for name, game in order:
            rates[name].append(_games_per_second(game, config, options.players, round_number * options.games,
                                                 options.games))
            clone_rates[name].append(_clones_per_second(kit_states if name == "kit" else twin_states, 20))
    for name in rates:
        print(f"{name:>13}: {statistics.median(rates[name]):9.0f} games/s, "
              f"{statistics.median(clone_rates[name]):9.0f} clones/s (medians of {options.rounds} rounds)")
    play_ratios = [kit / twin for kit, twin in zip(rates["kit"], rates["hand-written"], strict=True)]
    clone_ratios = [kit / twin for kit, twin in zip(clone_rates["kit"], clone_rates["hand-written"], strict=True)]
    print(f"kit / hand-written: play {statistics.median(play_ratios):.2f} "
          f"(rounds {min(play_ratios):.2f}-{max(play_ratios):.2f}), clone {statistics.median(clone_ratios):.2f} "
          f"(rounds {min(clone_ratios):.2f}-{max(clone_ratios):.2f})")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
