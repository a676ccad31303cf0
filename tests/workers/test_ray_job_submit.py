"""`ray job submit -- cardlab run ...` on a real two-node Ray cluster on loopback,
with Ray's token authentication on.

The cluster is started the way the runbook (docker/README.md) starts one: a head
and a worker node, each a separate ``ray start --block`` process, bound to
``127.0.0.2`` (Ray rewrites 127.0.0.1 to the machine's outward address), every
port chosen free, ``RAY_AUTH_MODE=token`` and one ``RAY_AUTH_TOKEN`` on every
node and on the submitting client. The job is submitted with the ``ray job
submit`` command the README documents; its status, its logs and the node of
every shard task are then read back through the job SDK and the state API.

Stopping the cluster: ``ray stop`` is never used here, because it kills every
Ray process of the user on the machine (other test sessions' clusters too).
Instead each node's own ``ray start --block`` process gets SIGTERM: it shuts
down the processes of that node (GCS, raylet, dashboard, agents), and Ray's
workers die with their raylet. Any process of that node still alive afterwards
(snapshotted from /proc before the SIGTERM) is killed by its pid.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import duckdb
import pytest

from experiments.spec import load_spec
from tests.conftest import write_experiment
from workers.runner import LOCAL_RAY_NODE_IP

pytest.importorskip("aiohttp", reason="the Ray dashboard and job API need ray[default] (pip install -e .)")
if not Path("/proc/self/stat").exists():
    pytest.skip("stopping the cluster's processes by pid reads /proc (Linux only)", allow_module_level=True)

RAY_CLI = str(Path(sys.executable).with_name("ray"))
SUBMISSION_ID = "cardlab-job-submit-test"
GAMES = 8000
SHARDS = 16
SPEC_TOML = f"""\
name = "rayjob"
game = "divvy"
games = {GAMES}
seed = 4
agents = ["heuristic", "random"]
rotate_seats = true
shard_size = {GAMES // SHARDS}
"""
STARTUP_SECONDS = 120
START_ATTEMPTS = 2
JOB_SECONDS = 180


@dataclass(frozen=True)
class JobCluster:
    """A running two-node cluster: where its job API listens and how to talk to it."""

    dashboard_url: str
    token: str
    env: dict[str, str]
    app: Path  # every node's working directory, as /app is in the image

    def auth_headers(self) -> dict[str, str]:
        """The HTTP header Ray's token authentication asks for."""
        return {"Authorization": f"Bearer {self.token}"}

    def get(self, path: str) -> Any:
        """GET a JSON answer from the dashboard (job and state APIs), with the token."""
        request = urllib.request.Request(self.dashboard_url + path, headers=self.auth_headers())
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def alive_node_ids(self) -> set[str]:
        """Ids of the nodes the cluster reports alive."""
        nodes = self.get("/api/v0/nodes?limit=100")["data"]["result"]["result"]
        return {node["node_id"] for node in nodes if node["state"] == "ALIVE"}


def _free_ports(count: int) -> list[int]:
    """Ports free on the loopback address right now (held together, so all differ)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for each in sockets:
            each.bind((LOCAL_RAY_NODE_IP, 0))
        return [each.getsockname()[1] for each in sockets]
    finally:
        for each in sockets:
            each.close()


def _listening(port: int) -> bool:
    """Whether something accepts connections on the loopback address at ``port``."""
    with socket.create_connection((LOCAL_RAY_NODE_IP, port), timeout=1):
        return True


class NodeEnded(Exception):
    """A node's ``ray start --block`` ended while the cluster started."""


def _wait_for(condition: Callable[[], bool], what: str, seconds: float, logs: list[Path],
              nodes: Sequence[subprocess.Popen[bytes]] = ()) -> None:
    """Poll ``condition`` until it holds; fail naming ``what``, with the nodes' log tails.
    Raises ``NodeEnded`` as soon as one of ``nodes`` has ended."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ended = [(name, node.returncode) for name, node in zip(("the head", "the worker node"), nodes, strict=False)
                 if node.poll() is not None]
        if ended:
            raise NodeEnded(f"{what}: the `ray start` of {ended[0][0]} ended while starting "
                            f"(exit code {ended[0][1]})\n{_tails(logs)}")
        try:
            if condition():
                return
        except (OSError, KeyError, ValueError):  # not listening yet, or an answer from a half-started node
            pass
        time.sleep(0.5)
    pytest.fail(f"{what} within {seconds} s\n{_tails(logs)}")


def _tails(logs: list[Path]) -> str:
    return "\n".join(f"--- {log}\n{log.read_text()[-3000:]}" for log in logs if log.exists())


def _process_family(pid: int) -> dict[int, str]:
    """``pid`` and all its descendants, each with its start time (so a reused pid is never mistaken)."""
    parents: dict[int, list[int]] = {}
    started: dict[int, str] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # exited meanwhile
            continue
        child = int(stat.parent.name)
        parents.setdefault(int(fields[1]), []).append(child)
        started[child] = fields[19]
    family: dict[int, str] = {}
    stack = [pid]
    while stack:
        current = stack.pop()
        if current in started:
            family[current] = started[current]
        stack.extend(parents.get(current, []))
    return family


def _still_running(family: dict[int, str]) -> list[int]:
    """The pids of ``family`` still running as the same processes."""
    running = []
    for pid, start in family.items():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[19] == start and fields[0] != "Z":
            running.append(pid)
    return running


def _stop_node(node: subprocess.Popen[bytes]) -> list[int]:
    """Stop one ``ray start --block`` node and every process it started; return pids that had to be killed."""
    family = _process_family(node.pid)
    node.send_signal(signal.SIGTERM)  # its handler drains and stops this node's processes
    try:
        node.wait(timeout=45)
    except subprocess.TimeoutExpired:
        node.kill()
        node.wait()
    deadline = time.monotonic() + 10
    while _still_running(family) and time.monotonic() < deadline:
        time.sleep(0.2)
    leftovers = _still_running(family)
    for pid in leftovers:
        with contextlib.suppress(ProcessLookupError):  # exited just now
            os.kill(pid, signal.SIGKILL)
    return leftovers


def _start_node(arguments: list[str], env: dict[str, str], cwd: Path, log: Path) -> subprocess.Popen[bytes]:
    """One ``ray start --block`` node in its own session (so a Ctrl-C of pytest does not reach it first)."""
    with log.open("wb") as output:
        return subprocess.Popen([RAY_CLI, "start", "--block", *arguments], env=env, cwd=cwd,
                                stdout=output, stderr=subprocess.STDOUT, start_new_session=True)


def _node_ports() -> list[str]:
    """A node's agent and metrics ports, all free (Ray's fixed defaults would collide with other clusters)."""
    agent_http, agent_grpc, runtime_env, metrics = _free_ports(4)
    return [f"--dashboard-agent-listen-port={agent_http}", f"--dashboard-agent-grpc-port={agent_grpc}",
            f"--runtime-env-agent-port={runtime_env}", f"--metrics-export-port={metrics}"]


@pytest.fixture(scope="module")
def two_node_job_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JobCluster]:
    """A Ray head (with dashboard and job API) and one worker node, one CPU each, token auth on;
    started again on fresh ports, once, when a node gives up while starting."""
    tmp_path = tmp_path_factory.mktemp("job-cluster")
    token = secrets.token_hex(32)
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=token, RAY_USAGE_STATS_ENABLED="0",
               # as in the image (PATH has /app/.venv/bin): the job finds `cardlab` on PATH
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    app = tmp_path / "app"
    (app / "experiments").mkdir(parents=True)
    with started_nodes(lambda sessions, logs, nodes: _start_cluster(env, token, app, sessions, logs, nodes),
                       "cl-rayjob-", tmp_path) as cluster:
        yield cluster


T = TypeVar("T")


@contextlib.contextmanager
def started_nodes(start: Callable[[Path, Path, list[subprocess.Popen[bytes]]], T], prefix: str,
                  logs: Path) -> Iterator[T]:
    """``start(sessions, log_folder, nodes)``'s value while the ``ray start`` nodes it started
    (appended to ``nodes``, their session folders under ``sessions``, their output in
    ``log_folder``: ``logs/start-<attempt>``, kept after the test) run; each stopped at the end.

    Ray gives a new node's raylet 30 s to register with the GCS (not a setting): on a machine
    loaded by other tests a node can give up while starting. These tests check what runs on
    the nodes, not that: when ``start`` raises ``NodeEnded``, the nodes start again, once,
    on fresh ports."""
    for attempt in range(1, START_ATTEMPTS + 1):
        nodes: list[subprocess.Popen[bytes]] = []
        # Ray's socket paths must stay under 108 bytes, so its session folders live in a short temp dir.
        sessions = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
        log_folder = logs / f"start-{attempt}"
        log_folder.mkdir()
        try:
            value = start(sessions, log_folder, nodes)
        except NodeEnded:
            _stop_cluster(nodes, sessions)
            if attempt == START_ATTEMPTS:
                raise
            continue
        except BaseException:
            _stop_cluster(nodes, sessions)
            raise
        try:
            yield value
        finally:
            leftovers = _stop_cluster(nodes, sessions)
        assert not leftovers, f"processes of the test's Ray nodes outlived their node's SIGTERM: {leftovers}"
        return


def _start_cluster(env: dict[str, str], token: str, app: Path, sessions: Path, log_folder: Path,
                   nodes: list[subprocess.Popen[bytes]]) -> JobCluster:
    """Start the head, then the worker node, on free ports (appended to ``nodes`` as they start);
    return once both are alive. Raises ``NodeEnded`` when a node gives up while starting."""
    gcs_port, dashboard_port, client_port = _free_ports(3)
    node_common = [f"--node-ip-address={LOCAL_RAY_NODE_IP}", "--num-cpus=1", "--object-store-memory=100000000",
                   "--disable-usage-stats"]
    logs = [log_folder / "head.log", log_folder / "worker.log"]
    nodes.append(_start_node(
        ["--head", f"--port={gcs_port}", "--include-dashboard=true", f"--dashboard-host={LOCAL_RAY_NODE_IP}",
         f"--dashboard-port={dashboard_port}", f"--ray-client-server-port={client_port}",
         f"--temp-dir={sessions / 'head'}", *node_common, *_node_ports()], env, app, logs[0]))
    _wait_for(lambda: _listening(gcs_port), "the head's GCS did not listen", STARTUP_SECONDS, logs, nodes)
    nodes.append(_start_node(
        [f"--address={LOCAL_RAY_NODE_IP}:{gcs_port}", f"--temp-dir={sessions / 'worker'}", *node_common,
         *_node_ports()], env, app, logs[1]))
    cluster = JobCluster(f"http://{LOCAL_RAY_NODE_IP}:{dashboard_port}", token, env, app)
    _wait_for(lambda: len(cluster.alive_node_ids()) == 2, "two nodes were not alive", STARTUP_SECONDS, logs, nodes)
    return cluster


def _stop_cluster(nodes: list[subprocess.Popen[bytes]], sessions: Path) -> list[int]:
    """Stop every node, the worker first; remove the session folders; return the pids that had to be killed."""
    leftovers = [pid for node in reversed(nodes) for pid in _stop_node(node)]
    shutil.rmtree(sessions, ignore_errors=True)
    return leftovers


def _rows(folder: Path, table: str) -> list[tuple[object, ...]]:
    files = str(folder / table / "**" / "*.parquet")
    return duckdb.connect().execute(
        f"SELECT * FROM read_parquet('{files}', hive_partitioning=false) ORDER BY ALL").fetchall()


def test_ray_job_submit_runs_cardlab_on_both_nodes_and_writes_the_rows_of_a_local_run(
    two_node_job_cluster: JobCluster, tmp_path: Path
) -> None:
    from ray.job_submission import JobStatus, JobSubmissionClient

    cluster = two_node_job_cluster
    spec_file = cluster.app / "experiments" / "rayjob.toml"  # shipped in the image, like divvy_baseline.toml
    spec_file.write_text(SPEC_TOML)
    results = tmp_path / "shared-results"  # absolute: every node writes to the same (shared) folder
    with ThreadPoolExecutor(max_workers=1) as pool:  # the local reference run, played while the cluster plays
        local_run = pool.submit(write_experiment, load_spec(spec_file), tmp_path / "local")
        submitted = subprocess.run(
            [RAY_CLI, "job", "submit", "--address", cluster.dashboard_url, "--submission-id", SUBMISSION_ID, "--",
             "cardlab", "run", "experiments/rayjob.toml", "--results", str(results), "--no-progress"],
            env=cluster.env, cwd=tmp_path, capture_output=True, text=True, timeout=JOB_SECONDS)
        local = local_run.result()
    assert submitted.returncode == 0, submitted.stdout + submitted.stderr

    client = JobSubmissionClient(cluster.dashboard_url, headers=cluster.auth_headers())
    assert client.get_job_status(SUBMISSION_ID) == JobStatus.SUCCEEDED
    logs = client.get_job_logs(SUBMISSION_ID)
    assert f"rayjob: {GAMES:,} games of divvy" in logs
    assert f"shards: {SHARDS} played of {SHARDS}" in logs
    assert "on 2 worker(s)" in logs

    tasks = cluster.get("/api/v0/tasks?detail=true&limit=1000&filter_keys=func_or_class_name"
                        "&filter_predicates=%3D&filter_values=_run_shard_task")["data"]["result"]["result"]
    # The state API lists one row per attempt: a worker lost under load is retried (max_retries), which is
    # the runner's designed behaviour, so the shard count is of distinct tasks and each one's last attempt.
    last_attempts = {task["task_id"]: task for task in sorted(tasks, key=lambda task: task["attempt_number"])}
    assert len(last_attempts) == SHARDS, [(task["task_id"], task["attempt_number"], task["state"]) for task in tasks]
    assert {task["state"] for task in last_attempts.values()} == {"FINISHED"}
    assert {task["node_id"] for task in last_attempts.values()} == cluster.alive_node_ids()  # both nodes played

    played = results / "rayjob"
    games = _rows(played, "games")
    assert len(games) == GAMES
    game_index = duckdb.connect().execute(
        f"SELECT count(DISTINCT game_index), min(game_index), max(game_index) "
        f"FROM read_parquet('{played}/games/**/*.parquet')").fetchone()
    assert game_index == (GAMES, 0, GAMES - 1)
    for table in ("games", "players", "cards"):
        assert _rows(played, table) == _rows(local, table), table


def test_the_job_api_refuses_a_client_without_the_clusters_token(two_node_job_cluster: JobCluster) -> None:
    from ray.exceptions import AuthenticationError
    from ray.job_submission import JobSubmissionClient

    with pytest.raises(AuthenticationError, match="Forbidden: Invalid authentication token"):
        JobSubmissionClient(two_node_job_cluster.dashboard_url, headers={"Authorization": "Bearer not-the-token"})
