"""The game kit's cost, measured on its example game (issue 20, for issue 21).

Plays Orchard built with the kit (``tests/example_game/rules.py``) and its
hand-written twin (``tests/example_game/handwritten.py``, the same games
without the kit, as ``test_handwritten_twin.py`` shows) in alternating
rounds in one process, the order swapped every round, with random agents
through ``simcore.play.play_game``; then clones every state of a few games.
Prints games/s and clones/s of each, the median of the per-round ratios, and
the load average before and after, so a figure is never quoted without its
load.

Usage: .venv/bin/python -m bench.kit_overhead [--games 2000] [--rounds 7] [--players 3]
Run it compiled (``make compile``: the kit is compiled, the example game and
its twin run interpreted on the compiled core) and interpreted (``make clean``
first) to see both sides.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
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


def main() -> None:
    """Measure and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--players", type=int, default=3)
    options = parser.parse_args()
    config = GAME.configure(GAME.default_parameters())
    compiled = not kit_state.__file__.endswith(".py")
    print(f"kit compiled: {compiled}; load average before: {os.getloadavg()}")
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
