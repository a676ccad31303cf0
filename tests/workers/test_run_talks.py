"""A run that talks: start-up lines, plain status lines without a terminal,
the whole run's wall time in the summary, ``--dry-run`` and ``--games``."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from experiments.spec import Shard, load_spec, parse_spec
from workers.estimate import expected_seconds
from workers.runner import (
    EMBEDDED_RAY_NODE_IP,
    RunOptions,
    RunSummary,
    _StatusLines,
    run_experiment,
    shrink_spec,
    status_line,
)
from workers.shard import play_shard

PROJECT = Path(__file__).resolve().parents[2]
BASELINE_SPEC = PROJECT / "experiments" / "divvy_baseline.toml"


def _cardlab(*arguments: str, cwd: Path) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run the real console script (stderr is a pipe, not a terminal); also the
    seconds until its first line on stderr."""
    started = time.perf_counter()
    process = subprocess.Popen([str(Path(sys.executable).with_name("cardlab")), *arguments], cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    first_line = process.stderr.readline()
    first_line_seconds = time.perf_counter() - started
    # The rest through the same buffered reader: readline() may have buffered
    # more than one line, which communicate() would skip.
    rest = process.stderr.read()
    assert process.stdout is not None
    stdout = process.stdout.read()
    process.wait(timeout=600)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, first_line + rest), first_line_seconds


def test_a_run_without_a_terminal_says_what_it_does_in_plain_lines_and_reports_its_whole_wall_time(
        tmp_path: Path) -> None:
    finished, first_line_seconds = _cardlab("run", str(BASELINE_SPEC), "--games", "40", "--workers", "1",
                                            "--no-progress", "--results", str(tmp_path), cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert "\r" not in finished.stderr
    # Ray's own warnings (if any) aside, the run's lines in order.
    lines = [line for line in finished.stderr.splitlines() if line.startswith("cardlab run: ")]
    assert finished.stderr.startswith(lines[0])
    # The plan, then Ray starting, then where it is and how many workers, then the shards going out.
    assert lines[0].startswith("cardlab run: divvy_baseline-games-40: 120 games of divvy (3 variant(s) x 1 player")
    assert lines[1] == "cardlab run: starting Ray on this machine (1 CPUs) ..."
    assert lines[2].startswith("cardlab run: Ray ready in ") and lines[2].endswith(", 1 worker(s)")
    assert f"cluster at {EMBEDDED_RAY_NODE_IP}:" in lines[2]  # loopback only
    assert lines[3] == "cardlab run: playing 3 shard(s), 120 games, on 1 worker(s)"
    assert lines[-1].startswith("cardlab run: 120 of 120 games (100%), 3 of 3 shards, ")
    assert " games/s, done in " in lines[-1]
    # The summary's wall time covers start-up too: at least Ray's start-up as reported.
    ray_seconds = float(lines[2].split("Ray ready in ")[1].split(" s")[0])
    summary = next(line for line in finished.stdout.splitlines() if line.startswith("games: "))
    wall = float(summary.split(" in ")[1].split(" s ")[0])
    start_up = float(summary.split("start-up ")[1].split(" s")[0])
    playing = float(summary.split("playing ")[1].split(" s")[0])
    assert start_up >= ray_seconds and wall == pytest.approx(start_up + playing, abs=0.15)
    print(f"first line after {first_line_seconds:.2f} s")  # under a second on an idle machine


@pytest.mark.usefixtures("shared_ray")
def test_games_shrinks_a_spec_into_its_own_folder_with_the_same_first_games(tmp_path: Path) -> None:
    spec = load_spec(BASELINE_SPEC)
    small = shrink_spec(spec, 25)
    assert small.name == "divvy_baseline-games-25" and small.games == 25 and small.shard_size == 25
    assert small.total_games == 25 * len(spec.variants)
    # Game seeds do not depend on the name or the size: the first games are the full run's first games.
    for variant in ("baseline", "no_twelves"):
        full = play_shard(spec, Shard(variant, 2, 0, 25))["games"]
        shrunk = play_shard(small, Shard(variant, 2, 0, 25))["games"]
        assert shrunk.drop_columns(["experiment"]).equals(full.drop_columns(["experiment"]))
    summary = run_experiment(small, RunOptions(results_root=tmp_path, workers=1, progress=False))
    assert summary.experiment_dir == tmp_path / "divvy_baseline-games-25"
    games = pq.read_table(tmp_path / "divvy_baseline-games-25" / "games", partitioning=None)
    assert games.num_rows == 75 and set(games.column("experiment").to_pylist()) == {"divvy_baseline-games-25"}
    assert json.loads((summary.experiment_dir / "spec.json").read_text())["games"] == 25


@pytest.mark.usefixtures("shared_ray")
def test_plain_status_lines_come_every_interval_while_shards_run(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    spec = parse_spec({"name": "talk", "game": "ring_of_chaos", "games": 1200, "shard_size": 300,
                       "player_counts": [4], "agents": ["random"]}, "talk test")
    options = RunOptions(results_root=tmp_path, workers=1, plain_status=True, status_interval=0.1)
    summary = run_experiment(spec, options)
    lines = capsys.readouterr().err.splitlines()
    status = [line for line in lines if " games (" in line]
    assert len(status) >= 2, lines  # periodic lines while the four shards run, and the last one
    assert status[-1].startswith("cardlab run: 1,200 of 1,200 games (100%), 4 of 4 shards")
    assert summary.wall_seconds >= summary.seconds > 0


def test_the_last_status_line_is_not_printed_twice(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _StatusLines(total_games=200, total_shards=2, interval=0.0)
    lines.update(100)
    lines.tick()
    lines.update(100)
    lines.tick()  # the interval has passed: the 100% line
    lines.close()  # nothing new to say
    printed = capsys.readouterr().err.splitlines()
    assert len(printed) == 2, printed
    assert printed[0].startswith("cardlab run: 100 of 200 games (50%), 1 of 2 shards, ")
    assert printed[1].startswith("cardlab run: 200 of 200 games (100%), 2 of 2 shards, ")
    quiet = _StatusLines(total_games=200, total_shards=2, interval=3600.0)
    quiet.update(100)
    quiet.update(100)
    quiet.close()  # no line since the start: the end line is printed
    assert capsys.readouterr().err.startswith("cardlab run: 200 of 200 games (100%), 2 of 2 shards")


def test_the_summary_counts_the_time_before_the_first_shard() -> None:
    summary = RunSummary(experiment_dir=Path("x"), shards_total=2, shards_skipped=0, shards_played=2,
                         games_played=1000, seconds=10.0, workers=2, wall_seconds=25.0)
    assert summary.start_up_seconds == 15.0
    assert summary.games_per_second == 40.0
    assert summary.lines()[-1] == ("games: 1,000 in 25.0 s on 2 worker(s) = 40 games/s "
                                   "(whole run: start-up 15.0 s, playing 10.0 s)")


def test_a_status_line_says_games_shards_rate_and_time_left() -> None:
    assert status_line(120_000, 600_000, 12, 60, 10.0) == (
        "120,000 of 600,000 games (20%), 12 of 60 shards, 12,000 games/s, about 40 s left")
    assert status_line(0, 600_000, 0, 60, 3.0).endswith("0 games/s, first shards running")
    assert status_line(600_000, 600_000, 60, 60, 50.0).endswith("12,000 games/s, done in 50.0 s")


def test_the_expected_time_lays_the_shards_out_on_the_workers_in_order() -> None:
    shards = [Shard("baseline", 2, start, start + 100) for start in range(0, 300, 100)]
    rates = {("baseline", 2): 100.0}
    assert expected_seconds(shards, rates, workers=2) == 2.0  # two at once, then the third alone
    assert expected_seconds(shards, rates, workers=1) == 3.0
    assert expected_seconds(shards, rates, workers=4) == 1.0
    mixed = [Shard("slow", 2, 0, 100), Shard("fast", 2, 0, 100), Shard("fast", 2, 100, 200)]
    assert expected_seconds(mixed, {("slow", 2): 50.0, ("fast", 2): 100.0}, workers=2) == 2.0


def test_a_dry_run_prints_the_plan_and_the_expected_time_and_writes_nothing(tmp_path: Path) -> None:
    finished, _ = _cardlab("run", str(BASELINE_SPEC), "--dry-run", "--workers", "2", "--results",
                           str(tmp_path / "results"), cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    lines = finished.stdout.splitlines()
    assert lines[0] == ("divvy_baseline: divvy, 3 variant(s) x 1 player count(s) x 200,000 games = 600,000 games "
                        "in 60 shards of up to 10,000")
    calibrations = [line for line in lines if line.startswith("  calibration: ")]
    assert [line.split(":")[1].strip() for line in calibrations] == [
        "baseline, 2 players", "four_rounds, 2 players", "no_twelves, 2 players"]
    expected = next(line for line in lines if line.startswith("expected: about "))
    rates = [float(line.split(": ")[2].split(" games/s")[0].replace(",", "")) for line in calibrations]
    seconds = float(expected.split("about ")[1].split(" s")[0].replace(",", ""))
    # The spec's 60 shards of 10,000 games (20 per variant) laid out on 2 workers at the printed
    # rates, each to the first worker free; at least half of the summed work. (Not the half
    # alone: with unequal rates the last shards leave one worker idle for up to a shard.)
    spec = load_spec(BASELINE_SPEC)
    by_group = {(variant, 2): rate for variant, rate in zip(("baseline", "four_rounds", "no_twelves"), rates,
                                                             strict=True)}
    assert seconds == pytest.approx(expected_seconds(spec.shards(), by_group, workers=2), abs=1)
    assert seconds >= sum(200_000 / rate for rate in rates) / 2 - 1
    assert not (tmp_path / "results").exists()


def test_a_dry_run_refuses_results_the_real_run_cannot_write_in_the_same_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardlab.cli import main

    in_the_way = tmp_path / "afile"
    in_the_way.write_text("not a folder")
    refusals = []
    for mode in (["--dry-run"], ["--workers", "1", "--no-progress"]):
        assert main(["run", str(BASELINE_SPEC), "--games", "20", "--results", str(in_the_way), *mode]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1, captured
        refusals.append(captured.err)
    assert refusals[0] == refusals[1] == (
        f"cardlab: error: --results {in_the_way}: {in_the_way}: is a file; expected a results folder (or a path "
        "where one can be created)\n")
    assert in_the_way.read_text() == "not a folder" and sorted(tmp_path.iterdir()) == [in_the_way]
