"""Golden tables: fingerprints of the sorted ``games``, ``players`` and ``cards``
tables of a few thousand seeded games per game and player count.

A change that should not alter play (a refactor, a faster recorder, a
compiled-core optimisation) must leave every fingerprint byte-identical. A
change that alters play on purpose (a rules fix, a new heuristic) rewrites
the fingerprints of the games it changes with

    python -m tests.golden.golden --update [GAME ...]

and says so in its commit message (the search games of ``search.json``, an
ISMCTS seat against random ones, are rewritten with them). The games are played through
``workers.shard.play_shard``, the code path of ``cardlab run``, so the
recording (rows, Arrow conversion) is covered too; only the Parquet bytes
are not, since those depend on the writer's version.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pyarrow as pa

from experiments.spec import ExperimentSpec, Shard, parse_spec
from simcore.registry import GAMES, get_game
from workers.shard import play_shard

GOLDEN_FOLDER = Path(__file__).resolve().parent
SORT_KEYS = {"games": ["game_index"], "players": ["game_index", "seat"], "cards": ["game_index", "seat", "card"]}
# Games per player count: a few thousand, some seconds per game on the compiled core.
GAMES_PER_PLAYER_COUNT = {"divvy": 5000, "ring_of_chaos": 2000, "party_wanted": 2000, "theseus": 2000}
# Heuristic and random seats together, rotated, so both agents' code paths are in the fingerprint.
AGENTS = ["heuristic", "random"]
# The search's own games: an ISMCTS seat against random ones, rotated, at the bench player count,
# so that a change to the search, a clone or a re-sampling of hidden cards shows too.
SEARCH_GAMES = {"divvy": 100, "ring_of_chaos": 20, "party_wanted": 30, "theseus": 30}
SEARCH_AGENTS = ["ismcts(iterations=20)", "random"]


def golden_file(game_id: str) -> Path:
    """The committed fingerprints of one game."""
    return GOLDEN_FOLDER / f"{game_id}.json"


def search_golden_file() -> Path:
    """The committed fingerprints of every game's search games."""
    return GOLDEN_FOLDER / "search.json"


def search_player_count(game_id: str) -> int:
    """The player count the search games are played at (``cardlab bench``'s)."""
    info = get_game(game_id).info
    return info.bench_players or info.min_players


def search_fingerprints(game_id: str) -> dict[str, Any]:
    """Fingerprints of the ``games``, ``players`` and ``cards`` tables of ``game_id``'s search games."""
    n_players = search_player_count(game_id)
    spec = parse_spec({
        "name": f"golden_search_{game_id}", "game": game_id, "games": SEARCH_GAMES[game_id],
        "seed": 20261203, "player_counts": [n_players], "agents": SEARCH_AGENTS, "rotate_seats": True,
        "shard_size": SEARCH_GAMES[game_id],
    }, f"golden search test of {game_id}")
    return played_fingerprints(spec, n_players)


def golden_spec(game_id: str, n_players: int) -> ExperimentSpec:
    """The experiment whose tables are fingerprinted for ``game_id`` at ``n_players``."""
    return parse_spec({
        "name": f"golden_{game_id}_{n_players}p", "game": game_id, "games": GAMES_PER_PLAYER_COUNT[game_id],
        "seed": 20261201, "player_counts": [n_players], "agents": AGENTS, "rotate_seats": True,
        "shard_size": GAMES_PER_PLAYER_COUNT[game_id],
    }, f"golden test of {game_id}")


def table_fingerprint(table: pa.Table, sort_keys: list[str]) -> dict[str, Any]:
    """Row count, column names and types, and a SHA-256 over every value of the table
    sorted by ``sort_keys`` (values as JSON, column by column)."""
    ordered = table.sort_by([(key, "ascending") for key in sort_keys])
    digest = hashlib.sha256()
    for name in ordered.column_names:
        column = ordered.column(name)
        digest.update(f"{name}:{column.type}\n".encode())
        digest.update(json.dumps(column.to_pylist(), default=str).encode())
    return {"rows": ordered.num_rows, "columns": ordered.column_names, "sha256": digest.hexdigest()}


def player_counts(game_id: str) -> range:
    """Every player count ``game_id`` is played by."""
    info = get_game(game_id).info
    return range(info.min_players, info.max_players + 1)


def fingerprints_at(game_id: str, n_players: int) -> dict[str, Any]:
    """Fingerprints of the ``games``, ``players`` and ``cards`` tables of ``game_id`` at ``n_players``."""
    return played_fingerprints(golden_spec(game_id, n_players), n_players)


def played_fingerprints(spec: ExperimentSpec, n_players: int) -> dict[str, Any]:
    """Fingerprints of the tables of ``spec``'s games at ``n_players``, played as one shard."""
    tables = play_shard(spec, Shard(spec.variants[0].name, n_players, 0, spec.games))
    return {name: table_fingerprint(table, SORT_KEYS[name]) for name, table in tables.items()}


def fingerprints(game_id: str) -> dict[str, dict[str, Any]]:
    """Fingerprints of every table at every player count of ``game_id``."""
    return {str(n_players): fingerprints_at(game_id, n_players) for n_players in player_counts(game_id)}


def main(argv: list[str] | None = None) -> int:
    """Print or rewrite the fingerprints (``--update``) of the named games (default: all)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every game)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite tests/golden/<game>.json and the game's entry of tests/golden/search.json")
    arguments = parser.parse_args(argv)
    search_file = search_golden_file()
    searches = json.loads(search_file.read_text()) if search_file.exists() else {}
    for game_id in arguments.games or sorted(GAMES):
        found = fingerprints(game_id)
        searches[game_id] = search_fingerprints(game_id)
        if arguments.update:
            golden_file(game_id).write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
            print(f"wrote {golden_file(game_id)}")
        else:
            json.dump({game_id: found, f"{game_id} search": searches[game_id]}, sys.stdout, indent=1, sort_keys=True)
            print()
    if arguments.update:
        search_file.write_text(json.dumps(searches, indent=1, sort_keys=True) + "\n")
        print(f"wrote {search_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
