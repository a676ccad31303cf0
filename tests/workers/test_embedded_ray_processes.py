"""What a local ``cardlab run`` opens and leaves: every socket its processes listen on
is on loopback, none answers without Ray's token, and none of its processes
outlives a SIGKILL of the driver by more than a few seconds; ``cardlab dashboard``
leaves nothing running after SIGTERM or SIGKILL.

One run (a subprocess, so that its processes are a tree of their own) serves the
module: the socket test looks at it while it plays, the last test kills it.
"""

from __future__ import annotations

import http.client
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from analytics.explore import experiment_overview
from dataset.storage import MANIFEST_FOLDER
from tests.live_dashboard import running_dashboard
from tests.processes import Listener, command_line, listeners, tree, wait_until_gone
from workers.reaper import ProcessKey

ROOT = Path(__file__).resolve().parents[2]
LONG = 'name = "long"\ngame = "divvy"\ngames = 400000\nshard_size = 2000\nagents = ["random"]\n'
GRACE_SECONDS = 5.0
"""How long a process cardlab started may outlive it."""


@dataclass
class Run:
    """A ``cardlab run`` playing in the background."""

    process: subprocess.Popen[bytes]
    results: Path

    def processes(self) -> set[ProcessKey]:
        """The driver's descendants now."""
        return tree(self.process.pid)


def _names(keys: set[ProcessKey]) -> list[str]:
    return [command_line(pid) for pid, _start in sorted(keys)]


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    folder = tmp_path_factory.mktemp("embedded")
    spec_file = folder / "long.toml"
    spec_file.write_text(LONG)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    process = subprocess.Popen([sys.executable, "-m", "cardlab", "run", str(spec_file), "--results",
                                str(folder / "results"), "--no-progress", "--workers", "2"],
                               cwd=ROOT, env=environment, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = Run(process, folder / "results")
    try:
        manifest = started.results / "long" / MANIFEST_FOLDER
        deadline = time.monotonic() + 240
        while not (manifest.is_dir() and any(manifest.glob("*.json"))):
            assert process.poll() is None and time.monotonic() < deadline, "the run did not start playing"
            time.sleep(0.2)
        yield started
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def _answers_without_token(listener: Listener) -> int | None:
    """The HTTP status of ``GET /metrics`` without credentials, or None if the port does not speak HTTP/1."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{listener.port}/metrics", timeout=3) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refusal:
        return int(refusal.code)
    except (OSError, ValueError, http.client.HTTPException):  # a gRPC port answers HTTP/1 with HTTP/2 frames
        return None


def test_every_port_the_run_opens_is_on_loopback_and_none_answers_without_the_token(run: Run) -> None:
    processes = run.processes()
    names = " | ".join(_names(processes))
    for expected in ("gcs_server", "raylet", "ray::DashboardAgent", "ray::RuntimeEnvAgent", "workers.reaper"):
        assert expected in names, f"{expected} not among the run's processes: {names}"
    opened = listeners({pid for pid, _start in processes} | {run.process.pid})
    owners = {listener.process.split(" ")[0].rsplit("/", 1)[-1] for listener in opened}
    assert {"gcs_server", "raylet", "ray::DashboardAgent", "ray::RuntimeEnvAgent"} <= owners, owners
    wide = [listener for listener in opened if not listener.loopback]
    assert not wide, f"listening beyond loopback: {wide}"
    answers = {listener.port: _answers_without_token(listener) for listener in opened}
    assert 200 not in answers.values(), f"answered without a token: {answers}"
    runtime_env = [listener for listener in opened if listener.process.startswith("ray::RuntimeEnvAgent")]
    assert [answers[listener.port] for listener in runtime_env] == [401]  # Ray's token authentication is on


def test_no_process_outlives_a_sigkilled_driver_by_more_than_a_few_seconds(run: Run) -> None:
    before = run.processes()
    assert any("raylet" in name for name in _names(before))
    assert any(name.startswith("ray::DashboardAgent") for name in _names(before))
    os.kill(run.process.pid, signal.SIGKILL)  # the driver alone, as the OOM killer would
    run.process.wait(timeout=30)
    survivors = wait_until_gone(before, GRACE_SECONDS)
    assert not survivors, f"alive {GRACE_SECONDS} s after the driver: {_names(survivors)}"
    # The run could not say so itself; its lock names a dead process, so the overview does.
    assert experiment_overview(run.results)["status"].to_list() == ["interrupted"]


@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_cardlab_dashboard_leaves_nothing_running_after_it_is_ended(tmp_path: Path, ending: signal.Signals) -> None:
    (tmp_path / "results").mkdir()
    with running_dashboard(tmp_path / "results") as dashboard:
        children = tree(dashboard.process.pid)  # (a Streamlit child, if cardlab started one)
        os.kill(dashboard.process.pid, ending)  # the cardlab process only, not its process group
        dashboard.process.wait(timeout=30)
        survivors = wait_until_gone(children, GRACE_SECONDS)
        assert not survivors, f"alive after `cardlab dashboard` ended: {_names(survivors)}"
        with pytest.raises(OSError):  # and nothing serves the dashboard any more
            urllib.request.urlopen(f"{dashboard.url}/_stcore/health", timeout=3)
