"""``cardlab bench``: games/s and decisions/s per game and agent, one core.

Two rates per row: the *engine* rate (games played, nothing recorded) and the
*recorded* rate (everything a shard task does: games played, result rows,
Arrow tables, the report's counts of the rows (``workers.counts``) and the
Parquet files written to a temporary folder). Runs
in this process, on one core, with a fixed seed range so that repeated runs
play the same games. The recorded rate is the one-core baseline that
``cardlab run`` on N workers is compared with.

``cardlab bench --search`` measures the search agents instead: ISMCTS
iterations per second (each a determinization, a tree walk and a rollout)
at positions spread along a seeded random game.

Rates are per CPU second of this process (``time.process_time``), not per
wall-clock second: on a machine shared with other jobs the wall clock
measures the neighbours too, while the CPU time a game costs stays put. On
an idle machine the two agree.

The reference line: ``bench/divvy_playout.c``, the same Divvy games played
by two random agents in plain C (``make reference`` builds it), shows how
far the engine is from what this machine can do at all.
"""

from __future__ import annotations

import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from experiments.spec import BASELINE, ExperimentSpec, Shard, Variant
from simcore.agents.ismcts import IsmctsAgent
from simcore.agents.registry import AgentSpec, parse_agent_spec
from simcore.play import play_game
from simcore.registry import GAMES, get_game
from simcore.rng import Generator
from simcore.seeding import agent_seed, game_seed
from workers.shard import cyclic_collector_paused, run_shard

REFERENCE_BINARY = Path(__file__).resolve().parent.parent / "build" / "divvy_playout"
"""Where ``make reference`` puts the C playout of Divvy."""


@dataclass(frozen=True)
class BenchRow:
    """One measured configuration."""

    game: str
    agent: str
    n_players: int
    games: int
    engine_games_per_second: float
    decisions_per_second: float
    decisions_per_game: float
    recorded_games_per_second: float

    @property
    def recorded_share(self) -> float:
        """Recorded rate / engine rate: what recording costs (1.0: nothing)."""
        return self.recorded_games_per_second / self.engine_games_per_second


def bench_engine(game_id: str, agent: AgentSpec, n_players: int, games: int) -> tuple[float, float, float]:
    """(games/s, decisions/s, decisions/game) of plain play, every seat ``agent``
    (after a few untimed games, as ``bench_recorded`` warms up too)."""
    game = get_game(game_id)
    config = game.configure(game.default_parameters())
    lineup = [agent] * n_players
    decisions = 0
    with cyclic_collector_paused():
        for index in range(min(games, 200)):
            play_game(game, config, n_players, game_seed(0, BASELINE, n_players, index), lineup)
        started = time.process_time()
        for index in range(games):
            decisions += play_game(game, config, n_players, game_seed(0, BASELINE, n_players, index), lineup).decisions
        seconds = time.process_time() - started
    return games / seconds, decisions / seconds, decisions / games


def bench_recorded(game_id: str, agent: AgentSpec, n_players: int, games: int) -> float:
    """Games/s of a shard task's whole work, Parquet files included, as a worker
    that has played a shard of this size before plays the next one (a Ray worker
    plays shard after shard): the same shard is played once untimed first. On this
    project's machine a process's first touch of fresh memory is costly (the
    counts of a first 20,000-game Divvy shard took 0.5 s of system time, of a
    second one 0.04 s), a cost a run pays once per worker, not once per shard."""
    game = get_game(game_id)
    spec = ExperimentSpec(
        name="bench", game=game_id, games=games, seed=0, player_counts=(n_players,),
        agents=(agent,), rotate_seats=False, shard_size=games,
        variants=(Variant(BASELINE, {}, game.default_parameters()),),
    )
    with tempfile.TemporaryDirectory(prefix="cardlab-bench-") as folder:
        run_shard(spec, Shard(BASELINE, n_players, 0, games), folder)
        started = time.process_time()
        run_shard(spec, Shard(BASELINE, n_players, 0, games), folder)
        return games / (time.process_time() - started)


def run_bench(game_ids: list[str] | None = None, agents: list[str] | None = None,
              games: int = 20000, rounds: int = 1) -> list[BenchRow]:
    """Measure every registered game (or ``game_ids``) with each agent; with
    ``rounds`` > 1, each rate is the best of that many measurements (engine and
    recorded alternately), as ``timeit`` keeps its best: on a machine shared with
    other jobs, a slower round measures the neighbours."""
    rows = []
    for game_id in game_ids or sorted(GAMES):
        info = get_game(game_id).info
        for agent_text in agents or ["random", "heuristic"]:
            agent = parse_agent_spec(agent_text)
            n_players = info.bench_players or info.min_players
            engine, decisions, per_game, recorded = 0.0, 0.0, 0.0, 0.0
            for _ in range(rounds):
                engine_round, decisions_round, per_game = bench_engine(game_id, agent, n_players, games)
                if engine_round > engine:
                    engine, decisions = engine_round, decisions_round
                recorded = max(recorded, bench_recorded(game_id, agent, n_players, games))
            rows.append(BenchRow(game_id, str(agent), n_players, games, engine, decisions, per_game, recorded))
    return rows


def format_bench(rows: list[BenchRow], reference: ReferenceRate | None = None) -> str:
    """A Markdown table (pasted as is into the README), with the C reference line if measured."""
    lines = [
        "| game | agent | players | games | engine games/s | decisions/s | decisions/game | recorded games/s "
        "| recorded / engine |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.game} | {row.agent} | {row.n_players} | {row.games:,} | {row.engine_games_per_second:,.0f} "
            f"| {row.decisions_per_second:,.0f} | {row.decisions_per_game:.1f} | {row.recorded_games_per_second:,.0f} "
            f"| {100 * row.recorded_share:.0f}% |"
        )
    if reference is not None:
        lines.append(
            f"| divvy, C reference (`bench/divvy_playout.c`) | random | 2 | {reference.games:,} "
            f"| {reference.games_per_second:,.0f} | {reference.decisions_per_second:,.0f} "
            f"| {reference.decisions_per_game:.1f} | — | — |"
        )
    return "\n".join(lines)


@dataclass(frozen=True)
class ReferenceRate:
    """The C playout's speed on Divvy with random agents (nothing recorded)."""

    games: int
    games_per_second: float
    decisions_per_second: float
    decisions_per_game: float


def write_reference_config(path: Path) -> None:
    """Divvy's default parameters in the C playout's plain-text format (its file header says how)."""
    from simcore.games.divvy.rules import DivvyConfig

    game = get_game("divvy")
    config = game.configure(game.default_parameters())
    assert isinstance(config, DivvyConfig)
    lines = [" ".join(str(number) for number in (
        config.hand_size, config.hand_limit, config.rounds, config.treasure_target, config.min_chaff,
        config.bonus_draw, int(config.carry_over_ties)))]
    lines += [" ".join(str(number) for number in (
        config.suits[card], config.values[card], config.icons[card], config.d20[card], config.coins[card],
        config.copies[card])) for card in range(len(config.names))]
    path.write_text("\n".join(lines) + "\n")


def reference_check_seeds(games: int) -> list[tuple[int, int, int]]:
    """(game seed, seat 0's agent seed, seat 1's agent seed) of the first ``games``
    bench games, as ``play_game`` derives them."""
    seeds = [game_seed(0, BASELINE, 2, index) for index in range(games)]
    return [(seed, agent_seed(seed, 0), agent_seed(seed, 1)) for seed in seeds]


def run_reference(binary: Path, arguments: list[str], stdin: str = "") -> str:
    """The C playout's output for ``arguments`` after the config (written to a temporary file)."""
    with tempfile.TemporaryDirectory(prefix="cardlab-reference-") as folder:
        config = Path(folder) / "divvy.txt"
        write_reference_config(config)
        return subprocess.run([str(binary), str(config), *arguments], input=stdin, capture_output=True, text=True,
                              check=True).stdout


def bench_reference(games: int, binary: Path = REFERENCE_BINARY) -> ReferenceRate | None:
    """The C playout's games/s (CPU time, as the other rows), or None when it is not built."""
    if not binary.is_file():
        return None
    count, seconds, decisions, _checksum = run_reference(binary, ["--games", str(games)]).split()
    return ReferenceRate(int(count), int(count) / float(seconds), int(decisions) / float(seconds),
                         int(decisions) / int(count))


@dataclass(frozen=True)
class SearchBenchRow:
    """ISMCTS speed on one game."""

    game: str
    n_players: int
    rollout: str
    positions: int
    iterations: int
    iterations_per_second: float


def bench_search(game_id: str, rollout: str = "random", positions: int = 20,
                 iterations: int = 200) -> SearchBenchRow:
    """ISMCTS iterations/s over ``positions`` decision points spread along a
    seeded random game (early, middle and late positions alike)."""
    game = get_game(game_id)
    info = game.info
    n_players = info.bench_players or info.min_players
    config = game.configure(game.default_parameters())
    state = game.new_state(config, n_players, game_seed(0, BASELINE, n_players, 0))
    walker = Generator(1)
    snapshots = []
    while not state.is_terminal():
        actions = state.legal_actions()
        if len(actions) > 1:
            snapshots.append(state.clone())
        state.apply(actions[walker.below(len(actions))])
    step = max(1, len(snapshots) // positions)
    chosen = snapshots[::step][:positions]
    seconds = 0.0
    for index, position in enumerate(chosen):
        agent = IsmctsAgent(game, position.current_player, Generator(index), iterations=iterations, rollout=rollout)
        started = time.perf_counter()
        agent.search(position)
        seconds += time.perf_counter() - started
    total = iterations * len(chosen)
    return SearchBenchRow(game_id, n_players, rollout, len(chosen), total, total / seconds)


def run_search_bench(game_ids: list[str] | None = None, rollouts: tuple[str, ...] = ("random", "heuristic"),
                     positions: int = 20) -> list[SearchBenchRow]:
    """ISMCTS iterations/s for every registered game (or ``game_ids``) and rollout policy."""
    return [bench_search(game_id, rollout, positions) for game_id in game_ids or sorted(GAMES) for rollout in rollouts]


def format_search_bench(rows: list[SearchBenchRow]) -> str:
    """A Markdown table of ISMCTS speed (pasted as is into the README)."""
    lines = [
        "| game | players | rollout | positions | ISMCTS iterations/s | ms per decision (200 iterations) |",
        "|---|---:|---|---:|---:|---:|",
    ]
    for row in rows:
        lines.append(
            f"| {row.game} | {row.n_players} | {row.rollout} | {row.positions} | {row.iterations_per_second:,.0f} "
            f"| {1000 * 200 / row.iterations_per_second:,.0f} |"
        )
    return "\n".join(lines)


def peak_memory_per_shard(game_id: str, agent: AgentSpec, games: int, shard_size: int,
                          folder: str) -> list[tuple[int, float]]:
    """Play ``games`` games shard after shard in this process, as one Ray worker
    does, writing real files under ``folder``; return (games done, peak resident
    MiB so far) after each shard. Flat numbers mean memory does not grow with
    the number of games a worker plays."""
    import resource

    game = get_game(game_id)
    spec = ExperimentSpec(
        name="memory", game=game_id, games=games, seed=0, player_counts=(game.info.min_players,),
        agents=(agent,), rotate_seats=False, shard_size=shard_size,
        variants=(Variant(BASELINE, {}, game.default_parameters()),),
    )
    readings = []
    for shard in spec.shards():
        run_shard(spec, shard, folder)
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        readings.append((shard.stop, peak_kib / 1024))
    return readings
