"""What the launcher tests share: a small Divvy what-if and a way to wait for a run's state."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

from drivers.launcher import ENDED, QUEUED, RUNNING, LaunchedRun, LaunchPolicy, cancel, list_runs, read_run
from experiments.spec import ExperimentSpec, load_spec
from experiments.whatif import whatif_spec, whatif_toml

ROOT = Path(__file__).resolve().parents[2]
DIVVY_BASELINE = ROOT / "experiments" / "divvy_baseline.toml"
LOCAL = LaunchPolicy(allowed=True, loopback=True, max_running=1, workers=1)
"""A loopback dashboard started with --allow-runs, one run at a time, one CPU per run."""
TOKENS = {"alice": "alice-secret-0123456789", "bob": "bob-secret-0123456789"}
SHARED = LaunchPolicy(allowed=True, loopback=False, tokens=TOKENS, max_running=1, workers=1)
"""A dashboard on every interface started with --allow-runs and a token file."""


def small_whatif(name: str, games: int = 40, copies: int = 0) -> tuple[ExperimentSpec, str]:
    """A Divvy what-if (``cards.axes_12.copies``) of ``games`` games per variant, and its TOML."""
    spec = whatif_spec(load_spec(DIVVY_BASELINE), name, {"cards.axes_12.copies": copies}, games, [2],
                       ["heuristic", "random"], source="new run")
    return spec, whatif_toml(spec)


@contextlib.contextmanager
def stopping_runs(results: Path) -> Iterator[None]:
    """Cancel the runs still queued or running under ``results`` when the block ends (passed or
    not), and wait for them to stop, so that no test leaves a run playing."""
    try:
        yield
    finally:
        for run in list_runs(results):
            if run.state in (QUEUED, RUNNING):
                cancel(results, run.name, LOCAL, None)
        for run in list_runs(results):
            if run.state == RUNNING:
                wait_for(results, run.name, timeout=60)


def wait_for(results: Path, name: str, states: tuple[str, ...] = ENDED, timeout: float = 240) -> LaunchedRun:
    """The record of ``name`` once its state is one of ``states``."""
    deadline = time.monotonic() + timeout
    while True:
        run = read_run(results, name)
        if run is not None and run.state in states:
            return run
        if time.monotonic() > deadline:
            raise AssertionError(f"{name}: still {run.state if run else 'unknown'} after {timeout} s")
        time.sleep(0.5)
