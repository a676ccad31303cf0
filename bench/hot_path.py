"""One hot-path workload of one game, for profilers (issue 21).

Plays a fixed, seeded workload and nothing else, so that an instruction
count (valgrind callgrind) or a profile (cProfile) of it is the cost of
that workload alone; ``--count 0`` runs the start-up only (imports, the
game's configuration, the search's positions), to subtract:

- ``random``: ``--count`` games with random agents, through ``play_game``
  (the bench seeds of ``cardlab bench``; the cyclic garbage collector off,
  as ``cardlab bench`` plays);
- ``heuristic``: the same with the game's heuristic in every seat;
- ``ismcts``: ``--count`` ISMCTS searches of 50 iterations (random
  rollouts) at positions spread along a seeded random game, as
  ``cardlab bench --search`` picks them;
- ``clone``: ``--count`` rounds of a clone and a ``resample_hidden`` of every
  position of one seeded random game.

It imports only the project's public surface (``simcore.play``, the agents,
``workers.bench``'s seeds), so it runs unchanged against an older checkout:
``PYTHONPATH=OTHER .venv/bin/python bench/hot_path.py ...`` measures OTHER.

Usage (the instruction counts of the README's "where the time goes")::

    valgrind --tool=callgrind --dump-instr=no --callgrind-out-file=OUT \\
        .venv/bin/python bench/hot_path.py --game divvy --work random --count 400
    callgrind_annotate --inclusive=yes OUT | head -60
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import pstats
import sys
from typing import Any

WORKS = ("random", "heuristic", "ismcts", "clone")
SEARCH_ITERATIONS = 50
POSITIONS = 10


def bench_players(game_id: str) -> int:
    """The player count ``cardlab bench`` measures ``game_id`` at."""
    from simcore.registry import get_game

    info = get_game(game_id).info
    return info.bench_players or info.min_players


def walk_positions(game: Any, config: Any, n_players: int) -> list[Any]:
    """Copies of every decision point (more than one legal action) of one
    seeded random game, as ``workers.bench.bench_search`` walks it."""
    from experiments.spec import BASELINE
    from simcore.rng import Generator
    from simcore.seeding import game_seed

    state = game.new_state(config, n_players, game_seed(0, BASELINE, n_players, 0))
    walker = Generator(1)
    snapshots = []
    while not state.is_terminal():
        actions = state.legal_actions()
        if len(actions) > 1:
            snapshots.append(state.clone())
        state.apply(actions[walker.below(len(actions))])
    return snapshots


def run(game_id: str, work: str, count: int) -> int:
    """Run ``count`` units of ``work`` on ``game_id``; the decisions (or iterations) made."""
    from experiments.spec import BASELINE
    from simcore.agents.ismcts import IsmctsAgent
    from simcore.agents.registry import parse_agent_spec
    from simcore.play import play_game
    from simcore.registry import get_game
    from simcore.rng import Generator
    from simcore.seeding import game_seed

    game = get_game(game_id)
    config = game.configure(game.default_parameters())
    n_players = bench_players(game_id)
    if work in ("random", "heuristic"):
        lineup = [parse_agent_spec(work)] * n_players
        decisions = 0
        gc.disable()  # as workers.bench.bench_engine plays
        for index in range(count):
            decisions += play_game(game, config, n_players, game_seed(0, BASELINE, n_players, index), lineup).decisions
        return decisions
    snapshots = walk_positions(game, config, n_players)
    if work == "clone":
        rng = Generator(7)
        for _ in range(count):
            for position in snapshots:
                position.clone()
                position.resample_hidden(position.current_player, rng)
        return count * len(snapshots)
    step = max(1, len(snapshots) // POSITIONS)
    chosen = snapshots[::step][:POSITIONS]
    for index in range(count):
        position = chosen[index % len(chosen)]
        agent = IsmctsAgent(game, position.current_player, Generator(index), iterations=SEARCH_ITERATIONS)
        agent.search(position)
    return count * SEARCH_ITERATIONS


def main() -> None:
    """Parse the arguments and run the workload (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--work", choices=WORKS, required=True)
    parser.add_argument("--count", type=int, required=True, help="games, searches or clone rounds")
    parser.add_argument("--cprofile", type=int, default=0, metavar="N",
                        help="print cProfile's N most expensive functions (cumulative and own time)")
    options = parser.parse_args()
    if options.cprofile:
        profiler = cProfile.Profile()
        profiler.enable()
        done = run(options.game, options.work, options.count)
        profiler.disable()
        stats = pstats.Stats(profiler, stream=sys.stdout)
        stats.sort_stats("tottime").print_stats(options.cprofile)
    else:
        done = run(options.game, options.work, options.count)
    print(f"{options.game} {options.work} x{options.count}: {done} decisions or iterations")


if __name__ == "__main__":
    main()
