"""How a run ends when it does not finish: a cluster address that does not answer
is refused before anything is written; Ctrl-C leaves ``run.json`` saying
``interrupted`` and the dashboard shows it so; an error leaves ``failed: ...``;
a run that ends before its first shard leaves no folder behind; a bad
``[[stop_when]]`` target is refused before any of that."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from analytics.explore import experiment_overview
from analytics.views import METRIC_VIEWS
from cardlab.cli import main
from dataset.storage import LOCK_FILE, MANIFEST_FOLDER, RUN_FILE
from experiments.spec import parse_spec
from workers.runner import RunError, RunOptions, run_experiment

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"
LONG = 'name = "long"\ngame = "divvy"\ngames = 400000\nshard_size = 2000\nagents = ["random"]\n'
"""A run that takes minutes: it is always stopped before it ends."""


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never says a word (neither Ray nor anything else)."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        yield int(listener.getsockname()[1])


def test_an_address_where_nothing_listens_is_refused_at_once_with_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec_file = tmp_path / "long.toml"
    spec_file.write_text(LONG)
    port = _closed_port()
    started = time.monotonic()
    code = main(["run", str(spec_file), "--results", str(tmp_path / "results"), "--address", f"127.0.0.1:{port}",
                 "--no-progress"])
    error = capsys.readouterr().err.strip()
    assert code == 2
    assert error == (f"cardlab: error: --address 127.0.0.1:{port}: no Ray cluster answers (Connection refused); "
                     "expected the address of a running cluster's head (HOST:PORT)")
    assert time.monotonic() - started < 10
    assert not (tmp_path / "results").exists()


def test_an_address_that_accepts_but_never_answers_times_out_with_nothing_written(
        tmp_path: Path, silent_port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{silent_port}")  # the environment's address, as `ray job` sets it
    spec = parse_spec({"name": "silent", "game": "divvy", "games": 100}, "silent.toml")
    started = time.monotonic()
    with pytest.raises(RunError) as raised:
        run_experiment(spec, RunOptions(results_root=tmp_path / "results", progress=False, cluster_timeout=2))
    assert str(raised.value) == (
        f"--address 127.0.0.1:{silent_port}: no Ray cluster answered within 2 s (the port accepts connections but "
        "does not speak Ray's protocol); expected a running cluster's head")
    assert 2 <= time.monotonic() - started < 8
    assert not (tmp_path / "results").exists()


def test_an_embedded_run_refuses_disabled_token_authentication_and_writes_nothing(tmp_path: Path) -> None:
    spec_file = tmp_path / "long.toml"
    spec_file.write_text(LONG)
    environment = {key: value for key, value in os.environ.items() if not key.startswith("RAY_")}
    finished = subprocess.run(
        [sys.executable, "-m", "cardlab", "run", str(spec_file), "--results", str(tmp_path / "results"),
         "--no-progress"], cwd=ROOT, env={**environment, "RAY_AUTH_MODE": "disabled"}, capture_output=True,
        text=True, timeout=120, check=False)
    assert finished.returncode == 2
    assert finished.stderr.strip().splitlines()[-1] == (
        "cardlab: error: RAY_AUTH_MODE=disabled: cardlab's embedded Ray cluster always runs with token "
        "authentication; unset RAY_AUTH_MODE or set it to token")
    assert len(finished.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "results").exists()


def _wait_for_shards(folder: Path, count: int, process: subprocess.Popen[bytes], timeout: float = 240) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        manifest = folder / MANIFEST_FOLDER
        if manifest.is_dir() and len(list(manifest.glob("*.json"))) >= count:
            return
        assert process.poll() is None, "the run ended early"
        time.sleep(0.2)
    raise AssertionError(f"fewer than {count} shards after {timeout} s")


def _interrupted_run(tmp_path: Path, ending: signal.Signals, group: bool = True
                     ) -> tuple[subprocess.Popen[bytes], str, Path]:
    """A real run sent ``ending`` (to its whole process group, as a terminal sends Ctrl-C, or with
    ``group=False`` to the cardlab process alone, as ``kill PID`` does) once it finished two shards;
    (the process, its stderr, the results folder)."""
    spec_file = tmp_path / "long.toml"
    spec_file.write_text(LONG)
    results = tmp_path / "results"
    run = subprocess.Popen([sys.executable, "-m", "cardlab", "run", str(spec_file), "--results", str(results),
                            "--no-progress", "--workers", "2"], cwd=ROOT, start_new_session=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        _wait_for_shards(results / "long", 2, run)
        if group:
            os.killpg(run.pid, ending)
        else:
            run.send_signal(ending)
        _, errors = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
    status = json.loads((results / "long" / RUN_FILE).read_text())
    assert status["status"] == "interrupted" and status["spec"] == str(spec_file.resolve())
    assert not (results / "long" / LOCK_FILE).exists()
    return run, errors.decode(), results


def test_ctrl_c_leaves_run_json_saying_interrupted_and_the_experiments_page_shows_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run, errors, results = _interrupted_run(tmp_path, signal.SIGINT)
    assert run.returncode == 130
    assert errors.strip().splitlines()[-1] == (
        "cardlab: interrupted; `cardlab run --resume` finishes a run (`cardlab tune --resume` a search)")
    overview = experiment_overview(results)
    assert overview["status"].to_list() == ["interrupted"]
    monkeypatch.setenv("CARDLAB_RESULTS", str(results))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("pages/experiments.py")
    at.run()
    assert not at.exception, at.exception
    assert at.dataframe[0].value["status"].tolist() == ["interrupted"]
    assert "1 interrupted or failed (`cardlab run SPEC --resume` finishes them)" in at.caption[0].value


def test_sigterm_leaves_run_json_saying_interrupted_too(tmp_path: Path) -> None:
    run, _errors, results = _interrupted_run(tmp_path, signal.SIGTERM)
    # Ray's handler turns SIGTERM into sys.exit(15); its core then often aborts, its raylet
    # having had the same SIGTERM: the exit code is Ray's, the status is cardlab's.
    assert run.returncode != 0
    assert experiment_overview(results)["status"].to_list() == ["interrupted"]


def test_a_sigterm_to_the_run_alone_ends_it_with_one_line_and_no_stack_dump(tmp_path: Path) -> None:
    run, errors, results = _interrupted_run(tmp_path, signal.SIGTERM, group=False)
    assert run.returncode == 128 + signal.SIGTERM
    assert errors.strip().splitlines()[-1] == (
        "cardlab: stopped (SIGTERM); `cardlab run --resume` finishes a run (`cardlab tune --resume` a search)")
    assert "SIGTERM received" not in errors  # Ray's C-level handler printed this process's stack
    assert experiment_overview(results)["status"].to_list() == ["interrupted"]


BROKEN_STOP = """
name = "broken_stop"
game = "divvy"
games = 400
shard_size = 50
[[stop_when]]
view = "no_such_view"
rate = "win_rate"
max_width = 0.01
"""
"""8 shards: on 1 worker, the early-stop check after the first round read the view and failed."""


@pytest.mark.parametrize("dry_run", [False, True], ids=["run", "dry run"])
def test_a_stop_when_target_on_an_unknown_view_is_refused_before_ray_starts_with_nothing_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], dry_run: bool) -> None:
    # It used to fail after the first round (exit 2, shards and a "failed" run.json left,
    # "stop_when: targets[0].view"), or, with fewer shards than a round, to be ignored.
    spec_file = tmp_path / "broken_stop.toml"
    spec_file.write_text(BROKEN_STOP)
    started = time.monotonic()
    code = main(["run", str(spec_file), "--results", str(tmp_path / "results"), "--workers", "1", "--no-progress",
                 *(["--dry-run"] if dry_run else [])])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.strip() == (
        f"cardlab: error: {spec_file}: stop_when[0].view: expected one of {', '.join(METRIC_VIEWS)}, "
        "got 'no_such_view'")
    assert time.monotonic() - started < 30  # no Ray: one game played in-process to read the views
    assert not (tmp_path / "results").exists()


@pytest.mark.usefixtures("shared_ray")
def test_a_run_stopped_by_an_error_says_failed_and_keeps_its_finished_shards(
        tmp_path: Path) -> None:
    # The error comes from the early-stop check, handed in by the driver, after the first round of shards.
    def failing_check(root: object) -> bool:
        raise RunError("broken_stop.toml: stop_when[0]: the catalog went away")

    spec = parse_spec({"name": "broken_stop", "game": "divvy", "games": 400, "shard_size": 100,
                       "stop_when": [{"view": "seat_stats", "rate": "win_rate", "max_width": 0.01}]},
                      "broken_stop.toml")
    with pytest.raises(RunError, match=r"broken_stop\.toml: stop_when\[0\]: "):
        run_experiment(spec, RunOptions(results_root=tmp_path, workers=1, progress=False), stop_check=failing_check)
    status = json.loads((tmp_path / "broken_stop" / RUN_FILE).read_text())
    assert status["status"] == "failed: broken_stop.toml: stop_when[0]: the catalog went away"
    assert len(list((tmp_path / "broken_stop" / MANIFEST_FOLDER).glob("*.json"))) >= 1
    assert experiment_overview(tmp_path)["status"].to_list() == ["failed"]
    assert not (tmp_path / "broken_stop" / LOCK_FILE).exists()


def test_a_run_that_fails_before_its_first_shard_removes_the_folder_it_created(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import workers.runner as runner

    def no_ray(options: RunOptions) -> int:
        raise RunError("Ray could not start")

    monkeypatch.setattr(runner, "_init_ray", no_ray)
    spec = parse_spec({"name": "never", "game": "divvy", "games": 100}, "never.toml")
    with pytest.raises(RunError, match="Ray could not start"):
        run_experiment(spec, RunOptions(results_root=tmp_path / "new" / "results", progress=False))
    assert list(tmp_path.iterdir()) == []


def test_a_shard_task_failing_in_ray_is_recorded_by_its_own_error_not_rays_banner() -> None:
    import ray.exceptions

    from workers.runner import failure_reason

    cause = ValueError("rules.composition names 1 heroes, the game has 2\nmore lines")
    wrapped = ray.exceptions.RayTaskError(
        "_run_shard_task", "\x1b[36mray::_run_shard_task()\x1b[39m (pid=8421, ip=127.0.0.1)\nTraceback ...", cause)
    assert failure_reason(wrapped) == "rules.composition names 1 heroes, the game has 2"
    assert failure_reason(RunError("\x1b[31mdisk full\x1b[0m")) == "disk full"
    assert failure_reason(KeyError()) == "KeyError"
