"""``make bench-report``: time ``cardlab report`` over a 10,000,000-game Divvy experiment.

Playing ten million games takes hours (README, "Speed"), so the benchmark
*synthesizes* the experiment instead: DuckDB generates, shard by shard, the
``games``, ``players`` and ``cards`` rows of Divvy games (2 players, the 48
cards, ~55 card rows per game, a winner or a draw per game, plausible counters)
and they are cast to the exact Arrow schemas of ``dataset.schemas`` and
written with ``dataset.storage`` as ``cardlab run`` writes them, with a
manifest entry per shard and a ``spec.json``. The numbers are not a real game's;
the layout, types, row counts and sizes are. The experiment is written once and
reused while its spec matches.

Then ``cardlab report`` runs in a child process (all formats' work happens in
``build_report``; the text rendering is printed to /dev/null) and the wall time
and the child's peak resident memory (``ru_maxrss``) are printed.

    python -m analytics.benchmark [--games 10000000] [--results bench-results] [--shard-size 250000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb

from analytics.partials import CACHE_FOLDER
from dataset.schemas import schemas
from dataset.storage import SPEC_FILE, manifest_path, table_path, write_json_atomically, write_parquet_atomically
from simcore.registry import get_game

NAME = "divvy_bench"
SUITS = ("axes", "blades", "bows", "staves")
CARDS = [f"{suit}_{rank}" for suit in SUITS for rank in range(1, 13)]
VARIANTS = ("baseline", "four_rounds")


def _spec(games_per_variant: int, shard_size: int) -> dict[str, object]:
    return {
        "name": NAME, "game": "divvy", "games": games_per_variant, "seed": 2026, "player_counts": [2],
        "agents": ["heuristic", "random"], "rotate_seats": True, "shard_size": shard_size,
        "description": "Synthesized by analytics.benchmark (not played): the layout of 10M Divvy games.",
        "variants": {"baseline": {}, "four_rounds": {"rules.rounds": 4}}, "paired_seeds": False,
    }


def _queries(variant: str, start: int, stop: int, salt: int) -> dict[str, str]:
    names = "[" + ", ".join(f"'{name}'" for name in CARDS) + "]"
    key = f"'{NAME}' AS experiment, '{variant}' AS variant, 'divvy' AS game"
    games = f"""
        SELECT game_index, hash(game_index, {salt}) AS h,
               CASE WHEN hash(game_index, {salt}) % 100 = 0 THEN NULL
                    ELSE (hash(game_index, {salt}) // 100) % 2 END AS winner
        FROM range({start}, {stop}) AS t(game_index)"""
    return {
        "games": f"""
            SELECT {key}, game_index, 2 AS n_players, (h >> 1)::BIGINT AS seed, winner,
                   CASE WHEN winner IS NULL THEN []::TINYINT[] ELSE [winner::TINYINT] END AS winners,
                   winner IS NULL AS draw,
                   CASE WHEN h % 97 = 0 THEN 'deck_exhausted' ELSE 'rounds_complete' END AS end_reason,
                   5 - (h % 97 = 0)::INT AS turns, 40 + (h // 7) % 17 AS decisions,
                   3 * (40 + (h // 7) % 17) AS legal_actions,
                   -- standings summaries (simcore.standings): a margin and a deficit for a sole winner only
                   CASE WHEN winner IS NOT NULL THEN 1 + (h // 19) % 25 END AS margin,
                   (h // 23) % 4 AS lead_changes,
                   CASE WHEN winner IS NOT NULL THEN (h // 29) % 8 END AS winner_deficit,
                   (h // 31) % 2 AS leader_first_third, coalesce(winner, (h // 37) % 2) AS leader_second_third,
                   5 - (h % 97 = 0)::INT AS rounds_played, (h // 13) % 3 AS unclaimed_coins,
                   h % 53 = 0 AS deck_reshuffled
            FROM ({games})""",
        "players": f"""
            SELECT {key}, game_index, 2 AS n_players, seat,
                   CASE WHEN (seat + game_index) % 2 = 0 THEN 'heuristic' ELSE 'random' END AS agent,
                   NULL::VARCHAR AS faction, coalesce(winner = seat, FALSE) AS won,
                   10 + (h // (seat + 3)) % 20 AS score,
                   CASE WHEN winner IS NULL OR winner = seat THEN 1 ELSE 2 END AS rank
            FROM ({games}), range(2) AS s(seat)""",
        "cards": f"""
            WITH rows AS (
                SELECT game_index, winner, seat, card, hash(game_index, seat, card, {salt}) AS x
                FROM ({games}), range(2) AS s(seat), range(48) AS c(card)
                WHERE hash(game_index, seat, card, {salt}) % 100 < 58
            ), counted AS (
                SELECT *, CASE WHEN x % 33 = 0 THEN 0 ELSE 1 + ((x // 33) % 6 = 0)::INT END AS drawn FROM rows
            )
            SELECT {key}, game_index, 2 AS n_players, seat, {names}[card + 1] AS card, 1 AS copies,
                   (drawn > 0 AND (x // 200) % 5 = 0)::INT AS in_opening_hand, drawn,
                   CASE WHEN drawn > 0 AND (x // 1000) % 3 <> 0 THEN 1 ELSE 0 END AS played,
                   ((x // 3000) % 4 = 0)::INT AS won_as_treasure,
                   -- Steps the card could have been played: at least once when it was played.
                   CASE WHEN drawn > 0 AND (x // 1000) % 3 <> 0 THEN 1 + (x // 5000) % 4
                        WHEN drawn > 0 THEN (x // 5000) % 3 ELSE 0 END AS playable,
                   CASE WHEN drawn > 0 AND (x // 1000) % 3 <> 0 THEN 1 + (x // 9000) % 5 END AS first_played_turn,
                   coalesce(winner = seat, FALSE) AS won
            FROM counted""",
    }


def synthesize(root: Path, games: int, shard_size: int) -> Path:
    """Write (or reuse) the synthesized experiment under ``root``; return its folder."""
    folder = root / NAME
    per_variant = games // len(VARIANTS)
    spec = _spec(per_variant, shard_size)
    spec_file = folder / SPEC_FILE
    if spec_file.is_file() and json.loads(spec_file.read_text()) == spec:
        return folder
    table_schemas = schemas(get_game("divvy").info)
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    started = time.perf_counter()
    for variant_index, variant in enumerate(VARIANTS):
        for start in range(0, per_variant, shard_size):
            stop = min(start + shard_size, per_variant)
            shard = f"{variant}-2p-{start:010d}"
            if manifest_path(folder, shard).is_file():
                continue
            rows, files = {}, {}
            for table, query in _queries(variant, start, stop, salt=variant_index).items():
                arrow = con.sql(query).to_arrow_table()
                arrow = arrow.select(table_schemas[table].names).cast(table_schemas[table])
                files[table] = write_parquet_atomically(arrow, table_path(folder, table, variant, shard))
                rows[table] = arrow.num_rows
            # The files' sizes and SHA-256 too, as `cardlab run` records them: readers verify them.
            write_json_atomically({"shard": shard, "variant": variant, "n_players": 2, "start": start, "stop": stop,
                                   "rows": rows, "files": files, "synthesized": True}, manifest_path(folder, shard))
            print(f"  {shard}: {rows}  ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
    write_json_atomically(spec, spec_file)
    return folder


def time_report(root: Path, fmt: str = "text") -> tuple[float, float]:
    """Run ``cardlab report`` on the benchmark experiment in a child process;
    return (wall seconds, the child's peak resident memory in MiB)."""
    command = [sys.executable, "-m", "cardlab", "report", NAME, "--results", str(root), "--format", fmt]
    started = time.perf_counter()
    with open(os.devnull, "w") as sink:
        subprocess.run(command, check=True, stdout=sink)
    seconds = time.perf_counter() - started
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, peak_kib / 1024


def main(argv: list[str] | None = None) -> int:
    """Synthesize the experiment if needed, then time the report."""
    parser = argparse.ArgumentParser(prog="python -m analytics.benchmark", description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000_000, help="games in all (two variants)")
    parser.add_argument("--shard-size", type=int, default=250_000)
    parser.add_argument("--results", type=Path, default=Path("bench-results"))
    parser.add_argument("--format", default="text", choices=["text", "markdown", "csv", "json"])
    parser.add_argument("--cold", action="store_true",
                        help="delete the per-shard count cache first (analytics.partials), to time a first report")
    arguments = parser.parse_args(argv)
    print(f"synthesizing {arguments.games:,} Divvy games under {arguments.results} (once)...", file=sys.stderr)
    folder = synthesize(arguments.results, arguments.games, arguments.shard_size)
    if arguments.cold:
        shutil.rmtree(folder / CACHE_FOLDER, ignore_errors=True)
    size = sum(path.stat().st_size for path in folder.rglob("*.parquet") if CACHE_FOLDER not in path.parts)
    print(f"dataset: {size / 2**30:.2f} GiB of Parquet; CPUs: {os.cpu_count()}")
    seconds, peak = time_report(arguments.results, arguments.format)
    state = "cold (count cache rebuilt)" if arguments.cold else "warm"
    print(f"cardlab report {NAME} --format {arguments.format}, {state}: {seconds:.2f} s wall, "
          f"peak memory {peak:,.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
