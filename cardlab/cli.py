"""The ``cardlab`` command line: one subcommand per job, each a thin call into
``experiments``, ``workers``, ``analytics``, ``simcore`` or ``dashboard``.

User mistakes (a bad spec, unknown game, unknown parameter, missing
experiment...) print one ``cardlab: error: ...`` line and exit with code 2;
a results disk that fails (full, read-only, permission lost) prints one such
line too and exits with code 1.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from analytics.sections import SECTIONS, sections_help
from dataset.location import ResultsLocationError, ResultsPath, file_to_write_problem, results_path
from dataset.storage import SPEC_FILE, write_bytes_atomically
from experiments.spec import (
    BASELINE,
    MAX_GAMES,
    MAX_SHARD_SIZE,
    MAX_VARIANTS,
    ReplayError,
    ReplaySetup,
    Shard,
    SpecError,
    parse_spec,
    replay_setup,
)
from simcore.agents.registry import AgentSpecError, parse_agent_spec, split_agent_list
from simcore.parameters import ParameterError, apply_overrides, flatten
from simcore.play import play_game
from simcore.registry import GAMES, UnknownGameError, get_game
from simcore.trace import TraceRecorder, event_to_json, format_event

USAGE_ERROR = 2


class UsageError(Exception):
    """A mistake in the command line itself."""


class _OneLineParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one ``cardlab: error: ...`` line (exit code 2),
    like every other user mistake, instead of a usage block."""

    def error(self, message: str) -> NoReturn:
        """Print ``message`` as one line naming the option, then exit with code 2."""
        # "argument --workers: ..." -> "--workers: ..."; "argument -h/--help" -> "--help".
        message = re.sub(r"^argument (?:-\w/)?(\S+): ", r"\1: ", message)
        self.exit(USAGE_ERROR, f"cardlab: error: {message} (see `{self.prog} --help`)\n")


def _integer(minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: an integer from ``minimum`` to ``maximum``, else a one-line message."""
    expected = (f"a positive integer of at most {maximum:,}" if minimum == 1
                else f"an integer from {minimum:,} to {maximum:,}")

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not minimum <= value <= maximum:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {value:,}")
        return value

    return parse


MAX_WORKERS = 4096
"""``--workers``: Ray worker processes are started per CPU asked for, so a typo must not fork thousands."""


def _parse_arguments(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """``parser.parse_args``, but ``cardlab sql EXPERIMENT --format json QUERY`` works too: argparse
    matches both positionals at EXPERIMENT (the optional query with nothing) and leaves the query over.
    A query that opens with a SQL comment (``-- ...``, as a ``.sql`` file passed with ``"$(cat F)"``
    does) is a query, not an option: no option has a space in it."""
    arguments, left_over = parser.parse_known_args(argv)
    if (left_over and arguments.command == "sql" and arguments.query is None and len(left_over) == 1
            and (not left_over[0].startswith("-") or any(char.isspace() for char in left_over[0]))):
        arguments.query = left_over[0]
    elif left_over:
        parser.error(f"unrecognized arguments: {' '.join(left_over)}")
    return arguments


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cardlab`` console script."""
    parser = build_parser()
    try:
        arguments = _parse_arguments(parser, argv)
    except SystemExit as stop:  # --help, or a bad argument already printed as one line
        return stop.code if isinstance(stop.code, int) else USAGE_ERROR
    try:
        if isinstance(getattr(arguments, "results", None), str):
            arguments.results = _results_location(arguments.results)
        result: int = arguments.handler(arguments)
        return result
    except KeyboardInterrupt:
        print("cardlab: interrupted; `cardlab run --resume` finishes a run (`cardlab tune --resume` a search)",
              file=sys.stderr)
        return 130
    except SystemExit as stop:
        from workers.runner import TERMINATED, Terminated  # imported already when raised

        if not isinstance(stop, Terminated):
            raise
        print("cardlab: stopped (SIGTERM); `cardlab run --resume` finishes a run (`cardlab tune --resume` a search)",
              file=sys.stderr)
        return TERMINATED
    except BrokenPipeError:
        return 0
    except Exception as error:
        if _is_user_error(error):
            print(f"cardlab: error: {error}", file=sys.stderr)
            return USAGE_ERROR
        failure = _disk_failure(error)
        if failure is not None:
            print(f"cardlab: error: {failure}", file=sys.stderr)
            return DISK_FAILURE
        raise


DISK_FAILURE = 1
"""The exit code when the disk results are written to fails (full, read-only, permission lost)."""


def _disk_failure(error: Exception) -> str | None:
    """The one line for a failing disk behind ``error`` (``RunStorageError``'s own, else the
    file and the cause), or None when ``error`` is something else."""
    from dataset.storage import STORAGE_ERRNOS, storage_failure
    from workers.runner import RunStorageError

    if isinstance(error, RunStorageError):
        return str(error)
    failure = storage_failure(error)
    if failure is None or failure.errno is None:
        return None
    where = f"{failure.filename}: " if failure.filename else ""
    return f"{where}{STORAGE_ERRNOS[failure.errno][0]} ({failure.strerror})"


def _results_location(text: str) -> ResultsPath:
    """``--results`` as a ``ResultsPath``; a bad one is a ``UsageError`` naming the option."""
    try:
        return results_path(text)
    except ResultsLocationError as error:
        raise UsageError(f"--results: {error}") from None


def _results_flag(arguments: argparse.Namespace) -> str:
    """`` --results R`` for a follow-up command this one prints, unless ``R`` is where every
    command looks by default (``$CARDLAB_RESULTS`` or ``./results``)."""
    default = os.environ.get("CARDLAB_RESULTS") or "results"
    same = str(arguments.results) == str(results_path(default)) or (
        isinstance(arguments.results, Path) and arguments.results.absolute() == Path(default).absolute())
    return "" if same else f" --results {arguments.results}"


def _is_user_error(error: Exception) -> bool:
    from analytics.folders import AnalyticsError
    from workers.runner import RunError

    user_errors = (SpecError, UnknownGameError, ParameterError, AgentSpecError, UsageError, RunError,
                   AnalyticsError, ResultsLocationError)
    return isinstance(error, user_errors)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _OneLineParser(prog="cardlab", description="A balance lab for tabletop card games.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = commands.add_parser("run", help="play an experiment on Ray and write its results")
    run.add_argument("spec", help="experiment TOML file, e.g. experiments/divvy_baseline.toml")
    _results_option(run)
    run.add_argument("--workers", type=_integer(1, MAX_WORKERS), help="CPUs for local Ray (default: all cores)")
    run.add_argument("--address", help="join this Ray cluster (default: $RAY_ADDRESS, else local Ray)")
    run.add_argument("--resume", action="store_true", help="finish an interrupted run: play only missing shards")
    run.add_argument("--overwrite", action="store_true", help="delete earlier results of this experiment first")
    run.add_argument("--no-progress", action="store_true",
                     help="no progress bar: a plain status line every few seconds (as without a terminal)")
    run.add_argument("--dry-run", action="store_true",
                     help="only say what would be played and how long it would take (a short calibration); "
                     "write nothing")
    run.add_argument("--games", type=_integer(1, MAX_GAMES), metavar="N",
                     help="play only the first N games per variant and player count, into <name>-games-N")
    run.set_defaults(handler=command_run)

    tune = commands.add_parser("tune", help="search card data and rules that meet balance targets, then confirm")
    tune.add_argument("spec", help="tuning spec TOML file, e.g. experiments/tune/ring_of_chaos_tune.toml")
    _results_option(tune)
    tune.add_argument("--workers", type=_integer(1, MAX_WORKERS), help="CPUs for local Ray (default: all cores)")
    tune.add_argument("--address", help="join this Ray cluster (default: $RAY_ADDRESS, else local Ray)")
    tune.add_argument("--resume", action="store_true", help="continue a stopped search from its saved state")
    tune.add_argument("--overwrite", action="store_true", help="delete an earlier search (and confirmation) first")
    tune.add_argument("--no-progress", action="store_true", help="no line per batch (only the first line)")
    tune.add_argument("--export", type=Path, metavar="FILE",
                      help="write the answer (or --trial N) as an experiment file with a variant 'tuned'")
    tune.add_argument("--trial", type=int, help="with --export: this trial instead of the confirmed answer")
    tune.add_argument("--trials", type=_integer(1, MAX_VARIANTS - 1), metavar="N",
                      help="distinct points to evaluate instead of the spec's search.trials")
    tune.add_argument("--games", type=_integer(1, MAX_GAMES), metavar="N",
                      help="games per player count of the first look instead of the spec's; its later rungs (and "
                      "an explicit confirm.games) scale with it")
    tune.add_argument("--dry-run", action="store_true",
                      help="only say what the search would play and how long it would take (a short calibration); "
                      "write nothing")
    tune.set_defaults(handler=command_tune)

    sql = commands.add_parser(
        "sql", help="query an experiment with SQL (DuckDB); a shell without a query",
        description="SQL (DuckDB) over an experiment's views games, players, cards and every metric view. "
        "This is the analyst's own shell: it has DuckDB's full power, so it can read and write any file you "
        "can (read_csv, COPY ... TO, ATTACH) and load extensions. --read-only gives it the dashboard SQL "
        "page's confinement: the experiment's views only, no file or extension, one SELECT at a time.")
    sql.add_argument("experiment", help="experiment name (under --results) or folder")
    sql.add_argument("query", nargs="?", help="SQL over the views games, players, cards")
    sql.add_argument("--format", choices=["table", "csv", "json"], default="table")
    sql.add_argument("--read-only", action="store_true",
                     help="confined like the dashboard's SQL page: reads only this experiment, writes nothing")
    sql.add_argument("--schema", nargs="?", const="", metavar="VIEW",
                     help="print the views and what each holds, or VIEW's columns with their types and "
                     "descriptions (as .schema [VIEW] in the shell), instead of running a query")
    _results_option(sql)
    sql.set_defaults(handler=command_sql)

    report = commands.add_parser("report", help="balance metrics of an experiment: seats, factions, cards, variants")
    report.add_argument("experiment", help="experiment name (under --results) or folder")
    report.add_argument("--format", choices=["text", "markdown", "csv", "json"], default="text",
                        help="text (default), markdown, json (one document), csv (one file per table; needs --output)")
    report.add_argument("--sections", help=sections_help())
    report.add_argument("--card-rows", type=_integer(1, 1_000_000),
                        help="text/markdown: only the best and worst N cards per table")
    report.add_argument("--output", type=Path, help="csv: the folder to write one CSV file per table into; "
                        "other formats: a file to write instead of printing")
    _results_option(report)
    report.set_defaults(handler=command_report)

    plan = commands.add_parser("plan", help="games needed to detect a win-rate difference, or for an interval width")
    plan.add_argument("--p", type=float, default=0.5, help="the baseline win rate (default 0.5)")
    plan.add_argument("--delta", type=float, help="the difference in win rate to detect, e.g. 0.02")
    plan.add_argument("--power", type=float, default=0.8, help="power of the test (default 0.8)")
    plan.add_argument("--alpha", type=float, default=0.05, help="two-sided significance level (default 0.05)")
    plan.add_argument("--tests", type=_integer(1, 1_000_000_000), default=1,
                      help="number of comparisons (cards x variants...): alpha is divided by it (default 1)")
    plan.add_argument("--width", type=float, help="also: games for a 95%% interval at most this wide")
    plan.add_argument("--impact-width", type=float, metavar="W",
                      help="card impact: games per card for a 95%% impact interval at most W wide (the "
                           "in-place swap, paired; and unpaired, for comparison)")
    plan.add_argument("--changed", type=float, default=0.25,
                      help="with --impact-width: share of the holder's games whose result the swap changes "
                           "(the paired variance; default 0.25)")
    plan.add_argument("--held", type=float, default=1.0,
                      help="with --impact-width: holder seat-games per game, i.e. share of games with the card "
                           "held (default 1)")
    plan.add_argument("--pilot", metavar="EXPERIMENT",
                      help="with --impact-width: read every card's interval from a pilot impact run")
    plan.add_argument("--results", default="results", help="with --pilot: the results folder (default results)")
    plan.add_argument("--format", choices=["text", "json"], default="text")
    plan.set_defaults(handler=command_plan)

    verify = commands.add_parser(
        "verify", help="re-hash an experiment's files against its manifest; exit 1 if any is damaged, "
        "missing or unexpected")
    verify.add_argument("experiment", help="experiment name (under --results) or folder")
    verify.add_argument("--json", action="store_true", help="one JSON object instead of text")
    _results_option(verify)
    verify.set_defaults(handler=command_verify)

    catalog = commands.add_parser("catalog", help="write a DuckDB catalog file for the plain duckdb client")
    catalog.add_argument("experiment", nargs="?", help="one experiment (default: every experiment under --results)")
    catalog.add_argument("--output", type=Path, help="file to write (default: <results>/catalog.duckdb, or "
                         "<experiment folder>/catalog.duckdb for one experiment)")
    _results_option(catalog)
    catalog.set_defaults(handler=command_catalog)

    dashboard = commands.add_parser("dashboard", help="start the Streamlit dashboard")
    _results_option(dashboard)
    dashboard.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    dashboard.add_argument("--port", type=_integer(1, 65535), default=8501)
    dashboard.add_argument("--allow-runs", action="store_true",
                           help="let the New run page launch runs (off by default; beyond loopback it also needs "
                           "--token-file)")
    dashboard.add_argument("--token-file", type=Path, metavar="FILE",
                           help="named launch tokens, one `name = \"secret\"` per line (TOML); every launch and "
                           "cancel then needs one, on loopback too; needed with --allow-runs when --host is not "
                           "loopback; the name is logged as who launched or cancelled")
    dashboard.add_argument("--max-games-per-run", type=_integer(1, MAX_GAMES), default=1_000_000, metavar="N",
                           help="games per launched run, every variant and player count (default 1,000,000)")
    dashboard.add_argument("--runs-per-hour", type=_integer(1, 100_000), default=20, metavar="N",
                           help="launches allowed in any hour (default 20)")
    dashboard.add_argument("--max-running", type=_integer(1, 64), default=1, metavar="N",
                           help="launched runs playing at once; the others wait in the queue (default 1)")
    dashboard.add_argument("--run-workers", type=_integer(1, MAX_WORKERS), metavar="N",
                           help="CPUs for each launched run's local Ray (default: all cores)")
    dashboard.add_argument("--job-address", metavar="URL",
                           help="submit launched runs to this Ray cluster through Ray's job API (its dashboard, "
                           "http://HEAD:8265; token from $RAY_AUTH_TOKEN) instead of the local Ray; the results "
                           "folder must be on a disk every node shares")
    dashboard.set_defaults(handler=command_dashboard)

    games = commands.add_parser("games", help="the registered games, player counts and parameters")
    games.add_argument("game", nargs="?", help="show every parameter path of this game")
    games.add_argument("--json", action="store_true", help="machine-readable output")
    games.set_defaults(handler=command_games)

    replay = commands.add_parser("replay", help="re-play one game and print its trace")
    replay.add_argument("game", nargs="?", help="game id (not needed with --experiment)")
    replay.add_argument("--seed", type=_integer(0, 2**64 - 1), help="the game's seed (the `seed` column of `games`)")
    replay.add_argument("--players", type=_integer(1, 1000), help="number of players (default: the game's minimum)")
    replay.add_argument("--agents", help="comma-separated agents by seat, repeated around the table (default: random)")
    replay.add_argument("--set", action="append", default=[], metavar="PATH=VALUE",
                        help="parameter override, e.g. rules.rounds=4 (repeatable)")
    replay.add_argument("--experiment", help="replay a game of this experiment (with --game-index)")
    replay.add_argument("--variant", help="variant of --experiment (default: baseline)")
    replay.add_argument("--game-index", type=_integer(0, MAX_GAMES - 1), help="game_index within --experiment")
    replay.add_argument("--json", action="store_true", help="JSON lines instead of text")
    _results_option(replay)
    replay.set_defaults(handler=command_replay)

    check = commands.add_parser("check-agent", help="check that an agent (built in or by import path) is seat-honest")
    check.add_argument("agent", help="agent spec, e.g. 'ismcts(iterations=40)' or 'mypackage.agents:Greedy(depth=2)'")
    check.add_argument("--game", action="append", help="only this game (repeatable; default: every game)")
    check.add_argument("--players", type=int, help="number of players (default: the game's smallest of 2 or more)")
    check.add_argument("--positions", type=int, default=6, help="decisions checked per game (default 6)")
    check.add_argument("--seed", type=int, default=31, help="seed of the random game walked (default 31)")
    check.set_defaults(handler=command_check_agent)

    bench = commands.add_parser("bench", help="games/s and decisions/s per game and agent, one core")
    bench.add_argument("--game", action="append", help="only this game (repeatable)")
    bench.add_argument("--agent", action="append", help="only this agent (repeatable)")
    bench.add_argument("--games", type=_integer(1, MAX_GAMES), default=20000,
                       help="games per measurement (default 20000)")
    bench.add_argument("--memory", action="store_true",
                       help="instead: peak memory of one worker playing --games games in shards of --shard-size")
    bench.add_argument("--shard-size", type=_integer(1, MAX_SHARD_SIZE), default=20000,
                       help="shard size for --memory (default 20000)")
    bench.add_argument("--search", action="store_true",
                       help="instead: ISMCTS iterations/s per game (random and heuristic rollouts; "
                            "with --compare, random rollouts)")
    bench.add_argument("--compare", metavar="REF",
                       help="measure the working tree against git ref REF (built in a temporary worktree) "
                            "in alternating rounds; prints both sides and their ratio")
    bench.add_argument("--rounds", type=_integer(1, 100),
                       help="with --compare: alternating rounds of each side (default 3); otherwise each rate "
                            "is the best of this many measurements (default 1)")
    bench.set_defaults(handler=command_bench)
    return parser


def _results_option(parser: argparse.ArgumentParser) -> None:
    # Kept as text here; ``main`` turns it into a ResultsPath, so that a bad
    # location is the usual one-line error rather than argparse's usage block.
    parser.add_argument("--results", default=os.environ.get("CARDLAB_RESULTS") or "results",
                        help="results folder or s3://bucket/prefix (default: $CARDLAB_RESULTS or ./results)")


def command_run(arguments: argparse.Namespace) -> int:
    """``cardlab run SPEC``."""
    import cardlab
    from drivers.run import load_checked_spec, run
    from workers.runner import RunOptions, shrink_spec

    if arguments.resume and arguments.overwrite:
        raise UsageError("--resume and --overwrite: choose one")
    spec = load_checked_spec(arguments.spec)
    if arguments.games is not None:
        spec = shrink_spec(spec, arguments.games)
    if arguments.dry_run:
        return _dry_run(spec, arguments)
    # The first line comes once the folder is locked (``announce``), so that a
    # refused run prints its one error line and nothing before it.

    def announce(todo: list[Shard]) -> None:
        print(f"cardlab run: {spec.name}: {spec.total_games:,} games of {spec.game} "
              f"({len(spec.variants)} variant(s) x {len(spec.player_counts)} player count(s)), "
              f"{len(spec.shards())} shards of up to {spec.shard_size:,}; "
              f"{sum(shard.games for shard in todo):,} games to play", file=sys.stderr, flush=True)

    options = RunOptions(
        results_root=arguments.results, workers=arguments.workers, address=arguments.address,
        resume=arguments.resume, overwrite=arguments.overwrite, plain_status=arguments.no_progress,
        started=cardlab.STARTED, games=arguments.games,
    )
    summary = run(spec, options, on_start=announce)
    # Nothing is left to do after the summary: each shard task wrote the report's counts of its rows.
    for line in summary.lines():
        print(line)
    where = _results_flag(arguments)
    print(f"next: cardlab report {spec.name}{where}   |   "
          f"cardlab sql {spec.name}{where} \"SELECT count(*) FROM games\"")
    return 0


def command_tune(arguments: argparse.Namespace) -> int:
    """``cardlab tune SPEC``: the balance search (``drivers.tuning``). It talks from its first
    second on stderr (``--no-progress``: only its first line and the answer)."""
    import cardlab

    if arguments.resume and arguments.overwrite:
        raise UsageError("--resume and --overwrite: choose one")
    if arguments.trial is not None and arguments.export is None:
        raise UsageError("--trial goes with --export FILE")
    if arguments.export is not None and (problem := file_to_write_problem(arguments.export)):
        raise UsageError(f"--export {arguments.export}: {problem}")  # before the search, not after it

    def say(line: str) -> None:
        print(f"cardlab tune: {line}", file=sys.stderr, flush=True)

    from experiments.tuning import load_tuning_spec

    spec = load_tuning_spec(arguments.spec)
    if arguments.trials is not None or arguments.games is not None:
        spec = spec.with_overrides(trials=arguments.trials, games=arguments.games)
    from drivers.tuning import check_tuning_folders, export_candidate, plan_tuning, run_tuning
    from workers.runner import RunOptions

    options = RunOptions(results_root=arguments.results, workers=arguments.workers, address=arguments.address,
                         resume=arguments.resume, overwrite=arguments.overwrite, progress=False)
    if not arguments.dry_run:
        check_tuning_folders(spec, options)
    # The first line comes once the spec and the folders are known to be right (a refused search
    # prints its one error line and nothing before it), and before the targets' check, which
    # plays a game per player count and takes seconds.
    say(f"{spec.name}: checking the targets against the metric views of {spec.game} (one game per player count) ...")
    from analytics.tuning import check_targets

    check_targets(spec)
    if arguments.dry_run:
        address = arguments.address or os.environ.get("RAY_ADDRESS")
        workers = arguments.workers or (None if address else os.cpu_count() or 1)
        say("calibrating: a few games of the current data and of the space's corners ...")
        plan = plan_tuning(spec, workers, check_seconds=time.perf_counter() - cardlab.STARTED)
        for line in plan.lines():
            print(line)
        print(f"(dry run: calibrated in {plan.calibration_seconds:.1f} s; nothing written to {arguments.results})")
        return 0
    summary = run_tuning(spec, options, say=(lambda line: None) if arguments.no_progress else say)
    for line in summary.lines():
        print(line)
    if arguments.export is not None:
        text = export_candidate(spec, summary.folder, arguments.trial)
        try:
            arguments.export.write_text(text)
        except OSError as error:
            raise UsageError(f"--export {arguments.export}: cannot write ({error.strerror})") from None
        print(f"exported: {arguments.export} (cardlab run {arguments.export})")
    where = _results_flag(arguments)
    print(f"next: cardlab report {spec.name} --sections tuning{where}   |   cardlab report {spec.confirm_name}{where}")
    return 0


def _dry_run(spec: Any, arguments: argparse.Namespace) -> int:
    """``cardlab run SPEC --dry-run``: the plan and its expected duration; nothing written."""
    from workers.estimate import card_costs, estimate_run
    from workers.runner import results_folder_problem, shards_to_play

    problem = results_folder_problem(arguments.results, spec.name)
    if problem is not None:
        raise UsageError(problem)
    shards = shards_to_play(spec, arguments.results / spec.name, arguments.resume)
    address = arguments.address or os.environ.get("RAY_ADDRESS")
    workers = arguments.workers or (None if address else os.cpu_count() or 1)
    estimate = estimate_run(spec, shards, workers or 1)
    print(f"{spec.name}: {spec.game}, {len(spec.variants)} variant(s) x {len(spec.player_counts)} player count(s) "
          f"x {spec.games:,} games = {spec.total_games:,} games in {len(spec.shards()):,} shards of up to "
          f"{spec.shard_size:,}")
    if len(shards) < len(spec.shards()):
        print(f"to play (--resume): {estimate.shards:,} shards, {estimate.games:,} games")
    for line in _calibration_lines(estimate.games_per_second):
        print(f"  calibration: {line}")
    if spec.impact is not None:
        print(_impact_summary(spec.impact))
        cost = card_costs(shards, estimate.games_per_second)
        if cost is not None:
            dearest = (f"; the dearest {cost.most_games:,} games, {cost.most_seconds:,.0f} s"
                       if cost.most_seconds > cost.median_seconds else "")
            print(f"  per card: {cost.median_games:,} games, about {cost.median_seconds:,.0f} s on one core (the "
                  f"median of {cost.cards} cards{dearest})")
    if workers is None:
        print(f"expected: {estimate.seconds:,.0f} s on one worker of the cluster at {address} "
              f"(divide by its CPUs), plus Ray start-up")
    else:
        print(f"expected: about {estimate.seconds:,.0f} s on {workers} worker(s), plus Ray start-up (a few seconds)")
    print(f"(dry run: calibrated in {estimate.calibration_seconds:.1f} s; nothing written to {arguments.results})")
    return 0


def _calibration_lines(rates: dict[tuple[str, int], float]) -> list[str]:
    """The dry run's calibration, one line per variant and player count; a card impact run's
    arms grouped by arm and player count (the median rate and its range), not one line each."""
    import statistics

    from experiments.impact import parse_arm_variant

    lines = []
    arms: dict[tuple[str, int], list[float]] = {}
    for (variant, n_players), rate in rates.items():
        parsed = parse_arm_variant(variant)
        if parsed is None:
            lines.append(f"{variant}, {n_players} players: {rate:,.0f} games/s on one core")
        else:
            arms.setdefault((parsed[1], n_players), []).append(rate)
    for (arm, n_players), group in arms.items():
        timed = (f"the median, {min(group):,.0f} to {max(group):,.0f}" if min(group) < max(group)
                 else "timed on the first arm")
        lines.append(f"{len(group)} {arm} arm(s), {n_players} players: {statistics.median(group):,.0f} games/s on "
                     f"one core ({timed})")
    return lines


def _impact_summary(plan: Any) -> str:
    """One line on a card impact run's arms (``experiments.impact.ImpactPlan``) for its dry run."""
    left = ""
    if plan.left_out:
        shown = "; ".join(f"{card} {arm}: {why}" for card, arm, why in plan.left_out[:3])
        more = f" and {len(plan.left_out) - 3} more" if len(plan.left_out) > 3 else ""
        left = f"; left out: {shown}{more}"
    stop = (f"; an arm stops once its 95% interval is at most {100 * plan.max_width:g} points wide (after "
            f"{plan.min_games:,} games), so the run may take less" if plan.max_width is not None else "")
    return (f"card impact: {len(plan.cards)} card(s), arms {' and '.join(plan.arms)}: {len(plan.played)} arm "
            f"variant(s){left}{stop}")


def command_sql(arguments: argparse.Namespace) -> int:
    """``cardlab sql EXPERIMENT [QUERY]``."""
    from analytics.folders import resolve_experiment
    from analytics.sql import interactive_shell, run_schema, run_sql

    if arguments.schema is not None and arguments.query is not None:
        raise UsageError("sql: give a query or --schema, not both")
    folder = resolve_experiment(arguments.experiment, arguments.results)
    if arguments.schema is not None:
        sys.stdout.write(run_schema(folder, arguments.schema, arguments.format, read_only=arguments.read_only))
    elif arguments.query is None:
        interactive_shell(folder, sys.stdin, sys.stdout, read_only=arguments.read_only)
    else:
        sys.stdout.write(run_sql(folder, arguments.query, arguments.format, read_only=arguments.read_only))
    return 0


def command_report(arguments: argparse.Namespace) -> int:
    """``cardlab report EXPERIMENT``."""
    from analytics.folders import resolve_experiment
    from analytics.report import build_report, render_report, write_report_csv

    sections = None
    if arguments.sections is not None:
        sections = [name.strip() for name in arguments.sections.split(",") if name.strip()]
        unknown = [name for name in sections if name not in SECTIONS]
        if unknown:
            raise UsageError(f"report section {unknown[0]!r}: expected one of {', '.join(SECTIONS)}")
    if arguments.format == "csv" and arguments.output is None:
        raise UsageError("--format csv writes one CSV file per table: give --output DIR")
    if arguments.format == "csv" and arguments.output.exists() and not arguments.output.is_dir():
        raise UsageError(f"{arguments.output}: --output: expected a folder for the CSV files, found a file")
    if arguments.format != "csv" and arguments.output is not None and (
            problem := file_to_write_problem(arguments.output)):
        raise UsageError(f"--output {arguments.output}: {problem}")
    folder = resolve_experiment(arguments.experiment, arguments.results)
    report = build_report(folder)
    if arguments.format == "csv":
        written = write_report_csv(report, arguments.output, sections)
        print(f"{len(written)} CSV files in {arguments.output}: {', '.join(path.name for path in written)}")
        return 0
    text = render_report(report, arguments.format, card_rows=arguments.card_rows, sections=sections)
    if arguments.output is None:
        sys.stdout.write(text)
    else:
        try:
            write_bytes_atomically(text.encode(), arguments.output)
        except OSError as error:  # e.g. a place even root cannot write files in (/proc)
            raise UsageError(f"--output {arguments.output}: cannot write ({error.strerror})") from None
        print(f"report written to {arguments.output}")
    return 0


def command_plan(arguments: argparse.Namespace) -> int:
    """``cardlab plan``: sample sizes for a win-rate difference and for an interval width."""
    from analytics.stats import games_for_difference, games_for_interval, power_of_difference

    if arguments.delta is None and arguments.width is None and arguments.impact_width is None:
        raise UsageError("plan: give --delta D (difference to detect), --width W (interval width) and/or "
                         "--impact-width W (card impact interval width)")
    if not 0 < arguments.p < 1:
        raise UsageError(f"--p: expected a win rate strictly between 0 and 1, got {arguments.p}")
    if not 0 < arguments.power < 1:
        raise UsageError(f"--power: expected a number strictly between 0 and 1, got {arguments.power}")
    if not 0 < arguments.alpha < 1:
        raise UsageError(f"--alpha: expected a number strictly between 0 and 1, got {arguments.alpha}")
    result: dict[str, Any] = {"p": arguments.p}
    lines = []
    if arguments.delta is not None:
        if arguments.delta == 0 or not 0 < arguments.p + arguments.delta < 1:
            raise UsageError(f"--delta: expected a non-zero difference with 0 < p + delta < 1, got {arguments.delta}")
        alpha = arguments.alpha / arguments.tests
        games = games_for_difference(arguments.p, arguments.delta, arguments.power, alpha)
        result.update(delta=arguments.delta, power=arguments.power, alpha=arguments.alpha, tests=arguments.tests,
                      alpha_per_test=alpha, games_per_arm=games,
                      achieved_power=power_of_difference(arguments.p, arguments.delta, games, alpha))
        divided = f" (= {arguments.alpha:g} / {arguments.tests} tests)" if arguments.tests > 1 else ""
        lines.append(
            f"{games:,} games per arm (baseline and variant) detect a win-rate change from "
            f"{100 * arguments.p:.1f}% to {100 * (arguments.p + arguments.delta):.1f}% with "
            f"{100 * arguments.power:.0f}% power at two-sided alpha {alpha:.3g}{divided}.")
        lines.append("  (two-proportion z-test; with paired seeds McNemar's test usually needs fewer.)")
    if arguments.width is not None:
        if not 0 < arguments.width < 1:
            raise UsageError(f"--width: expected a number strictly between 0 and 1, got {arguments.width}")
        games = games_for_interval(arguments.p, arguments.width)
        result.update(width=arguments.width, games_for_width=games)
        lines.append(f"{games:,} games give a 95% Wilson interval at most {100 * arguments.width:.1f} points wide "
                     f"around {100 * arguments.p:.1f}%.")
    if arguments.impact_width is not None:
        lines.extend(_impact_plan(arguments, result))
    print(json.dumps(result, indent=2) if arguments.format == "json" else "\n".join(lines))
    return 0


def _impact_plan(arguments: argparse.Namespace, result: dict[str, Any]) -> list[str]:
    """``cardlab plan --impact-width W``: games per card and arm of a card impact run."""
    from analytics.impact import games_for_impact_width, pilot_plan

    width = arguments.impact_width
    if not 0 < width < 2:
        raise UsageError(f"--impact-width: expected a number above 0 and below 2, got {width}")
    if not 0 < arguments.changed <= 1:
        raise UsageError(f"--changed: expected a share above 0 and at most 1, got {arguments.changed}")
    if arguments.held <= 0:
        raise UsageError(f"--held: expected a number above 0, got {arguments.held}")
    if arguments.pilot is not None:
        from analytics.catalog import open_catalog
        from analytics.folders import resolve_experiment

        con = open_catalog(resolve_experiment(arguments.pilot, arguments.results), cached=True)
        try:
            pilot = pilot_plan(con, width)
        finally:
            con.close()
        if pilot.is_empty():
            raise UsageError(f"--pilot {arguments.pilot}: no card impact with an interval; expected a run with "
                             "an [impact] table")
        result.update(impact_width=width, pilot=arguments.pilot, player_counts=pilot.to_dicts())
        return [f"{row['n_players']} players: {row['median_games_per_card']:,} games per card (median of "
                f"{row['cards']} cards; the hardest, {row['hardest_card']}, {row['most_games_per_card']:,}) for a 95% "
                f"impact interval at most {100 * width:.1f} points wide (from {arguments.pilot}'s intervals, now "
                f"{100 * row['median_width_now']:.1f} points at the median)" for row in pilot.to_dicts()]
    paired, unpaired = games_for_impact_width(width, arguments.changed, arguments.held)
    result.update(impact_width=width, changed=arguments.changed, held=arguments.held, games_per_card=paired,
                  games_per_card_unpaired=unpaired)
    return [f"{paired:,} games per card give a 95% impact interval at most {100 * width:.1f} points wide with the "
            f"in-place swap (the swap changes the holder's result in {100 * arguments.changed:.0f}% of its games, "
            f"{arguments.held:g} holder seat-games per game);",
            f"  compared unpaired (on deals of their own) the same width takes {unpaired:,} games per card "
            f"({unpaired / paired:.1f} times as many). Measure --changed with a pilot: --pilot EXPERIMENT."]


def command_verify(arguments: argparse.Namespace) -> int:
    """``cardlab verify EXPERIMENT``: every finished shard's files re-hashed, stray files listed.

    Exit code 0 when everything matches, 1 when a file is damaged, missing or
    unexpected (2, as always, for a user mistake such as an unknown experiment).
    """
    from analytics.folders import read_manifest, resolve_experiment
    from dataset.integrity import repair_command, verify_experiment
    from dataset.storage import lock_holder

    folder = resolve_experiment(arguments.experiment, arguments.results)
    result = verify_experiment(folder, read_manifest(folder), lock_holder(folder))
    if arguments.json:
        print(json.dumps({
            "experiment": str(folder), "shards": result.shards, "files_checked": result.files_checked,
            "bytes_hashed": result.bytes_hashed, "seconds": round(result.seconds, 3),
            "problems": [{"kind": finding.kind, "path": str(finding.path), "detail": finding.detail,
                          "shard": finding.shard} for finding in result.findings],
            "unverifiable_shards": result.unverifiable, "running": result.writer is not None}, indent=2))
        return 1 if result.findings else 0
    for finding in result.findings:
        print(f"{finding.kind:<10}  {finding.line()}")
    if result.writer is not None:
        print(f"note: a run (pid {result.writer.get('pid')} on {result.writer.get('host')}) is writing these "
              "results; the files of its unfinished shards are not listed")
    if result.unverifiable:
        print(f"note: {len(result.unverifiable)} shard(s) have no checksums in their manifest entry (written "
              f"before cardlab kept them) and were not verified: {', '.join(result.unverifiable[:5])}"
              + (" ..." if len(result.unverifiable) > 5 else ""))
    work = (f"{result.shards:,} finished shard(s), {result.files_checked:,} file(s), "
            f"{result.bytes_hashed / 1e6:,.1f} MB re-hashed in {result.seconds:.1f} s")
    if not result.findings:
        print(f"{folder}: every file matches the manifest ({work})")
        return 0
    kinds = {kind: sum(finding.kind == kind for finding in result.findings)
             for kind in ("damaged", "missing", "unexpected")}
    counts = ", ".join(f"{count} {kind}" for kind, count in kinds.items() if count)
    repairs = []
    if kinds["damaged"] or kinds["missing"]:
        repairs.append(f"`{repair_command(folder)}` repairs the damaged and missing files")
    if kinds["unexpected"]:
        repairs.append("cardlab never reads the unexpected files")
    print(f"{folder}: {counts} ({work}); {'; '.join(repairs)}")
    return 1


def command_catalog(arguments: argparse.Namespace) -> int:
    """``cardlab catalog [EXPERIMENT]``: a catalog file for ``duckdb FILE``."""
    from analytics.catalog_file import CATALOG_FILE, write_catalog_file, write_results_catalog
    from analytics.folders import resolve_experiment

    if arguments.experiment:
        folder = resolve_experiment(arguments.experiment, arguments.results)
        path = write_catalog_file(arguments.output or folder / CATALOG_FILE, [folder])
    else:
        path = write_results_catalog(arguments.results, arguments.output)
    print(f"{path}\nopen it with: duckdb {path} -c \"SELECT * FROM seat_balance\"")
    return 0


def command_dashboard(arguments: argparse.Namespace) -> int:
    """``cardlab dashboard``: ``streamlit run`` on the app, loopback by default.

    The process *becomes* Streamlit (``exec``) rather than starting it as a
    child: whatever ends ``cardlab dashboard`` (Ctrl-C, SIGTERM, SIGKILL)
    ends the server, and no Streamlit is left running without it.
    """
    import dashboard

    app = Path(dashboard.__file__).parent / "app.py"
    environment = dict(os.environ, CARDLAB_RESULTS=str(arguments.results.resolve()))  # an s3:// URI as is
    environment.update(_launch_environment(arguments))
    print(f"cardlab dashboard: {dashboard_url(arguments.host, arguments.port)}  (results: {arguments.results})",
          flush=True)
    if arguments.allow_runs:
        print("cardlab dashboard: launching runs from the New run page is on"
              + ("" if arguments.token_file is None else f", for holders of a token of {arguments.token_file}"),
              flush=True)
        if arguments.token_file is None:
            print(LOOPBACK_WITHOUT_TOKENS, file=sys.stderr, flush=True)
    command = [
        # dashboard.serve: Streamlit's command line with st.navigation's pages from the first request on.
        sys.executable, "-m", "dashboard.serve", "run", str(app),
        "--server.address", arguments.host, "--server.port", str(arguments.port),
        "--server.headless", "true", "--browser.gatherUsageStats", "false",
        "--client.toolbarMode", "viewer",  # a viewer's app: no Deploy button, no developer menu
        *_allowed_hosts_options(arguments.host),
    ]
    sys.stderr.flush()
    os.execve(sys.executable, command, environment)


LOOPBACK_WITHOUT_TOKENS = (
    "cardlab dashboard: warning: no --token-file: any user or program on this machine can launch and cancel "
    "runs (the page asks for no token on loopback); give --token-file FILE to require one")
"""What ``cardlab dashboard --allow-runs`` says at start without a token file (only allowed on loopback)."""


def dashboard_url(host: str, port: int) -> str:
    """The address a browser opens: ``http://127.0.0.1:8501``, an IPv6 host in brackets
    (``http://[::1]:8501``), as URLs write it."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def _allowed_hosts_options(host: str) -> list[str]:
    """On loopback, Streamlit's allow-list of the names a browser may reach the dashboard by.

    Without it Streamlit takes any ``Host`` header, so a web page whose name is made to
    resolve to 127.0.0.1 (DNS rebinding) could drive the dashboard, its New run page
    included, from the user's own browser. Beyond loopback the names are the operator's
    (a reverse proxy, a domain): left open, as launching there needs a token anyway."""
    from drivers.launcher import LOOPBACK_HOSTS, is_loopback

    if not is_loopback(host):
        return []
    names = dict.fromkeys([*LOOPBACK_HOSTS, "127.0.0.1", host])
    return [option for name in names for option in ("--server.allowedHosts", name)]


def _launch_environment(arguments: argparse.Namespace) -> dict[str, str]:
    """``cardlab dashboard``'s launch options as the ``CARDLAB_*`` variables the pages read
    (``drivers.launcher.policy_from_environment``); a mistake is a ``UsageError``."""
    from drivers.launcher import dashboard_environment, is_loopback, read_tokens

    if arguments.token_file is not None:
        try:
            read_tokens(arguments.token_file)
        except ValueError as error:
            raise UsageError(f"--token-file: {error}") from None
    if arguments.allow_runs and arguments.token_file is None and not is_loopback(arguments.host):
        raise UsageError(f"--allow-runs with --host {arguments.host}: beyond loopback, launching needs "
                         "--token-file FILE (lines such as alice = \"a long secret\")")
    if arguments.job_address is not None and not arguments.job_address.startswith(("http://", "https://")):
        raise UsageError(f"--job-address {arguments.job_address}: expected the Ray dashboard's address, "
                         "http://HEAD:8265")
    return dashboard_environment(arguments.allow_runs, arguments.token_file, arguments.max_games_per_run,
                                 arguments.runs_per_hour, arguments.max_running, arguments.run_workers,
                                 arguments.job_address)


def command_check_agent(arguments: argparse.Namespace) -> int:
    """``cardlab check-agent AGENT``: the seat-honesty check of
    ``simcore.agents.honesty`` on each game; exit code 1 if the agent fails it."""
    from simcore.agents.honesty import check_seat_honesty

    spec = parse_agent_spec(arguments.agent)
    if arguments.positions < 1:
        raise UsageError(f"--positions: expected at least 1, got {arguments.positions}")
    failed = False
    for game_id in arguments.game or sorted(GAMES):
        game = get_game(game_id)
        players = arguments.players
        if players is not None and not game.info.min_players <= players <= game.info.max_players:
            raise UsageError(f"--players: {game_id} is played by {game.info.min_players} to "
                             f"{game.info.max_players} players, got {players}")
        report = check_seat_honesty(game, spec, players, seed=arguments.seed, positions=arguments.positions)
        where = f"{game_id} ({report.n_players} players, {report.positions} positions, hidden cards redrawn " \
                f"differently at {report.hidden_differed})"
        if report.honest:
            print(f"{where}: seat-honest")
            continue
        failed = True
        print(f"{where}: NOT seat-honest")
        for problem in report.problems:
            print(f"  {problem}")
    return 1 if failed else 0


def command_games(arguments: argparse.Namespace) -> int:
    """``cardlab games [GAME]``."""
    if arguments.game:
        game = get_game(arguments.game)
        leaves = dict(flatten(game.default_parameters()))
        if arguments.json:
            print(json.dumps(leaves, indent=2))
        else:
            for path, value in leaves.items():
                print(f"{path} = {value!r}")
        return 0
    listing: list[dict[str, Any]] = []
    for game_id in sorted(GAMES):
        info = GAMES[game_id].info
        parameters = GAMES[game_id].default_parameters()
        listing.append({
            "id": info.id, "name": info.name, "min_players": info.min_players, "max_players": info.max_players,
            "description": info.description,
            "parameters": {path: value for path, value in flatten(parameters) if not path.startswith("cards.")},
            "cards": sorted(parameters.get("cards", {})),
        })
    if arguments.json:
        print(json.dumps(listing, indent=2))
        return 0
    for entry in listing:
        players = entry["min_players"] if entry["min_players"] == entry["max_players"] else (
            f"{entry['min_players']}-{entry['max_players']}")
        print(f"{entry['id']}: {entry['name']} ({players} players) - {entry['description']}")
        for path, value in entry["parameters"].items():
            print(f"    {path} = {value!r}")
        print(f"    cards.<name>.* for {len(entry['cards'])} cards "
              f"(`cardlab games {entry['id']}` lists every path)")
    return 0


def _parse_override(text: str) -> tuple[str, Any]:
    path, separator, raw = text.partition("=")
    if not separator or not path.strip():
        raise UsageError(f"--set {text!r}: expected PATH=VALUE, e.g. rules.rounds=4")
    try:
        value = tomllib.loads(f"value = {raw.strip()}")["value"]
    except tomllib.TOMLDecodeError:
        value = raw.strip()
    return path.strip(), value


def command_replay(arguments: argparse.Namespace) -> int:
    """``cardlab replay GAME --seed N`` or ``--experiment NAME --game-index I``."""
    if arguments.experiment:
        _refuse_ignored_replay_arguments(arguments)
        setup = _replay_from_experiment(arguments)
        game_id, config_parameters, n_players, seed, lineup = (setup.game, setup.parameters, setup.n_players,
                                                               setup.seed, setup.lineup)
        agent_replay = setup.agent_replay
        if arguments.game and get_game(arguments.game).info.id != game_id:
            raise UsageError(f"replay: {arguments.experiment} is an experiment of {game_id}, not {arguments.game}; "
                             "give its game or none with --experiment")
    else:
        for option, value in (("--game-index", arguments.game_index), ("--variant", arguments.variant)):
            if value is not None:
                raise UsageError(f"{option}: only with --experiment")
        if not arguments.game or arguments.seed is None:
            raise UsageError("replay: give GAME and --seed N, or --experiment NAME --game-index I")
        game = get_game(arguments.game)
        overrides = dict(_parse_override(text) for text in arguments.set)
        config_parameters = apply_overrides(game.default_parameters(), overrides)
        n_players = arguments.players or game.info.min_players
        if not game.info.min_players <= n_players <= game.info.max_players:
            raise UsageError(f"--players: {game.info.id} is played by {game.info.min_players} to "
                             f"{game.info.max_players} players, got {n_players}")
        names = split_agent_list(arguments.agents or "random")
        if len(names) > n_players:
            raise UsageError(f"--agents: {len(names)} agents for the {n_players} seat{'s' * (n_players != 1)} of "
                             f"{game.info.id}; expected at most {n_players} (fewer repeat around the table)")
        agents = [parse_agent_spec(name) for name in names] or [parse_agent_spec("random")]
        lineup = [agents[seat % len(agents)] for seat in range(n_players)]
        game_id, seed, agent_replay = game.info.id, arguments.seed, 0
    game = get_game(game_id)
    recorder = TraceRecorder()
    played = play_game(game, game.configure(config_parameters), n_players, seed, lineup, recorder.record,
                       agent_replay)
    for event in recorder.events:
        print(event_to_json(event) if arguments.json else format_event(event))
    if not arguments.json:
        state = played.state
        shared = len(set(state.returns())) == 1 and state.returns()[0] > 0
        print(f"winners: {state.winners() or ('none (draw)' if shared else 'none')}; scores: {state.scores()}; "
              f"end: {state.end_reason()}; decisions: {played.decisions}")
    return 0


def _refuse_ignored_replay_arguments(arguments: argparse.Namespace) -> None:
    """``--seed``, ``--agents`` and ``--set`` are the experiment's with ``--experiment``: refuse them."""
    if arguments.seed is not None:
        raise UsageError("--seed: not with --experiment, whose --game-index picks the seed")
    if arguments.agents is not None:
        raise UsageError("--agents: not with --experiment, which plays its own agents")
    if arguments.set:
        raise UsageError("--set: not with --experiment, which plays its variant's parameters (--variant)")


def _replay_from_experiment(arguments: argparse.Namespace) -> ReplaySetup:
    from analytics.folders import read_manifest, require_intact, resolve_experiment

    if arguments.game_index is None:
        raise UsageError("--experiment needs --game-index")
    folder = resolve_experiment(arguments.experiment, arguments.results)
    require_intact(folder, read_manifest(folder))
    spec_file = folder / SPEC_FILE
    spec = parse_spec(json.loads(spec_file.read_text()), str(spec_file))
    try:
        setup = replay_setup(spec, arguments.variant or BASELINE, arguments.players, arguments.game_index)
    except ReplayError as error:
        raise UsageError(f"--{error}") from None
    return setup


def command_bench(arguments: argparse.Namespace) -> int:
    """``cardlab bench``."""
    from workers.bench import format_bench, run_bench

    for game_id in arguments.game or []:
        get_game(game_id)
    for agent in arguments.agent or []:
        parse_agent_spec(agent)
    if arguments.compare is not None:
        return _bench_compare(arguments)
    if arguments.memory:
        return _bench_memory(arguments)
    if arguments.search:
        from workers.bench import format_search_bench, run_search_bench

        print(format_search_bench(run_search_bench(arguments.game)))
        return 0
    from workers.bench import bench_reference

    rows = run_bench(arguments.game, arguments.agent, arguments.games, arguments.rounds or 1)
    wants_reference = not arguments.game or "divvy" in arguments.game
    # The C reference plays 50 times as many games: about the same time as the engine row.
    reference = bench_reference(50 * arguments.games) if wants_reference else None
    print(format_bench(rows, reference))
    if wants_reference and reference is None:
        print("(no C reference line: `make reference` builds bench/divvy_playout.c)")
    return 0


def _bench_compare(arguments: argparse.Namespace) -> int:
    """``cardlab bench --compare REF``: ``bench/compare.py``."""
    from bench.compare import BadRefError, CompareError, compare

    if arguments.memory:
        raise UsageError("--compare: measures the engine, recorded and search rates; not with --memory")
    try:
        print(compare(arguments.compare, arguments.game or sorted(GAMES), arguments.agent or ["random", "heuristic"],
                      arguments.games, arguments.rounds or 3, lambda line: print(line, file=sys.stderr, flush=True),
                      arguments.search))
    except BadRefError as error:
        raise UsageError(str(error)) from None
    except CompareError as error:
        print(f"cardlab: bench --compare: {error}", file=sys.stderr)
        return 1
    return 0


def _bench_memory(arguments: argparse.Namespace) -> int:
    import tempfile

    from workers.bench import peak_memory_per_shard

    game_id = (arguments.game or ["divvy"])[0]
    agent = parse_agent_spec((arguments.agent or ["random"])[0])
    with tempfile.TemporaryDirectory(prefix="cardlab-memory-") as folder:
        readings = peak_memory_per_shard(game_id, agent, arguments.games, arguments.shard_size, folder)
    print("| games played | peak RSS (MiB) |\n|---:|---:|")
    step = max(1, len(readings) // 10)
    for games, mib in readings[step - 1::step]:
        print(f"| {games:,} | {mib:,.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
