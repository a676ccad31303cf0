"""Launched runs submitted to a Ray cluster through Ray's job API (``cardlab dashboard
--job-address``): a real one-node Ray head with its dashboard and token authentication on
loopback (started as ``tests/workers/test_ray_job_submit.py`` starts its cluster); the job runs
the same ``cardlab run`` command on the written spec, and the launcher records the job and how
it ended; a job whose supervisor is killed is stopped, not left running."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from dataset.storage import finished_shards
from drivers.launcher import FAILED, RUNNING, job_entrypoint, launch, list_runs, log_file, read_run
from tests.launcher.helpers import LOCAL, small_whatif, wait_for
from workers.runner import LOCAL_RAY_NODE_IP

pytest.importorskip("aiohttp", reason="the Ray dashboard and job API need ray[default] (pip install -e .)")
from tests.workers.test_ray_job_submit import (  # after the skip: the cluster needs ray[default]
    STARTUP_SECONDS,
    _free_ports,
    _listening,
    _node_ports,
    _start_node,
    _wait_for,
    started_nodes,
)


@pytest.fixture(scope="module")
def job_head(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """A Ray head with its job API, one CPU, token on; (dashboard address, environment)."""
    tmp_path = tmp_path_factory.mktemp("job-head")
    env = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN=secrets.token_hex(32), RAY_USAGE_STATS_ENABLED="0",
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}")
    with started_nodes(lambda sessions, logs, nodes: _start_head(env, tmp_path, sessions, logs, nodes),
                       "cl-launchjob-", tmp_path) as address:
        yield address, env


def _start_head(env: dict[str, str], cwd: Path, sessions: Path, log_folder: Path,
                nodes: list[subprocess.Popen[bytes]]) -> str:
    """Start the head on free ports (appended to ``nodes``); its dashboard's address once it listens."""
    gcs_port, dashboard_port, client_port = _free_ports(3)
    log = log_folder / "head.log"
    nodes.append(_start_node(
        ["--head", f"--port={gcs_port}", "--include-dashboard=true", f"--dashboard-host={LOCAL_RAY_NODE_IP}",
         f"--dashboard-port={dashboard_port}", f"--ray-client-server-port={client_port}",
         f"--temp-dir={sessions / 'head'}", f"--node-ip-address={LOCAL_RAY_NODE_IP}", "--num-cpus=1",
         "--object-store-memory=100000000", "--disable-usage-stats", *_node_ports()], env, cwd, log))
    _wait_for(lambda: _listening(dashboard_port), "the head's dashboard did not listen", STARTUP_SECONDS, [log], nodes)
    return f"http://{LOCAL_RAY_NODE_IP}:{dashboard_port}"


def test_a_launched_run_is_played_by_cardlab_run_as_a_ray_job(
        job_head: tuple[str, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    address, env = job_head
    for name in [name for name in os.environ if name.startswith("RAY_")]:
        monkeypatch.delenv(name)
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "PATH"):
        monkeypatch.setenv(name, env[name])  # what the dashboard's environment would hold
    spec, text = small_whatif("as_a_job", games=40)
    launch(tmp_path, spec, text, replace(LOCAL, job_address=address), None)
    done = wait_for(tmp_path, "as_a_job", timeout=300)
    assert (done.state, done.reason) == ("finished", ""), log_file(tmp_path, "as_a_job").read_text()
    assert done.job_id.startswith("cardlab-as_a_job-")
    assert sorted(finished_shards(tmp_path / "as_a_job")) == ["baseline-2p-0000000000", "whatif-2p-0000000000"]
    assert "cardlab run: as_a_job: 80 games of divvy" in log_file(tmp_path, "as_a_job").read_text()
    assert job_entrypoint(tmp_path, "as_a_job").startswith("cardlab run ")


def test_a_job_whose_supervisor_is_killed_is_stopped_and_its_run_marked_failed(
        job_head: tuple[str, dict[str, str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ray.job_submission import JobStatus, JobSubmissionClient

    address, env = job_head
    for name in [name for name in os.environ if name.startswith("RAY_")]:
        monkeypatch.delenv(name)
    for name in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "PATH"):
        monkeypatch.setenv(name, env[name])
    client = JobSubmissionClient(address, headers={"Authorization": f"Bearer {env['RAY_AUTH_TOKEN']}"})
    spec, text = small_whatif("orphaned_job", games=400_000)
    launch(tmp_path, spec, text, replace(LOCAL, job_address=address), None)
    deadline = time.monotonic() + 120
    while not ((run := read_run(tmp_path, "orphaned_job")) and run.job_id
               and client.get_job_status(run.job_id) == JobStatus.RUNNING):
        assert time.monotonic() < deadline, f"the job did not start: {run}"
        time.sleep(0.5)
    assert run.supervisor_pid is not None
    os.kill(run.supervisor_pid, signal.SIGKILL)
    while (found := {each.name: each for each in list_runs(tmp_path)}["orphaned_job"]).state == RUNNING:
        assert time.monotonic() < deadline + 120, "the orphaned job's run is still marked running"
        time.sleep(0.5)
    assert client.get_job_status(run.job_id) == JobStatus.STOPPED
    assert found.state == FAILED
    assert found.reason == (f"its launcher process (pid {run.supervisor_pid}) died without recording how the run "
                            "ended (it was killed, or the machine restarted); the run was stopped with it (Ray job "
                            f"{run.job_id} stopped); its finished shards are kept")
