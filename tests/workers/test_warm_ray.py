"""The warm Ray cluster (``cardlab ray start``): runs join it and play the same games as
without it, it listens on loopback only, a run never joins it with other code, a run that
dies leaves no shard playing, one keeper serves however many starts, and it stops by itself.

Real Ray throughout: one keeper (two shard players) serves the module; the idle test starts
its own. Every command runs as a subprocess with ``CARDLAB_WARM_RAY`` naming the test's
record (the suite's default is ``off``) and ``XDG_CACHE_HOME`` a folder of the test's.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from dataset.storage import MANIFEST_FOLDER
from experiments.spec import load_spec
from tests.live_dashboard import running_dashboard
from tests.processes import command_line, listeners, tree, wait_until_gone
from workers.shard import run_shard
from workers.warm import read_record

ROOT = Path(__file__).resolve().parents[2]
SMALL = 'name = "small"\ngame = "divvy"\ngames = 400\nseed = 5\nshard_size = 100\nagents = ["heuristic", "random"]\n'
LONG = 'name = "long"\ngame = "divvy"\ngames = 400000\nshard_size = 50000\nagents = ["heuristic"]\n'


@dataclass(frozen=True)
class Warm:
    """A warm cluster for the module: its record, the environment that finds it, its keeper."""

    folder: Path
    record: Path
    environment: dict[str, str]
    keeper: int


def _environment(folder: Path, record: Path) -> dict[str, str]:
    environment = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    return environment | {"CARDLAB_WARM_RAY": str(record), "XDG_CACHE_HOME": str(folder / "cache")}


def cardlab(environment: dict[str, str], *arguments: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardlab", *arguments], cwd=ROOT, env=environment,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Warm]:
    folder = tmp_path_factory.mktemp("warm")
    record = folder / "warm-ray.json"
    environment = _environment(folder, record)
    started = cardlab(environment, "ray", "start", "--workers", "2", "--idle-minutes", "30")
    assert started.returncode == 0, started.stderr
    found = read_record(record)
    assert found is not None and found.state == "ready"
    try:
        yield Warm(folder, record, environment, found.keeper_pid)
    finally:
        cardlab(environment, "ray", "stop")


def _games(folder: Path) -> list[tuple[object, ...]]:
    files = str(folder / "games" / "**" / "*.parquet")
    return duckdb.connect().execute(f"SELECT * FROM read_parquet('{files}', hive_partitioning=false) "
                                    "ORDER BY game_index").fetchall()


def test_a_run_joins_the_warm_cluster_and_plays_the_games_a_shard_task_plays(warm: Warm) -> None:
    (warm.folder / "small.toml").write_text(SMALL)
    played = cardlab(warm.environment, "run", str(warm.folder / "small.toml"), "--results",
                     str(warm.folder / "results"))
    assert played.returncode == 0, played.stderr
    found = read_record(warm.record)
    assert found is not None
    assert f"joining the warm Ray cluster at {found.address} (2 shard player(s) ready" in played.stderr
    assert "starting Ray" not in played.stderr
    assert "first game" in played.stdout
    # The same shards played without Ray, as a cold run's tasks play them: the same games.
    spec = load_spec(warm.folder / "small.toml")
    for shard in spec.shards():
        run_shard(spec, shard, str(warm.folder / "direct" / "small"))
    games = _games(warm.folder / "results" / "small")
    assert len(games) == 400
    assert games == _games(warm.folder / "direct" / "small")
    # The dry run now expects the warm start-up this run measured.
    measured = json.loads((warm.folder / "cache" / "cardlab" / "ray-start-up.json").read_text())
    dry = cardlab(warm.environment, "run", str(warm.folder / "small.toml"), "--results", str(warm.folder / "dry"),
                  "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert (f"{measured['warm']:,.1f} s to the first game (joining the warm Ray cluster at {found.address}; "
            "as the last such run here took)") in dry.stdout


def test_every_port_of_the_warm_cluster_is_on_loopback(warm: Warm) -> None:
    processes = tree(warm.keeper)
    names = " | ".join(command_line(pid) for pid, _start in processes)
    for expected in ("gcs_server", "raylet", "ray::ShardPlayer", "workers.reaper"):
        assert expected in names, f"{expected} not among the keeper's processes: {names}"
    opened = listeners({pid for pid, _start in processes} | {warm.keeper})
    assert any("gcs_server" in listener.process for listener in opened)
    wide = [listener for listener in opened if not listener.loopback]
    assert not wide, f"listening beyond loopback: {wide}"


def test_a_run_does_not_join_a_warm_cluster_whose_code_differs(warm: Warm) -> None:
    found = read_record(warm.record)
    assert found is not None
    kept = warm.record.read_text()
    warm.record.write_text(json.dumps(json.loads(kept) | {"code": "0" * 16}))  # as if the code changed since
    try:
        (warm.folder / "tiny.toml").write_text(SMALL.replace('"small"', '"tiny"').replace("400", "20"))
        played = cardlab(warm.environment, "run", str(warm.folder / "tiny.toml"), "--results",
                         str(warm.folder / "results"), "--workers", "1")
        status = cardlab(warm.environment, "ray", "status")
    finally:
        warm.record.write_text(kept)
    assert played.returncode == 0, played.stderr
    assert f"the warm Ray cluster at {found.address} plays cardlab's code as it was when it started" in played.stderr
    assert "starting Ray on this machine" in played.stderr
    assert "joining the warm Ray cluster" not in played.stderr
    assert "its code has changed since it started" in status.stdout


def _players(keeper: int) -> set[int]:
    return {pid for pid, _start in tree(keeper) if command_line(pid).startswith("ray::ShardPlayer")}


def test_a_run_killed_mid_shard_leaves_no_shard_playing_on_the_warm_cluster(warm: Warm) -> None:
    (warm.folder / "long.toml").write_text(LONG)
    results = warm.folder / "killed"
    run = subprocess.Popen([sys.executable, "-m", "cardlab", "run", str(warm.folder / "long.toml"), "--results",
                            str(results)], cwd=ROOT, env=warm.environment, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    assert run.stderr is not None
    for line in run.stderr:  # its plain status lines (stderr is no terminal)
        if line.startswith("cardlab run: playing"):
            break
    time.sleep(3)  # both players are then a few seconds into a shard of 50,000 heuristic games (tens of seconds)
    assert not (results / "long" / MANIFEST_FOLDER).is_dir() or not any((results / "long" / MANIFEST_FOLDER).iterdir())
    players = _players(warm.keeper)
    assert len(players) == 2
    os.kill(run.pid, signal.SIGKILL)  # as the OOM killer would: the run cannot stop its shards itself
    run.wait(timeout=30)
    killed = time.monotonic()
    while players & _players(warm.keeper):  # the keeper restarts each player still playing for it
        assert time.monotonic() - killed < 20, "a player still plays a shard of the killed run"
        time.sleep(0.2)
    finished = sorted((results / "long" / MANIFEST_FOLDER).glob("*.json"))
    time.sleep(3)
    assert sorted((results / "long" / MANIFEST_FOLDER).glob("*.json")) == finished
    # And the cluster plays the next run.
    again = cardlab(warm.environment, "run", str(warm.folder / "small.toml"), "--results", str(warm.folder / "again"))
    assert again.returncode == 0 and "joining the warm Ray cluster" in again.stderr, again.stderr


def test_cardlab_ray_stop_ends_the_cluster_and_its_record(warm: Warm) -> None:
    processes = tree(warm.keeper)
    stopped = cardlab(warm.environment, "ray", "stop")
    assert stopped.returncode == 0, stopped.stderr
    assert "stopped the warm Ray cluster at 127.0.0.1:" in stopped.stdout
    assert not warm.record.exists()
    survivors = wait_until_gone(processes, 10)
    assert not survivors, [command_line(pid) for pid, _start in survivors]
    assert cardlab(warm.environment, "ray", "status").stdout.startswith("cardlab ray: no warm Ray cluster is up")


def test_two_starts_at_once_share_one_keeper_which_stops_by_itself_when_idle(tmp_path: Path) -> None:
    record = tmp_path / "warm-ray.json"
    environment = _environment(tmp_path, record)
    command = [sys.executable, "-m", "cardlab", "ray", "start", "--workers", "1", "--idle-minutes", "0.1"]
    starts = [subprocess.Popen(command, cwd=ROOT, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True) for _ in range(2)]
    outputs = [start.communicate(timeout=300) for start in starts]
    assert [start.returncode for start in starts] == [0, 0], outputs
    found = read_record(record)
    assert found is not None and found.state == "ready"
    for stdout, _stderr in outputs:  # both say the one cluster is ready
        assert f"cardlab ray: ready: {found.address}, 1 shard player(s)" in stdout
    keepers = [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()
               and "workers.keeper" in command_line(int(entry.name)) and str(record) in command_line(int(entry.name))]
    assert keepers == [found.keeper_pid]
    processes = tree(found.keeper_pid)
    deadline = time.monotonic() + 60  # 6 s without a run, then Ray's processes end with the keeper
    while found.alive():
        assert time.monotonic() < deadline, "the keeper did not stop after its idle time"
        time.sleep(0.5)
    assert not record.exists()
    assert "0.1 minutes without a run; stopping" in record.with_suffix(".log").read_text()
    assert not wait_until_gone(processes, 10)


def test_ray_start_refuses_when_the_warm_cluster_is_off(tmp_path: Path) -> None:
    environment = _environment(tmp_path, tmp_path / "record.json") | {"CARDLAB_WARM_RAY": "off"}
    refused = cardlab(environment, "ray", "start")
    assert refused.returncode == 2
    assert refused.stderr.strip().splitlines() == [
        "cardlab: error: CARDLAB_WARM_RAY=off: the warm Ray cluster is turned off; unset CARDLAB_WARM_RAY "
        "or name the file its record goes to"]


def test_the_dashboard_allowing_runs_keeps_a_warm_cluster_that_ends_with_it(tmp_path: Path) -> None:
    record = tmp_path / "warm-ray.json"
    (tmp_path / "results").mkdir()
    with running_dashboard(tmp_path / "results", _environment(tmp_path, record), ["--allow-runs"]) as dashboard:
        deadline = time.monotonic() + 240
        found = read_record(record)
        while found is None or found.state != "ready":
            assert time.monotonic() < deadline, "the dashboard's warm cluster did not get ready"
            time.sleep(0.5)
            found = read_record(record)
        assert (found.owner, found.idle_minutes) == ("cardlab dashboard", 0.0)
        status = cardlab(_environment(tmp_path, record), "ray", "status")
        assert f"ready: {found.address}, " in status.stdout and "stops with its dashboard" in status.stdout
        processes = tree(found.keeper_pid)
        assert any(command_line(pid).startswith("ray::ShardPlayer") for pid, _start in processes)
        os.kill(dashboard.process.pid, signal.SIGKILL)  # the dashboard alone, however it ends
        dashboard.process.wait(timeout=30)
        survivors = wait_until_gone(processes, 15)
        assert not survivors, [command_line(pid) for pid, _start in survivors]
        assert not found.alive()
